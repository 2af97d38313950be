package tomlkeys

import (
	"reflect"
	"testing"
)

// TestLines: keys, dotted and quoted keys, tables and arrays of tables get
// the line they are first defined on; comments and blank lines none.
func TestLines(t *testing.T) {
	src := "# a comment\nid = \"x\"\n\n[settings.size]\ntype = \"int\"\n\"quoted\".key = 1\n[[cases]]\nname = \"a\"\n[[cases]]\nname = \"b\"\n"
	want := map[string]int{"id": 2, "settings.size": 4, "settings.size.type": 5, "settings.size.quoted.key": 6, "cases": 7, "cases.name": 8}
	if got := Lines([]byte(src)); !reflect.DeepEqual(got, want) {
		t.Errorf("Lines = %v, want %v", got, want)
	}
}

// TestValueAt: the value at a key's parts, or nil.
func TestValueAt(t *testing.T) {
	doc := map[string]any{"a": map[string]any{"b": int64(1)}, "c": "x"}
	for _, tc := range []struct {
		key  []string
		want any
	}{{[]string{"a", "b"}, int64(1)}, {[]string{"c"}, "x"}, {[]string{"c", "d"}, nil}, {[]string{"z"}, nil}} {
		if got := ValueAt(doc, tc.key); got != tc.want {
			t.Errorf("ValueAt(%v) = %v, want %v", tc.key, got, tc.want)
		}
	}
}
