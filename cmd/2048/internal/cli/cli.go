// Package cli parses the flags of 2048's commands, as people type them:
// flags before or after the arguments, `--` ending them, and an error in
// them said in one line that names the flag, the nearest known flag to a
// mistyped one, and where the help is. The whole usage is printed only
// when it is asked for (-h, --help).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/config/suggest"
)

// Parse parses args with fs, whose name is the command as typed after
// "2048" ("sim run"), and reports whether to go on; if not, code is the
// exit status: 0 when the help was asked (fs.Usage printed it), 2 for an
// error in the flags, said in one line on fs.Output(). Flags may come
// before or after the arguments (`2048 test mods/bomb -v`); `--` ends the
// flags, and what follows it is arguments even when it starts with '-'.
// hint, when not nil, says more of a flag fs does not know, such as the
// subcommand that has it ("" for nothing more).
func Parse(fs *flag.FlagSet, args []string, hint func(name string) string) (ok bool, code int) {
	out := fs.Output()
	ordered, msg := order(fs, args, hint)
	if msg != "" {
		Fail(fs, "%s", msg)
		return false, 2
	}
	// The flag package's own messages (an error, then the whole usage) go
	// nowhere; the value a flag refused is caught as it is set.
	var bad refused
	restore := catch(fs, &bad)
	fs.SetOutput(io.Discard)
	err := fs.Parse(ordered)
	fs.SetOutput(out)
	restore()
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return false, 0
	case bad.err != nil:
		Fail(fs, "invalid value %q for --%s: %s", bad.value, bad.name, bad.why())
		return false, 2
	case err != nil:
		Fail(fs, "%s", err)
		return false, 2
	}
	return true, 0
}

// Fail says msg, an error in the command line of fs's command, in one line
// on fs.Output(), with where its help is, and returns 2, the exit status of
// a usage error: "2048 sim run: unexpected argument "x"; see 2048 sim run
// --help".
func Fail(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(fs.Output(), "2048 %s: %s; see 2048 %s --help\n", fs.Name(), fmt.Sprintf(format, args...), fs.Name())
	return 2
}

// Unknown is the words for a name not among names (a flag, a command):
// `"chek" (did you mean check?)`, quoted by quote.
func Unknown(name string, names []string, quote func(string) string) string {
	if near := suggest.Nearest(name, names); near != "" {
		return fmt.Sprintf("%s (did you mean %s?)", quote(name), quote(near))
	}
	return quote(name)
}

// order puts the flags of args (with the values of those that take one)
// before the arguments, and "--" between them, for flag.FlagSet, which
// stops at the first argument. An unknown flag, a flag without its value
// and a malformed flag are refused here, with msg saying which.
func order(fs *flag.FlagSet, args []string, hint func(string) string) (ordered []string, msg string) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		typed, _, hasValue := strings.Cut(a, "=")
		name := strings.TrimPrefix(typed[1:], "-")
		if name == "" || name[0] == '-' || name[0] == '=' {
			return nil, fmt.Sprintf("bad flag syntax: %s", termtext.Printable(a))
		}
		f := fs.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				continue // the help, which Parse shows
			}
			return nil, "unknown flag " + unknownFlag(fs, typed, name, hint)
		}
		if hasValue || isBool(f) {
			continue
		}
		if i+1 == len(args) {
			return nil, fmt.Sprintf("--%s needs a value", name)
		}
		flags = append(flags, args[i+1])
		i++
	}
	return append(append(flags, "--"), pos...), ""
}

// unknownFlag is the words for a flag fs does not know, as typed: with the
// nearest of fs's flags, or hint's words.
func unknownFlag(fs *flag.FlagSet, typed, name string, hint func(string) string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	typed = termtext.Printable(typed)
	if near := suggest.Nearest(name, names); near != "" {
		return fmt.Sprintf("%s (did you mean --%s?)", typed, near)
	}
	if hint != nil {
		if h := hint(name); h != "" {
			return fmt.Sprintf("%s (%s)", typed, h)
		}
	}
	return typed
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// refused is the value a flag refused, and why.
type refused struct {
	name, value string
	err         error
	kind        any // the flag's value, for its type (flag.Getter)
}

// why says what the flag wants, in words: the flag package's own errors
// ("parse error") say nothing of it.
func (r refused) why() string {
	switch r.err.Error() {
	case "parse error":
		switch r.kind.(type) {
		case bool:
			return "want true or false"
		case int, int64:
			return "want a whole number"
		case uint, uint64:
			return "want a whole number, 0 or more"
		case float64:
			return "want a number"
		case time.Duration:
			return "want a duration, such as 2s"
		}
	case "value out of range":
		return "out of range"
	}
	return r.err.Error()
}

// checked is a flag's value that keeps the error of a value it refuses.
type checked struct {
	flag.Value
	name string
	bad  *refused
}

func (c checked) Set(s string) error {
	err := c.Value.Set(s)
	if err != nil && c.bad.err == nil {
		*c.bad = refused{name: c.name, value: s, err: err}
		if g, ok := c.Value.(flag.Getter); ok {
			c.bad.kind = g.Get()
		}
	}
	return err
}

// checkedBool is a checked bool flag, which takes no value after it.
type checkedBool struct{ checked }

func (checkedBool) IsBoolFlag() bool { return true }

// catch makes every flag of fs keep the error of a value it refuses in
// bad, and returns what puts the flags' own values back.
func catch(fs *flag.FlagSet, bad *refused) (restore func()) {
	saved := map[*flag.Flag]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		saved[f] = f.Value
		c := checked{Value: f.Value, name: f.Name, bad: bad}
		if isBool(f) {
			f.Value = checkedBool{c}
		} else {
			f.Value = c
		}
	})
	return func() {
		for f, v := range saved {
			f.Value = v
		}
	}
}

// PrintFlags writes fs's flags to w, a line each ("  --games N  the
// games to play"), for a help that fits a screen; the flags named in skip
// are left out (the help says them in a line of their own).
func PrintFlags(w io.Writer, fs *flag.FlagSet, skip ...string) {
	type line struct{ left, usage string }
	var lines []line
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		for _, s := range skip {
			if s == f.Name {
				return
			}
		}
		arg, usage := flag.UnquoteUsage(f)
		left := "--" + f.Name
		if arg != "" && !isBool(f) {
			left += " " + strings.ToUpper(arg)
		}
		lines = append(lines, line{left, usage})
		width = max(width, len(left))
	})
	for _, l := range lines {
		fmt.Fprintf(w, "  %-*s  %s\n", width, l.left, l.usage)
	}
}
