package web_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web/webtest"
)

// domSnapshot is the page's board as DOM: each tile's classes, cell and
// text, and the overlay; what a golden file holds.
const domSnapshot = `(() => {
	const lines = [];
	lines.push("score " + document.getElementById("score").firstChild.nodeValue + " best " + document.getElementById("best").textContent);
	for (const el of document.querySelectorAll("#tiles > *")) {
		const cls = [...el.classList].filter((c) => c !== "tile-new" && c !== "tile-merged").join(".");
		lines.push(cls + " r" + el.style.getPropertyValue("--r") + " c" + el.style.getPropertyValue("--c") + " " + JSON.stringify(el.textContent));
	}
	for (const el of document.querySelectorAll("#tiles .mark")) {
		lines.push("mark " + el.dataset.mark + " r" + el.dataset.row + " c" + el.dataset.col + " " + JSON.stringify(el.dataset.tip));
	}
	const legend = document.getElementById("legend");
	if (!legend.hidden) {
		for (const li of legend.querySelectorAll("li")) lines.push("legend " + JSON.stringify(li.textContent));
	}
	if (document.querySelector("#tiles .mark")) lines.push("text " + JSON.stringify(document.getElementById("board-text").textContent));
	const msg = document.getElementById("message");
	lines.push("message " + (msg.hidden ? "hidden" : msg.className + " " + JSON.stringify(document.getElementById("message-text").textContent)));
	return lines.join("\n") + "\n";
})()`

// golden compares the page's DOM with testdata/dom/NAME.golden, and with
// -update rewrites it and the reference screenshot testdata/screens/NAME.png.
func golden(t *testing.T, p *webtest.Page, name string) {
	t.Helper()
	p.Idle()
	var got string
	p.Eval(domSnapshot, &got)
	path := filepath.Join("testdata", "dom", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		png := filepath.Join("testdata", "screens", name+".png")
		if err := os.MkdirAll(filepath.Dir(png), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(png, p.Screenshot(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the page's DOM for %s differs from %s:\n%s\nwant\n%s", name, path, got, want)
	}
}
