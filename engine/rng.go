package engine

import (
	"encoding/binary"
	"hash/fnv"
	"math/bits"
)

// RNG is the game's seeded random source: SplitMix64, whose whole state is
// one word. It is a value kept in the game state, so saving, loading, undoing
// and redoing a game carry it along and the game continues exactly as it
// would have. The sequence for a seed is fixed forever: replays and fixtures
// depend on it.
type RNG struct {
	State uint64
}

// NewRNG returns the source for seed.
func NewRNG(seed uint64) RNG { return RNG{State: seed} }

// Uint64 returns the next 64 random bits.
func (r *RNG) Uint64() uint64 {
	r.State += 0x9e3779b97f4a7c15
	return Mix(r.State)
}

// Mix is SplitMix64's finalizer: it scatters the bits of x, so that
// neighbouring inputs give unrelated outputs (seeds of games, of forks).
func Mix(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// PositionSeed is a hash of what a position holds (its turn and cells),
// for the seeds of a search's samples: the same position, the same
// samples.
func PositionSeed(st *State) uint64 {
	h := uint64(0x9e3779b97f4a7c15) ^ uint64(st.Turn)
	for _, c := range st.Board.Cells {
		h = Mix(h ^ uint64(c.Kind)<<48 ^ uint64(c.Token)<<40 ^ uint64(c.Level)<<16 ^ uint64(c.Counter))
	}
	return h
}

// IntN returns a uniform integer in [0, n); n must be positive. It uses
// Lemire's multiply-and-reject method, so it has no modulo bias.
func (r *RNG) IntN(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), un)
	if lo < un {
		threshold := -un % un
		for lo < threshold {
			hi, lo = bits.Mul64(r.Uint64(), un)
		}
	}
	return int(hi)
}

// Float64 returns a uniform number in [0, 1) with 53 random bits.
func (r *RNG) Float64() float64 {
	return float64(r.Uint64()>>11) / (1 << 53)
}

// Chance returns true with probability p (p ≤ 0 never, p ≥ 1 always). It
// draws one number from the source whatever p is, so the sequence of draws
// does not depend on the probability.
func (r *RNG) Chance(p float64) bool {
	return r.Float64() < p
}

// DeriveRNG returns an independent source for a named stream of a game with
// the given seed (a mod's own stream, say): the same seed and name always
// give the same stream, and different names give unrelated streams.
func DeriveRNG(seed uint64, name string) RNG {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write([]byte(name))
	mix := RNG{State: h.Sum64()}
	return RNG{State: mix.Uint64()}
}
