package tui

import (
	"os"

	"github.com/gdamore/tcell/v2"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
)

// ColorMode is how many colors the game draws with.
type ColorMode int

// The color modes. ColorAuto picks one from the environment and the
// terminal: ColorNone when NO_COLOR is set (https://no-color.org) or the
// terminal has no colors, Color8 or Color16 on terminals with that many,
// ColorRGB on 256-color and true-color terminals (tcell fits the RGB palette
// to 256 colors where it must).
const (
	ColorAuto ColorMode = iota
	ColorNone
	Color8
	Color16
	ColorRGB
)

func (m ColorMode) String() string {
	return [...]string{"auto", "none", "8", "16", "rgb"}[m]
}

// detectColors resolves ColorAuto for screen s.
func detectColors(m ColorMode, s tcell.Screen) ColorMode {
	if m != ColorAuto {
		return m
	}
	if os.Getenv("NO_COLOR") != "" {
		return ColorNone
	}
	switch n := s.Colors(); {
	case n < 8:
		return ColorNone
	case n < 16:
		return Color8
	case n < 256:
		return Color16
	}
	return ColorRGB
}

// The original game's palette (gabrielecirulli/2048, seeds/002's color
// map): tile backgrounds from 2 to 2048, dark text on 2 and 4, light text
// above, the board and the empty cells.
var (
	rgbTiles = [...]int32{
		0xeee4da, // 2
		0xede0c8, // 4
		0xf2b179, // 8
		0xf59563, // 16
		0xf67c5f, // 32
		0xf65e3b, // 64
		0xedcf72, // 128
		0xedcc61, // 256
		0xedc850, // 512
		0xedc53f, // 1024
		0xedc22e, // 2048
	}
	// Beyond 2048 (our extension): the original's "super" tile, #3c3a32,
	// then four more dark tones, repeating from 2^17 on. All take light
	// text.
	rgbSuper = [...]int32{
		0x3c3a32, // 4096, 131072, ...
		0x2f4858, // 8192
		0x1f5f7a, // 16384
		0x136f63, // 32768
		0x6a1b4d, // 65536
	}
	rgbDarkText  = tcell.NewHexColor(0x776e65)
	rgbLightText = tcell.NewHexColor(0xf9f6f2)
	rgbBoard     = tcell.NewHexColor(0xbbada0)
	rgbEmpty     = tcell.NewHexColor(0xcdc1b4)
	rgbLine      = tcell.NewHexColor(0x8f7a66)
	rgbGold      = tcell.NewHexColor(0xedc22e)
	rgbPage      = tcell.NewHexColor(0xfaf8ef)
)

// The 16- and 8-color palettes: a ramp through the basic colors, each with
// the text color that reads on it. The number is always written, so tiles
// that share a color still read.
type pair struct{ bg, fg tcell.Color }

var (
	tiles16 = [...]pair{
		{tcell.ColorSilver, tcell.ColorBlack},  // 2
		{tcell.ColorWhite, tcell.ColorBlack},   // 4
		{tcell.ColorOlive, tcell.ColorBlack},   // 8
		{tcell.ColorYellow, tcell.ColorBlack},  // 16
		{tcell.ColorMaroon, tcell.ColorWhite},  // 32
		{tcell.ColorRed, tcell.ColorWhite},     // 64
		{tcell.ColorTeal, tcell.ColorBlack},    // 128
		{tcell.ColorAqua, tcell.ColorBlack},    // 256
		{tcell.ColorGreen, tcell.ColorBlack},   // 512
		{tcell.ColorLime, tcell.ColorBlack},    // 1024
		{tcell.ColorPurple, tcell.ColorWhite},  // 2048
		{tcell.ColorFuchsia, tcell.ColorBlack}, // 4096
		{tcell.ColorNavy, tcell.ColorWhite},    // 8192, then navy and blue in turn
		{tcell.ColorBlue, tcell.ColorWhite},
	}
	tiles8 = [...]pair{
		{tcell.ColorSilver, tcell.ColorBlack}, // 2, 4
		{tcell.ColorOlive, tcell.ColorBlack},  // 8, 16
		{tcell.ColorMaroon, tcell.ColorWhite}, // 32, 64
		{tcell.ColorTeal, tcell.ColorBlack},   // 128, 256
		{tcell.ColorGreen, tcell.ColorBlack},  // 512, 1024
		{tcell.ColorPurple, tcell.ColorWhite}, // 2048 and 4096
		{tcell.ColorNavy, tcell.ColorWhite},   // 8192 and above
	}
)

