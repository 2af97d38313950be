package aiconfig_test

import (
	"strings"
	"testing"

	"github.com/mod2048/mod2048/config/aiconfig"
	"github.com/mod2048/mod2048/engine/ai"
)

func TestParse(t *testing.T) {
	s, err := aiconfig.Parse([]byte("max_depth = 4\n[weights]\nempty = 300\n"), "ai.toml")
	if err != nil || s.MaxDepth != 4 || s.Weights.Empty != 300 || s.Weights.Merges != ai.Defaults().Weights.Merges {
		t.Fatalf("%+v, %v", s, err)
	}
	for _, c := range []struct{ src, want string }{
		{"max_depth = \"deep\"", "ai.toml:1:"},
		{"\n\n[weights]\nempties = 3", "ai.toml:4: weights.empties: unknown key"},
		{"depth = 3\n[weights]\nempties = 3", "ai.toml:1: depth: unknown key (keys: min_depth, max_depth, depth_offset, prob_cutoff, samples, deep_samples, fork_depth, [weights])\nai.toml:3: weights.empties: unknown key"},
		{"min_depth = 0", "min_depth 0"},
		{"samples = 100", "samples 100"},
	} {
		if _, err := aiconfig.Parse([]byte(c.src), "ai.toml"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
}

// FuzzParse: no settings file makes Parse panic, and
// what it accepts is valid.
func FuzzParse(f *testing.F) {
	f.Add([]byte("max_depth = 4\n[weights]\nempty = 300\n"))
	f.Add([]byte("min_depth = 1\nmax_depth = 12\nprob_cutoff = 0.5\nsamples = 64\nfork_depth = 4\n"))
	f.Add([]byte("[weights]\nsum_power = 9\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := aiconfig.Parse(data, "fuzz.toml")
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Parse accepted invalid settings: %v", err)
		}
	})
}
