package modapi

import (
	"regexp"
	"strings"
	"testing"
)

// classes returns every class of the API, by name.
func classes(a *API) map[string]Class {
	m := map[string]Class{}
	for _, c := range a.Classes {
		m[c.Name] = c
	}
	for _, e := range a.Events {
		m[e.Payload.Name], m[e.Request.Name] = e.Payload, e.Request
	}
	m[a.Features.Name], m[a.Game.Name] = a.Features, a.Game
	return m
}

// TestSpecDocumented: every alias, value of an event, class, field,
// function, parameter and result says what it is, and no name is
// declared twice.
func TestSpecDocumented(t *testing.T) {
	a := Spec()
	names := map[string]bool{}
	declare := func(name string) {
		if names[name] {
			t.Errorf("mod2048.%s is declared twice", name)
		}
		names[name] = true
	}
	for _, al := range a.Aliases {
		declare(al.Name)
		if al.Doc == "" || (al.Type == "") == (len(al.Values) == 0) {
			t.Errorf("alias %s: want a doc and either a type or values: %+v", al.Name, al)
		}
	}
	n := 0
	for name, c := range classes(a) {
		n++
		if name != c.Name || c.Doc == "" || len(c.Fields) == 0 {
			t.Errorf("class %s: want a doc and fields: %+v", name, c)
		}
		seen := map[string]bool{}
		for _, f := range c.Fields {
			if f.Doc == "" || f.Type == "" || seen[f.Name] {
				t.Errorf("%s.%s: want a type and a doc, once: %+v", c.Name, f.Name, f)
			}
			seen[f.Name] = true
		}
	}
	for _, c := range a.Classes {
		declare(c.Name)
	}
	for _, e := range a.Events {
		declare(e.Payload.Name)
		declare(e.Request.Name)
		if e.Doc == "" {
			t.Errorf("event %s has no doc", e.Name)
		}
	}
	declare(a.Features.Name)
	declare(a.Game.Name)
	if n != len(a.Classes)+2*len(a.Events)+2 {
		t.Errorf("two classes share a name")
	}
	for _, f := range append(append([]Func{}, a.Functions...), a.GlobalFuncs...) {
		if f.Doc == "" {
			t.Errorf("function %s has no doc", f.Name)
		}
		for _, p := range append(append([]Param{}, f.Params...), f.Returns...) {
			if p.Name == "" || p.Type == "" || p.Doc == "" {
				t.Errorf("function %s: parameter or result %+v: want a name, a type and a doc", f.Name, p)
			}
		}
	}
	for _, g := range a.Globals {
		if g.Doc == "" || g.Type == "" {
			t.Errorf("global %s: want a type and a doc", g.Name)
		}
	}
}

// TestSpecPayloadsAndRequests: a payload's keys are always there; a
// request's are all optional; each event's classes are named after it
// ("before_move": BeforeMoveEvent, BeforeMoveRequest).
func TestSpecPayloadsAndRequests(t *testing.T) {
	for _, e := range Spec().Events {
		var stem strings.Builder
		for _, part := range strings.Split(e.Name, "_") {
			stem.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
		if e.Payload.Name != stem.String()+"Event" || e.Request.Name != stem.String()+"Request" {
			t.Errorf("event %s: classes %s and %s", e.Name, e.Payload.Name, e.Request.Name)
		}
		for _, f := range e.Payload.Fields {
			if f.Optional {
				t.Errorf("%s.%s: a payload's key is always there, not optional", e.Payload.Name, f.Name)
			}
		}
		for _, f := range e.Request.Fields {
			if !f.Optional {
				t.Errorf("%s.%s: a request's key is optional", e.Request.Name, f.Name)
			}
		}
	}
}

// TestVersionsDocumented: what came in API version 2 says so in its doc,
// for the mod author who reads it, and a field or event whose doc says so
// came in version 2 (a function's doc may name a later addition, as
// game.on's filter); a feature of version 2 is optional (a version-1
// mod's game.features lacks it).
func TestVersionsDocumented(t *testing.T) {
	a := Spec()
	check := func(what string, version int, doc string) {
		if Since(version) > 1 && !strings.Contains(doc, "API version 2") {
			t.Errorf("%s came in API version %d; its doc does not say so: %q", what, version, doc)
		}
		if Since(version) == 1 && strings.HasPrefix(doc, "API version 2") && !strings.HasPrefix(what, "game.") {
			t.Errorf("%s: its doc says API version 2, its Version is %d", what, version)
		}
		if Since(version) > a.Version {
			t.Errorf("%s came in API version %d, after the host's %d", what, version, a.Version)
		}
	}
	for name, c := range classes(a) {
		for _, f := range c.Fields {
			check(name+"."+f.Name, f.Version, f.Doc)
		}
	}
	for _, f := range a.Features.Fields {
		if Since(f.Version) > 1 && !f.Optional {
			t.Errorf("feature %s came in API version %d and is not optional", f.Name, f.Version)
		}
	}
	for _, e := range a.Events {
		check("event "+e.Name, e.Version, e.Doc)
	}
	for _, f := range a.Functions {
		check("game."+f.Name, f.Version, f.Doc)
	}
}

// TestSpecTypeNames: every mod2048.X a type names is declared.
func TestSpecTypeNames(t *testing.T) {
	a := Spec()
	declared := map[string]bool{}
	for _, al := range a.Aliases {
		declared["mod2048."+al.Name] = true
	}
	cs := classes(a)
	for name := range cs {
		declared["mod2048."+name] = true
	}
	var types []string
	for _, al := range a.Aliases {
		types = append(types, al.Type)
	}
	for _, c := range cs {
		for _, f := range c.Fields {
			types = append(types, f.Type)
		}
	}
	for _, e := range a.Events {
		types = append(types, e.Filter)
	}
	for _, f := range append(append([]Func{}, a.Functions...), a.GlobalFuncs...) {
		for _, p := range append(append([]Param{}, f.Params...), f.Returns...) {
			types = append(types, p.Type)
		}
		types = append(types, f.Overloads...)
	}
	for _, g := range a.Globals {
		types = append(types, g.Type)
	}
	name := regexp.MustCompile(`mod2048\.[A-Za-z0-9_]+`)
	for _, ty := range types {
		for _, n := range name.FindAllString(ty, -1) {
			if !declared[n] {
				t.Errorf("type %s (in %q) is not declared", n, ty)
			}
		}
	}
}

// TestSpecIsACopy: a caller that changes its table changes no other's.
func TestSpecIsACopy(t *testing.T) {
	a := Spec()
	a.Functions[0].Name = "changed"
	a.Events[0].Payload.Fields[0].Name = "changed"
	b := Spec()
	if b.Functions[0].Name == "changed" || b.Events[0].Payload.Fields[0].Name == "changed" {
		t.Error("Spec returned a shared table")
	}
}
