package engine

import (
	"errors"
	"fmt"
)

// FaultKind says what a hook's fault was.
type FaultKind uint8

// The kinds of fault a hook records.
const (
	// FaultError: the hook failed on the turn (an error, a budget passed, an
	// invalid request); the turn was played without it.
	FaultError FaultKind = iota + 1
	// FaultFailsafe: a failsafe (not a budget) stopped the hook on the turn;
	// the turn was played without it.
	FaultFailsafe
	// FaultDisabled: the hook is off from the turn after this one on.
	FaultDisabled
)

var faultKinds = [...]string{FaultError: "error", FaultFailsafe: "failsafe", FaultDisabled: "disabled"}

func (k FaultKind) String() string {
	if k > 0 && int(k) < len(faultKinds) {
		return faultKinds[k]
	}
	return fmt.Sprintf("FaultKind(%d)", uint8(k))
}

// ParseFaultKind reads what FaultKind.String writes.
func ParseFaultKind(s string) (FaultKind, error) {
	for k, name := range faultKinds {
		if name != "" && name == s {
			return FaultKind(k), nil
		}
	}
	return 0, fmt.Errorf("fault kind %q is not error, failsafe or disabled", s)
}

// Fault is a hook's failure that the game keeps in its state, with the turn
// it happened on: undo, redo and saves bring it back with the turn, so
// whatever a hook decides from the record (the mod host: which mod is
// disabled, how many turns in a row it failed) is the same however the game
// got to that state. Hook names the hook (the mod host: a mod's id), Event
// the event it failed in.
type Fault struct {
	Turn    int
	Hook    string
	Event   string
	Kind    FaultKind
	Message string
}

// MaxFaults bounds the faults of kinds error and failsafe a state keeps:
// when a turn adds more, the oldest are dropped. Disables are all kept.
const MaxFaults = 32

// MaxFaultHooks bounds the disables a state keeps (one per hook).
const MaxFaultHooks = 1024

// MaxFaultText bounds a fault's hook, event and message, in bytes: a
// state or a save with a longer one is refused.
const MaxFaultText = 1024

// checkFault checks the fields of a fault a hook records or a save holds.
func checkFault(f *Fault) error {
	switch {
	case f.Hook == "" || len(f.Hook) > MaxFaultText:
		return errors.New("a fault's hook is empty or too long")
	case len(f.Event) > MaxFaultText || len(f.Message) > MaxFaultText:
		return fmt.Errorf("fault of %s: its event or message is longer than %d bytes", f.Hook, MaxFaultText)
	case f.Kind < FaultError || f.Kind > FaultDisabled:
		return fmt.Errorf("fault of %s: unknown kind %d", f.Hook, f.Kind)
	}
	return nil
}

// recordFaults adds a turn's faults to s, on its turn, and drops the oldest
// errors and failsafe stops past MaxFaults. A disable of a hook already
// disabled is not kept twice.
func (s *State) recordFaults(faults []Fault) error {
	for _, f := range faults {
		f.Turn = s.Turn
		if err := checkFault(&f); err != nil {
			return err
		}
		if f.Kind == FaultDisabled {
			if s.HookDisabled(f.Hook) {
				continue
			}
			if s.countFaults(FaultDisabled) >= MaxFaultHooks {
				return fmt.Errorf("more than %d hooks disabled", MaxFaultHooks)
			}
		}
		s.Faults = append(s.Faults, f)
	}
	n := len(s.Faults) - s.countFaults(FaultDisabled)
	if n <= MaxFaults {
		return nil
	}
	drop := n - MaxFaults
	kept := s.Faults[:0]
	for _, f := range s.Faults {
		if f.Kind != FaultDisabled && drop > 0 {
			drop--
			continue
		}
		kept = append(kept, f)
	}
	clear(s.Faults[len(kept):])
	s.Faults = kept
	return nil
}

func (s *State) countFaults(k FaultKind) int {
	n := 0
	for i := range s.Faults {
		if s.Faults[i].Kind == k {
			n++
		}
	}
	return n
}

// HookDisabled reports whether the record of s disables the hook.
func (s *State) HookDisabled(hook string) bool {
	for i := range s.Faults {
		if s.Faults[i].Kind == FaultDisabled && s.Faults[i].Hook == hook {
			return true
		}
	}
	return false
}

// HookFailedInARow returns how many turns in a row, up to and including the
// state's own, the record of s says the hook failed (an error or a
// failsafe stop).
func (s *State) HookFailedInARow(hook string) int {
	n, want := 0, s.Turn
	for i := len(s.Faults) - 1; i >= 0; i-- {
		f := &s.Faults[i]
		if f.Hook != hook || f.Kind == FaultDisabled || f.Turn > want {
			continue
		}
		if f.Turn < want {
			break
		}
		n++
		want--
	}
	return n
}

// checkFaults checks a loaded state's record: each fault well formed, on a
// turn played by then, in turn order, within the bounds recordFaults keeps.
func (s *State) checkFaults() error {
	prev, errs, disables := 0, 0, 0
	for i := range s.Faults {
		f := &s.Faults[i]
		if err := checkFault(f); err != nil {
			return fmt.Errorf("faults[%d]: %w", i, err)
		}
		if f.Turn < 1 || f.Turn > s.Turn || f.Turn < prev {
			return fmt.Errorf("faults[%d]: turn %d is not from %d to the state's turn %d", i, f.Turn, max(prev, 1), s.Turn)
		}
		prev = f.Turn
		if f.Kind == FaultDisabled {
			disables++
		} else {
			errs++
		}
	}
	if errs > MaxFaults || disables > MaxFaultHooks {
		return fmt.Errorf("faults: %d errors and %d disables, more than %d and %d", errs, disables, MaxFaults, MaxFaultHooks)
	}
	return nil
}
