// Package nibble holds what the engine's classic 4×4 fast path and package
// engine/bitboard share about a 4×4 board packed in 64 bits, a nibble a
// cell (cell (r, c) at bits 4(4r+c)).
package nibble

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
