package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mod2048/mod2048/cmd/2048/internal/cli"
	"github.com/mod2048/mod2048/cmd/2048/internal/termtext"
	"github.com/mod2048/mod2048/config"
)

const configUsage = `Usage:
  2048 config show [--ruleset R] [--difficulty D] [--config FILE] [--set KEY=VALUE ...]
  2048 config check [--ruleset R] [--difficulty D] FILE ...

show prints the effective configuration as TOML that loads back as it is:
a comment naming the layers it was built from, the ruleset and the preset,
then every key of the ruleset under the comment that documents it.

check checks configuration files: for each it prints "FILE: ok (ruleset R,
preset P)", or the error as FILE:LINE: KEY: MESSAGE on the standard error.

A configuration is built in layers, each over the one before: the preset
(--difficulty, or the one the file names with preset = "NAME", or the
default preset of the ruleset: classic for classic, early for cellular),
then the file's settings (--config FILE), then each --set in order.

Exit status: 0 when all is well, 1 for a configuration error, 2 for a usage
error.
`

// runConfig runs `2048 config SUBCOMMAND`.
func runConfig(args []string, stdout, stderr io.Writer) int {
	return runSubcommand("config", configUsage, subcommands["config"], args, stdout, stderr)
}

// setFlags is the repeatable --set flag.
type setFlags []string

func (s *setFlags) String() string { return strings.Join(*s, " ") }

func (s *setFlags) Set(kv string) error {
	*s = append(*s, kv)
	return nil
}

// layerFlags defines the flags that choose the first layers of a
// configuration.
func layerFlags(fs *flag.FlagSet, o *config.BuildOptions) {
	fs.StringVar(&o.Ruleset, "ruleset", "", "the `ruleset`: "+strings.Join(config.Rulesets(), " or ")+" (default: the one the preset or file names, else classic)")
	fs.StringVar(&o.Difficulty, "difficulty", "", "the `preset` to start from: "+strings.Join(config.Presets(), ", ")+" (default: the file's, else the ruleset's default)")
}

// parseFlags parses args with fs (cli.Parse) and reports whether to go
// on; if not, code is the exit status.
func parseFlags(fs *flag.FlagSet, args []string) (ok bool, code int) {
	return cli.Parse(fs, args, nil)
}

func runConfigShow(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("config show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o config.BuildOptions
	layerFlags(fs, &o)
	fs.StringVar(&o.File, "config", "", "a TOML `file` whose settings go over the preset")
	fs.Var((*setFlags)(&o.Sets), "set", "a `key=value` override, applied last; repeatable (dotted keys for tables: blight.charges=2)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: 2048 config show [--ruleset R] [--difficulty D] [--config FILE] [--set KEY=VALUE ...]\n\nPrints the effective configuration as TOML.\n\n")
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return cli.Fail(fs, "unexpected argument %q", fs.Arg(0))
	}
	c, err := config.Build(o)
	if err != nil {
		fmt.Fprintln(stderr, safe(err))
		return 1
	}
	if _, err := stdout.Write(c.TOML()); err != nil {
		fmt.Fprintln(stderr, safe(err))
		return 1
	}
	return 0
}

func runConfigCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("config check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o config.BuildOptions
	layerFlags(fs, &o)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: 2048 config check [--ruleset R] [--difficulty D] FILE ...\n\nChecks configuration files: each over its preset, strictly, then validated.\nEvery error of a file is reported, one a line, with its line and key,\nin the order of the lines.\n\n")
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return cli.Fail(fs, "no file to check")
	}
	code := 0
	for _, path := range fs.Args() {
		o.File = path
		c, err := config.Build(o)
		if err != nil {
			// Every error of the file, one a line.
			fmt.Fprintln(stderr, termtext.Lines(err.Error()))
			code = 1
			continue
		}
		fmt.Fprintf(stdout, "%s: ok (ruleset %s, preset %s)\n", safe(path), c.Ruleset, c.Preset)
	}
	return code
}
