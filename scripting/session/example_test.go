package session_test

import (
	"fmt"
	"log"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/session"
)

// A Go program that embeds the host: it builds a configuration, loads two
// mods, plays a seeded game, reads the board, the score and the mods'
// reports, undoes a move, saves, and resumes from the save.
func Example() {
	// The classic preset with one setting changed, as `--set` would.
	cfg, err := config.Build(config.BuildOptions{Ruleset: "classic", Sets: []string{"undo_limit=10"}})
	if err != nil {
		log.Fatal(err)
	}
	// Two mods from their folders, one with a setting changed.
	var mods []*mod.Mod
	for _, dir := range []string{"../../mods/freeze", "../../mods/overdrive"} {
		m, err := mod.Load(dir)
		if err != nil {
			log.Fatal(err)
		}
		mods = append(mods, m)
	}
	if err := mods[1].Set("threshold", "16"); err != nil {
		log.Fatal(err)
	}
	setup := session.Setup{Config: cfg, Mods: mods}

	s, err := session.New(setup, session.Start{Seed: 2048})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 40; i++ {
		// Play the first legal direction of Left, Down, Right, Up.
		for _, d := range []engine.Direction{engine.Left, engine.Down, engine.Right, engine.Up} {
			if s.Legal().Has(d) {
				if _, err := s.Move(d); err != nil {
					log.Fatal(err)
				}
				break
			}
		}
	}
	for _, r := range s.TakeReports() {
		fmt.Println("mod error:", r.Error())
	}
	fmt.Println("score", s.Score(), "turn", s.State().Turn, s.Status())
	fmt.Println(boardOf(s))
	for _, m := range s.State().Marks {
		hz, _ := s.Hazard(m.Name)
		fmt.Printf("hazard %s at row %d, col %d, %d turns left\n", hz.Name, m.Pos.Row, m.Pos.Col, m.Turns)
	}

	if err := s.Undo(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("after undo: score", s.Score(), "turn", s.State().Turn)

	save, err := s.Save()
	if err != nil {
		log.Fatal(err)
	}
	resumed, err := session.Resume(setup, save)
	if err != nil {
		log.Fatal(err)
	}
	defer resumed.Close()
	fmt.Println("resumed: score", resumed.Score(), "turn", resumed.State().Turn, "legal", resumed.Legal())
	// Output:
	// score 208 turn 40 Playing
	//     8    2    0    0
	//     8    8    2    0
	//    32    8    4    2
	//     2   32    8    4
	// hazard freeze:ice at row 2, col 0, 3 turns left
	// after undo: score 200 turn 39
	// resumed: score 200 turn 39 legal Left Right Up Down
}

// boardOf writes the board a row a line, as the rules write cells.
func boardOf(s *session.Session) string {
	st := s.State()
	out := ""
	for r := 0; r < st.Board.Height; r++ {
		for c := 0; c < st.Board.Width; c++ {
			out += fmt.Sprintf("%5s", s.Rules().FormatCell(st.Board.At(engine.Pos{Row: r, Col: c})))
		}
		if r < st.Board.Height-1 {
			out += "\n"
		}
	}
	return out
}
