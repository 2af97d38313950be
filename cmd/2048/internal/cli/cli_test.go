package cli

import (
	"bytes"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// testSet is a flag set of every kind of flag, named "sim run", writing to
// out.
func testSet(out *bytes.Buffer) (*flag.FlagSet, map[string]any) {
	fs := flag.NewFlagSet("sim run", flag.ContinueOnError)
	fs.SetOutput(out)
	v := map[string]any{
		"games":     fs.Int("games", 200, "`N` games"),
		"seed":      fs.Uint64("seed", 1, "the `seed`"),
		"precision": fs.Float64("precision", 0, "±`P`"),
		"timing":    fs.Bool("timing", false, "print the time"),
		"json":      fs.String("json", "", "write JSON to `file`"),
		"wait":      fs.Duration("wait", time.Second, "wait `D`"),
	}
	fs.Func("shard", "`I/N`", func(s string) error {
		if !strings.Contains(s, "/") {
			return fmt.Errorf("want I/N")
		}
		return nil
	})
	fs.Usage = func() { fmt.Fprintln(fs.Output(), "Usage: 2048 sim run [FLAGS]") }
	return fs, v
}

// TestParseErrors: every error in the flags is one line naming the flag,
// with the nearest flag to a mistyped one, where the help is, and exit
// status 2; the usage is printed only for -h and --help (exit 0).
func TestParseErrors(t *testing.T) {
	hint := func(name string) string {
		if name == "write" {
			return "a flag of 2048 sim tune"
		}
		return ""
	}
	const see = "; see 2048 sim run --help\n"
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--gamez", "3"}, 2, "2048 sim run: unknown flag --gamez (did you mean --games?)" + see},
		{[]string{"-jsn=x"}, 2, "2048 sim run: unknown flag -jsn (did you mean --json?)" + see},
		{[]string{"--bogus"}, 2, "2048 sim run: unknown flag --bogus" + see},
		{[]string{"--write", "x"}, 2, "2048 sim run: unknown flag --write (a flag of 2048 sim tune)" + see},
		{[]string{"--games"}, 2, "2048 sim run: --games needs a value" + see},
		{[]string{"--games", "ten"}, 2, `2048 sim run: invalid value "ten" for --games: want a whole number` + see},
		{[]string{"--games=99999999999999999999"}, 2, `2048 sim run: invalid value "99999999999999999999" for --games: out of range` + see},
		{[]string{"--seed", "-1"}, 2, `2048 sim run: invalid value "-1" for --seed: want a whole number, 0 or more` + see},
		{[]string{"--precision", "x"}, 2, `2048 sim run: invalid value "x" for --precision: want a number` + see},
		{[]string{"--timing=maybe"}, 2, `2048 sim run: invalid value "maybe" for --timing: want true or false` + see},
		{[]string{"--wait", "soon"}, 2, `2048 sim run: invalid value "soon" for --wait: want a duration, such as 2s` + see},
		{[]string{"--shard", "3"}, 2, `2048 sim run: invalid value "3" for --shard: want I/N` + see},
		{[]string{"---games", "3"}, 2, "2048 sim run: bad flag syntax: ---games" + see},
		{[]string{"--games", "3", "--help"}, 0, "Usage: 2048 sim run [FLAGS]\n"},
		{[]string{"-h"}, 0, "Usage: 2048 sim run [FLAGS]\n"},
	} {
		var out bytes.Buffer
		fs, _ := testSet(&out)
		ok, code := Parse(fs, tt.args, hint)
		if ok || code != tt.code || out.String() != tt.want {
			t.Errorf("%q: ok %v, exit %d, said\n%q\nwant exit %d and\n%q", tt.args, ok, code, out.String(), tt.code, tt.want)
		}
		if fs.Output() != &out {
			t.Errorf("%q: the output was not put back", tt.args)
		}
	}
}

// TestParseAnywhere: flags come before or after the arguments, a flag's
// value may start with '-', and `--` ends the flags.
func TestParseAnywhere(t *testing.T) {
	for _, tt := range []struct {
		args, rest []string
		games      int
		timing     bool
	}{
		{[]string{"a", "--games", "3", "b", "--timing"}, []string{"a", "b"}, 3, true},
		{[]string{"--games=4", "a"}, []string{"a"}, 4, false},
		{[]string{"--json", "-", "a"}, []string{"a"}, 200, false},
		{[]string{"a", "--", "--games", "5", "-"}, []string{"a", "--games", "5", "-"}, 200, false},
		{[]string{"--timing", "--", "-x"}, []string{"-x"}, 200, true},
	} {
		var out bytes.Buffer
		fs, v := testSet(&out)
		if ok, code := Parse(fs, tt.args, nil); !ok || code != 0 {
			t.Fatalf("%q: ok %v, exit %d: %s", tt.args, ok, code, out.String())
		}
		if !slices.Equal(fs.Args(), tt.rest) || *v["games"].(*int) != tt.games || *v["timing"].(*bool) != tt.timing {
			t.Errorf("%q: arguments %q, --games %d, --timing %v; want %q, %d, %v", tt.args, fs.Args(), *v["games"].(*int), *v["timing"].(*bool), tt.rest, tt.games, tt.timing)
		}
		if _, wrapped := fs.Lookup("games").Value.(checked); wrapped {
			t.Errorf("%q: the flags' own values were not put back", tt.args)
		}
	}
}

// TestFailAndUnknown: Fail says a usage error in one line, with where the
// help is; Unknown names the nearest name to a mistyped one.
func TestFailAndUnknown(t *testing.T) {
	var out bytes.Buffer
	fs, _ := testSet(&out)
	if code := Fail(fs, "unexpected argument %q", "x"); code != 2 || out.String() != "2048 sim run: unexpected argument \"x\"; see 2048 sim run --help\n" {
		t.Errorf("exit %d: %q", code, out.String())
	}
	q := func(s string) string { return "'" + s + "'" }
	if got := Unknown("chek", []string{"check", "list", "new"}, q); got != "'chek' (did you mean 'check'?)" {
		t.Errorf("Unknown: %q", got)
	}
	if got := Unknown("frobnicate", []string{"check", "list"}, q); got != "'frobnicate'" {
		t.Errorf("Unknown: %q", got)
	}
}

// TestPrintFlags: a flag a line, the value's name in capitals, the flags
// skipped left out.
func TestPrintFlags(t *testing.T) {
	var out, listing bytes.Buffer
	fs, _ := testSet(&out)
	PrintFlags(&listing, fs, "wait", "shard")
	want := "" +
		"  --games N      N games\n" +
		"  --json FILE    write JSON to file\n" +
		"  --precision P  ±P\n" +
		"  --seed SEED    the seed\n" +
		"  --timing       print the time\n"
	if listing.String() != want {
		t.Errorf("got\n%s\nwant\n%s", listing.String(), want)
	}
}
