package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// runIn runs 2048 args in this process, and returns what it wrote.
func runIn(args ...string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// TestShortFlagErrors: in every command an unknown flag, a flag without
// its value and a bad value are said in one line naming the flag, with the
// nearest flag and where the help is, and exit status 2; nothing else is
// printed, the usage least of all.
func TestShortFlagErrors(t *testing.T) {
	for _, cmd := range []string{"play", "test", "replay", "serve", "sim", "sim run", "sim study", "sim tune", "sim merge",
		"mod new", "mod list", "mod install", "mod check", "config show", "config check"} {
		args := append(strings.Fields(cmd), "--bogus")
		want := "2048 " + cmd + ": unknown flag --bogus; see 2048 " + cmd + " --help\n"
		if out, errOut, code := runIn(args...); code != 2 || out != "" || errOut != want {
			t.Errorf("2048 %s --bogus: exit %d, stdout %q, stderr\n%q\nwant\n%q", cmd, code, out, errOut, want)
		}
	}
	for _, tt := range []struct{ args, want string }{
		{"sim --skil", "2048 sim: unknown flag --skil (did you mean --skill?); see 2048 sim --help\n"},
		{"sim --games ten", "2048 sim: invalid value \"ten\" for --games: want a whole number; see 2048 sim --help\n"},
		{"sim run --games ten", "2048 sim run: invalid value \"ten\" for --games: want a whole number; see 2048 sim run --help\n"},
		{"sim study --games", "2048 sim study: --games needs a value; see 2048 sim study --help\n"},
		{"sim run --skil", "2048 sim run: unknown flag --skil (did you mean --skill, a flag of 2048 sim study?); see 2048 sim run --help\n"},
		{"sim run --write x.toml", "2048 sim run: unknown flag --write (a flag of 2048 sim tune); see 2048 sim run --help\n"},
		{"sim study --timing", "2048 sim study: unknown flag --timing (a flag of 2048 sim run); see 2048 sim study --help\n"},
		{"sim tune --csv x.csv", "2048 sim tune: unknown flag --csv (a flag of 2048 sim run and study); see 2048 sim tune --help\n"},
		{"play --bogus", "2048 play: unknown flag --bogus; see 2048 play --help\n"},
		{"play --sed 3", "2048 play: unknown flag --sed (did you mean --seed?); see 2048 play --help\n"},
		{"play --seed x", "2048 play: invalid value \"x\" for --seed: want a whole number from 0 to 2^64-1; see 2048 play --help\n"},
		{"play extra", "2048 play: unexpected argument \"extra\"; see 2048 play --help\n"},
		{"replay --chek r.json", "2048 replay: unknown flag --chek (did you mean --check?); see 2048 replay --help\n"},
		{"replay", "2048 replay: want one replay file; see 2048 replay --help\n"},
		{"mod check x --games many", "2048 mod check: invalid value \"many\" for --games: want a whole number; see 2048 mod check --help\n"},
		{"simm", "2048: unknown command \"simm\" (did you mean \"sim\"?); see 2048 help\n"},
		{"sim rnu", "2048 sim: unknown subcommand \"rnu\" (did you mean \"run\"?); see 2048 sim --help\n"},
		{"sim xyz", "2048 sim: unknown subcommand \"xyz\"; see 2048 sim --help\n"},
		{"sim studi", "2048 sim: unknown subcommand \"studi\" (did you mean \"study\"?); see 2048 sim --help\n"},
		{"mod chek", "2048 mod: unknown subcommand \"chek\" (did you mean \"check\"?); see 2048 mod --help\n"},
	} {
		if out, errOut, code := runIn(strings.Fields(tt.args)...); code != 2 || out != "" || errOut != tt.want {
			t.Errorf("2048 %s: exit %d, stdout %q, stderr\n%q\nwant\n%q", tt.args, code, out, errOut, tt.want)
		}
	}
}

// TestSimHelpFits: sim's help and each of its subcommands' fits in 40
// lines, and names every flag the subcommand has; the whole usage is
// printed for --help alone.
func TestSimHelpFits(t *testing.T) {
	for _, tt := range []struct {
		args string
		kind string // whose flags it names: run, study, tune, or none
	}{
		{"sim --help", ""}, {"help sim", ""}, {"sim merge --help", ""}, {"help sim merge", ""},
		{"sim run --help", "run"}, {"sim study -h", "study"}, {"sim tune --help", "tune"},
		{"help sim run", "run"}, {"help sim study", "study"}, {"help sim tune", "tune"},
	} {
		out, errOut, code := runIn(strings.Fields(tt.args)...)
		help := out + errOut
		if n := strings.Count(help, "\n"); code != 0 || n > 40 || !strings.HasPrefix(help, "Usage:") {
			t.Errorf("2048 %s: exit %d, %d lines:\n%s", tt.args, code, n, help)
		}
		if tt.kind == "" {
			continue
		}
		var missing []string
		simFlags(tt.kind, new(simOptions)).VisitAll(func(f *flag.Flag) {
			if !regexp.MustCompile(`--` + f.Name + `\b[^-]`).MatchString(help) {
				missing = append(missing, f.Name)
			}
		})
		if len(missing) > 0 {
			t.Errorf("2048 %s does not name %v:\n%s", tt.args, missing, help)
		}
	}
}

// TestSimOldForms: the forms before the subcommands still work: each says
// its new form once, on stderr, and plays as the new form does.
func TestSimOldForms(t *testing.T) {
	dir := t.TempDir()
	five := filepath.Join(dir, "five.toml")
	if err := os.WriteFile(five, []byte("size = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		old, now string // the arguments after sim
		note     string
		code     int
	}{
		{"--games 4 --policy random --set size=3 --seed 7", "run --games 4 --policy random --set size=3 --seed 7",
			"2048 sim FLAGS is now 2048 sim run FLAGS (see 2048 sim --help)\n", 0},
		{"--skills random,greedy --games 2 --set size=3", "study --skills random,greedy --games 2 --set size=3",
			"2048 sim --skills ... is now 2048 sim study --skills ... (see 2048 sim --help)\n", 0},
		{"--games 2 --policy random --compare " + five, "study --games 2 --policy random --compare " + five,
			"2048 sim --compare ... is now 2048 sim study --compare ... (see 2048 sim --help)\n", 0},
		{"--tune greedy=2 --tune-keys size", "tune --tune greedy=2 --tune-keys size",
			"2048 sim --tune ... is now 2048 sim tune --tune ... (see 2048 sim --help)\n", 2},
		{"--write t.toml", "tune --write t.toml",
			"2048 sim --write ... is now 2048 sim tune --write ... (see 2048 sim --help)\n", 2},
	} {
		oldOut, oldErr, oldCode := runIn(append([]string{"sim"}, strings.Fields(tt.old)...)...)
		newOut, newErr, newCode := runIn(append([]string{"sim"}, strings.Fields(tt.now)...)...)
		if !strings.HasPrefix(oldErr, tt.note) || strings.Count(oldErr, " is now 2048 sim ") != 1 {
			t.Errorf("2048 sim %s: stderr\n%s\nwant the note once:\n%s", tt.old, oldErr, tt.note)
		}
		if strings.Contains(newErr, " is now ") {
			t.Errorf("2048 sim %s gives the note:\n%s", tt.now, newErr)
		}
		if oldCode != tt.code || oldCode != newCode || oldOut != newOut || strings.TrimPrefix(oldErr, tt.note) != newErr {
			t.Errorf("2048 sim %s: exit %d, and 2048 sim %s: exit %d; they differ:\n%s%s\n---\n%s%s", tt.old, oldCode, tt.now, newCode, oldOut, oldErr, newOut, newErr)
		}
	}
	// A mistyped flag of the old form is said at once, with the nearest
	// flag of any subcommand, and no note.
	if _, errOut, code := runIn("sim", "--compare-mod", "x"); code != 2 || errOut != "2048 sim: unknown flag --compare-mod (did you mean --compare-mods?); see 2048 sim --help\n" {
		t.Errorf("exit %d: %q", code, errOut)
	}
}

// TestSimArguments: sim's subcommands take flags before or after their
// arguments, and `--` ends the flags.
func TestSimArguments(t *testing.T) {
	if _, errOut, code := runIn("sim", "run", "--", "--games", "2"); code != 2 || errOut != "2048 sim run: unexpected argument \"--games\"; see 2048 sim run --help\n" {
		t.Errorf("sim run -- --games 2: exit %d: %q", code, errOut)
	}
	if _, errOut, code := runIn("sim", "merge", "--", "--partial"); code != 1 || !strings.HasPrefix(errOut, "2048 sim merge: --partial: ") {
		t.Errorf("sim merge -- --partial: exit %d: %q (want the file --partial not found)", code, errOut)
	}
	if _, errOut, code := runIn("sim", "merge", "nosuch.json", "--partial"); code != 1 || !strings.HasPrefix(errOut, "2048 sim merge: nosuch.json: ") {
		t.Errorf("sim merge FILE --partial: exit %d: %q", code, errOut)
	}
	if out, errOut, code := runIn("sim", "run", "--set", "size=3", "--games", "2", "--policy", "random", "--seed=5"); code != 0 || !strings.Contains(out, "2 games · seed 5") {
		t.Errorf("sim run: exit %d\n%s%s", code, out, errOut)
	}
}

// TestHelpProseWraps: the prose of every command's help wraps within 80
// columns (its synopsis and its flags' lines aside), as a terminal shows
// it: `help test` had a line of 112.
func TestHelpProseWraps(t *testing.T) {
	var cmds []string
	for _, c := range names(commands) {
		if c == "help" || c == "version" {
			continue
		}
		cmds = append(cmds, c)
		for _, sub := range names(subcommands[c]) {
			cmds = append(cmds, c+" "+sub)
		}
	}
	for _, c := range cmds {
		out, errOut, _ := run2048(t, t.TempDir(), append(strings.Fields(c), "--help")...)
		help := out + errOut
		if !strings.Contains(help, "Usage:") {
			t.Errorf("2048 %s --help: no usage:\n%s", c, help)
			continue
		}
		for _, l := range strings.Split(help, "\n") {
			trimmed := strings.TrimLeft(l, " \t")
			if strings.HasPrefix(l, "Usage:") || strings.HasPrefix(trimmed, "2048 ") || strings.HasPrefix(trimmed, "-") || strings.HasPrefix(l, "    \t") {
				continue // the synopsis, the flags
			}
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("2048 %s --help: a line of %d columns: %s", c, n, l)
			}
		}
	}
}
