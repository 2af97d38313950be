package bridge

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/mods"
	"github.com/mod2048/mod2048/scripting/mod"
)

// Catalog is what the page offers to choose from: the rulesets, the
// presets (with their TOML, a start for a custom file) and the shipped
// mods with their settings.
type Catalog struct {
	Rulesets []string      `json:"rulesets"`
	Presets  []PresetInfo  `json:"presets"`
	Mods     []ShippedMod  `json:"mods"`
	Limits   CatalogLimits `json:"limits"`
}

// PresetInfo is a built-in preset.
type PresetInfo struct {
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	TOML    string `json:"toml"`
	Default bool   `json:"default,omitempty"` // the ruleset's default preset
}

// ShippedMod is a mod the program ships, or a player's mod as
// InspectMod describes it.
type ShippedMod struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Version     string        `json:"version"`
	Description string        `json:"description,omitempty"`
	Rulesets    []string      `json:"rulesets,omitempty"`
	Settings    []SettingInfo `json:"settings,omitempty"`
}

// SettingInfo is a mod's setting.
type SettingInfo struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Default     string   `json:"default"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Choices     []string `json:"choices,omitempty"` // a choice's values
	Description string   `json:"description,omitempty"`
}

// CatalogLimits are the limits the page checks before it sends a
// player's mod.
type CatalogLimits struct {
	ModFiles int `json:"modFiles"`
	ModBytes int `json:"modBytes"`
	TOMLSize int `json:"tomlBytes"`
}

// ListCatalog returns the catalog.
func ListCatalog() Reply {
	c := &Catalog{
		Rulesets: config.Rulesets(),
		Limits:   CatalogLimits{ModFiles: MaxModFiles, ModBytes: MaxModBytes, TOMLSize: config.MaxFileSize},
	}
	for _, name := range config.Presets() {
		p, err := config.Preset(name)
		if err != nil {
			return fail(err)
		}
		src, err := config.PresetSource(name)
		if err != nil {
			return fail(err)
		}
		def, _ := config.DefaultPreset(p.Ruleset)
		c.Presets = append(c.Presets, PresetInfo{Name: name, Ruleset: p.Ruleset, TOML: string(src), Default: def == name})
	}
	for _, id := range mods.IDs() {
		sub, err := fs.Sub(mods.FS(), id)
		if err != nil {
			return fail(err)
		}
		m, err := mod.LoadFS(sub, "mods/"+id)
		if err != nil {
			return fail(err)
		}
		c.Mods = append(c.Mods, describe(m))
	}
	return Reply{Catalog: c}
}

// describe says what a mod's manifest says of it.
func describe(m *mod.Mod) ShippedMod {
	sm := ShippedMod{ID: m.ID(), Name: m.Manifest.Name, Version: m.Manifest.Version, Description: m.Manifest.Description, Rulesets: m.Manifest.Rulesets}
	for name, s := range m.Manifest.Settings {
		sm.Settings = append(sm.Settings, SettingInfo{Name: name, Type: s.Type, Default: fmt.Sprint(m.Values[name]), Min: s.Min, Max: s.Max, Choices: s.Choices, Description: s.Description})
	}
	sort.Slice(sm.Settings, func(i, j int) bool { return sm.Settings[i].Name < sm.Settings[j].Name })
	return sm
}

// InspectMod reads a mod as NewGame loads it, without playing it: its
// manifest's id, name, version, description, rulesets and settings, for
// the page to list a player's mod by its name when it is picked (and to
// say at once what is wrong with one that cannot load).
func InspectMod(src ModSource) Reply {
	m, err := src.load()
	if err != nil {
		return fail(&Error{Kind: KindMod, Message: err.Error()})
	}
	sm := describe(m)
	return Reply{Mod: &sm}
}

// parseSpawn reads a spawn-queue entry, "ROW,COL,VALUE" (braces allowed,
// as a fixture writes them: {ROW,COL,VALUE}). A value the ruleset cannot
// read waits in the queue as a fixture's does, and fails the move that
// reaches it.
func parseSpawn(rules engine.Rules, text string) (engine.SpawnEntry, error) {
	t := strings.TrimSpace(text)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "{"), "}")
	parts := strings.Split(t, ",")
	if len(parts) != 3 {
		return engine.SpawnEntry{}, fmt.Errorf("spawn %q: want ROW,COL,VALUE", text)
	}
	r, err1 := strconv.Atoi(strings.TrimSpace(parts[0]))
	c, err2 := strconv.Atoi(strings.TrimSpace(parts[1]))
	if err1 != nil || err2 != nil {
		return engine.SpawnEntry{}, fmt.Errorf("spawn %q: row and column must be whole numbers", text)
	}
	p := engine.Pos{Row: r, Col: c}
	v := strings.TrimSpace(parts[2])
	cell, err := rules.ParseCell(v)
	if err != nil {
		return engine.InvalidSpawn(p, v, err), nil
	}
	return engine.SpawnEntry{Pos: p, Cell: cell, Text: v}, nil
}
