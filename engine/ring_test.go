package engine

import "testing"

// TestRing: the history keeps the last limit states in order, whatever
// the pushes, pops and growth; without a limit it keeps them all.
func TestRing(t *testing.T) {
	state := func(n int) State { return State{Turn: n} }
	for _, limit := range []int{1, 3, 8, 20, -1} {
		var r ring
		var model []int
		for i := 0; i < 200; i++ {
			switch {
			case i%7 == 3 && r.len() > 0: // an undo
				if got := r.pop().Turn; got != model[len(model)-1] {
					t.Fatalf("limit %d: pop %d, want %d", limit, got, model[len(model)-1])
				}
				model = model[:len(model)-1]
			case i%11 == 5: // a redo: no limit applies, room was made
				if limit > 0 && len(model) >= limit {
					continue
				}
				r.push(state(i), 0)
				model = append(model, i)
			default:
				dropped, ok := r.push(state(i), limit)
				model = append(model, i)
				if limit > 0 && len(model) > limit {
					if !ok || dropped.Turn != model[0] {
						t.Fatalf("limit %d: dropped %v %d, want %d", limit, ok, dropped.Turn, model[0])
					}
					model = model[1:]
				} else if ok {
					t.Fatalf("limit %d: dropped a state with room left", limit)
				}
			}
			if r.len() != len(model) {
				t.Fatalf("limit %d: %d states, want %d", limit, r.len(), len(model))
			}
			for k, want := range model {
				if got := r.at(k).Turn; got != want {
					t.Fatalf("limit %d, step %d: state %d is %d, want %d", limit, i, k, got, want)
				}
			}
		}
	}
}