// theme holds the styles of one color mode.
type theme struct {
	mode ColorMode

	frame    tcell.Style // the board's lines
	empty    tcell.Style // an empty cell
	text     tcell.Style // plain text
	title    tcell.Style // "2048"
	value    tcell.Style // header values
	info     tcell.Style // status messages
	err      tcell.Style // error messages
	prompt   tcell.Style // the y/n question
	won      tcell.Style // the win banner
	lost     tcell.Style // the lose banner
	overlay  tcell.Style // the help box
	heading  tcell.Style // headings in the help box
	tooSmall tcell.Style
}

func newTheme(mode ColorMode) *theme {
	d := tcell.StyleDefault
	t := &theme{
		mode: mode, frame: d, empty: d, text: d,
		title: d.Bold(true), value: d.Bold(true),
		info: d, err: d.Bold(true), prompt: d.Bold(true).Reverse(true),
		won: d.Bold(true).Reverse(true), lost: d.Bold(true).Reverse(true),
		overlay: d, heading: d.Bold(true).Underline(true), tooSmall: d.Bold(true),
	}
	switch mode {
	case ColorRGB:
		t.frame = d.Foreground(rgbLine).Background(rgbBoard)
		t.empty = d.Background(rgbEmpty)
		t.title = d.Foreground(rgbGold).Bold(true)
		t.err = d.Foreground(tcell.NewHexColor(0xf65e3b)).Bold(true)
		t.prompt = d.Foreground(rgbLightText).Background(tcell.NewHexColor(0x8f7a66)).Bold(true)
		t.won = d.Foreground(tcell.NewHexColor(0x3c3a32)).Background(rgbGold).Bold(true)
		t.lost = d.Foreground(rgbDarkText).Background(tcell.NewHexColor(0xeee4da)).Bold(true)
		t.overlay = d.Foreground(rgbDarkText).Background(rgbPage)
		t.heading = t.overlay.Bold(true)
	case Color8, Color16:
		t.title = d.Foreground(tcell.ColorOlive).Bold(true)
		t.err = d.Foreground(tcell.ColorMaroon).Bold(true)
		t.prompt = d.Foreground(tcell.ColorWhite).Background(tcell.ColorNavy).Bold(true)
		t.won = d.Foreground(tcell.ColorBlack).Background(tcell.ColorOlive).Bold(true)
		t.lost = d.Foreground(tcell.ColorBlack).Background(tcell.ColorSilver).Bold(true)
		t.heading = d.Bold(true)
		if mode == Color16 {
			t.won = d.Foreground(tcell.ColorBlack).Background(tcell.ColorYellow).Bold(true)
			t.err = d.Foreground(tcell.ColorRed).Bold(true)
		}
	}
	return t
}

// tile returns the style of a classic tile of value 2^level.
func (t *theme) tile(level int) tcell.Style {
	d := tcell.StyleDefault.Bold(true)
	i := level - 1
	if i < 0 {
		i = 0
	}
	switch t.mode {
	case ColorRGB:
		if i < len(rgbTiles) {
			fg := rgbLightText
			if i < 2 {
				fg = rgbDarkText
			}
			return d.Background(tcell.NewHexColor(rgbTiles[i])).Foreground(fg)
		}
		return d.Background(tcell.NewHexColor(rgbSuper[(i-len(rgbTiles))%len(rgbSuper)])).Foreground(rgbLightText)
	case Color16:
		if i >= len(tiles16) {
			i = len(tiles16) - 2 + (i-len(tiles16))%2
		}
		p := tiles16[i]
		return d.Background(p.bg).Foreground(p.fg)
	case Color8:
		p := tiles8[min(i/2, len(tiles8)-1)]
		return d.Background(p.bg).Foreground(p.fg)
	}
	// No color: a tile is a block in reverse video, the number in it bold.
	return d.Reverse(true)
}

// Cellular energy ramps (RGB): pale to deep green; light text from energy 5.
var rgbAlive = [...]int32{0xc5e1a5, 0xaed581, 0x9ccc65, 0x8bc34a, 0x7cb342, 0x689f38, 0x558b2f, 0x33691e, 0x1b5e20}

