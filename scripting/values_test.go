package scripting

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestValuesInOnePlace: of the host's files, only those that change a
// value's form (values.go, values_*.go) and those that do the VM's own
// work (values.go's banner names them) import the Lua copy; a file that
// dispatches events or reports, such as events.go, expire.go and
// reports.go, imports none of it.
func TestValuesInOnePlace(t *testing.T) {
	vm := []string{"api.go", "cells.go", "edits.go", "host.go", "load.go", "memory.go"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		lua := false
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			lua = lua || strings.HasPrefix(path, "github.com/mod2048/mod2048/scripting/internal/lua")
		}
		allowed := name == "values.go" || strings.HasPrefix(name, "values_") || slices.Contains(vm, name)
		if lua && !allowed {
			t.Errorf("%s imports the Lua copy: a value changes form in values*.go only", name)
		}
		if !lua && slices.Contains([]string{"events.go", "expire.go", "reports.go"}, name) {
			seen++
		}
	}
	if seen != 3 {
		t.Errorf("events.go, expire.go and reports.go: %d of them found importing no Lua", seen)
	}
}
