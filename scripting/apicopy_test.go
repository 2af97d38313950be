package scripting_test

import (
	"bytes"
	"testing"

	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/modapi"
)

// TestAPIListsAreCopies: what an embedder gets of the host's API is a copy;
// changing it changes nothing of the host's. The API's description is
// built anew by each modapi.Spec call (modapi's TestSpecIsACopy); the
// host keeps its own.
func TestAPIListsAreCopies(t *testing.T) {
	before := scripting.LuaAnnotations()
	a := modapi.Spec()
	a.Functions[0].Name = "changed"
	a.Events = nil
	scripting.LuaAnnotations()[0] = 'x'
	if after := scripting.LuaAnnotations(); !bytes.Equal(after, before) {
		t.Error("the host's API changed by a change of what modapi.Spec or LuaAnnotations returned")
	}
	l := scripting.DefaultLimits()
	l.HandlerInstructions = 1
	if scripting.DefaultLimits().HandlerInstructions == 1 {
		t.Error("DefaultLimits changed by a change of what it returned")
	}
}
