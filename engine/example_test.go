package engine_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/mod2048/mod2048/engine"
)

// New starts a game: the classic rules place the two initial tiles, drawn
// from the random source the seed starts. The same seed gives the same game.
func ExampleNew() {
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 2048})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Join(engine.FormatRows(g.Rules(), &g.State().Board), "\n"))
	fmt.Println("score", g.Score(), "turn", g.State().Turn, g.Status(), "legal", g.LegalMoves())
	// Output:
	// 0 0 2 0
	// 0 0 0 0
	// 0 0 0 0
	// 0 0 4 0
	// score 0 turn 0 Playing legal Left Right Up Down
}

// Move plays a swipe: tiles slide, equal neighbours merge once, the merges
// add to the score, and one tile spawns. A swipe that moves nothing is a
// no-op: no error, a zero Result, and the game as it was.
func ExampleGame_Move() {
	rules := engine.NewClassic()
	board, err := engine.ParseRows(rules, []string{
		"2 2 8 0",
		"4 0 4 16",
		"0 0 0 8",
		"2 4 8 16",
	}, 4, 4)
	if err != nil {
		log.Fatal(err)
	}
	g, err := engine.NewFromBoard(rules, engine.Options{Width: 4, Height: 4, Seed: 7}, board)
	if err != nil {
		log.Fatal(err)
	}

	res, err := g.Move(engine.Left)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Left: %+v\n", res)
	fmt.Println(strings.Join(engine.FormatRows(rules, &g.State().Board), "\n"))
	fmt.Println("score", g.Score(), "turn", g.State().Turn, "legal", g.LegalMoves())

	// Every row is packed to the left with no equal neighbours: Left again
	// moves nothing.
	before := g.Board()
	res, err = g.Move(engine.Left)
	if err != nil {
		log.Fatal(err)
	}
	after := g.Board()
	fmt.Printf("Left again: %+v\n", res)
	fmt.Println("same board", before.Equal(&after), "score", g.Score(), "turn", g.State().Turn)
	// Output:
	// Left: {Changed:true Gained:12 Merges:2 Spawns:1}
	// 4 8 2 0
	// 8 16 0 0
	// 8 0 0 0
	// 2 4 8 16
	// score 12 turn 1 legal Right Up Down
	// Left again: {Changed:false Gained:0 Merges:0 Spawns:0}
	// same board true score 12 turn 1
}

// Marshal saves the whole game, its random source and its undo history
// included; Unmarshal loads it back, and the loaded game goes on exactly as
// the saved one does.
func ExampleUnmarshal() {
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 2048, UndoLimit: 10})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range []engine.Direction{engine.Left, engine.Down, engine.Right, engine.Down, engine.Left} {
		if _, err := g.Move(d); err != nil {
			log.Fatal(err)
		}
	}
	save, err := g.Marshal()
	if err != nil {
		log.Fatal(err)
	}
	back, err := engine.Unmarshal(save)
	if err != nil {
		log.Fatal(err)
	}
	again, err := back.Marshal()
	if err != nil {
		log.Fatal(err)
	}
	undo, _ := back.HistoryLen()
	fmt.Println("same save", bytes.Equal(save, again))
	fmt.Println("score", back.Score(), "turn", back.State().Turn, "moves to undo", undo)

	// Both games play the same move and draw the same spawn.
	for _, game := range []*engine.Game{g, back} {
		if _, err := game.Move(engine.Up); err != nil {
			log.Fatal(err)
		}
	}
	b1, b2 := g.Board(), back.Board()
	fmt.Println("same board after Up", b1.Equal(&b2))
	fmt.Println(strings.Join(engine.FormatRows(back.Rules(), &b2), "\n"))
	// Output:
	// same save true
	// score 12 turn 5 moves to undo 5
	// same board after Up true
	// 4 8 2 0
	// 2 0 2 0
	// 0 0 0 0
	// 0 0 0 0
}
