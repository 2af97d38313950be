package modapi

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestLuaLSFresh: the committed annotation file is what LuaLS writes.
func TestLuaLSFresh(t *testing.T) {
	got, err := os.ReadFile(filepath.Join("..", "..", LuaLSFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := Spec().LuaLS(); !bytes.Equal(got, want) {
		t.Errorf("%s is not what scripting/modapi writes: run make api", LuaLSFile)
	}
}

// TestReferenceFresh: the guide's reference of the game table, between
// its markers, is what Reference writes.
func TestReferenceFresh(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "..", GuideFile))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReplaceReference(guide, Spec().Reference())
	if err != nil {
		t.Fatalf("%s: %v", GuideFile, err)
	}
	if !bytes.Equal(guide, want) {
		t.Errorf("%s's reference of the game table is not what scripting/modapi writes: run make api", GuideFile)
	}
}

// TestReplaceReference: the reference goes between the markers, and a
// guide without them, or with them twice or out of order, is an error.
func TestReplaceReference(t *testing.T) {
	doc := "a\n" + GuideBegin + "\nold\n" + GuideEnd + "\nb\n"
	got, err := ReplaceReference([]byte(doc), "new\n")
	if want := "a\n" + GuideBegin + "\nnew\n" + GuideEnd + "\nb\n"; err != nil || string(got) != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{
		"a\n",
		GuideEnd + "\n" + GuideBegin + "\n",
		GuideBegin + "\n" + GuideEnd + "\n" + GuideBegin + "\n",
	} {
		if _, err := ReplaceReference([]byte(bad), "new\n"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
