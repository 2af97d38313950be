package suggest

import "testing"

// TestFor: a name that differs only in case or '-' gets its known name;
// a likely typo the nearest; a name far from every known one nothing.
func TestFor(t *testing.T) {
	names := []string{"id", "name", "version", "api_version", "win_value", "blight.rate"}
	for s, want := range map[string]string{
		"versoin":     "version",
		"Version":     "version",
		"api-version": "api_version",
		"winvalue":    "win_value",
		"win_valeu":   "win_value",
		"blite.rate":  "blight.rate",
		"nme":         "name",
		"zzzzzz":      "",
		"author":      "",
		"":            "",
	} {
		if got := For(s, names); got != want {
			t.Errorf("For(%q) = %q, want %q", s, got, want)
		}
	}
	if got := For("x", nil); got != "" {
		t.Errorf("For(x, no names) = %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"versoin", "version", 1}, {"gmaes", "games", 1}, {"stduy", "study", 1}, {"ca", "abc", 3}, {"same", "same", 0}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
