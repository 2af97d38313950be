package simtune

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/mod2048/mod2048/engine"
)

// ladder is a stand-in for a configuration's skill ladder with four
// candidate levers: a hazard that every skill finds as hard, a turn limit
// that the strong player gains from far more than the weak one, a lever
// that does nothing, and one that moves the weak player a little. At the
// start the weak player wins 65%, the strong one all but every game (a
// skill stuck at 100%, which a screen of small steps learns nothing
// from).
func ladder(v [4]float64, skill, games int) float64 {
	h, l, tiny := v[0], v[1]/100, v[3]
	z := 0.6 - 4*(h-0.2) + (l - 0.8) + 0.3*tiny
	if skill == 1 {
		z = 6 - 4*(h-0.2) + 6*(l-0.8)
	}
	p := 1 / (1 + math.Exp(-z))
	wins := 0
	for i := range games {
		if u := float64(engine.Mix(uint64(skill)<<32|uint64(i))>>11) / (1 << 53); u < p {
			wins++
		}
	}
	return float64(wins) / float64(games)
}

func screenOptions() ScreenOptions {
	levers := []Lever{
		{Key: "hazard", Start: 0.2, Lo: 0, Hi: 1},
		{Key: "turns", Start: 80, Lo: 0, Hi: 100, Int: true},
		{Key: "nothing", Start: 5, Lo: 0, Hi: 10},
		{Key: "tiny", Start: 0.5, Lo: 0, Hi: 1},
	}
	return ScreenOptions{
		Levers:  levers,
		Targets: []Target{{"weak", 0.25}, {"strong", 0.6}},
		Games:   40,
		Choose:  3,
		Rates: func(v []float64, games int) ([]float64, error) {
			x := [4]float64(v)
			return []float64{ladder(x, 0, games), ladder(x, 1, games)}, nil
		},
	}
}

