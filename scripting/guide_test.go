package scripting

import (
	"bufio"
	"fmt"
	"github.com/mod2048/mod2048/scripting/mod"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"
)

// MODDING.md, the modding guide, shows complete mods. Each lives under
// testdata/guide/NAME/ as a working mod with a fixture (NAME.cases, run with
// every other .cases file by `go test ./scripting/session/fixture`). These
// tests keep the guide and those mods the same text:
//
//   - a fenced block whose first line is `-- guide: NAME` (Lua) is
//     byte for byte testdata/guide/NAME/main.lua;
//   - a block whose first line is `-- guide: PATH` or `# guide: PATH`, with
//     PATH containing a slash, is byte for byte testdata/guide/PATH;
//   - any other ```lua block is an excerpt: its lines, in order and without
//     their indentation, are consecutive lines of one testdata/guide file
//     or of a shipped mod's file (mods/);
//   - every testdata/guide mod's main.lua is shown whole in the guide, and
//     has a fixture;
//   - the guide shows luals/.luarc.json as it is.

const guidePath = "../MODDING.md"

type guideBlock struct {
	lang string
	text string // the block's lines, each ending in a newline
	line int    // the line of the opening fence
}

var guideTag = regexp.MustCompile(`^(?:--|#) guide: ([A-Za-z0-9_./-]+)$`)

func guideBlocks(t *testing.T) []guideBlock {
	t.Helper()
	f, err := os.Open(guidePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []guideBlock
	var cur *guideBlock
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if cur == nil {
				cur = &guideBlock{lang: strings.TrimSpace(strings.TrimPrefix(line, "```")), line: n}
			} else {
				blocks = append(blocks, *cur)
				cur = nil
			}
			continue
		}
		if cur != nil {
			cur.text += line + "\n"
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s:%d: a fenced block is not closed", guidePath, cur.line)
	}
	return blocks
}

// tagPath returns the testdata file a block's tag names, or "".
func (b guideBlock) tagPath() string {
	first, _, _ := strings.Cut(b.text, "\n")
	m := guideTag.FindStringSubmatch(first)
	if m == nil {
		return ""
	}
	if !strings.Contains(m[1], "/") {
		return filepath.Join("testdata", "guide", m[1], "main.lua")
	}
	return filepath.Join("testdata", "guide", filepath.FromSlash(m[1]))
}

func TestGuideExamplesAreTestMods(t *testing.T) {
	blocks := guideBlocks(t)
	shown := map[string]bool{}
	var luaFiles []string
	// Excerpts may also come from the shipped example mods (mods/), which
	// the guide walks through.
	for _, root := range []string{filepath.Join("testdata", "guide"), filepath.Join("..", "mods")} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".lua") {
				luaFiles = append(luaFiles, path)
			}
			return nil
		})
	}
	if len(luaFiles) == 0 {
		t.Fatal("no Lua files under testdata/guide")
	}
	tagged := 0
	for _, b := range blocks {
		path := b.tagPath()
		if path == "" {
			if b.lang == "lua" && !isExcerpt(t, b.text, luaFiles) {
				t.Errorf("%s:%d: this ```lua block is neither tagged (-- guide: NAME) nor an excerpt of a mod under testdata/guide:\n%s", guidePath, b.line, b.text)
			}
			continue
		}
		tagged++
		shown[path] = true
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s:%d: the block names %s: %v", guidePath, b.line, path, err)
			continue
		}
		if string(want) != b.text {
			t.Errorf("%s:%d: the block differs from %s:\n%s", guidePath, b.line, path, firstDiff(b.text, string(want)))
		}
	}
	if tagged == 0 {
		t.Fatalf("%s has no tagged examples", guidePath)
	}
	// The editor setup shows the .luarc.json template as it is.
	luarc, err := os.ReadFile(filepath.Join("luals", ".luarc.json"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range blocks {
		found = found || (b.lang == "json" && b.text == string(luarc))
	}
	if !found {
		t.Errorf("%s does not show luals/.luarc.json as it is, in a ```json block", guidePath)
	}
	dirs, err := os.ReadDir(filepath.Join("testdata", "guide"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		main := filepath.Join("testdata", "guide", d.Name(), "main.lua")
		if !shown[main] {
			t.Errorf("%s is not shown in %s (a ```lua block starting `-- guide: %s`)", main, guidePath, d.Name())
		}
		cases, _ := filepath.Glob(filepath.Join("testdata", "guide", d.Name(), "*.cases"))
		if len(cases) == 0 {
			t.Errorf("testdata/guide/%s has no fixture (.cases)", d.Name())
		}
		if _, err := mod.Load(filepath.Join("testdata", "guide", d.Name())); err != nil {
			t.Errorf("testdata/guide/%s: %v", d.Name(), err)
		}
	}
}

// isExcerpt reports whether text's lines, without indentation, are
// consecutive lines of one of files.
func isExcerpt(t *testing.T, text string, files []string) bool {
	want := trimmedLines(text)
	if len(want) == 0 {
		return false
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		have := trimmedLines(string(data))
		for i := 0; i+len(want) <= len(have); i++ {
			match := true
			for j := range want {
				if have[i+j] != want[j] {
					match = false
					break
				}
			}
			if match {
				return true
			}
		}
	}
	return false
}

func trimmedLines(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return lines
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d of the block:\n\tguide: %q\n\tfile:  %q", i+1, gl, wl)
		}
	}
	return "(they differ only in the final newline)"
}

