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
