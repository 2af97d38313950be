package bridge

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/modapi"
	"github.com/mod2048/mod2048/scripting/scaffold"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/fixture"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

// The workshop's calls: what the page's mod editor (site/workshop.js)
// asks of the engine. They work on a mod given file by file (a
// ModSource's Files, named by its folder, Name): the files in the editor.

// NewMod returns the files of a new mod with the given id, for a ruleset
// ("" is classic): the ones `2048 mod new` writes (package scaffold), its
// folder named by the id.
func NewMod(id, ruleset string) Reply {
	if ruleset == "" {
		ruleset = "classic"
	}
	if !scaffold.ID.MatchString(id) {
		return fail(&Error{Kind: KindInput, Key: "id", Message: fmt.Sprintf("%q is not a mod id: use lower-case letters, digits and _, starting with a letter, at most 32 characters", id)})
	}
	files, err := scaffold.Render(scaffold.For(id, ruleset, id))
	if err != nil {
		return fail(&Error{Kind: KindInput, Key: "ruleset", Message: err.Error()})
	}
	out := make(map[string]string, len(files))
	for p, data := range files {
		out[p] = string(data)
	}
	return Reply{Files: out}
}

// LuaCompletions returns the mod API's completion listing for the
// editor, built from the API's description (apiCompletions).
func LuaCompletions() Reply {
	c := apiCompletions(modapi.Spec())
	return Reply{Completions: &c}
}

// ReloadMods gives the game the mods of mods with the settings of sets,
// between two moves, as `2048 play --watch` does when a mod's files
// change: the game goes on where it is, each mod keeping its storage. On
// an error (a mod that does not load, with its file and line when it has
// them) the game keeps the mods it had, running. The configuration stays
// the game's.
func (b *Bridge) ReloadMods(mods []ModSource, sets []string) Reply {
	if b.s == nil {
		return fail(errNoGame)
	}
	o := b.opts
	o.Mods, o.ModSets = mods, sets
	setup, key, err := build(o)
	if err != nil {
		return fail(err)
	}
	if len(setup.Mods) == 0 {
		return fail(&Error{Kind: KindMod, Message: "no mod to reload"})
	}
	if err := b.s.Reload(setup.Mods); err != nil {
		return fail(err)
	}
	b.setup, b.key, b.opts = setup, key, o
	v := b.view(nil)
	first := describe(setup.Mods[0])
	return Reply{View: &v, Mod: &first}
}

// ModLog returns the lines each mod of the game printed (game.log and
// print), by mod id: the last of them, as the host keeps them
// (scripting.Limits.MaxLog). A reload starts a mod's log again.
func (b *Bridge) ModLog() Reply {
	if b.s == nil {
		return fail(errNoGame)
	}
	out := map[string][]string{}
	for _, m := range b.setup.Mods {
		lines := b.s.Log(m.ID())
		if lines == nil {
			lines = []string{}
		}
		out[m.ID()] = lines
	}
	return Reply{Log: out}
}

// CaseResult is one fixture case as the workshop's runner reports it:
// its file and line, ID and title, and its failure, if it failed, with
// the boards side by side as `2048 test` prints them (Text).
type CaseResult struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
	OK    bool   `json:"ok"`
	// Where it failed: the line of the failing assertion, the step, what
	// differed, and the expected and actual rows when a board differs.
	FailLine int      `json:"failLine,omitempty"`
	Step     string   `json:"step,omitempty"`
	Message  string   `json:"message,omitempty"`
	Expect   []string `json:"expect,omitempty"`
	Actual   []string `json:"actual,omitempty"`
	// Stale says which of the mod's files changed since the failed case
	// was recorded ("main.lua has changed"; fixture.Failure.Stale): the
	// case checks what other code did.
	Stale string `json:"stale,omitempty"`
	Text  string `json:"text,omitempty"`
}

// RunCases runs every .cases file of the mod src (given file by file) with
// the fixture runner of `2048 test`, in file name order: the files the
// cases name (Mods: ., a Difficulty: file) are read from src's files, the
// mod's folder being named by src.Name. A file that does not parse is one
// failed result at its line, with no ID.
func RunCases(src ModSource) Reply {
	// The runner sees the mod's folder alone: a case that names a file
	// beside it (Mods: ../other) names one outside the mod's files.
	fsys, _, err := filesOf(src)
	if err != nil {
		return fail(err)
	}
	var names []string
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".cases") {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	results := []CaseResult{}
	for _, name := range names {
		data, _ := fs.ReadFile(fsys, name)
		f, err := fixture.Parse(name, data)
		if err != nil {
			r := CaseResult{File: name, OK: false, Message: err.Error(), Text: err.Error()}
			var pe *fixture.ParseError
			if errors.As(err, &pe) {
				r.Line, r.FailLine, r.Message = pe.Line, pe.Line, pe.Msg
			}
			results = append(results, r)
			continue
		}
		for _, c := range f.Cases {
			r := CaseResult{File: name, Line: c.Line, ID: c.ID, Title: c.Title, OK: true}
			if fl := fixture.RunCaseFS(fsys, f, c); fl != nil {
				r.OK = false
				r.FailLine, r.Step, r.Message, r.Expect, r.Actual, r.Stale = fl.Line, fl.Step, fl.Msg, fl.Expect, fl.Actual, fl.Stale
				r.Text = fl.Error()
			}
			results = append(results, r)
		}
	}
	return Reply{Cases: results}
}

