// Package replay writes, reads and checks replays: a game as it was played
// through a play session, with everything needed to play it again on
// another machine (the program's version, the ruleset, the effective
// configuration, the seed, each mod's id, version, files' hash and
// settings, the game it started from, and every action with the mods'
// failures on its turn). A replay is the form of a bug report: Check says
// whether it plays back the same, and names the first action that does
// not.
//
// A replay plays through the same session type as every frontend: Setup
// rebuilds the session's setup from the file, and the actions go through
// session.Session.Play, which honours the recorded failsafe stops (the one
// thing that depends on the machine).
package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/config/infile"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// Format and Version name the file format.
const (
	Format  = "2048-replay"
	Version = 1
)

// MaxSize is the largest replay file Read reads.
const MaxSize = 64 << 20

// File is a replay, as it is written.
type File struct {
	Format     string `json:"format"`
	Version    int    `json:"version"`
	Program    string `json:"program"` // the version of the program that recorded it
	Ruleset    string `json:"ruleset"`
	Difficulty string `json:"difficulty"`
	Config     string `json:"config"` // the effective configuration, as TOML
	Seed       uint64 `json:"seed"`   // the seed of the game it starts from
	Mods       []Mod  `json:"mods"`
	// Start is the save (engine.Game.Marshal) of the game the recording
	// started from.
	Start json.RawMessage `json:"start"`
	// Origin is the board of Start's game before the mods' start handlers
	// ran (written as fixture rows), when the recording began with the
	// game; a fixture's Given: is this board. Optional: replays without it
	// read as before.
	Origin  []string `json:"origin,omitempty"`
	Actions []Step   `json:"actions"`
	// dirs are the mod folders Check plays the reloads with (CheckWith).
	dirs map[string]string
}

// Mod is a mod a replay was recorded with.
type Mod struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	// Hash is the SHA-256 of the mod's files (see Hash).
	Hash string `json:"hash"`
	// Path is the folder the mod was loaded from, as it was given.
	Path string `json:"path"`
	// Settings are the mod's settings, as TOML values.
	Settings map[string]string `json:"settings,omitempty"`
	// Files are the mod's own files (its manifest and Lua files) as they
	// were loaded, by path: a replay with them plays back without the
	// mod's folder. Replays written before them have none.
	Files map[string]string `json:"files,omitempty"`
}

// Step is one recorded action.
type Step struct {
	Action string  `json:"a"`              // move, undo, redo, keep, new or reload
	Dir    string  `json:"dir,omitempty"`  // a move's direction
	Seed   *uint64 `json:"seed,omitempty"` // a new game's seed
	Faults []Fault `json:"faults,omitempty"`
	// Mods are the mods a reload (under --watch) loaded, with their files.
	Mods   []Mod  `json:"mods,omitempty"`
	Turn   int    `json:"turn"`   // the turn after the action
	Digest string `json:"digest"` // session.Digest of the state after it
	// State is what the replay shows of the state after the action when
	// it diverges (session.Summary); replays written before it have none.
	State *State `json:"state,omitempty"`
}

// State is a step's session.Summary: the board's rows joined by " / ",
// the score, and short digests of the marks, the mods' storage and the
// faults.
type State struct {
	Board   string `json:"board"`
	Score   string `json:"score"`
	Marks   string `json:"marks"`
	Storage string `json:"storage"`
	Faults  string `json:"faults"`
}

// Fault is a mod's failure on a move's turn (engine.Fault).
type Fault struct {
	Turn    int    `json:"turn"`
	Mod     string `json:"mod"`
	Event   string `json:"event"`
	Kind    string `json:"kind"` // error, failsafe or disabled
	Message string `json:"message"`
}

// Meta is what a recording session does not know of itself.
type Meta struct {
	Program string // the program's version
}

