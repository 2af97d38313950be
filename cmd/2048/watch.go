package main

import (
	"io/fs"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// watchQuiet is how long a burst of file changes must be over before the
// mods are reloaded: an editor's save is a few events (a temporary file, a
// rename, a chmod), and one reload is enough.
const watchQuiet = 150 * time.Millisecond

// watchMods watches the mods' folders (and the folders in them) with
// fsnotify, and says on the channel when files changed, once a burst of
// changes is over. stop ends the watch.
func watchMods(dirs []string) (changes <-chan struct{}, stop func(), err error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, nil, err
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return w.Add(path)
			}
			return nil
		})
		if err != nil {
			w.Close()
			return nil, nil, err
		}
	}
	out := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		var quiet <-chan time.Time
		for {
			select {
			case <-done:
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Op&fsnotify.Create != 0 {
					w.Add(ev.Name) // a new folder is watched too; a file is an error, ignored
				}
				quiet = time.After(watchQuiet)
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			case <-quiet:
				quiet = nil
				select {
				case out <- struct{}{}:
				default: // a reload is already due
				}
			}
		}
	}()
	return out, func() { close(done); w.Close() }, nil
}

// reloadMods reads the mods of dirs again, with the --mod-set settings, and
// gives them to the session.
func reloadMods(s *session.Session, dirs, sets []string) error {
	var mods []*mod.Mod
	for _, dir := range dirs {
		m, err := mod.Load(dir)
		if err != nil {
			return err
		}
		mods = append(mods, m)
	}
	if _, err := setMods(mods, sets); err != nil {
		return err
	}
	return s.Reload(mods)
}
