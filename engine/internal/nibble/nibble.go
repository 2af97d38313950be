// Package nibble holds what the engine's classic 4×4 fast path, package
// engine/bitboard and the expert player's search share about a 4×4 board
// packed in 64 bits, a nibble a cell (cell (r, c) at bits 4(4r+c)).
package nibble

import "math/bits"

// Transpose swaps the rows and columns of a packed 4×4 board.
func Transpose(p uint64) uint64 {
	a1 := p & 0xF0F00F0FF0F00F0F
	a2 := p & 0x0000F0F00000F0F0
	a3 := p & 0x0F0F00000F0F0000
	a := a1 | a2<<12 | a3>>12
	b1 := a & 0xFF00FF0000FF00FF
	b2 := a & 0x00FF00FF00000000
	b3 := a & 0x00000000FF00FF00
	return b1 | b2>>24 | b3<<24
}

// Tiles returns bit 4i set for each cell i that holds a tile (a nibble
// that is not 0).
func Tiles(p uint64) uint64 {
	x := p | p>>1
	x |= x >> 2
	return x & 0x1111111111111111
}

// Empty counts the empty cells (nibbles that are 0).
func Empty(p uint64) int {
	return 16 - bits.OnesCount64(Tiles(p))
}
