package simtune

import (
	"errors"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestEach: each runs at most conc calls at once, and as many as it may
// (every call waits, yielding, until conc are under way or the calls not
// yet started are too few to make them); one at a time it stops where f
// says.
func TestEach(t *testing.T) {
	for _, conc := range []int{2, 3, 7} {
		const n = 10
		var under, started, most atomic.Int64
		ran := make([]atomic.Bool, n)
		each(n, conc, func(i int) bool {
			now := under.Add(1)
			started.Add(1)
			for k := 0; k < 1_000_000 && under.Load() < int64(min(conc, n-int(started.Load())+int(under.Load()))); k++ {
				runtime.Gosched()
			}
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			ran[i].Store(true)
			under.Add(-1)
			return true
		})
		for i := range ran {
			if !ran[i].Load() {
				t.Errorf("conc %d: call %d never ran", conc, i)
			}
		}
		if m := most.Load(); m > int64(conc) || m < int64(min(conc, n)) && conc > 1 {
			t.Errorf("conc %d: at most %d calls at once", conc, m)
		}
	}
	var order []int
	each(5, 1, func(i int) bool { order = append(order, i); return i < 2 })
	if !reflect.DeepEqual(order, []int{0, 1, 2}) {
		t.Errorf("one at a time: %v, want 0, 1, 2 and a stop", order)
	}
}

// TestTuneConcurrent: a tune whose candidates are measured several at
// once (a generation's, a round's candidate and its probes) finds what
// it finds one at a time, steps told in the same order, refused
// candidates, remembered ones and widened ranges alike; an error stops
// it after the same steps.
func TestTuneConcurrent(t *testing.T) {
	for run := range 3 {
		var got []*Result
		var told [][]Step
		for _, conc := range []int{0, 4} {
			o := toy(t)
			o.Seed = uint64(run + 7)
			o.Concurrent = conc
			if run > 0 {
				o.Levers[0].Widen, o.Levers[0].Min, o.Levers[0].Max = true, 0, 3
				o.Levers[0].Start, o.Levers[0].Hi = 0.3, 0.5
			}
			eval := o.Eval
			o.Eval = func(v []float64, from, games int) ([]float64, error) {
				if v[0] > 0.4 && run == 2 {
					return nil, Infeasible{errors.New("too much hazard")}
				}
				return eval(v, from, games)
			}
			var steps []Step
			o.Step = func(s Step) { steps = append(steps, s) }
			r, err := Tune(o)
			if err != nil {
				t.Fatal(err)
			}
			got, told = append(got, r), append(told, steps)
		}
		if !reflect.DeepEqual(got[0], got[1]) || !reflect.DeepEqual(told[0], told[1]) {
			t.Errorf("run %d: measured 4 at once, the tune differs from one at a time", run)
		}
		if !reflect.DeepEqual(told[1], got[1].Steps) {
			t.Errorf("run %d: the steps told differ from the steps kept", run)
		}
	}

	stop := errors.New("stopped")
	var got []*Result
	for _, conc := range []int{0, 6} {
		o := toy(t)
		o.Concurrent = conc
		eval := o.Eval
		o.Eval = func(v []float64, from, games int) ([]float64, error) {
			if from >= DefaultStages[0].Games { // the second generation
				return nil, stop
			}
			return eval(v, from, games)
		}
		r, err := Tune(o)
		if !errors.Is(err, stop) || len(r.Steps) != Population(len(o.Levers)) {
			t.Fatalf("%d at once: err %v, %d steps: want the first generation's", conc, err, len(r.Steps))
		}
		got = append(got, r)
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Error("stopped by an error, the tune measured 6 at once differs from one at a time")
	}
}

// TestScreenConcurrent: a screen whose points are measured several at
// once finds what it finds one at a time, its points told in order.
func TestScreenConcurrent(t *testing.T) {
	var got []*ScreenResult
	var told [][]ScreenPoint
	for _, conc := range []int{0, 5} {
		o := screenOptions()
		o.Concurrent = conc
		var points []ScreenPoint
		o.Point = func(p ScreenPoint) { points = append(points, p) }
		r, err := Screen(o)
		if err != nil {
			t.Fatal(err)
		}
		got, told = append(got, r), append(told, points)
	}
	if !reflect.DeepEqual(got[0], got[1]) || !reflect.DeepEqual(told[0], told[1]) {
		t.Error("measured 5 at once, the screen differs from one at a time")
	}
}
