// Package scaffold is the small working mod that a new mod starts from:
// its manifest, entry file, README, a fixture file that passes as
// written, and the settings and annotations of the Lua language server.
// `2048 mod new` writes it to a folder, and the browser's workshop opens
// it in its editor, so that both start from the same files.
//
// The templates (files/) name what they fill in as {{.ID}}, {{.Name}},
// {{.Upper}}, {{.Ruleset}} and {{.Path}}, and nothing else: the fill is a
// plain replacement, which keeps text/template (and what it pulls in) out
// of the browser's WebAssembly. The fixture templates also name
// {{.Recorded}}: the "# Recorded for:" comment (mod.RecordedComment) of the
// new mod's manifest and main.lua as rendered, so that its case of the
// template's behaviour says so once that code is replaced.
package scaffold

import (
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

//go:embed files
var templates embed.FS

// ID is what a mod id must look like (the manifest's check).
var ID = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// Data is what the templates fill in.
type Data struct {
	ID      string // the mod id: "my_mod"
	Name    string // its display name: "My Mod"
	Upper   string // the id in upper case, for case IDs: "MY_MOD"
	Ruleset string // "classic" or "cellular"
	Path    string // the new folder as the user named it, slash-separated
}

// For returns the data of a new mod with the given id and ruleset, in
// the folder path (slash-separated; "" is the id).
func For(id, ruleset, path string) Data {
	if path == "" {
		path = id
	}
	return Data{ID: id, Name: DisplayName(id), Upper: strings.ToUpper(id), Ruleset: ruleset, Path: path}
}

// File is one file of a new mod: its path in the mod's folder
// (slash-separated), and the template it comes from ("" for the mod API's
// annotation file, scripting.LuaAnnotations).
type File struct {
	Path     string
	Template string
}

// Files returns the files of a new mod with the given id, for a ruleset,
// in the order they are written and listed.
func Files(id, ruleset string) []File {
	return []File{
		{"mod.toml", "mod.toml.tmpl"},
		{"main.lua", "main.lua.tmpl"},
		{"README.md", "README.md.tmpl"},
		{id + ".cases", ruleset + ".cases.tmpl"},
		{".luarc.json", "luarc.json"},
		{".luals/mod2048.lua", ""},
	}
}

// placeholder finds what a template fills in.
var placeholder = regexp.MustCompile(`\{\{[^}]*\}\}`)

// Render returns the content of each file of a new mod, by its path. A
// ruleset other than classic and cellular, or a template naming a field
// Data lacks, is an error.
func Render(d Data) (map[string][]byte, error) {
	if d.Ruleset != "classic" && d.Ruleset != "cellular" {
		return nil, fmt.Errorf("ruleset %q: want classic or cellular", d.Ruleset)
	}
	fields := map[string]string{"{{.ID}}": d.ID, "{{.Name}}": d.Name, "{{.Upper}}": d.Upper, "{{.Ruleset}}": d.Ruleset, "{{.Path}}": d.Path}
	out := map[string][]byte{}
	for _, f := range Files(d.ID, d.Ruleset) {
		if strings.HasSuffix(f.Path, ".cases") {
			// After mod.toml and main.lua (Files' order), the new mod's
			// sources (mod.Mod.Sources less .luals).
			fields["{{.Recorded}}"] = mod.RecordedComment(map[string]string{"mod.toml": string(out["mod.toml"]), "main.lua": string(out["main.lua"])})
		}
		if f.Template == "" {
			out[f.Path] = scripting.LuaAnnotations()
			continue
		}
		src, err := fs.ReadFile(templates, "files/"+f.Template)
		if err != nil {
			return nil, err
		}
		if !strings.HasSuffix(f.Template, ".tmpl") {
			out[f.Path] = src
			continue
		}
		var missing error
		text := placeholder.ReplaceAllStringFunc(string(src), func(p string) string {
			v, ok := fields[p]
			if !ok && missing == nil {
				missing = fmt.Errorf("%s: %s is not a field the templates may use", f.Template, p)
			}
			return v
		})
		if missing != nil {
			return nil, missing
		}
		out[f.Path] = []byte(text)
	}
	return out, nil
}

// DisplayName makes a mod's display name from its id: "my_mod" → "My Mod".
func DisplayName(id string) string {
	words := strings.FieldsFunc(id, func(r rune) bool { return r == '_' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	if len(words) == 0 {
		return id
	}
	return strings.Join(words, " ")
}