// TestScreenChoosesTheGap: from a start where the strong skill wins every
// game, the screen measures where the rates move, finds that the turn
// limit moves the gap between the skills and the hazard their level, and
// chooses those two, not the lever that does nothing nor the one whose
// small move is not worth a lever; its model's reach is near both
// targets.
func TestScreenChoosesTheGap(t *testing.T) {
	o := screenOptions()
	var points int
	o.Point = func(ScreenPoint) { points++ }
	r, err := Screen(o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Base[1] != 1 {
		t.Fatalf("the strong skill wins %.2f at the start, not every game: the test's start is wrong", r.Base[1])
	}
	// The first pass: the base and four points a lever; the second,
	// about the pivot (turns at 0, where the strong skill loses some):
	// the pivot and four points a lever, two for the turns.
	if points != len(r.Points) || points != 1+4*4+1+3*4+2 {
		t.Errorf("%d points told, %d kept: want two passes", points, len(r.Points))
	}
	if p := r.Pivot; p == nil || p.Lever != 1 || p.Value != 0 || !slices.Contains(r.Chosen, 1) {
		t.Fatalf("pivot %+v, chosen %v: want the turns at 0, and chosen", p, r.Chosen)
	}
	if i := slices.Index(r.Chosen, 1); r.Init[i] != 0 {
		t.Errorf("the search starts the turns at %v, not the pivot's 0", r.Init[i])
	}
	var chosen []string
	for _, i := range r.Chosen {
		chosen = append(chosen, r.Effects[i].Lever.Key)
	}
	slices.Sort(chosen)
	if !slices.Equal(chosen, []string{"hazard", "turns"}) {
		t.Errorf("chose %v, want hazard and turns", chosen)
	}
	if r.Effects[2].Moves() {
		t.Errorf("the lever that does nothing moves: %+v", r.Effects[2])
	}
	if turns, hazard := r.Effects[1], r.Effects[0]; !(turns.Gap > 2 && turns.Gap > hazard.Gap+4 && hazard.Level < -2) {
		t.Errorf("turns' gap %.2f, hazard's gap %.2f and level %.2f: want the turns to open the gap and the hazard to move the level", turns.Gap, hazard.Gap, hazard.Level)
	}
	for k, tg := range o.Targets {
		if math.Abs(r.Reach[k]-tg.Rate) > 0.1 {
			t.Errorf("%s: the model reaches %.2f, target %.2f", tg.Skill, r.Reach[k], tg.Rate)
		}
	}
}

// TestScreenOnePass: a start where no skill is stuck is screened once,
// about itself, on the games asked.
func TestScreenOnePass(t *testing.T) {
	o := screenOptions()
	o.Levers[1].Start = 20 // the weak skill wins 50%, the strong 92%
	r, err := Screen(o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pivot != nil || len(r.Points) != 1+4*4 || r.Points[len(r.Points)-1].Games != o.Games {
		t.Fatalf("pivot %+v, %d points: want one pass of %d games", r.Pivot, len(r.Points), o.Games)
	}
	if r.Base[0] <= stuck || r.Base[1] >= 1-stuck {
		t.Fatalf("the base %v is stuck: the test's start is wrong", r.Base)
	}
	if len(r.Chosen) < len(o.Targets) {
		t.Errorf("chose %v: fewer levers than targets", r.Chosen)
	}
}

// TestScreenNoLever: candidates that move nothing are refused, with
// ErrNoLever.
func TestScreenNoLever(t *testing.T) {
	o := screenOptions()
	o.Levers = o.Levers[2:3]
	o.Rates = func([]float64, int) ([]float64, error) { return []float64{0.5, 0.5}, nil }
	if _, err := Screen(o); err != ErrNoLever {
		t.Fatalf("err %v, want ErrNoLever", err)
	}
}

// TestTuneWidens: a lever whose range stops short of its target widens
// it, within its bounds, says so, and the search reaches the target
// beyond the first range; without Widen it stops at the end.
func TestTuneWidens(t *testing.T) {
	for _, widen := range []bool{true, false} {
		// The weak player's win falls with the hazard: 15% at 0.89, and
		// the range stops at 0.5 (45%).
		o := Options{
			Levers:  []Lever{{Key: "hazard", Start: 0.45, Lo: 0.2, Hi: 0.5, Widen: widen, Min: 0, Max: 1}},
			Targets: []Target{{"weak", 0.15}},
			Seed:    1,
			Eval: func(v []float64, from, games int) ([]float64, error) {
				return []float64{winRate(v[0], 0.72, 0, from, games)}, nil
			},
		}
		var told []Widening
		o.Widened = func(w Widening) { told = append(told, w) }
		r, err := Tune(o)
		if err != nil {
			t.Fatal(err)
		}
		v := r.Values()
		if !widen {
			if len(r.Widened) != 0 || v[0] > 0.5 {
				t.Errorf("without Widen: widened %v, hazard %v", r.Widened, v[0])
			}
			continue
		}
		if len(told) == 0 || !reflect.DeepEqual(told, r.Widened) || told[0].Key != "hazard" || told[0].From != [2]float64{0.2, 0.5} || told[0].To != [2]float64{0.2, 0.8} {
			t.Fatalf("widened %+v, told %+v", r.Widened, told)
		}
		// A range widens before a round that plays there, never for the
		// answer alone, which no game measures before the check.
		for _, w := range r.Widened {
			if w.Round > len(DefaultRefine) {
				t.Errorf("a range widened for the answer: %+v", w)
			}
		}
		if l := r.Levers[0]; l.Hi > 1 || l.Lo < 0 {
			t.Errorf("the range widened past its bounds: %v to %v", l.Lo, l.Hi)
		}
		if last := told[len(told)-1]; last.To[1] == 1 && !last.Bound {
			t.Errorf("a range widened to its bound does not say so: %+v", last)
		}
		if fresh := winRate(v[0], 0.72, 0, 1<<40, 100000); math.Abs(fresh-0.15) > 0.06 {
			t.Errorf("%.3f on fresh games, target 0.15 (hazard %v, widened %+v)", fresh, v[0], r.Widened)
		}
	}
}