// New makes the replay of what s recorded (session.Session.Record).
func New(s *session.Session, meta Meta) (*File, error) {
	rec, ok := s.Recording()
	if !ok {
		return nil, errors.New("the session does not record")
	}
	c := s.Config()
	f := &File{
		Format: Format, Version: Version, Program: meta.Program,
		Ruleset: c.Ruleset, Difficulty: c.Preset, Config: string(c.TOML()),
		Seed: rec.Seed, Mods: []Mod{}, Start: rec.Start, Actions: []Step{},
	}
	for _, m := range rec.Mods {
		rm, err := modOf(m)
		if err != nil {
			return nil, err
		}
		f.Mods = append(f.Mods, rm)
	}
	if rec.Origin != nil {
		f.Origin = engine.FormatRows(s.Rules(), rec.Origin)
	}
	for _, a := range rec.Actions {
		st, err := step(a)
		if err != nil {
			return nil, err
		}
		f.Actions = append(f.Actions, st)
	}
	return f, nil
}

// modOf is a mod as a replay keeps it: with the files it was loaded with.
func modOf(m session.ModFiles) (Mod, error) {
	// The hash of the files as they were loaded: the folder may have
	// changed since.
	hash := hashFiles(m.Files)
	if m.Files == nil {
		var err error
		if hash, err = Hash(m.Mod); err != nil {
			return Mod{}, err
		}
	}
	return Mod{ID: m.Mod.ID(), Version: m.Mod.Manifest.Version, Hash: hash, Path: m.Mod.Dir, Settings: settings(m.Mod), Files: m.Files}, nil
}

func step(a session.Action) (Step, error) {
	sum := a.Summary
	st := Step{Action: string(a.Kind), Turn: a.Turn, Digest: a.Digest,
		State: &State{Board: strings.Join(sum.Board, " / "), Score: sum.Score, Marks: sum.Marks, Storage: sum.Storage, Faults: sum.Faults}}
	switch a.Kind {
	case session.ActionMove:
		st.Dir = strings.ToLower(a.Dir.String())
	case session.ActionNew:
		seed := a.Seed
		st.Seed = &seed
	}
	for _, f := range a.Faults {
		st.Faults = append(st.Faults, Fault{Turn: f.Turn, Mod: f.Hook, Event: f.Event, Kind: f.Kind.String(), Message: f.Message})
	}
	for _, m := range a.Mods {
		rm, err := modOf(m)
		if err != nil {
			return st, err
		}
		st.Mods = append(st.Mods, rm)
	}
	return st, nil
}

// settings writes a mod's settings as TOML values.
func settings(m *mod.Mod) map[string]string {
	if len(m.Values) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, v := range m.Values {
		switch v := v.(type) {
		case string:
			out[k] = strconv.Quote(v)
		default:
			out[k] = fmt.Sprint(v)
		}
	}
	return out
}

