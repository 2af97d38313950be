package web_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// TestNewModHint: the workshop's first words, inviting a new mod, are in
// the page's own colour, not an error's.
func TestNewModHint(t *testing.T) {
	b := browser(t)
	url := webtest.Serve(t, nil)
	p := b.Open(t, url+"#workshop", webtest.PageOptions{Width: 1400, Height: 900})
	p.WaitFor(`!!document.getElementById("ws-new-form") && !document.getElementById("ws-new-form").hidden`, waitLong)
	var got struct{ Hint, Error, HintColor, PageColor, ErrorColor string }
	p.Eval(`(() => {
		const hint = document.getElementById("ws-new-hint"), err = document.getElementById("ws-new-error");
		return {Hint: hint.textContent, Error: err.textContent, HintColor: getComputedStyle(hint).color,
			PageColor: getComputedStyle(hint.parentElement).color, ErrorColor: getComputedStyle(err).color};
	})()`, &got)
	if got.Hint != "Start a mod: its id names its folder and its fixtures." || got.Error != "" {
		t.Errorf("the new-mod form says %q, its error %q", got.Hint, got.Error)
	}
	if got.HintColor != got.PageColor || got.HintColor == got.ErrorColor {
		t.Errorf("the hint is %s, the form's text %s, an error %s", got.HintColor, got.PageColor, got.ErrorColor)
	}
	// A refused id is an error, and the hint goes.
	p.Eval(`document.getElementById("ws-new-id").value = "Bad Id"`, nil)
	p.Click("#ws-new-create")
	p.Eval(`(() => ({Hint: document.getElementById("ws-new-hint").textContent, Error: document.getElementById("ws-new-error").textContent}))()`, &got)
	if got.Hint != "" || got.Error == "" {
		t.Errorf("after a bad id the form says %q, its error %q", got.Hint, got.Error)
	}
}

// TestHowToPlayOfRuleset: the page explains the ruleset of the game it
// shows, and no other.
func TestHowToPlayOfRuleset(t *testing.T) {
	b := browser(t)
	url := webtest.Serve(t, nil)
	p := b.Open(t, url, webtest.PageOptions{Width: 600, Height: 900})
	shown := func() (out []string) {
		p.Eval(`[...document.querySelectorAll(".game-explanation")].filter((e) => e.offsetParent !== null).map((e) => e.dataset.ruleset)`, &out)
		return out
	}
	if got := shown(); len(got) != 1 || got[0] != "classic" {
		t.Errorf("a classic game explains %v", got)
	}
	startFromSettings(t, p, "cellular")
	if got := shown(); len(got) != 2 || got[0] != "cellular" || got[1] != "cellular" {
		t.Errorf("a cellular game explains %v", got)
	}
}

// startFromSettings starts a game of ruleset as a player does: it opens
// the settings with a click on their summary, picks the ruleset and clicks
// Start. (Chromium 156 leaves a <details> that a script opens its closed
// height when the page scrolls before the next frame, as a click's scroll
// on a loaded machine did: Start then lay below the end of the page.)
func startFromSettings(t *testing.T, p *webtest.Page, ruleset string) {
	t.Helper()
	var open bool
	p.Eval(`document.getElementById("settings").open`, &open)
	if !open {
		p.Click("#settings summary")
	}
	p.Eval(fmt.Sprintf(`(() => { const r = document.getElementById("ruleset"); r.value = %q; r.dispatchEvent(new Event("change", {bubbles: true})); })()`, ruleset), nil)
	p.Click("#start")
	p.WaitFor(fmt.Sprintf(`window.mod2048.view().view.ruleset === %q`, ruleset), waitLong)
}

// TestClickWhereAPersonWould: webtest.Click scrolls to an element below
// the fold and clicks it, straight after a click has opened the settings
// it is in; it does not take an element in closed settings for one that is
// shown (Chromium gives it a box below the end of the page, which no
// scroll reaches: a click at its centre hit nothing); and it refuses,
// saying so, to click an element that another covers, after as many looks
// as it is told, however slow the machine; and a page that draws no
// frames is said to, not waited on.
func TestClickWhereAPersonWould(t *testing.T) {
	b := browser(t)
	p := b.Open(t, webtest.Serve(t, nil), webtest.PageOptions{Width: 600, Height: 900})
	if why := p.WhyNotClickable("#start"); why != "it is not shown" {
		t.Errorf("Start in the closed settings: %q, want it is not shown", why)
	}
	// The settings open as a person opens them, with a click on their
	// summary. (A script that sets the <details>' open, which the page
	// never does, left Start "not shown" for a minute on a loaded machine
	// in Chromium 156: the flake this test had, which no person meets.)
	p.Run(
		webtest.Click("#settings summary"),
		chromedp.Evaluate(`(() => { const r = document.getElementById("ruleset"); r.value = "cellular"; r.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil),
		webtest.Click("#start"),
	)
	p.WaitFor(`window.mod2048.view().view.ruleset === "cellular"`, waitLong)

	p.Eval(`(() => { const d = document.createElement("div"); d.id = "cover"; d.style.cssText = "position: fixed; inset: 0; z-index: 1000"; document.body.appendChild(d); })()`, nil)
	// First until the page is settled: the button in view, under the cover
	// (on a loaded machine the page may still be laying out the game it
	// started, and Click's own tries then say so, not what covers it).
	why := ""
	for start := time.Now(); !strings.Contains(why, "hits div#cover"); {
		if why = p.WhyNotClickable("#new-game"); time.Since(start) > waitLong {
			t.Fatalf("waited %v for the cover to be what a click on New Game hits: %s", waitLong, why)
		}
	}
	// Then Click: it tries again while the button is covered, and fails
	// saying what covers it, after three looks (a deadline in seconds
	// once ended it: on a loaded machine, before a look had seen the
	// cover).
	var err error
	p.Run(chromedp.ActionFunc(func(ctx context.Context) error {
		err = webtest.TryClick("#new-game", 3).Do(ctx)
		return nil
	}))
	if !errors.Is(err, webtest.ErrNotClickable) || !strings.Contains(err.Error(), "clicking #new-game: 3 looks: a click at its centre") || !strings.Contains(err.Error(), "hits div#cover") {
		t.Errorf("a click on a covered button: %v", err)
	}
	// A page that draws no frames (a tab Chromium takes for a background
	// one) still answers a look, and the look says so, where Click's
	// first look once never came back.
	p.Eval(`window.requestAnimationFrame = () => 0`, nil)
	if why := p.WhyNotClickable("#new-game"); !strings.HasPrefix(why, "the page draws no frames (visibility ") {
		t.Errorf("a look at a page with no frames: %q", why)
	}
}
