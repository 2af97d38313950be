package web_test

import (
	"regexp"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// footerLine is the footer's form: 2048 and the build as package version
// writes it, with the commit that make web gives main.wasm.
var footerLine = regexp.MustCompile(`^2048 (devel|v\S+) \(rev [0-9a-f]{7}(\+dirty)?, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$`)

// TestFooterVersion: the page's footer names the game engine's build as
// 2048 version does: what main.wasm says of itself (mod2048.version), the
// commit of its sources and that commit's time (make web gives them; a
// main.wasm built without git would lack them).
func TestFooterVersion(t *testing.T) {
	b := browser(t)
	p := b.Open(t, webtest.Serve(t, &web.Defaults{Options: bridge.Options{Ruleset: "classic", Seed: "7"}}), webtest.PageOptions{})
	var own string
	p.Eval(`String(window.mod2048.version)`, &own)
	got := p.Text("#version")
	t.Logf("the footer: %s", got)
	if !p.Visible("#version") || got != "2048 "+own || !footerLine.MatchString(got) {
		t.Errorf("the footer: %q (visible %v), main.wasm's version %q: want 2048 and it, with its commit (run make web in a git clone)", got, p.Visible("#version"), own)
	}
}
