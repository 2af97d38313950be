// Package saves keeps the terminal game's saves and best scores in the
// user's state directory: one save per ruleset, difficulty, configuration
// and mod set, and one file of best scores keyed the same way. Every file is
// written atomically (a temporary file in the same folder, synced, then
// renamed over the old one), so a crash never loses the last good save. A
// save whose content cannot be used is kept aside, never deleted; a save
// that cannot be read at all is left in place, and the game refuses to
// start over it. Temporary files an interrupted save left behind are
// removed at the next start (CleanTemps).
package saves

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mod2048/mod2048/config/infile"
)

// The save file's format and version. A reader refuses a document of
// another format or of a later version (it is kept aside as corrupt).
const (
	Format  = "2048-tui-save"
	Version = 1
)

// EnvDir is the environment variable that overrides the state directory
// (tests use it).
const EnvDir = "MOD2048_STATE_DIR"

// DefaultDir returns the folder saves go to: $MOD2048_STATE_DIR if set,
// else $XDG_STATE_HOME/2048, else ~/.local/state/2048 (the XDG base
// directory specification's default). It creates nothing.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "2048"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no state directory: %w (set %s or XDG_STATE_HOME)", err, EnvDir)
	}
	return filepath.Join(home, ".local", "state", "2048"), nil
}

// ModRef names one mod of a save: its id and version.
type ModRef struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	// Settings are the settings changed from their defaults (--mod-set),
	// as name=value: a game under other settings has a save of its own.
	Settings []string `json:"settings,omitempty"`
}

// Key says which save a game belongs to: its ruleset, difficulty (the
// preset it starts from), effective configuration and mods. Two games share
// a save, and a best score, only when all four agree.
type Key struct {
	Ruleset    string
	Difficulty string
	Config     string   // the effective configuration, as TOML (config.Config.TOML)
	Mods       []ModRef // the mods, in any order
}

// Name returns the key as a file name without extension:
// RULESET-DIFFICULTY-CONFIG, and -MODS when there are mods, where CONFIG and
// MODS are short hashes of the configuration's settings and of the mods'
// ids and versions. Comments of the configuration do not count, so the same
// settings reached through other layers give the same name.
func (k Key) Name() string {
	name := safe(k.Ruleset) + "-" + safe(k.Difficulty) + "-" + ConfigHash(k.Config)
	if len(k.Mods) > 0 {
		name += "-" + modsHash(k.Mods)
	}
	return name
}

