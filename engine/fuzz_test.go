package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzUnmarshal feeds Unmarshal arbitrary bytes, seeded with the save files
// in ../testdata/saves (the broken ones too) and the saves of the games the
// other tests build. Unmarshal must never panic; a document it accepts must
// save again, load again to the same bytes, and play on without panicking.
func FuzzUnmarshal(f *testing.F) {
	for _, pattern := range []string{"*.json", "bad/*.json"} {
		files, err := filepath.Glob(filepath.Join(savesDir, pattern))
		if err != nil {
			f.Fatal(err)
		}
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, ng := range append(tSaveGames(f), tMoreGames(f)...) {
		data, err := ng.g.Marshal()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"format":"2048-game","version":1,"ruleset":"classic","options":{"width":2,"height":1,"seed":"0"},` +
		`"state":{"board":["2 2"],"score":"0","status":"Playing","rng":"0000000000000000"}}`))
	f.Add([]byte("{}"))
	f.Add([]byte(""))

	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Unmarshal(data)
		if err != nil {
			if g != nil {
				t.Fatalf("Unmarshal returned a game with the error %v", err)
			}
			return
		}
		saved, err := g.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a loaded game: %v", err)
		}
		again, err := Unmarshal(saved)
		if err != nil {
			t.Fatalf("Unmarshal of Marshal's output: %v\n%s", err, saved)
		}
		resaved, err := again.Marshal()
		if err != nil {
			t.Fatalf("second Marshal: %v", err)
		}
		if !bytes.Equal(saved, resaved) {
			t.Fatalf("the round trip is not idempotent:\n%s\nthen:\n%s", saved, resaved)
		}

		// Play on: every move, undo and redo is allowed to fail, never to
		// panic, and the game still saves.
		g.Legal(Left)
		g.LegalMoves()
		for _, d := range Directions {
			g.Move(d)
		}
		g.Undo()
		g.Undo()
		g.Redo()
		g.KeepPlaying()
		g.Move(Left)
		if _, err := g.Marshal(); err != nil {
			t.Fatalf("Marshal after playing: %v", err)
		}
	})
}
