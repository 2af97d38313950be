package ai

import (
	"errors"
	"fmt"
)

// Settings tune the search and the evaluation. Every one is a TOML key
// (config/aiconfig reads them over the defaults: the engine reads
// no files and parses no TOML).
type Settings struct {
	// MinDepth and MaxDepth bound the search depth in moves; between them
	// the depth is the number of distinct tiles less DepthOffset, so the
	// search looks further as the board fills with different tiles.
	MinDepth    int `toml:"min_depth"`
	MaxDepth    int `toml:"max_depth"`
	DepthOffset int `toml:"depth_offset"`
	// ProbCutoff prunes chance branches less likely than this.
	ProbCutoff float64 `toml:"prob_cutoff"`
	// Samples is how many reseeded forks stand for the spawns of a move
	// in the search through the engine's rules (boards the bitboard does
	// not hold) at its root, the moves it chooses between; DeepSamples
	// how many below the root (0: Samples), where a sample's error weighs
	// less on the choice; ForkDepth how many moves deep it looks.
	Samples     int `toml:"samples"`
	DeepSamples int `toml:"deep_samples"`
	ForkDepth   int `toml:"fork_depth"`
	// Weights weigh the evaluation of a board.
	Weights Weights `toml:"weights"`
}

// Weights weigh the evaluation of each row and column of a board.
type Weights struct {
	Base              float64 `toml:"base"`               // a row's value before the terms below: keeps a live board above a lost one (0)
	Empty             float64 `toml:"empty"`              // for each empty cell
	Merges            float64 `toml:"merges"`             // for each merge waiting
	Monotonicity      float64 `toml:"monotonicity"`       // against tiles out of order
	MonotonicityPower float64 `toml:"monotonicity_power"` // the power of a tile's exponent in the order term
	Sum               float64 `toml:"sum"`                // against large tiles
	SumPower          float64 `toml:"sum_power"`          // the power of a tile's exponent in the sum term
}

// Defaults returns the tuned settings: the search reaches 2048 in nearly
// every game of classic 4×4 at a few milliseconds a move (see config/DESIGNING.md's
// figures). The search through the engine's rules looks four moves deep,
// with six samples of each move at its root and one below it: on
// cellular's presets it wins at least as often as a search three moves
// deep with four samples a move, or four deep with two, at half their
// time (cellular/RULES.md, "The expert").
func Defaults() Settings {
	return Settings{
		MinDepth: 2, MaxDepth: 6, DepthOffset: 2,
		ProbCutoff: 0.0001,
		Samples:    6, DeepSamples: 1, ForkDepth: 4,
		Weights: Weights{
			Base: 200000, Empty: 270, Merges: 700,
			Monotonicity: 47, MonotonicityPower: 4,
			Sum: 11, SumPower: 3.5,
		},
	}
}

// Validate reports settings the search cannot use.
func (s Settings) Validate() error {
	switch {
	case s.MinDepth < 1 || s.MaxDepth < s.MinDepth || s.MaxDepth > 12:
		return fmt.Errorf("min_depth %d and max_depth %d: want 1 ≤ min_depth ≤ max_depth ≤ 12", s.MinDepth, s.MaxDepth)
	case s.ProbCutoff < 0 || s.ProbCutoff >= 1:
		return fmt.Errorf("prob_cutoff %v: want 0 to 1", s.ProbCutoff)
	case s.Samples < 1 || s.Samples > 64:
		return fmt.Errorf("samples %d: want 1 to 64", s.Samples)
	case s.DeepSamples < 0 || s.DeepSamples > 64:
		return fmt.Errorf("deep_samples %d: want 0 (as samples) to 64", s.DeepSamples)
	case s.ForkDepth < 1 || s.ForkDepth > 4:
		return fmt.Errorf("fork_depth %d: want 1 to 4", s.ForkDepth)
	case s.Weights.MonotonicityPower < 0 || s.Weights.SumPower < 0 || s.Weights.MonotonicityPower > 8 || s.Weights.SumPower > 8:
		return errors.New("weights: the powers must be 0 to 8")
	}
	return nil
}

// Deep is how many samples the search takes of a move below its root.
func (s Settings) Deep() int {
	if s.DeepSamples == 0 {
		return s.Samples
	}
	return s.DeepSamples
}