// RecordCase writes the game so far as a fixture case, as the terminal's f
// key does, for the .cases file in the folder of the game's one mod (its
// Mods: line is "."): the moves that stand since the game began (or since
// the game was resumed), with what the mod's code as it stands now does
// with them. The game must have been started with Options.Record.
//
// The moves are played again under the mods the game has now, so that a
// case recorded after an edit checks the edited code: the states the
// recording saw under an earlier version are not compared.
func (b *Bridge) RecordCase(id, title string) Reply {
	if b.s == nil {
		return fail(errNoGame)
	}
	if len(b.setup.Mods) != 1 {
		return fail(&Error{Kind: KindGame, Message: fmt.Sprintf("a case is recorded for the game of one mod, and this game has %d", len(b.setup.Mods))})
	}
	if id == "" || strings.ContainsAny(id, " \t\n") {
		return fail(&Error{Kind: KindInput, Key: "id", Message: fmt.Sprintf("case id %q: want one word", id)})
	}
	if title == "" {
		title = "written from play"
	}
	f, err := replay.New(b.s, replay.Meta{Program: "2048 in the browser"})
	if err != nil {
		return fail(&Error{Kind: KindGame, Message: "this game is not recorded: " + err.Error()})
	}
	kept := f.Actions[:0]
	for _, a := range f.Actions {
		if session.ActionKind(a.Action) == session.ActionReload {
			continue
		}
		a.Digest, a.Faults, a.State = "", nil, nil
		kept = append(kept, a)
	}
	f.Actions = kept
	text, err := f.Fixture(b.setup, replay.FixtureOptions{ID: id, Title: title, Mods: []string{"."}})
	if err != nil {
		return fail(&Error{Kind: KindGame, Message: "the case cannot be written: " + err.Error()})
	}
	return Reply{Text: string(text)}
}

// ZipMod returns the mod src (given file by file) as a zip, in base64,
// its files in one folder named by the mod's id, as `2048 mod install`
// takes it. The mod must load.
func ZipMod(src ModSource) Reply {
	if src.Files == nil {
		return fail(&Error{Kind: KindInput, Message: "zipMod takes a mod given file by file"})
	}
	m, err := tryMod(src)
	if err != nil {
		return fail(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	paths := make([]string, 0, len(src.Files))
	for p := range src.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: path.Join(m.ID(), p), Method: zip.Deflate, Modified: zipDate})
		if err == nil {
			_, err = w.Write([]byte(src.Files[p]))
		}
		if err != nil {
			return fail(err)
		}
	}
	if err := zw.Close(); err != nil {
		return fail(err)
	}
	return Reply{Zip: base64.StdEncoding.EncodeToString(buf.Bytes())}
}

// zipDate is the date of every entry of a zip ZipMod makes: a valid one
// (a zero date reads "1980-00-00" in unzip -l), and the same every time,
// so that the same files make the same zip, byte for byte: the start of
// the DOS dates a zip holds, 1980-01-01 00:00.
var zipDate = time.Date(1980, time.January, 1, 0, 0, 0, 0, time.UTC)

// tryMod loads the mod src and starts a game with it, of the first
// ruleset its manifest names: a Lua error at its load shows now.
func tryMod(src ModSource) (*mod.Mod, error) {
	m, err := src.load()
	if err != nil {
		return nil, modError(err, 0)
	}
	o := Options{Seed: "1", Mods: []ModSource{src}}
	if rs := m.Manifest.Rulesets; len(rs) > 0 {
		o.Ruleset = rs[0]
	}
	b := New()
	defer b.Close()
	if r := b.NewGame(o, nil); r.Error != nil {
		return nil, r.Error
	}
	return m, nil
}

// UnpackMod returns the files of the mod src (a zip, or files of a picked
// folder whose mod lies a folder down) by their path in the mod's folder,
// and the mod's id as Name: what the workshop opens. The mod need not
// load: the editor is where it gets fixed. A zip's limits and refusals
// are the ones a played mod's are.
func UnpackMod(src ModSource) Reply {
	fsys, files, err := filesOf(src)
	if err != nil {
		return fail(err)
	}
	out := make(map[string]string, len(files.Files))
	for p, data := range files.Files {
		out[p] = string(data)
	}
	name := path.Base(files.Root)
	if files.Root == "." {
		if name = path.Base(src.name()); name == "." || name == "/" || name == ".." {
			name = "mod"
		}
	}
	if m, err := mod.LoadFS(fsys, name); err == nil {
		name = m.ID()
	} else if id := manifestID.FindStringSubmatch(out[mod.ManifestName]); id != nil {
		name = id[1]
	}
	return Reply{Files: out, Name: name}
}

// manifestID finds a manifest's id when the mod does not load.
var manifestID = regexp.MustCompile(`(?m)^\s*id\s*=\s*"([a-z][a-z0-9_]*)"`)

// filesOf returns the files of src's folder in memory (ModSource.files),
// as a file system and as read, its errors of kind "input".
func filesOf(src ModSource) (fs.FS, *mod.Files, error) {
	files, err := src.files()
	if err == nil {
		var fsys fs.FS
		if fsys, err = files.FS(); err == nil {
			return fsys, files, nil
		}
	}
	return nil, nil, &Error{Kind: KindInput, Message: err.Error()}
}
