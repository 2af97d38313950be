// Command icons draws the browser game's home-screen icons into
// cmd/internal/web/site: icon-192.png and icon-512.png, the original's
// 2048 tile (gold #edc22e, with "2048" in its light text #f9f6f2) filling
// the square, so that the icon is also maskable (its text inside the
// middle 60%). It draws with the standard library alone: the digits are
// a 5×7 pixel font, emboldened and scaled. Run it from the module's
// folder (go run ./cmd/internal/web/internal/icons) after changing it,
// and commit the PNGs.
package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
)

// Sizes are the icons' sizes in pixels: the two a web app manifest needs
// for every platform to pick from.
var Sizes = []int{192, 512}

var (
	gold  = color.NRGBA{0xed, 0xc2, 0x2e, 0xff}
	light = color.NRGBA{0xf9, 0xf6, 0xf2, 0xff}
)

// glyphs are the digits of "2048" in a 5×7 grid.
var glyphs = map[rune][7]string{
	'2': {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	'0': {".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'4': {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	'8': {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
}

// Draw draws the icon of size×size pixels.
func Draw(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = gold.R, gold.G, gold.B, gold.A
	}
	const text = "2048"
	// Each glyph is drawn twice, a column apart (bold, as the original's
	// digits): 6 columns a glyph and one of space between, 27 columns
	// over 60% of the width.
	cols := len(text)*6 + len(text) - 1
	px := size * 6 / 10 / cols
	w, h := cols*px, 7*px
	x0, y0 := (size-w)/2, (size-h)/2
	for i, r := range text {
		for y, row := range glyphs[r] {
			for x, c := range row {
				if c != '#' {
					continue
				}
				gx := x0 + (i*7+x)*px
				gy := y0 + y*px
				for dy := 0; dy < px; dy++ {
					for dx := 0; dx < 2*px; dx++ {
						img.SetNRGBA(gx+dx, gy+dy, light)
					}
				}
			}
		}
	}
	return img
}

func main() {
	dir := filepath.Join("cmd", "internal", "web", "site")
	for _, size := range Sizes {
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&buf, Draw(size)); err != nil {
			fmt.Fprintln(os.Stderr, "icons:", err)
			os.Exit(1)
		}
		name := filepath.Join(dir, fmt.Sprintf("icon-%d.png", size))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "icons:", err)
			os.Exit(1)
		}
		fmt.Println("wrote", name)
	}
}