// cellular returns the style of a cellular cell: alive cells bright and
// bold, dormant ones dim, catalysts gold, active blight red, incoming
// blight red on dark.
func (t *theme) cellular(c engine.Cell) tcell.Style {
	d := tcell.StyleDefault
	switch {
	case c.Token == cellular.TokenBlight:
		switch t.mode {
		case ColorRGB:
			return d.Background(tcell.NewHexColor(0xb71c1c)).Foreground(rgbLightText).Bold(true)
		case Color8, Color16:
			return d.Background(tcell.ColorMaroon).Foreground(tcell.ColorWhite).Bold(true)
		}
		return d.Reverse(true).Bold(true)
	case c.Token == cellular.TokenIncoming:
		switch t.mode {
		case ColorRGB:
			return d.Background(tcell.NewHexColor(0x3e2723)).Foreground(tcell.NewHexColor(0xff7961)).Bold(true)
		case Color8, Color16:
			return d.Foreground(tcell.ColorMaroon).Bold(true).Underline(true)
		}
		return d.Bold(true).Underline(true)
	case c.Kind == cellular.KindAlive:
		s := d.Bold(true)
		switch t.mode {
		case ColorRGB:
			i := min(int(c.Level), len(rgbAlive)) - 1
			fg := rgbDarkText
			if c.Level >= 5 {
				fg = rgbLightText
			}
			s = s.Background(tcell.NewHexColor(rgbAlive[max(i, 0)])).Foreground(fg)
		case Color16:
			if c.Level >= 5 {
				s = s.Background(tcell.ColorGreen).Foreground(tcell.ColorBlack)
			} else {
				s = s.Background(tcell.ColorLime).Foreground(tcell.ColorBlack)
			}
		case Color8:
			s = s.Background(tcell.ColorGreen).Foreground(tcell.ColorBlack)
		default:
			s = s.Reverse(true)
		}
		if c.Token == cellular.TokenCatalyst {
			s = s.Underline(true)
		}
		return s
	case c.Kind == cellular.KindDormant:
		s := d.Dim(true)
		switch t.mode {
		case ColorRGB:
			s = d.Background(tcell.NewHexColor(0xa8a29a)).Foreground(tcell.NewHexColor(0x4a4540))
		case Color8, Color16:
			s = d.Foreground(tcell.ColorGray)
			if t.mode == Color8 {
				s = d.Dim(true)
			}
		}
		if c.Token == cellular.TokenCatalyst {
			s = s.Underline(true)
		}
		return s
	case c.Token == cellular.TokenCatalyst:
		switch t.mode {
		case ColorRGB:
			return d.Background(tcell.NewHexColor(0xffd54f)).Foreground(rgbDarkText).Bold(true)
		case Color8, Color16:
			return d.Foreground(tcell.ColorOlive).Bold(true)
		}
		return d.Bold(true).Underline(true)
	}
	return t.empty
}

// hazardColors are the color names of the mod API (game.hazard's color).
var hazardColors = map[string]tcell.Color{
	"black": tcell.ColorBlack, "red": tcell.ColorRed, "green": tcell.ColorLime,
	"yellow": tcell.ColorYellow, "blue": tcell.ColorBlue, "magenta": tcell.ColorFuchsia,
	"cyan": tcell.ColorAqua, "white": tcell.ColorWhite, "gray": tcell.ColorGray,
	"orange": tcell.ColorOrange, "purple": tcell.ColorPurple, "brown": tcell.ColorBrown,
}

// hazardColor returns the color of a hazard: a name of the mod API or
// #rrggbb; ColorDefault for none.
func hazardColor(name string) tcell.Color {
	if c, ok := hazardColors[name]; ok {
		return c
	}
	return tcell.GetColor(name)
}

// hazard returns the style of a hazard's glyph: a badge in the hazard's
// color, its glyph black or white, whichever reads on it.
func (t *theme) hazard(color string) tcell.Style {
	d := tcell.StyleDefault.Bold(true)
	c := hazardColor(color)
	if t.mode == ColorNone || color == "" || c == tcell.ColorDefault {
		if t.mode == ColorNone {
			return d
		}
		return d.Background(tcell.ColorBlack).Foreground(tcell.ColorWhite)
	}
	r, g, b := c.RGB()
	fg := tcell.ColorWhite
	if r*299+g*587+b*114 > 128*1000 {
		fg = tcell.ColorBlack
	}
	return d.Background(c).Foreground(fg)
}
