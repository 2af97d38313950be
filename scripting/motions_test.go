package scripting_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// TestTickMotions: a mod of API version 2 reads each turn's moves and
// merges in its tick payload; a version-1 mod's payload is as it was.
func TestTickMotions(t *testing.T) {
	src := `
game.on("tick", function(e)
  if e.moves == nil then game.log("v1", game.api_version, tostring(game.features.motions)) return end
  local parts = {}
  for _, m in ipairs(e.moves) do parts[#parts + 1] = m.from.row .. "," .. m.from.col .. ">" .. m.to.row .. "," .. m.to.col end
  for _, m in ipairs(e.merged) do parts[#parts + 1] = "M" .. m.into.row .. "," .. m.into.col .. "<" .. m.from[1].col .. "+" .. m.from[2].col end
  game.log("v2", game.api_version, table.concat(parts, " "))
end)`
	for _, version := range []string{"1", "2"} {
		m := writeModVersion(t, "motion"+version, version, src)
		rules := engine.NewClassic()
		board, _ := engine.ParseRows(rules, []string{"2 2 0 4", "0 0 0 0", "0 0 0 0", "0 0 0 0"}, 4, 4)
		g, err := engine.NewFromBoard(rules, engine.Options{Width: 4, Height: 4, Seed: 1}, board)
		if err != nil {
			t.Fatal(err)
		}
		h, err := scripting.NewHost([]*mod.Mod{m}, rules, g.Options(), scripting.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		h.Attach(g)
		g.AddSpawns(engine.SpawnEntry{Pos: engine.Pos{Row: 3, Col: 3}, Cell: engine.Cell{Kind: engine.KindTile, Level: 1}})
		if _, err := h.Move(g, engine.Left); err != nil {
			t.Fatal(err)
		}
		got := strings.Join(h.Log(m.ID()), "\n")
		want := map[string]string{
			"1": "v1\t1\tnil",
			"2": "v2\t2\t0,0>0,0 0,1>0,0 0,3>0,1 M0,0<0+1",
		}[version]
		if got != want {
			t.Errorf("version %s: the log says %q, want %q", version, got, want)
		}
	}
}

// writeModVersion writes and loads a mod of the given API version whose
// main.lua is src.
func writeModVersion(t testing.TB, id, version, src string) *mod.Mod {
	t.Helper()
	return loadMod(t, writeModDirVersion(t, id, version, src))
}

// writeModDirVersion writes the mod writeModVersion loads, and returns its
// folder.
func writeModDirVersion(t testing.TB, id, version, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	manifest := "id = \"" + id + "\"\nname = \"" + id + "\"\nversion = \"1.0.0\"\napi_version = " + version + "\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, mod.ManifestName), []byte(manifest), 0o644)
	os.WriteFile(filepath.Join(dir, "main.lua"), []byte(src), 0o644)
	return dir
}

// TestWantsMotions: the game tracks motions only for a version-2 mod whose
// tick handler may read them: one that names moves or merged, or lets its
// payload escape where the host cannot see what it reads.
func TestWantsMotions(t *testing.T) {
	for _, c := range []struct {
		version, src string
		want         bool
	}{
		{"2", `game.on("tick", function(e) game.log(#e.moves) end)`, true},
		{"2", `game.on("tick", function(e) game.log(#e.merged) end)`, true},
		{"2", `game.on("tick", function(e) local f = e; game.log(f.turn) end)`, true},
		{"2", `game.on("tick", function(e) game.log(e.turn, e.dir) end)`, false},
		{"2", `game.on("spawn", function(e) end)`, false},
		{"1", `game.on("tick", function(e) game.log(e.moves) end)`, false},
	} {
		g := seededGame(t, 1)
		h := attach(t, g, writeModVersion(t, "m", c.version, c.src))
		if got := h.WantsMotions(); got != c.want {
			t.Errorf("api_version %s, %s: WantsMotions %v, want %v", c.version, c.src, got, c.want)
		}
	}
}