// TestGuideLimits checks the guide's table of limits against defaultLimits
// and the other bounds the host and engine keep.
func TestGuideLimits(t *testing.T) {
	data, err := os.ReadFile(guidePath)
	if err != nil {
		t.Fatal(err)
	}
	guide := string(data)
	l := defaultLimits
	rows := []string{
		fmt.Sprintf("| all the mods of a game in one turn, shared equally: a mod's turn is the smaller of its own (below) and its share | %d instructions |", l.GameTurnInstructions),
		fmt.Sprintf("| one handler call | %d instructions |", l.HandlerInstructions),
		fmt.Sprintf("| all of one mod's handler calls in one turn, dry runs included, at most its share of the game's | %d instructions |", l.TurnInstructions),
		fmt.Sprintf("| one run of a mod's `before_move` handlers (a move's, or a dry run's): an eighth of its turn | %d instructions for a mod alone |", beforeMoveBudget(aloneLimits(l))),
		fmt.Sprintf("| loading the mod (compiling its files, running their top level) | %d instructions |", l.LoadInstructions),
		fmt.Sprintf("| failsafe: the time of one call, by its own clock (its CPU time on Linux) | %v |", l.FailsafeTime),
		fmt.Sprintf("| Lua call depth | %d frames |", l.CallStack),
		fmt.Sprintf("| Lua stack | %d slots |", l.Registry),
		fmt.Sprintf("| a string `string.rep`, `upper`, `lower`, `reverse`, `format`, `gsub` or `table.concat` makes | %d bytes (%d MiB) |", l.MaxString, l.MaxString>>20),
		fmt.Sprintf("| the subject, and the pattern, of `string.find`, `match`, `gmatch`, `gsub` | %d bytes (%d KiB) |", l.MaxPattern, l.MaxPattern>>10),
		fmt.Sprintf("| values `unpack` and `string.byte` return, elements `table.concat` joins and `table.sort` sorts | %d |", l.MaxItems),
		"| `string.format` field width or precision | 99 |",
		fmt.Sprintf("| handlers per event | %d |", l.MaxHandlers),
		fmt.Sprintf("| what the mod holds from one call to the next (weighed as Go lays it out) | %d MiB |", l.MaxMemory>>20),
		fmt.Sprintf("| what all the mods of a game hold together (weighed alike) | %d MiB |", l.MaxGameMemory>>20),
		fmt.Sprintf("| the mod's log | the last %d KiB |", l.MaxLog>>10),
		fmt.Sprintf("| `storage`, encoded | %d KiB |", MaxStorage>>10),
		fmt.Sprintf("| all mods' `storage` together | %d MiB |", engine.MaxData>>20),
		fmt.Sprintf("| one Lua file of the mod | %d KiB |", mod.MaxSource>>10),
		fmt.Sprintf("| blocks, brackets and table constructors nested in a file | %d levels |", mod.MaxNesting),
		fmt.Sprintf("| expressions nested in a file, each operator of a chain (`a + a + …`, `a.b.c…`, `- - a`) a level | %d levels |", sandbox.MaxDepth),
		fmt.Sprintf("| marks on the board (all mods) | %d |", engine.MaxMarks),
		fmt.Sprintf("| failing turns in a row before the mod is disabled | %d |", FailLimit),
		// The schedule's row of compiling: its rate.
		fmt.Sprintf("| compiling a file (the entry file when the mod loads, a module at its first `require`, wherever it runs) | %d for every byte of the file, charged before it is compiled, whether or not the program compiled it before |", sandbox.CompileInstructionsPerByte),
		fmt.Sprintf("| a report's message, made printable, then cut (`…` included) | %d bytes |", MaxMessage),
	}
	for _, row := range rows {
		if !strings.Contains(guide, row+"\n") {
			t.Errorf("%s lacks the limits row\n\t%s", guidePath, row)
		}
	}
}

// TestGuideAPILog plays the API tour of the guide and checks what it wrote
// to its log with print and game.log, which its fixture cannot see.
func TestGuideAPILog(t *testing.T) {
	md, err := mod.Load(filepath.Join("testdata", "guide", "api"))
	if err != nil {
		t.Fatal(err)
	}
	g, h := probeGame(t, [4][4]int{{2}}, [][3]int{{0, 0, 2}, {0, 0, 2}, {0, 3, 2}, {1, 2, 2}}, md)
	for _, d := range []engine.Direction{engine.Right, engine.Down, engine.Left, engine.Up} {
		if _, err := h.Move(g, d); err != nil {
			t.Fatal(err)
		}
		if r := h.TakeReports(); len(r) > 0 {
			t.Fatal(r[0])
		}
	}
	want := []string{
		"api runs on classic, 4x4",
		"turn 1: score 0, Playing",
		"turn 2: score 0, Playing",
		"turn 3: score 4, Playing",
		"turn 4: score 4, Playing",
		"api:mud at 1,2",
	}
	got := h.Log("api")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the API tour's log is\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// aloneLimits are l for a mod alone in its game (shareTurn).
func aloneLimits(l Limits) Limits {
	alone, _ := shareTurn(l, 1)
	return alone
}