// Hash is the SHA-256 of a mod's own files, the ones that make its
// behaviour: its manifest (mod.toml) and every Lua file below its folder,
// by path in sorted order, path and content. Two mods with the same hash
// behave the same. Other files (fixtures, READMEs, screenshots) change no
// game and are left out, whatever their size. A mod loaded from a
// replay's files (no folder) is hashed from them.
func Hash(m *mod.Mod) (string, error) {
	if m.FromFiles() {
		files, serr := m.Sources()
		if serr != nil {
			return "", serr
		}
		return hashFiles(files), nil
	}
	h := sha256.New()
	root := m.Dir
	var paths []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if rel == mod.ManifestName || strings.HasSuffix(rel, ".lua") {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("mod %s: %v", m.ID(), err)
	}
	slices.Sort(paths)
	for _, p := range paths {
		limit := int64(mod.MaxSource)
		if filepath.Base(p) == mod.ManifestName {
			limit = mod.MaxManifest
		}
		rel, _ := filepath.Rel(root, p)
		data, err := infile.Read(p, limit)
		var tl *infile.TooLargeError
		if errors.As(err, &tl) && tl.Size >= 0 {
			// A file the mod cannot load (over the limit) counts by its
			// size alone: loading it fails the same whatever it holds.
			fmt.Fprintf(h, "%s\x00%d\x00too large\x00", filepath.ToSlash(rel), tl.Size)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("mod %s: %v", m.ID(), err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFiles hashes files (by slash-separated path) as Hash hashes a
// folder's.
func hashFiles(files map[string]string) string {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(files[p]))
		h.Write([]byte(files[p]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Marshal writes f as indented JSON, one action a line.
func (f *File) Marshal() ([]byte, error) {
	head := *f
	head.Actions = nil
	data, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return nil, err
	}
	// The actions, one a line, go in place of the empty list.
	var b bytes.Buffer
	i := bytes.LastIndex(data, []byte(`"actions": null`))
	if i < 0 {
		return nil, errors.New("replay: no actions field")
	}
	b.Write(data[:i])
	b.WriteString(`"actions": [`)
	for n, a := range f.Actions {
		line, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(line)
	}
	if len(f.Actions) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]")
	b.Write(data[i+len(`"actions": null`):])
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// Read reads the replay file at path: a regular file of at most MaxSize.
func Read(path string) (*File, error) {
	data, err := infile.Read(path, MaxSize)
	if err != nil {
		return nil, err
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Parse reads a replay from its bytes, strictly: unknown fields, a wrong
// format or version, and actions that do not make sense are errors naming
// the action.
//
// The actions are decoded one at a time as the bytes are read, and the
// words they repeat (move, left, ...) are kept once, so that the memory a
// replay takes stays within a small multiple of its size: about twice its
// bytes for a file of moves.
func Parse(data []byte) (*File, error) {
	// Room for the steps at once: each is an object, of at least
	// minStepBytes bytes (with its digest), so that the list never grows
	// by doubling and a file of other objects cannot reserve much.
	hint := min(bytes.Count(data, []byte("{")), len(data)/minStepBytes)
	f, err := decode(json.NewDecoder(bytes.NewReader(data)), hint)
	if err != nil {
		return nil, fmt.Errorf("not a replay: %v", err)
	}
	switch {
	case f.Format != Format:
		return nil, fmt.Errorf("format is %q, want %q", f.Format, Format)
	case f.Version < 1 || f.Version > Version:
		return nil, fmt.Errorf("version %d; this program reads versions 1 to %d", f.Version, Version)
	case len(bytes.TrimSpace(f.Start)) == 0:
		return nil, errors.New("no start: the game the replay starts from is missing")
	}
	mods := map[string]bool{}
	for _, m := range f.Mods {
		mods[m.ID] = true
	}
	for i, a := range f.Actions {
		if _, err := a.action(); err != nil {
			return nil, fmt.Errorf("action %d: %v", i+1, err)
		}
		if err := a.recorded(mods); err != nil {
			return nil, fmt.Errorf("damaged: action %d: %v", i+1, err)
		}
	}
	return f, nil
}

// recorded says whether a recording could have written st: every action
// has its digest (session.Digest: 16 hexadecimal digits), and only a move
// has faults, each on the move's turn and of one of the replay's mods.
// Anything else was edited, and a check of it would prove nothing.
func (st Step) recorded(mods map[string]bool) error {
	if !isDigest(st.Digest) {
		if st.Digest == "" {
			return errors.New("no digest: a recording gives every action the digest of the game after it")
		}
		return fmt.Errorf("digest %q is not a recording's (16 hexadecimal digits)", st.Digest)
	}
	if len(st.Faults) > 0 && st.Action != string(session.ActionMove) {
		return fmt.Errorf("faults on action %q: a recording keeps faults on moves only", st.Action)
	}
	for _, f := range st.Faults {
		switch {
		case !mods[f.Mod]:
			return fmt.Errorf("a fault of mod %q, which is not among the replay's mods", f.Mod)
		case f.Turn != st.Turn:
			return fmt.Errorf("a fault of mod %s on turn %d, the move's turn is %d", f.Mod, f.Turn, st.Turn)
		}
	}
	return nil
}

// isDigest says whether s has the form of session.Digest.
func isDigest(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// decode reads a replay's object from dec: its actions one at a time, and
// the rest (a few small fields) as File's JSON decoding would, strictly.
func decode(dec *json.Decoder, hint int) (*File, error) {
	dec.DisallowUnknownFields()
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, fmt.Errorf("want a JSON object, got %v", tok)
	}
	// The fields but the actions, in their order, for File's decoding.
	var head bytes.Buffer
	head.WriteByte('{')
	var actions []Step
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if !strings.EqualFold(key, "actions") {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			if head.Len() > 1 {
				head.WriteByte(',')
			}
			k, _ := json.Marshal(key)
			head.Write(k)
			head.WriteByte(':')
			head.Write(v)
			continue
		}
		if actions, err = decodeSteps(dec, hint); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	head.WriteByte('}')
	hd := json.NewDecoder(&head)
	hd.DisallowUnknownFields()
	var f File
	if err := hd.Decode(&f); err != nil {
		return nil, err
	}
	f.Actions = actions
	return &f, nil
}

// words are the values a step repeats, kept once.
var words = map[string]string{}

func init() {
	for _, w := range []string{"move", "undo", "redo", "keep", "new", "left", "right", "up", "down"} {
		words[w] = w
	}
}

// minStepBytes is the fewest bytes a step that Parse accepts takes:
// {"a":"new","digest":"0123456789abcdef"} (a new game needs its seed too).
const minStepBytes = len(`{"a":"new","digest":"0123456789abcdef"}`)

// decodeSteps decodes the actions' array (or null) one step at a time,
// into a list with room for hint steps.
func decodeSteps(dec *json.Decoder, hint int) ([]Step, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, nil
	}
	if tok != json.Delim('[') {
		return nil, fmt.Errorf("actions: want a list, got %v", tok)
	}
	steps := make([]Step, 0, hint)
	for dec.More() {
		var st Step
		if err := dec.Decode(&st); err != nil {
			return nil, fmt.Errorf("action %d: %v", len(steps)+1, err)
		}
		if w, ok := words[st.Action]; ok {
			st.Action = w
		}
		if w, ok := words[st.Dir]; ok {
			st.Dir = w
		}
		steps = append(steps, st)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return steps, nil
}

// action is the session's action of a step.
func (st Step) action() (session.Action, error) {
	a := session.Action{Kind: session.ActionKind(st.Action), Turn: st.Turn, Digest: st.Digest}
	switch a.Kind {
	case session.ActionMove:
		d, err := engine.ParseDirection(st.Dir)
		if err != nil {
			return a, err
		}
		a.Dir = d
	case session.ActionNew:
		if st.Seed == nil {
			return a, errors.New("a new game without its seed")
		}
		a.Seed = *st.Seed
	case session.ActionUndo, session.ActionRedo, session.ActionKeepPlaying:
	case session.ActionReload:
		if len(st.Mods) == 0 {
			return a, errors.New("a reload without its mods")
		}
	default:
		return a, fmt.Errorf("unknown action %q (want move, undo, redo, keep, new or reload)", st.Action)
	}
	for _, f := range st.Faults {
		kind, err := faultKind(f.Kind)
		if err != nil {
			return a, err
		}
		a.Faults = append(a.Faults, engine.Fault{Turn: f.Turn, Hook: f.Mod, Event: f.Event, Kind: kind, Message: f.Message})
	}
	return a, nil
}

func faultKind(s string) (engine.FaultKind, error) {
	for _, k := range []engine.FaultKind{engine.FaultError, engine.FaultFailsafe, engine.FaultDisabled} {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown fault kind %q", s)
}

// Setup rebuilds the setup the replay was recorded with: its configuration,
// and its mods with their settings. A mod is loaded from dirs[id] when
// given, else from the files the replay carries. A mod of dirs whose files
// differ from the recording's (its hash) is loaded all the same, and
// warnings say so plainly: the replay may then go otherwise. Carried files
// that differ from the replay's own hash mean the replay is damaged (or
// edited), and a mod the replay carries no files of must be given in
// dirs: either is an error, and nothing runs.
func (f *File) Setup(dirs map[string]string) (setup session.Setup, warnings []string, err error) {
	c, err := config.Parse([]byte(f.Config), "the replay's configuration", "")
	if err != nil {
		return setup, nil, err
	}
	if c.Ruleset != f.Ruleset {
		return setup, nil, fmt.Errorf("the replay's configuration is of the %s ruleset, its header says %s", c.Ruleset, f.Ruleset)
	}
	setup.Config = c
	// A replay plays back the same on every machine, or stops.
	setup.Deterministic = true
	for _, rec := range f.Mods {
		m, warns, err := loadRecorded(rec, dirs)
		if err != nil {
			return setup, nil, err
		}
		warnings = append(warnings, warns...)
		setup.Mods = append(setup.Mods, m)
	}
	return setup, warnings, nil
}

// loadRecorded loads a replay's mod: from dirs[id] when given (a fixed
// version tried against the replay), else from the files the replay
// carries, which must be the ones its hash names; then its recorded
// settings. A replay written before replays carried files needs dirs[id]:
// the folder it names may hold anything by now, and a check that ran it
// would vouch for code the replay does not. Warnings say when the files or
// version of dirs[id] differ from the recording's.
func loadRecorded(rec Mod, dirs map[string]string) (*mod.Mod, []string, error) {
	var m *mod.Mod
	var err error
	where := rec.Path
	switch d, ok := dirs[rec.ID]; {
	case ok:
		where = d
		m, err = mod.Load(d)
	case len(rec.Files) > 0:
		if hash := hashFiles(rec.Files); hash != rec.Hash {
			return nil, nil, fmt.Errorf("the replay is damaged: the files it carries of mod %s hash to %s, its record says %s", rec.ID, short(hash), short(rec.Hash))
		}
		where = "the replay's copy of " + rec.Path
		m, err = mod.LoadSources(rec.Files, rec.Path)
	default:
		return nil, nil, fmt.Errorf("the replay carries no files of mod %s (recorded from %s): name the folder to play it with (2048 replay --mod DIR)", rec.ID, rec.Path)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("the replay's mod %s (recorded from %s): %w", rec.ID, rec.Path, err)
	}
	if m.ID() != rec.ID {
		return nil, nil, fmt.Errorf("%s holds mod %s, the replay's is %s", where, m.ID(), rec.ID)
	}
	for _, k := range slices.Sorted(maps.Keys(rec.Settings)) {
		if err := m.Set(k, rec.Settings[k]); err != nil {
			return nil, nil, err
		}
	}
	hash, err := Hash(m)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	if m.Manifest.Version != rec.Version {
		warnings = append(warnings, fmt.Sprintf("mod %s is version %s here; the replay was recorded with version %s", rec.ID, m.Manifest.Version, rec.Version))
	}
	if hash != rec.Hash {
		warnings = append(warnings, fmt.Sprintf("mod %s (%s): its files differ from the ones the replay was recorded with, so the replay may not play back the same", rec.ID, where))
	}
	return m, warnings, nil
}

// short is the start of a hash, enough to tell two apart in a message.
func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	if hash == "" {
		return "nothing"
	}
	return hash
}

// Resume resumes the game the replay starts from, under setup, made
// deterministic (session.Setup.Deterministic): a call the failsafe stops
// ends the playback with a *scripting.CostModelError, since whether it
// fires depends on the machine. The failsafe stops the recording holds are
// history, and play back as recorded.
func (f *File) Resume(setup session.Setup) (*session.Session, error) {
	setup.Deterministic = true
	s, err := session.Resume(setup, f.Start)
	if err != nil {
		return nil, fmt.Errorf("the replay's start: %w", err)
	}
	return s, nil
}

// Divergence is where a replay stops playing back as recorded.
type Divergence struct {
	Action int    // 1-based index of the action
	Turn   int    // the turn the recording had after it
	What   string // what differs
}

func (d *Divergence) Error() string {
	return fmt.Sprintf("action %d (turn %d in the recording): %s", d.Action, d.Turn, d.What)
}

// Apply plays action i (0-based) of f in s and checks that it leaves the
// game as the recording says; a difference is a *Divergence. A step
// without a digest (one a recorder cleared, to play it under edited code)
// is checked for its turn only. A call the
// failsafe stops in a deterministic session (Resume's) is no divergence:
// the *scripting.CostModelError is returned as it is.
func (f *File) Apply(s *session.Session, i int) error {
	st := f.Actions[i]
	a, err := st.action()
	if err != nil {
		return &Divergence{Action: i + 1, Turn: st.Turn, What: err.Error()}
	}
	if a.Kind == session.ActionReload {
		// The mods the recording reloaded, from the files it carries (or,
		// for a mod given with dirs... the same fixed version again).
		for _, rm := range st.Mods {
			m, _, err := loadRecorded(rm, f.dirs)
			if err != nil {
				return &Divergence{Action: i + 1, Turn: st.Turn, What: "reload: " + err.Error()}
			}
			a.Mods = append(a.Mods, session.ModFiles{Mod: m})
		}
	}
	if err := s.Play(a); err != nil {
		if cm := (*scripting.CostModelError)(nil); errors.As(err, &cm) {
			return cm
		}
		return &Divergence{Action: i + 1, Turn: st.Turn, What: err.Error()}
	}
	state := s.State()
	switch {
	case state.Turn != st.Turn:
		return &Divergence{Action: i + 1, Turn: st.Turn, What: fmt.Sprintf("%s leaves the game at turn %d", describe(st), state.Turn)}
	case st.Digest != "" && session.Digest(s.Rules(), state) != st.Digest:
		return &Divergence{Action: i + 1, Turn: st.Turn, What: fmt.Sprintf("after %s the game differs from the recording: %s", describe(st), differences(st.State, session.Summarize(s.Rules(), state), state))}
	}
	return nil
}

// differences says what of the state differs from a step's recorded
// State, and shows it: the boards side by side, the scores, and for the
// marks, the mods' storage and the faults (kept as digests) what they are
// now. A replay without States says only that something differs.
func differences(rec *State, now session.Summary, st *engine.State) string {
	if rec == nil {
		return "the board, score, marks, mod storage or faults differ (a replay written before the states were kept cannot say which)"
	}
	var parts []string
	if b := strings.Join(now.Board, " / "); b != rec.Board {
		parts = append(parts, "the board differs:\n"+session.SideBySide("recorded", "now", strings.Split(rec.Board, " / "), now.Board))
	}
	if now.Score != rec.Score {
		parts = append(parts, fmt.Sprintf("the score is %s, the recording's %s", now.Score, rec.Score))
	}
	if now.Marks != rec.Marks {
		parts = append(parts, "the marks differ; now: "+engine.FormatMarks(st.Marks))
	}
	if now.Storage != rec.Storage {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(st.Data)) {
			kv = append(kv, k+" = "+st.Data[k])
		}
		parts = append(parts, "the mods' storage differs; now: "+strings.Join(kv, "; "))
	}
	if now.Faults != rec.Faults {
		var fs []string
		for _, f := range st.Faults {
			fs = append(fs, fmt.Sprintf("turn %d %s %s: %s", f.Turn, f.Hook, f.Event, f.Message))
		}
		parts = append(parts, "the faults differ; now: "+strings.Join(fs, "; "))
	}
	if len(parts) == 0 {
		return "the counters, the random stream or the spawn queue's cursor differ"
	}
	return strings.Join(parts, "; ")
}

func describe(st Step) string {
	if st.Action == "move" {
		return "move " + st.Dir
	}
	return st.Action
}

// Check plays the whole replay under setup and reports the first action
// that does not play back as recorded (a *Divergence), or nil.
//
// Reloads play with the mods the recording loaded; CheckWith plays them
// with the folders of dirs instead.
func (f *File) Check(setup session.Setup) error { return f.CheckWith(setup, nil) }

// CheckWith is Check, the mods of dirs (id to folder) standing for the
// recording's at its reloads too, as they stand for them in Setup.
func (f *File) CheckWith(setup session.Setup, dirs map[string]string) error {
	f.dirs = dirs
	s, err := f.Resume(setup)
	if err != nil {
		return err
	}
	defer s.Close()
	for i := range f.Actions {
		if err := f.Apply(s, i); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes f to path atomically: a temporary file renamed over it.
func (f *File) WriteFile(path string) error {
	data, err := f.Marshal()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
