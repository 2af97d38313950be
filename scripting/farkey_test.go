package scripting_test

import (
	"encoding/json"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// allocatedDuring returns the bytes the process allocated while f ran.
func allocatedDuring(f func()) uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	runtime.GC()
	metrics.Read(s)
	before := s[0].Value.Uint64()
	f()
	metrics.Read(s)
	return s[0].Value.Uint64() - before
}

// TestFarKeyInHandler: a far integer key costs one table entry, not an
// array of nils up to it: in an assignment, rawset and table.insert, one
// instruction each, which gopher-lua as published makes 1 GiB, 256 MiB and
// 512 MiB.
func TestFarKeyInHandler(t *testing.T) {
	m := luaMod(t, "far", `
game.on("tick", function()
  local t = {}
  t[67108863] = true
  rawset(t, 16777215, true)
  table.insert(t, 33554431, true)
  kept = t
  game.log(tostring(t[67108863] and t[16777215] and t[33554431]) .. " " .. #t)
end)`)
	g := seededGame(t, 1)
	h := chaosHost(t, g, m)
	defer h.Close()
	n := allocatedDuring(func() { play(t, h, g, legal(t, g, 0)) })
	if n > 4<<20 {
		t.Errorf("a move with far keys allocated %d MiB", n>>20)
	}
	if log := h.Log("far"); len(log) != 1 || log[0] != "true 0" {
		t.Errorf("log %q, want the three keys read back and # 0", log)
	}
}

// TestFarKeyInStorage: storage with a far key is a few bytes in the
// record, and loads as a few bytes: from a save, and after undo.
func TestFarKeyInStorage(t *testing.T) {
	m := luaMod(t, "farstore", `
game.on("tick", function()
  storage.far = storage.far or {}
  storage.far[67108863] = (storage.far[67108863] or 0) + 1
  game.log(tostring(storage.far[67108863]))
end)`)
	g := seededGame(t, 1)
	h := chaosHost(t, g, m)
	defer h.Close()
	play(t, h, g, legal(t, g, 0))
	save := marshal(t, g)
	if len(save) > 64<<10 {
		t.Fatalf("save of %d bytes", len(save))
	}
	g2, err := engine.Unmarshal(save)
	if err != nil {
		t.Fatal(err)
	}
	h2 := chaosHost(t, g2, m)
	defer h2.Close()
	if n := allocatedDuring(func() { play(t, h2, g2, legal(t, g2, 1)) }); n > 4<<20 {
		t.Errorf("a move after loading far-keyed storage allocated %d MiB", n>>20)
	}
	if log := h2.Log("farstore"); len(log) != 1 || log[0] != "2" {
		t.Errorf("after loading the save: log %q, want 2", log)
	}
	play(t, h, g, legal(t, g, 1))
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if n := allocatedDuring(func() { play(t, h, g, legal(t, g, 2)) }); n > 4<<20 {
		t.Errorf("a move after undo allocated %d MiB", n>>20)
	}
	if log := h.Log("farstore"); log[len(log)-1] != "2" {
		t.Errorf("after undo: log %q, want 2 last", log)
	}
}

// holesMod stores a list with more holes than entries: each key 65 past
// the last, where the array part of a table set in order reaches it.
const holesMod = `
game.on("tick", function()
  storage.list = {}
  for i = 0, 200 do storage.list[1 + i * 65] = true end
end)`

// TestStorageHolesRefused: a list whose holes would cost far more to load
// than its bytes (201 entries over 13001 slots) is refused when it is
// saved, with an error that says why, and when a save that holds one is
// loaded.
func TestStorageHolesRefused(t *testing.T) {
	m := luaMod(t, "holes", holesMod)
	g := seededGame(t, 1)
	h := chaosHost(t, g, m)
	defer h.Close()
	if _, err := h.Move(g, legal(t, g, 0)); err != nil {
		t.Fatal(err)
	}
	reports := h.TakeReports()
	if len(reports) != 1 || !strings.Contains(reports[0].Message, "201 entries spread over 13001 slots") {
		t.Fatalf("reports %v, want the list refused", reports)
	}

	// A save edited by hand to hold such a list loads without it.
	rec := `{"storage":[["list",{"table":[`
	for i := range 201 {
		if i > 0 {
			rec += ","
		}
		rec += "[" + itoa(1+i*65) + ",true]"
	}
	rec += `]}]],"rng":"1"}`
	reader := luaMod(t, "holes", `
game.on("tick", function()
  local n = 0
  for _ in pairs(storage.list or {}) do n = n + 1 end
  game.log(tostring(n))
end)`)
	g2 := withRecord(t, seededGame(t, 1), "holes", rec)
	h2 := chaosHost(t, g2, reader)
	defer h2.Close()
	if n := allocatedDuring(func() { play(t, h2, g2, legal(t, g2, 0)) }); n > 4<<20 {
		t.Errorf("loading the list allocated %d MiB", n>>20)
	}
	if log := h2.Log("holes"); len(log) != 1 || log[0] != "0" {
		t.Errorf("log %q, want the list refused (0 entries)", log)
	}
}

// withRecord returns g loaded from its save with mod's record set to rec,
// as a save edited by hand would hold it.
func withRecord(t *testing.T, g *engine.Game, mod, rec string) *engine.Game {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(marshal(t, g), &doc); err != nil {
		t.Fatal(err)
	}
	doc["state"].(map[string]any)["data"] = map[string]string{"mod:" + mod: rec}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	out, err := engine.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
