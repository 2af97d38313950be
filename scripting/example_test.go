package scripting_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting"
	"github.com/mod2048/mod2048/scripting/mod"
)

// helloMod is a small mod, file by file: it refuses every move up, and tells
// the player what each finished turn gained.
var helloMod = map[string]string{
	"mod.toml": `id = "hello"
name = "Hello"
version = "1.0.0"
api_version = 2
rulesets = ["classic"]
`,
	"main.lua": `
game.on("before_move", function(ev)
  if ev.dir == "up" then
    return { refuse = "up is closed" }
  end
end)

game.on("tick", function(ev)
  game.notify("turn " .. ev.turn .. " gained " .. ev.gained)
end)
`,
}

// Move plays a move with the mods, as package scripting/session does for
// every frontend: the host is made for the game, attached to it and told that
// the game begins. A refused move leaves the game as it was; a played one
// leaves the mods' notices.
func ExampleHost_Move() {
	m, err := mod.LoadSources(helloMod, "hello")
	if err != nil {
		log.Fatal(err)
	}
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 2048})
	if err != nil {
		log.Fatal(err)
	}
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), scripting.DefaultLimits())
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close()
	h.Attach(g)
	if err := h.Start(g); err != nil {
		log.Fatal(err)
	}

	_, err = h.Move(g, engine.Up)
	var refusal *engine.Refusal
	if errors.As(err, &refusal) {
		fmt.Printf("Up: %v (refused by %s); turn %d\n", err, refusal.By, g.State().Turn)
	}

	for _, d := range []engine.Direction{engine.Left, engine.Right} {
		res, err := h.Move(g, d)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v: %+v; turn %d\n", d, res, g.State().Turn)
	}
	for _, n := range h.TakeNotices() {
		fmt.Printf("notice from %s: %s\n", n.Mod, n.Text)
	}
	fmt.Println("score", g.Score())
	// Output:
	// Up: move refused: Hello: up is closed (refused by hello); turn 0
	// Left: {Changed:true Gained:0 Merges:0 Spawns:1}; turn 1
	// Right: {Changed:true Gained:4 Merges:1 Spawns:1}; turn 2
	// notice from hello: turn 1 gained 0
	// notice from hello: turn 2 gained 4
	// score 4
}

// A mod's error does not stop the game: Host.Move plays the move again
// without the failing mod, and TakeReports says which mod failed, in which
// event, where in its files and why. After FailLimit failing turns in a row
// the mod is disabled.
func ExampleHost_TakeReports() {
	m, err := mod.LoadSources(map[string]string{
		"mod.toml": `id = "oops"
name = "Oops"
version = "1.0.0"
api_version = 2
`,
		"main.lua": `game.on("tick", function(ev)
  error("turn " .. ev.turn .. " is one too many")
end)
`,
	}, "oops")
	if err != nil {
		log.Fatal(err)
	}
	g, err := engine.New(engine.NewClassic(), engine.Options{Width: 4, Height: 4, Seed: 2048})
	if err != nil {
		log.Fatal(err)
	}
	h, err := scripting.NewHost([]*mod.Mod{m}, g.Rules(), g.Options(), scripting.DefaultLimits())
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close()
	h.Attach(g)
	if err := h.Start(g); err != nil {
		log.Fatal(err)
	}

	for _, d := range []engine.Direction{engine.Left, engine.Right, engine.Left} {
		res, err := h.Move(g, d)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v: %+v; turn %d\n", d, res, g.State().Turn)
		for _, r := range h.TakeReports() {
			fmt.Println(r.Error())
		}
	}
	fmt.Println("disabled", h.Disabled("oops"))
	// Output:
	// Left: {Changed:true Gained:0 Merges:0 Spawns:1}; turn 1
	// mod oops (main.lua:2): tick: turn 1 is one too many
	// Right: {Changed:true Gained:4 Merges:1 Spawns:1}; turn 2
	// mod oops (main.lua:2): tick: turn 2 is one too many
	// Left: {Changed:true Gained:0 Merges:0 Spawns:1}; turn 3
	// mod oops (main.lua:2): tick: turn 3 is one too many (the mod is now disabled)
	// disabled true
}
