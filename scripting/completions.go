package scripting

import (
	"github.com/mod2048/mod2048/scripting/internal/workcount"
	"regexp"
	"strings"
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

// The annotation file's lines that the listing reads.
var (
	annClass    = regexp.MustCompile(`^---@class mod2048\.(\w+)`)
	annField    = regexp.MustCompile(`^---@field (\w+)(\??) (.+?)(?: # (.*))?$`)
	annAlias    = regexp.MustCompile(`^---@alias mod2048\.(\w+)`)
	annVariant  = regexp.MustCompile(`^---\| "([^"]*)"(?: # (.*))?$`)
	annParam    = regexp.MustCompile(`^---@param (\S+?)(\??) (\S+)`)
	annFunction = regexp.MustCompile(`^function (game\.)?(\w+)\((.*)\) end$`)
	annGlobal   = regexp.MustCompile(`^(\w+) = \{\}$`)
)

// LuaCompletions returns the mod API's completion listing, read from the
// LuaLS annotation file (the one `2048 mod new` writes, which
// luals_test.go keeps in step with the host): a function or event the
// host gains is in the editor's completion as soon as it is annotated.
func LuaCompletions() Completions {
	c := Completions{Members: map[string][]Completion{}, Strings: map[string][]Completion{}}
	var doc []string    // the --- lines of documentation above what comes next
	var params []string // the ---@param lines' names, for a signature
	class, alias := "", ""
	seen := map[string]bool{}
	for _, line := range strings.Split(string(luaAnnotations), "\n") {
		workcount.Step()
		line = strings.TrimRight(line, "\r")
		switch {
		case annClass.MatchString(line):
			class, alias = annClass.FindStringSubmatch(line)[1], ""
			if class == "Game" {
				c.Globals = append(c.Globals, Completion{Label: "game", Type: "variable", Detail: "the mod API", Info: strings.Join(doc, " ")})
			}
			doc = nil
		case annField.MatchString(line):
			m := annField.FindStringSubmatch(line)
			e := Completion{Label: m[1], Type: "property", Detail: strings.TrimPrefix(m[3], "mod2048.") + optional(m[2]), Info: m[4]}
			switch class {
			case "Game":
				e.Type = "variable"
				c.Members["game"] = append(c.Members["game"], e)
			case "Features":
				c.Members["game.features"] = append(c.Members["game.features"], e)
			default:
				e.Detail = class + "." + m[1] + ": " + e.Detail
				if !seen[m[1]+"\x00"+m[4]] {
					seen[m[1]+"\x00"+m[4]] = true
					c.Keys = append(c.Keys, e)
				}
			}
		case annAlias.MatchString(line):
			alias, class = annAlias.FindStringSubmatch(line)[1], ""
			doc = nil
		case annVariant.MatchString(line):
			m := annVariant.FindStringSubmatch(line)
			if alias == "Event" {
				c.Strings["game.on"] = append(c.Strings["game.on"], Completion{Label: m[1], Type: "enum", Detail: "event", Info: m[2]})
			}
		case annParam.MatchString(line):
			m := annParam.FindStringSubmatch(line)
			params = append(params, m[1]+m[2])
		case annFunction.MatchString(line):
			m := annFunction.FindStringSubmatch(line)
			e := Completion{Label: m[2], Type: "function", Detail: m[1] + m[2] + "(" + strings.Join(params, ", ") + ")", Info: strings.Join(doc, " ")}
			if m[1] != "" {
				c.Members["game"] = append(c.Members["game"], e)
			} else {
				c.Globals = append(c.Globals, e)
			}
			doc, params, class, alias = nil, nil, "", ""
		case annGlobal.MatchString(line):
			name := annGlobal.FindStringSubmatch(line)[1]
			if name != "game" {
				c.Globals = append(c.Globals, Completion{Label: name, Type: "variable", Info: strings.Join(doc, " ")})
			}
			doc, params, class, alias = nil, nil, "", ""
		case strings.HasPrefix(line, "---@"):
			// a type, a return, an overload: not shown
		case strings.HasPrefix(line, "---"):
			doc = append(doc, strings.TrimSpace(strings.TrimPrefix(line, "---")))
		case strings.TrimSpace(line) == "":
			doc, class, alias = nil, "", ""
		}
	}
	return c
}

func optional(mark string) string {
	if mark != "" {
		return " (optional)"
	}
	return ""
}
