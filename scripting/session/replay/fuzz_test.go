package replay_test

import (
	"testing"

	"github.com/mod2048/mod2048/scripting/session/replay"
)

// FuzzParse: no replay file, however damaged, makes Parse panic, and what
// it accepts writes back to a file it accepts again.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"format":"2048-replay","version":1,"start":{},"actions":[{"a":"move","dir":"left","turn":1,"digest":"0123456789abcdef"},{"a":"undo","turn":0,"digest":"fedcba9876543210"}]}`))
	f.Add([]byte(`{"format":"2048-replay","version":1,"start":{},"mods":[{"id":"m","version":"1","hash":"","path":"m"}],"actions":[{"a":"new","seed":5,"turn":0,"digest":"0123456789abcdef"},{"a":"move","dir":"up","faults":[{"turn":1,"mod":"m","event":"tick","kind":"failsafe","message":"x"}],"turn":1,"digest":"0123456789abcdef"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := replay.Parse(data)
		if err != nil {
			return
		}
		out, err := r.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed replay: %v", err)
		}
		if _, err := replay.Parse(out); err != nil {
			t.Fatalf("a written replay does not parse: %v\n%s", err, out)
		}
	})
}
