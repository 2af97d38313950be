package web_test

import (
	"fmt"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// spotsMod has a hazard (so the page shows its legend) and tells the
// player four things every turn (the most a move may): several toasts
// show at once.
var spotsMod = map[string]string{
	"mod.toml": `id = "spots"
name = "Spots"
version = "1.0.0"
api_version = 2
rulesets = ["classic"]
`,
	"main.lua": `local SPOT = game.hazard { name = "spot", glyph = "*", description = "A spot: it does nothing at all, and says so at length." }
game.on("start", function() game.mark(0, 0, SPOT) end)
game.on("tick", function(ev)
  for i = 1, 4 do game.notify("message " .. i .. " of turn " .. ev.turn) end
end)
`,
}

// TestToastsBesideLegend: the mods' messages, several at once, cover
// neither the board nor the hazards' legend, on a phone, a tablet and a
// desktop, in the game's page and in the workshop.
func TestToastsBesideLegend(t *testing.T) {
	b := browser(t)
	plain := webtest.Serve(t, &web.Defaults{Options: bridge.Options{Mods: []bridge.ModSource{{Name: "spots", Files: spotsMod}}}})
	workshop := webtest.Serve(t, nil)
	for _, width := range []int64{360, 800, 1280} {
		t.Run(fmt.Sprint("page ", width), func(t *testing.T) {
			p := b.Open(t, plain, webtest.PageOptions{Width: width, Height: 900})
			defer p.Close()
			checkToasts(t, p)
		})
		t.Run(fmt.Sprint("workshop ", width), func(t *testing.T) {
			p := b.Open(t, workshop+"#workshop", webtest.PageOptions{Width: width, Height: 900})
			defer p.Close()
			p.WaitFor(`!!document.getElementById("ws-new-form")`, waitLong)
			p.Eval(`(() => { document.getElementById("ws-new-form").hidden || (document.getElementById("ws-new-id").value = "spots", document.getElementById("ws-new-create").click()); })()`, nil)
			p.WaitFor(`document.querySelector('#ws-status').dataset.kind === "ok"`, waitLong)
			setFile(p, "mod.toml", spotsMod["mod.toml"])
			setFile(p, "main.lua", spotsMod["main.lua"])
			p.WaitFor(`document.querySelector('#ws-status').textContent.startsWith("Running")`, waitLong)
			p.Click("#new-game")
			p.Idle()
			checkToasts(t, p)
		})
	}
}

// checkToasts plays until three toasts or more show at once, and checks,
// each time, that no toast meets the board or the legend.
func checkToasts(t *testing.T, p *webtest.Page) {
	t.Helper()
	p.WaitFor(`!document.getElementById("legend").hidden`, waitLong)
	p.Click("#game")
	keys := []string{"ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp"}
	most := 0
	for i := 0; i < 12 && most < 3; i++ {
		p.Press(keys[i%4])
		p.Idle()
		var got struct {
			Toasts  int
			Overlap string
		}
		p.Eval(`(() => {
			const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
			const legend = document.getElementById("legend").getBoundingClientRect();
			const board = document.getElementById("game").getBoundingClientRect();
			const toasts = [...document.querySelectorAll("#toasts .toast")];
			let overlap = "";
			for (const t of toasts) {
				const r = t.getBoundingClientRect();
				if (meets(r, legend)) overlap = "the legend";
				if (meets(r, board)) overlap = "the board";
			}
			return {Toasts: toasts.length, Overlap: overlap};
		})()`, &got)
		if got.Overlap != "" {
			t.Fatalf("with %d toasts, one covers %s", got.Toasts, got.Overlap)
		}
		most = max(most, got.Toasts)
	}
	if most < 3 {
		t.Fatalf("at most %d toasts showed at once", most)
	}
}
