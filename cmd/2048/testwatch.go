package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"

	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/scripting/session/fixture"
)

// testWatchDirs are the folders `2048 test --watch` watches: the folders
// named, the folders of the files named, and the mod folders the fixtures
// load (their Mods: lines), so that a save of a fixture or of a mod's code
// runs the fixtures again.
func testWatchDirs(paths []string) []string {
	seen := map[string]bool{}
	add := func(dir string) {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			seen[dir] = true
		}
	}
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			add(p)
		} else {
			add(filepath.Dir(p))
		}
	}
	files, _ := fixture.Collect(paths)
	for _, path := range files {
		f, err := fixture.ParseFile(path)
		if err != nil {
			continue
		}
		for _, c := range f.Cases {
			for _, d := range c.Mods {
				for _, dir := range splitSpaces(d.Value) {
					if !filepath.IsAbs(dir) {
						dir = filepath.Join(filepath.Dir(path), dir)
					}
					add(dir)
				}
			}
		}
	}
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	// A folder inside another is watched through it.
	var kept []string
	for _, d := range out {
		if len(kept) > 0 && isUnder(d, kept[len(kept)-1]) {
			continue
		}
		kept = append(kept, d)
	}
	return kept
}

func isUnder(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (rel == "." || len(rel) < 3 || rel[:3] != "../")
}

func splitSpaces(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if r == ' ' || r == '\t' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// watchTests runs the fixtures of paths again each time a file under the
// folders they involve changes (once a burst of changes is over), until
// stop is closed, writing each run's report to stdout.
func watchTests(paths []string, stdout io.Writer, verbose bool, stop <-chan struct{}) error {
	dirs := testWatchDirs(paths)
	changes, end, err := watchMods(dirs)
	if err != nil {
		return err
	}
	defer end()
	fmt.Fprintf(stdout, "watching %d folder(s) for changes (Ctrl+C stops)\n", len(dirs))
	for {
		select {
		case <-stop:
			return nil
		case <-changes:
			fmt.Fprintln(stdout, "\n--- a file changed: running the fixtures again")
			fixture.RunPaths(paths, termtext.Writer{W: stdout}, verbose)
		}
	}
}

// interrupted returns a channel closed at the first Ctrl+C.
func interrupted() <-chan struct{} {
	ch := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() {
		<-sig
		signal.Stop(sig)
		close(ch)
	}()
	return ch
}