// safe keeps a name to the letters, digits, _ and - that ruleset and preset
// names are made of, so that a key can never name a path.
func safe(s string) string {
	if s == "" {
		return "none"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// ConfigHash returns a short hash of a configuration's settings: its TOML
// without comments and blank lines.
func ConfigHash(toml string) string {
	var b strings.Builder
	for _, line := range strings.Split(toml, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		b.WriteString(t)
		b.WriteByte('\n')
	}
	return shortHash(b.String())
}

func modsHash(mods []ModRef) string {
	lines := make([]string, len(mods))
	for i, m := range mods {
		lines[i] = m.ID + "@" + m.Version
		if len(m.Settings) > 0 {
			lines[i] += " " + strings.Join(m.Settings, " ")
		}
	}
	slices.Sort(lines)
	return shortHash(strings.Join(lines, "\n"))
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

func sameMods(a, b []ModRef) bool { return modsHash(a) == modsHash(b) && len(a) == len(b) }

// doc is a save file.
type doc struct {
	Format     string          `json:"format"`
	Version    int             `json:"version"`
	Ruleset    string          `json:"ruleset"`
	Difficulty string          `json:"difficulty"`
	Mods       []ModRef        `json:"mods"`
	Config     string          `json:"config"`
	Game       json.RawMessage `json:"game"`
}

// Store is a folder of saves and best scores.
type Store struct {
	Dir string
	// Now tells the time for the names of files kept aside; nil is
	// time.Now.
	Now func() time.Time
}

// New returns the store in dir. Nothing is created until something is
// saved.
func New(dir string) *Store { return &Store{Dir: dir} }

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Path returns the file of the save for k.
func (s *Store) Path(k Key) string { return filepath.Join(s.Dir, k.Name()+".json") }

// The most bytes a save and the best-score file may have. A save holds the
// undo and redo history, up to undo_limit states of the board each (every
// move with undo_limit = -1): 64 MiB is some 20000 moves on a 16×16 board,
// a hundred times a long classic game kept whole. A file over its limit, or
// one that is not a regular file, is not read; Save refuses to write a save
// over the limit (the last one stays), so that it never writes what it
// could not read back.
const (
	MaxSave = 64 << 20
	MaxBest = 4 << 20
)

// readFile reads a file of the store (a regular file of at most limit
// bytes); tests replace it to simulate what root cannot, such as a file it
// may not read. saveLimit is MaxSave; tests lower it.
var (
	readFile  = infile.Read
	saveLimit = int64(MaxSave)
)

// Save writes game, a game's save (session.Session.Save), as the save for
// k, atomically.
func (s *Store) Save(k Key, game []byte) error {
	mods := append([]ModRef{}, k.Mods...)
	data, err := json.MarshalIndent(doc{
		Format: Format, Version: Version,
		Ruleset: k.Ruleset, Difficulty: k.Difficulty, Mods: mods,
		Config: k.Config, Game: game,
	}, "", "  ")
	if err != nil {
		return err
	}
	if int64(len(data)+1) > saveLimit {
		return fmt.Errorf("the save would have %d bytes, more than the limit of %s (lower undo_limit); the last save is kept", len(data)+1, infile.Size(saveLimit))
	}
	return WriteFile(s.Path(k), append(data, '\n'))
}

// CorruptError reports a save (or best-score file) that could not be read:
// it was renamed to KeptAs, and the game starts afresh.
type CorruptError struct {
	Path   string
	KeptAs string // "" when it could not be renamed either
	Err    error
}

func (e *CorruptError) Error() string {
	if e.KeptAs == "" {
		return fmt.Sprintf("%s is corrupt (%v) and could not be kept aside", e.Path, e.Err)
	}
	return fmt.Sprintf("%s is corrupt (%v); kept as %s", e.Path, e.Err, filepath.Base(e.KeptAs))
}

func (e *CorruptError) Unwrap() error { return e.Err }

// ReadError reports a save (or best-score file) that exists but could not
// be read (permission denied, a folder or a pipe in its place, a disk
// error), or could not be kept aside. It is left exactly as it is, and
// nothing may be written over it: the game refuses to start until the
// player fixes it, as the message says.
type ReadError struct {
	Path string
	Err  error
}

func (e *ReadError) Error() string {
	fix := "move it away (or fix it), then start again"
	if errors.Is(e.Err, fs.ErrPermission) {
		fix = "make it yours and readable again (if a run with sudo made it: sudo chown -R \"$USER\" " + filepath.Dir(e.Path) + "), or move it away, then start again"
	}
	return fmt.Sprintf("cannot read %s (%v); it is left as it is and no new game is saved over it: %s", e.Path, cause(e.Err), fix)
}

func (e *ReadError) Unwrap() error { return e.Err }

// cause strips the operation and path that os's errors repeat.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// read reads a file of the store: nil and no error when there is none; a
// *ReadError when it cannot be read, except one too large, which is read as
// what it is, a file this program cannot use (corrupt, then).
func (s *Store) read(path string, limit int64) (data []byte, corrupt, err error) {
	data, err = readFile(path, limit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case errors.Is(err, infile.ErrTooLarge):
		return nil, cause(err), nil
	case err != nil:
		return nil, nil, &ReadError{Path: path, Err: err}
	}
	return data, nil, nil
}

// Load reads the save for k and gives its game (the bytes Save was given)
// to open, which resumes it. It reports whether there was a save: false
// and no error when there is none. A save that is not valid JSON, whose
// ruleset, difficulty, configuration or mods are not k's, that open
// refuses (a game the engine cannot read, or unlike the one k's
// configuration makes), or that is larger than MaxSave, is renamed to
// NAME.corrupt-UNIXTIME beside it and reported as a *CorruptError: its
// place is free for a new game. A save that cannot be read at all is left
// in place and reported as a *ReadError: nothing may be saved over it.
func (s *Store) Load(k Key, open func(game []byte) error) (bool, error) {
	path := s.Path(k)
	data, bad, err := s.read(path, saveLimit)
	switch {
	case err != nil:
		return false, err
	case bad != nil:
		return false, s.keepAside(path, bad)
	case data == nil:
		return false, nil
	}
	game, err := decode(k, data)
	if err == nil {
		err = open(game)
	}
	if err != nil {
		return false, s.keepAside(path, err)
	}
	return true, nil
}

// decode checks a save's document against k and returns its game.
func decode(k Key, data []byte) ([]byte, error) {
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("not a save: %v", err)
	}
	switch {
	case d.Format != Format:
		return nil, fmt.Errorf("format is %q, want %q", d.Format, Format)
	case d.Version < 1 || d.Version > Version:
		return nil, fmt.Errorf("version %d; this program reads versions 1 to %d", d.Version, Version)
	case d.Ruleset != k.Ruleset:
		return nil, fmt.Errorf("ruleset is %q, want %q", d.Ruleset, k.Ruleset)
	case d.Difficulty != k.Difficulty:
		return nil, fmt.Errorf("difficulty is %q, want %q", d.Difficulty, k.Difficulty)
	case ConfigHash(d.Config) != ConfigHash(k.Config):
		return nil, errors.New("its configuration is not this game's")
	case !sameMods(d.Mods, k.Mods):
		return nil, errors.New("its mods are not this game's")
	case len(bytes.TrimSpace(d.Game)) == 0 || bytes.Equal(bytes.TrimSpace(d.Game), []byte("null")):
		return nil, errors.New("it holds no game")
	}
	return d.Game, nil
}

// keepAside renames a file that could not be used to NAME.corrupt-UNIXTIME
// (with -1, -2... if that is taken) and returns the *CorruptError. When it
// cannot be renamed, it is left in place and reported as a *ReadError, so
// that nothing is saved over it.
func (s *Store) keepAside(path string, why error) error {
	base := path + ".corrupt-" + strconv.FormatInt(s.now().Unix(), 10)
	to := base
	for i := 1; ; i++ {
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			break
		}
		to = base + "-" + strconv.Itoa(i)
	}
	if err := rename(path, to); err != nil {
		return &ReadError{Path: path, Err: fmt.Errorf("%v, and it could not be kept aside: %v", why, cause(err))}
	}
	return &CorruptError{Path: path, KeptAs: to, Err: why}
}

// TempAge is how old a temporary file of the store must be for CleanTemps
// to remove it. WriteFile keeps its temporary file for the milliseconds of
// one write, so one older than this was left by a save that was killed (or
// lost its power) half-way; a younger one may be another game's save under
// way, in the same folder, and is left alone.
const TempAge = 10 * time.Minute

// tempName matches the temporary files WriteFile makes: .NAME.json.tmp-N,
// with N the random number os.CreateTemp puts in place of its *.
var tempName = regexp.MustCompile(`^\.[A-Za-z0-9_.-]+\.json\.tmp-[0-9]+$`)

// CleanTemps removes the temporary files an interrupted save left in the
// store's folder: regular files named as WriteFile names them, last
// modified more than TempAge ago. Nothing else is touched. It returns the
// names removed; a folder that does not exist has none.
func (s *Store) CleanTemps() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !tempName.MatchString(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil || s.now().Sub(info.ModTime()) < TempAge {
			continue
		}
		if err := os.Remove(filepath.Join(s.Dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, e.Name())
	}
	return removed, errors.Join(errs...)
}

// rename is os.Rename; tests replace it to simulate a crash before the
// rename.
var rename = os.Rename

// WriteFile writes data to path atomically: to a temporary file in the same
// folder, synced to disk, then renamed over path, and the folder synced. A
// crash at any moment leaves either the old file or the new one, whole. The
// folder is created (mode 0700) if need be.
func WriteFile(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: some systems cannot sync a folder
		d.Close()
	}
	return nil
}
