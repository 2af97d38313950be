// Command stress runs the browser game's end-to-end tests (package
// cmd/internal/web, headless Chromium) several at once, round after round,
// as a loaded CI machine would: make stress-web. It builds the test binary
// once, runs -rounds rounds of -runs concurrent runs of it, each in its
// own process with its own browser, and prints each run's result and the
// tests that failed, with the file that keeps a failed run's whole output
// (the page's state and logs); it exits 1 when any run failed.
//
// The tests wait on the page's states (a status, a view's fields, the
// workshop's pending edit), never on time: this is how that is checked
// under load. Run it with other work on the machine too.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 5, "rounds to run")
	runs := flag.Int("runs", 2, "runs of the tests at once in each round")
	run := flag.String("run", "", "a -test.run pattern (default: every test)")
	flag.Parse()
	if err := stress(*rounds, *runs, *run); err != nil {
		fmt.Fprintln(os.Stderr, "stress-web:", err)
		os.Exit(1)
	}
}

func stress(rounds, runs int, pattern string) error {
	dir, err := os.MkdirTemp("", "stress-web-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "web.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Dir = filepath.Join("cmd", "internal", "web")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go test -c: %v", err)
	}
	failed := 0
	for r := 1; r <= rounds; r++ {
		var wg sync.WaitGroup
		results := make([]string, runs)
		ok := make([]bool, runs)
		for i := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok[i], results[i] = once(bin, build.Dir, pattern)
			}()
		}
		wg.Wait()
		for i := range runs {
			if !ok[i] {
				failed++
			}
			fmt.Printf("round %d, run %d: %s\n", r, i+1, results[i])
		}
	}
	fmt.Printf("%d of %d runs passed (%d rounds of %d at once)\n", rounds*runs-failed, rounds*runs, rounds, runs)
	if failed > 0 {
		return fmt.Errorf("%d runs failed", failed)
	}
	return nil
}

// once runs the test binary in the package's folder, and says whether it
// passed, with its time, and the tests that failed and their first lines.
func once(bin, dir, pattern string) (bool, string) {
	args := []string{"-test.count=1"}
	if pattern != "" {
		args = append(args, "-test.run", pattern)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CI=true") // a missing Chromium fails, not skips
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(time.Second)
	if err == nil {
		return true, fmt.Sprintf("ok in %v", took)
	}
	var fails []string
	// The whole output of a failed run is kept, for the page's state and
	// logs that its failure prints after the first lines.
	if f, ferr := os.CreateTemp("", "stress-web-failed-*.log"); ferr == nil {
		f.Write(out.Bytes())
		f.Close()
		fails = append(fails, "  the whole output: "+f.Name())
	}
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "--- FAIL") || strings.Contains(line, "_test.go:") {
			fails = append(fails, "  "+strings.TrimSpace(line))
		}
		if len(fails) >= 21 {
			break
		}
	}
	return false, fmt.Sprintf("FAIL in %v (%v)\n%s", took, err, strings.Join(fails, "\n"))
}
