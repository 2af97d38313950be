package bridge_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/scripting/mod/modtest"
)

// bombBytes is how much a bomb's entry inflates to: 64 times what a mod
// may have.
const bombBytes = 64 * bridge.MaxModBytes

// bombZip is a zip of a mod whose main.lua inflates to bombBytes, and
// whose header declares it holds declared bytes; in base64.
func bombZip(declared uint64) string {
	return base64.StdEncoding.EncodeToString(modtest.Bomb("mine", ownManifest, bombBytes, declared))
}

// TestZipBomb: a player's zip whose entries inflate past what a mod may
// have is refused while it inflates, whatever its entries' headers
// declare, and so is one of too many entries or files, for the workshop's
// import (UnpackMod) and for play alike (both read it with
// ModSource.files); reading never takes much more memory than a mod may.
func TestZipBomb(t *testing.T) {
	many := func(n, size int) string {
		files := map[string]string{"mine/mod.toml": ownManifest}
		for i := range n {
			files[fmt.Sprintf("mine/f%03d.lua", i)] = strings.Repeat("-", size)
		}
		return zipOf(t, files)
	}
	for _, tc := range []struct {
		name, zip, want string
	}{
		// Its header tells the truth: it is refused unread.
		{"declares its size", bombZip(bombBytes), `entry "mine/main.lua" has more than the 16 MiB a file of a mod may have`},
		// Its header claims a few bytes: archive/zip stops at them.
		{"declares a small size", bombZip(100), `entry "mine/main.lua": zip: not a valid zip file`},
		// Its header claims a mod's size exactly: with the manifest, the
		// files declare more than a mod may have.
		{"declares the limit", bombZip(bridge.MaxModBytes), "more than the 16 MiB a mod may have"},
		{"many entries", many(2*bridge.MaxModFiles+1, 0), fmt.Sprintf("%d entries, more than the %d a mod's zip may have", 2*bridge.MaxModFiles+2, 2*bridge.MaxModFiles)},
		{"many files", many(bridge.MaxModFiles, 0), fmt.Sprintf("%d files, more than the %d a mod may have", bridge.MaxModFiles+1, bridge.MaxModFiles)},
		{"many large files", many(bridge.MaxModFiles-1, bridge.MaxModBytes/(bridge.MaxModFiles-8)), "more than the 16 MiB a mod may have"},
	} {
		if len(tc.zip) > bridge.MaxModBytes {
			t.Fatalf("%s: the zip itself is %d bytes of base64", tc.name, len(tc.zip))
		}
		src := bridge.ModSource{Name: "mine.zip", Zip: tc.zip}
		var r bridge.Reply
		n := modtest.Allocated(func() { r = bridge.UnpackMod(src) })
		t.Logf("%s: %d bytes of base64, %.1f MiB allocated to refuse it", tc.name, len(tc.zip), float64(n)/(1<<20))
		if r.Error == nil || r.Error.Kind != bridge.KindInput || !strings.Contains(r.Error.Message, tc.want) {
			t.Errorf("%s: unpacked: %+v, want an input error with %q", tc.name, r.Error, tc.want)
		}
		if r.Files != nil {
			t.Errorf("%s: unpacked %d files", tc.name, len(r.Files))
		}
		if n > 4*bridge.MaxModBytes {
			t.Errorf("%s: refusing it allocated %d bytes, more than 4 times what a mod may have", tc.name, n)
		}
		g := bridge.New().NewGame(bridge.Options{Mods: []bridge.ModSource{src}, Seed: "1"}, nil)
		if g.Error == nil || !strings.Contains(g.Error.Message, tc.want) {
			t.Errorf("%s: played: %+v, want an error with %q", tc.name, g.Error, tc.want)
		}
	}
}
