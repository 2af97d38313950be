package tomlkeys

import (
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestPlaces: every kind of key gets the line and column of its last part
// and of its value, an array the places of its elements; strings that
// hold what looks like keys, headers or comments define none.
func TestPlaces(t *testing.T) {
	src := "\ufeffid = \"x\" # a comment\n" + // 1
		"  name='a\\b'\n" + // 2
		"list = [ 1, \"a,]\" ,\n" + // 3
		"  [2, 3], # two\n" + // 4
		"]\n" + // 5
		"text = \"\"\"\n" + // 6
		"fake = 1\n" + // 7
		"[fake]\"\"\"\n" + // 8
		"a.\"b c\" . d = {e = 1, f = [true]}\n" + // 9
		"[ settings . size ]  # header\n" + // 10
		"type = \"int\"\n" + // 11
		"[[cases]]\n" + // 12
		"name = 'a'\n" + // 13
		"[[cases]]\n" + // 14
		"name = 'b'\n" // 15
	var doc map[string]any
	if _, err := toml.Decode(src, &doc); err != nil {
		t.Fatalf("the test's TOML does not parse: %v", err)
	}
	p := func(line, col int) Pos { return Pos{line, col} }
	want := map[string]Place{
		"id":                 {Key: p(1, 1), Value: p(1, 6)},
		"name":               {Key: p(2, 3), Value: p(2, 8)},
		"list":               {Key: p(3, 1), Value: p(3, 8), Elems: []Pos{p(3, 10), p(3, 13), p(4, 3)}},
		"text":               {Key: p(6, 1), Value: p(6, 8)},
		"a":                  {Key: p(9, 1)},
		"a.b c":              {Key: p(9, 3)},
		"a.b c.d":            {Key: p(9, 11), Value: p(9, 15)},
		"a.b c.d.e":          {Key: p(9, 16), Value: p(9, 20)},
		"a.b c.d.f":          {Key: p(9, 23), Value: p(9, 27), Elems: []Pos{p(9, 28)}},
		"settings":           {Key: p(10, 3)},
		"settings.size":      {Key: p(10, 14)},
		"settings.size.type": {Key: p(11, 1), Value: p(11, 8)},
		"cases":              {Key: p(12, 3)},
		"cases.name":         {Key: p(13, 1), Value: p(13, 8)},
	}
	got := Places([]byte(src))
	for k, w := range want {
		if g, ok := got[k]; !ok || !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %+v, want %+v", k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: %+v, which the text does not define", k, got[k])
		}
	}
}

// TestPlacesNeverFails: text that does not parse, cut anywhere, gives
// places within the text and never stops the scanner.
func TestPlacesNeverFails(t *testing.T) {
	src := "a = [1, {b = \"x\n[c\nd = '''\ne = \"\\\"\"\nf = {g = [}\n\"h\nk. = 3\n= 4\n[[\n"
	for i := range len(src) + 1 {
		lines := strings.Split(src[:i], "\n")
		for k, pl := range Places([]byte(src[:i])) {
			for _, pos := range append([]Pos{pl.Key, pl.Value}, pl.Elems...) {
				if pos == (Pos{}) {
					continue
				}
				if pos.Line < 1 || pos.Line > len(lines) || pos.Column < 1 || pos.Column > len(lines[pos.Line-1])+1 {
					t.Errorf("%q: %s at %+v, outside the text", src[:i], k, pos)
				}
			}
		}
	}
}
