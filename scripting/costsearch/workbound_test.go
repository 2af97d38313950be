package costsearch

import (
	"testing"

	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// TestWorkBound holds every corpus program's work, the loop iterations of
// its turns that the work count sees (package workcount), to
// WorkPerInstruction times the instructions it was charged: exactly, the
// same on every machine, whatever the load. It runs in a build with the
// tag workcount (make test runs it so), and is skipped in others.
func TestWorkBound(t *testing.T) {
	if !workcount.Counting {
		t.Skip("the work count needs the build tag workcount")
	}
	ps, err := ReadCorpus(CorpusDir)
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, 0)
	worst, worstName := 0.0, ""
	for _, p := range ps {
		res := r.Run(p.Source)
		if res.Err != nil {
			t.Errorf("%s: %v", p.Name, res.Err)
			continue
		}
		ratio := float64(res.Work) / float64(max(res.Instructions, 1))
		t.Logf("%s: %d iterations, %d instructions: %.2f an instruction", p.Name, res.Work, res.Instructions, ratio)
		if ratio > worst {
			worst, worstName = ratio, p.Name
		}
		if res.Work > workcount.WorkPerInstruction*max(res.Instructions, 1) {
			t.Errorf("%s: %d loop iterations for %d charged instructions, more than %d an instruction", p.Name, res.Work, res.Instructions, workcount.WorkPerInstruction)
		}
	}
	t.Logf("the most work an instruction: %.2f (%s), the bound %d", worst, worstName, workcount.WorkPerInstruction)
}
