package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
	"github.com/mod2048/mod2048/scripting/session/fixture"
)

// TestServeWrite: serve --write writes the site with the flags' game as
// defaults.json; a bad flag's error stops it.
func TestServeWrite(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "--write", dir, "--ruleset", "classic", "--set", "size=5", "--mod", filepath.Join("..", "..", "mods", "freeze"), "--mod-set", "freeze.turns=2", "--seed", "9"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, f := range append(web.Files(), web.DefaultsFile) {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the written site lacks %s", f)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, web.DefaultsFile))
	if err != nil {
		t.Fatal(err)
	}
	var d web.Defaults
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	o := d.Options
	if o.Ruleset != "classic" || o.Seed != "9" || len(o.Sets) != 1 || len(o.Mods) != 1 || o.Mods[0].Files["main.lua"] == "" || o.Mods[0].Files["mod.toml"] == "" {
		t.Fatalf("defaults %+v", o)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "--set", "size=40", "--write", dir}, 1, "size"},
		{[]string{"serve", "--mod", "nowhere/at/all", "--write", dir}, 1, "nowhere"},
		{[]string{"serve", "--mod", filepath.Join("..", "..", "mods", "freeze"), "--mod-set", "freeze.turns=0", "--write", dir}, 1, "minimum"},
		{[]string{"serve", "--seed", "x"}, 2, "whole number"},
		{[]string{"serve", "extra"}, 2, "unexpected argument"},
		{[]string{"serve", "--addr", "256.0.0.1:1"}, 1, "256.0.0.1"},
	} {
		var out, errOut bytes.Buffer
		if code := run(tc.args, &out, &errOut); code != tc.code || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut.String(), tc.code, tc.want)
		}
	}
}

var spawnEntry = regexp.MustCompile(`\{[^{}]*\}`)

// TestBrowserReplaysFixtures plays cases of the original game's fixtures
// (testdata/original) in the browser, by keys, and checks the page's board
// after each move against the fixture's.
func TestBrowserReplaysFixtures(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "original", "size4.cases")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := fixture.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	b := webtest.Start(t)
	keys := map[string]string{"Left": "ArrowLeft", "Right": "ArrowRight", "Up": "ArrowUp", "Down": "ArrowDown"}
	played := 0
	for _, c := range f.Cases {
		if played == 3 {
			break
		}
		if c.Given == nil || c.Seed != nil || len(c.Mods) > 0 || c.Ruleset != nil {
			continue
		}
		o := bridge.Options{Board: c.Given.Rows, Scripted: true}
		for _, d := range c.Config {
			o.Sets = append(o.Sets, strings.Fields(d.Value)...)
		}
		moves := 0
		for _, it := range c.Items {
			switch it.Name {
			case "SpawnScript":
				o.Spawns = append(o.Spawns, spawnEntry.FindAllString(it.Value, -1)...)
			case "Move":
				moves++
			}
		}
		if moves < 4 || len(o.Spawns) == 0 {
			continue
		}
		played++
		p := b.Open(t, webtest.Serve(t, &web.Defaults{Options: o}), webtest.PageOptions{})
		step := 0
		for _, it := range c.Items {
			switch it.Name {
			case "Move":
				k, ok := keys[it.Value]
				if !ok {
					t.Fatalf("%s: move %q", c.ID, it.Value)
				}
				step++
				p.Press(k)
			case "Expect":
				p.Idle()
				var want []string
				for _, row := range it.Board.Rows {
					want = append(want, strings.Join(strings.Fields(row), " "))
				}
				if got := p.Board("0"); got != strings.Join(want, "\n") {
					t.Fatalf("%s step %d (%s:%d): the page's board\n%s\nthe fixture's\n%s", c.ID, step, path, it.Line, got, strings.Join(want, "\n"))
				}
			}
		}
		t.Logf("%s: %d moves played in the browser", c.ID, step)
	}
	if played == 0 {
		t.Fatal("no case to play")
	}
}
