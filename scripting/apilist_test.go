package scripting

import (
	"github.com/mod2048/mod2048/scripting/mod"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/modapi"
)

// These tests run real handlers in a Host and compare what the host does
// with the lists of apilist.go, taken from the mod API's description
// (package modapi), which writes the LuaLS annotation file and the
// editor's completions: none can drift from values_payloads.go,
// values_requests.go and api.go unnoticed.

// funcNames returns the names of the game functions an API version-v mod
// gets (all when v is 0).
func funcNames(fns []modapi.Func, v int) []string {
	var names []string
	for _, f := range fns {
		if v == 0 || modapi.Since(f.Version) <= v {
			names = append(names, f.Name)
		}
	}
	return names
}

// probeMod writes a mod with the given main.lua into a temporary folder and
// loads it.
func probeMod(t *testing.T, id, main string) *mod.Mod {
	t.Helper()
	return probeModVersion(t, id, main, 2)
}

// probeModVersion is probeMod for a mod of API version v.
func probeModVersion(t *testing.T, id, main string, v int) *mod.Mod {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	toml := "id = \"" + id + "\"\nname = \"" + id + "\"\nversion = \"1\"\napi_version = " + strconv.Itoa(v) + "\n"
	if err := os.WriteFile(filepath.Join(dir, mod.ManifestName), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.lua"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	md, err := mod.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return md
}

// probeGame starts a classic 4×4 game from rows (values, 0 empty) with the
// given spawn queue, hooked to a host of the mods.
func probeGame(t *testing.T, rows [4][4]int, queue [][3]int, mods ...*mod.Mod) (*engine.Game, *Host) {
	t.Helper()
	rules := engine.NewClassic()
	opt := engine.Options{Width: 4, Height: 4, UndoLimit: 10, ScriptedOnly: true}
	board := engine.NewBoard(4, 4)
	cell := func(v int) engine.Cell {
		c, err := rules.ParseCell(strconv.Itoa(v))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for r, row := range rows {
		for c, v := range row {
			board.Set(engine.Pos{Row: r, Col: c}, cell(v))
		}
	}
	g, err := engine.NewFromBoard(rules, opt, board)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range queue {
		g.AddSpawns(engine.SpawnEntry{Pos: engine.Pos{Row: q[0], Col: q[1]}, Cell: cell(q[2])})
	}
	h, err := NewHost(mods, rules, opt, defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	g.SetHooks(h)
	return g, h
}

// probeKeysLua is a Lua function that writes a table's keys, sorted, with commas.
const probeKeysLua = `
local function keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, ",")
end
`

func probeJoin(list []string) string {
	s := slices.Clone(list)
	sort.Strings(s)
	return strings.Join(s, ",")
}

// TestAPIListPayloads runs a handler for every event and checks the keys of the
// payload tables it gets, of after_merge's from entries, and of the tables
// game.marks returns.
func TestAPIListPayloads(t *testing.T) {
	md := probeMod(t, "probe", probeKeysLua+`
game.hazard{ name = "x", glyph = "x" }
for _, name in ipairs({ "before_move", "after_merge", "spawn", "tick", "start", "expire" }) do
  game.on(name, function(ev)
    game.log("payload", name, keys(ev))
    if name == "after_merge" then
      game.log("pos", keys(ev.from[1]))
      game.log("pos", keys(ev.from[2]))
      game.log("sources", #ev.sources)
    end
    for _, m in ipairs(game.marks()) do
      game.log("mark", keys(m))
    end
    if name == "tick" and ev.turn == 1 then
      -- Its turn runs out after the next move: the expire event.
      return { mark = { { row = 3, col = 3, name = "x", turns = 1 } } }
    end
  end)
end
`)
	g, h := probeGame(t, [4][4]int{{2, 2, 0, 0}}, [][3]int{{1, 1, 2}, {2, 0, 2}}, md)
	if err := h.Start(g); err != nil {
		t.Fatal(err)
	}
	for _, d := range []engine.Direction{engine.Left, engine.Right} {
		if _, err := h.Move(g, d); err != nil {
			t.Fatal(err)
		}
		if r := h.TakeReports(); len(r) > 0 {
			t.Fatal(r[0])
		}
	}
	seen := map[string]bool{}
	for _, line := range h.Log("probe") {
		f := strings.Split(line, "\t")
		seen[f[0]] = true
		switch f[0] {
		case "payload":
			seen[f[1]] = true
			if want := probeJoin(payloadKeys[f[1]]); f[2] != want {
				t.Errorf("the %s payload has the keys %s; payloadKeys says %s", f[1], f[2], want)
			}
		case "pos":
			if want := probeJoin(posKeys); f[1] != want {
				t.Errorf("after_merge's from entries have the keys %s; posKeys says %s", f[1], want)
			}
		case "sources":
			if f[1] != "2" {
				t.Errorf("after_merge's sources has %s entries, want 2", f[1])
			}
		case "mark":
			if want := probeJoin(markKeys); f[1] != want {
				t.Errorf("game.marks returns tables with the keys %s; markKeys says %s", f[1], want)
			}
		}
	}
	for _, what := range append([]string{"payload", "pos", "sources", "mark"}, eventNames...) {
		if !seen[what] {
			t.Errorf("no %s line in the log: %q", what, h.Log("probe"))
		}
	}
	for _, ev := range eventNames {
		if _, ok := payloadKeys[ev]; !ok {
			t.Errorf("payloadKeys has no entry for event %s", ev)
		}
		if _, ok := requestKeys[ev]; !ok {
			t.Errorf("requestKeys has no entry for event %s", ev)
		}
	}
	if len(payloadKeys) != len(eventNames) || len(requestKeys) != len(eventNames) {
		t.Errorf("payloadKeys and requestKeys have %d and %d entries for %d events", len(payloadKeys), len(requestKeys), len(eventNames))
	}
}

var probeAllowedList = regexp.MustCompile(`unknown key the string "bogus" \(allowed: ([a-z_, ]+)\)`)

// allowed returns the keys the host's error for an unknown key says are
// allowed.
func probeAllowed(t *testing.T, what string, err error) []string {
	t.Helper()
	if err == nil {
		t.Errorf("%s: a request with an unknown key was accepted", what)
		return nil
	}
	m := probeAllowedList.FindStringSubmatch(err.Error())
	if m == nil {
		t.Errorf("%s: the error does not list the allowed keys: %v", what, err)
		return nil
	}
	return strings.Split(m[1], ", ")
}

// TestAPIListRequests returns requests with an unknown key from every event (and
// from the entries of a tick request's lists) and compares the keys the
// host's error says are allowed with requests and tickEntries.
func TestAPIListRequests(t *testing.T) {
	requests := map[string]string{}
	for _, ev := range eventNames {
		requests[ev] = "{ bogus = true }"
	}
	for key := range tickEntries {
		requests["tick."+key] = "{ " + key + " = { { bogus = true } } }"
	}
	for what, req := range requests {
		ev, _, _ := strings.Cut(what, ".")
		src := `game.on("` + ev + `", function(ev) return ` + req + ` end)`
		if ev == EventExpire {
			// A mark whose one turn runs out in the move.
			src += `
game.hazard{ name = "x", glyph = "x" }
game.on("start", function() return { mark = { { row = 3, col = 3, name = "x", turns = 1 } } } end)`
		}
		md := probeMod(t, "probe", src)
		g, h := probeGame(t, [4][4]int{{2, 2, 0, 0}}, [][3]int{{1, 1, 2}}, md)
		if ev == EventStart || ev == EventExpire {
			if err := h.Start(g); err != nil {
				t.Fatal(err)
			}
		}
		if ev != EventStart {
			if _, err := h.Move(g, engine.Left); err != nil {
				t.Fatal(err)
			}
		}
		reports := h.TakeReports()
		var err error
		if len(reports) > 0 {
			err = reports[0]
		}
		got := probeAllowed(t, what, err)
		want := requestKeys[ev]
		if key, ok := strings.CutPrefix(what, "tick."); ok {
			want = tickEntries[key]
		}
		if got != nil && !slices.Equal(got, want) {
			t.Errorf("%s: the host allows %q; apilist.go says %q", what, got, want)
		}
	}
}

// TestAPIListHazardKeys gives game.hazard an unknown key and compares the keys the
// error allows with hazardKeys.
func TestAPIListHazardKeys(t *testing.T) {
	md := probeMod(t, "probe", `game.hazard{ name = "x", glyph = "x", bogus = true }`)
	_, err := NewHost([]*mod.Mod{md}, engine.NewClassic(), engine.Options{Width: 4, Height: 4}, defaultLimits)
	if err == nil {
		t.Fatal("game.hazard accepted an unknown key")
	}
	m := regexp.MustCompile(`\(allowed: ([a-z_, ]+)\)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("the error does not list the allowed keys: %v", err)
	}
	if got := strings.Split(m[1], ", "); !slices.Equal(got, hazardKeys) {
		t.Errorf("game.hazard allows %q; hazardKeys says %q", got, hazardKeys)
	}
}

// TestAPIListGameTable lists the game table a mod of each API version gets:
// its functions must be the description's of that version and its other
// fields apiFields; game.features must hold exactly the version's
// features, each true; game.hazard must allow the version's keys.
func TestAPIListGameTable(t *testing.T) {
	for v := 1; v <= mod.APIVersion; v++ {
		t.Run("v"+strconv.Itoa(v), func(t *testing.T) { probeGameTable(t, v) })
	}
}

func probeGameTable(t *testing.T, v int) {
	md := probeModVersion(t, "probe", probeKeysLua+`
local ok, err = pcall(game.hazard, { name = "x", glyph = "x", bogus = true })
game.log("hazard", ((tostring(err):match("allowed: ([a-z_, ]+)") or tostring(err)):gsub(" ", "")))
local fns, fields = {}, {}
for k, v in pairs(game) do
  if type(v) == "function" then fns[#fns + 1] = k else fields[#fields + 1] = k end
end
table.sort(fns)
table.sort(fields)
game.log("functions", table.concat(fns, ","))
game.log("fields", table.concat(fields, ","))
game.log("features", keys(game.features))
for k, v in pairs(game.features) do
  if v ~= true then game.log("bad", "game.features." .. k .. " is not true") end
end
`, v)
	_, h := probeGame(t, [4][4]int{}, nil, md)
	want := map[string]string{
		"functions": probeJoin(funcNames(apiSpec.Functions, v)),
		"fields":    probeJoin(apiFields),
		"features":  probeJoin(fieldNames(apiSpec.Features.Fields, v)),
		"hazard":    strings.Join(classKeys("HazardSpec", v), ","),
	}
	if v == 1 {
		// API version 1 is frozen: the mods written for it run as they
		// did, whatever the description gains.
		for k, w := range map[string]string{
			"functions": "cell,hazard,log,marks,on,random,score,status,turn",
			"features":  "hooks,log,markers,random,require,settings,storage",
			"hazard":    "name,glyph,color,blocks,description",
		} {
			if want[k] != w {
				t.Errorf("the description gives a version-1 mod the %s %s; version 1 has %s", k, want[k], w)
			}
		}
	}
	got := map[string]string{}
	for _, line := range h.Log("probe") {
		f := strings.Split(line, "\t")
		if len(f) == 2 {
			got[f[0]] = f[1]
		} else {
			t.Errorf("log: %q", line)
		}
	}
	if got["bad"] != "" {
		t.Error(got["bad"])
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("game's %s are %s; apilist says %s", k, got[k], w)
		}
	}
}
