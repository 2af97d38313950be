//go:build workcount

package fuzz

import (
	"fmt"

	"github.com/mod2048/mod2048/scripting/costsearch"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
)

// workBound is the third oracle in a build with the tag workcount: the
// loop iterations of the turns (Result.Work, net of an empty mod's) are at
// most workcount.WorkPerInstruction for each instruction charged. Exact,
// and the same on every machine.
type workBound struct{}

func (workBound) Start() {}

func (workBound) Check(res costsearch.Result) error {
	if res.Work > workcount.WorkPerInstruction*max(res.Instructions, 1) {
		return fmt.Errorf("%d loop iterations for %d charged instructions, more than %d an instruction",
			res.Work, res.Instructions, workcount.WorkPerInstruction)
	}
	return nil
}

func init() { workCount = workBound{} }
