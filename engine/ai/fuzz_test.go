package ai

import "testing"

// FuzzParseSettings: no settings file makes ParseSettings panic, and what
// it accepts is valid.
func FuzzParseSettings(f *testing.F) {
	f.Add([]byte("max_depth = 4\n[weights]\nempty = 300\n"))
	f.Add([]byte("min_depth = 1\nmax_depth = 12\nprob_cutoff = 0.5\nsamples = 64\nfork_depth = 4\n"))
	f.Add([]byte("[weights]\nsum_power = 9\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSettings(data, "fuzz.toml")
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseSettings accepted invalid settings: %v", err)
		}
	})
}
