package mod

import (
	"fmt"
	"slices"
	"strings"
)

// SettingError is a MOD.KEY=VALUE setting (2048's --mod-set, the browser
// game's modSets) that ApplySettings cannot apply: one of Shape,
// NotLoaded or Err says why, for a frontend to say it its way.
type SettingError struct {
	Setting   string // the setting as given
	Mod       string // the mod's id, when the setting has the shape
	Shape     bool   // it is not MOD.KEY=VALUE (with a MOD and a KEY)
	NotLoaded bool   // no mod of the id Mod is loaded
	Err       error  // the mod's refusal of the key or value (Mod.Set)
}

func (e *SettingError) Error() string {
	switch {
	case e.Shape:
		return fmt.Sprintf("mod setting %q: want MOD.KEY=VALUE", e.Setting)
	case e.NotLoaded:
		return fmt.Sprintf("mod setting %q: no mod %s is loaded", e.Setting, e.Mod)
	}
	return e.Err.Error()
}

// Unwrap returns the mod's refusal, if that is the error.
func (e *SettingError) Unwrap() error { return e.Err }

// ApplySettings applies MOD.KEY=VALUE settings to the mods, in order, each
// VALUE a TOML value (a bare word is a string) that the mod of id MOD (the
// last of mods with that id) checks against its manifest (Mod.Set). It
// returns, for each mod's id, the KEY=VALUE settings made, sorted; the
// first that cannot be applied stops it with a *SettingError.
func ApplySettings(mods []*Mod, sets []string) (map[string][]string, error) {
	changed := map[string][]string{}
	for _, kv := range sets {
		name, value, ok := strings.Cut(kv, "=")
		id, key, dotted := strings.Cut(name, ".")
		if !ok || !dotted || id == "" || key == "" {
			return nil, &SettingError{Setting: kv, Shape: true}
		}
		var md *Mod
		for _, m := range mods {
			if m.ID() == id {
				md = m
			}
		}
		if md == nil {
			return nil, &SettingError{Setting: kv, Mod: id, NotLoaded: true}
		}
		if err := md.Set(key, value); err != nil {
			return nil, &SettingError{Setting: kv, Mod: id, Err: err}
		}
		changed[id] = append(changed[id], key+"="+value)
	}
	for _, c := range changed {
		slices.Sort(c)
	}
	return changed, nil
}
