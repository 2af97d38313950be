package config_test

import (
	"fmt"

	"github.com/mod2048/mod2048/config"
)

// Build layers a preset, a file and overrides; an error names where the bad
// setting was written.
func ExampleBuild() {
	c, err := config.Build(config.BuildOptions{
		Difficulty: "late",
		Sets:       []string{"blight.charges=3", "e_cap=12"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Ruleset, c.Preset, c.Cellular.ECap, c.Cellular.Blight.Charges, c.Cellular.Blight.Rate)
	fmt.Println(c.Origin("e_cap"), c.Origin("blight.rate").File)

	_, err = config.Build(config.BuildOptions{Ruleset: "cellular", Sets: []string{"blight.charges=0"}})
	fmt.Println(err)
	_, err = config.Build(config.BuildOptions{Ruleset: "cellular", Sets: []string{"E_cap=12"}})
	fmt.Println(err)
	// Output:
	// cellular late 12 3 0.1
	// --set presets/late.toml
	// --set: blight.charges: 0 is outside 1 to 100
	// --set: E_cap: unknown key (did you mean "e_cap"?)
}

// Show writes the configuration as TOML; a file of it loads back the same.
func ExampleConfig_TOML() {
	c, _ := config.Build(config.BuildOptions{Difficulty: "classic", Sets: []string{"size=5"}})
	back, _ := config.Parse(c.TOML(), "shown.toml", "")
	fmt.Println(back.Preset, back.Classic == c.Classic, back.Classic.Size)
	// Output:
	// classic true 5
}
