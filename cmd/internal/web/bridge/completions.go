package bridge

import (
	"strings"

	"github.com/mod2048/mod2048/scripting/modapi"
)

// Completion is one entry of an editor's completion of the mod API, in
// the shape of a CodeMirror completion: what is typed, its kind
// ("function", "variable", "property", "enum"), a short detail (a
// signature, a type) and its documentation.
type Completion struct {
	Label  string `json:"label"`
	Type   string `json:"type"`
	Detail string `json:"detail,omitempty"`
	Info   string `json:"info,omitempty"`
}

// Completions is what an editor completes in a mod's Lua files: the
// globals, the members of a table by its name ("game."), the strings a
// call takes as its first argument ("game.on" takes the events), and the
// keys of the tables that cross between the host and a mod (hazard specs,
// requests, marks, filters, payloads).
type Completions struct {
	Globals []Completion            `json:"globals"`
	Members map[string][]Completion `json:"members"`
	Strings map[string][]Completion `json:"strings"`
	Keys    []Completion            `json:"keys"`
}

// apiCompletions builds the completion listing from the mod API's
// description (package modapi), the one the host takes its lists from
// and the LuaLS annotation file is written from: a function or event the
// host gains is in the editor's completion as soon as it is described.
func apiCompletions(a *modapi.API) Completions {
	c := Completions{Members: map[string][]Completion{}, Strings: map[string][]Completion{}}
	c.Globals = append(c.Globals, Completion{Label: "game", Type: "variable", Detail: "the mod API", Info: a.Game.Doc})
	for _, f := range a.Game.Fields {
		c.Members["game"] = append(c.Members["game"], Completion{Label: f.Name, Type: "variable", Detail: fieldType(f), Info: f.Doc})
	}
	for _, f := range a.Functions {
		c.Members["game"] = append(c.Members["game"], Completion{Label: f.Name, Type: "function", Detail: signature("game."+f.Name, f), Info: f.Doc})
	}
	for _, f := range a.Features.Fields {
		c.Members["game.features"] = append(c.Members["game.features"], Completion{Label: f.Name, Type: "property", Detail: fieldType(f), Info: f.Doc})
	}
	for _, e := range a.Events {
		c.Strings["game.on"] = append(c.Strings["game.on"], Completion{Label: e.Name, Type: "enum", Detail: "event", Info: e.Doc})
	}
	for _, g := range a.Globals {
		c.Globals = append(c.Globals, Completion{Label: g.Name, Type: "variable", Info: g.Doc})
	}
	for _, f := range a.GlobalFuncs {
		c.Globals = append(c.Globals, Completion{Label: f.Name, Type: "function", Detail: signature(f.Name, f), Info: f.Doc})
	}
	// The keys of every other table, each key with a given doc once.
	classes := a.Classes
	for _, e := range a.Events {
		classes = append(classes, e.Payload, e.Request)
	}
	seen := map[string]bool{}
	for _, cl := range classes {
		for _, f := range cl.Fields {
			if seen[f.Name+"\x00"+f.Doc] {
				continue
			}
			seen[f.Name+"\x00"+f.Doc] = true
			c.Keys = append(c.Keys, Completion{Label: f.Name, Type: "property", Detail: cl.Name + "." + f.Name + ": " + fieldType(f), Info: f.Doc})
		}
	}
	return c
}

// fieldType is a field's type as a completion shows it: without the
// API's prefix, "(optional)" after an optional one.
func fieldType(f modapi.Field) string {
	t := strings.TrimPrefix(f.Type, "mod2048.")
	if f.Optional {
		t += " (optional)"
	}
	return t
}

// signature writes a call of f: "game.on(event, handler, filter?)".
func signature(name string, f modapi.Func) string {
	var ps []string
	for _, p := range f.Params {
		if p.Optional {
			ps = append(ps, p.Name+"?")
		} else {
			ps = append(ps, p.Name)
		}
	}
	return name + "(" + strings.Join(ps, ", ") + ")"
}
