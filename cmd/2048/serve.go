package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mod2048/mod2048/cmd/2048/internal/cli"
	"github.com/mod2048/mod2048/cmd/internal/web"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/config/infile"
	"github.com/mod2048/mod2048/scripting/mod"
	"github.com/mod2048/mod2048/scripting/mod/install"
)

const serveUsage = `Usage: 2048 serve [--addr HOST:PORT] [--write DIR] [--ruleset R] [--difficulty D] [--config FILE] [--set KEY=VALUE ...] [--mod DIR ...] [--mod-set MOD.KEY=VALUE ...] [--seed N]

Serves the browser game: the page, its style and script, and the game's
engine built to WebAssembly, all embedded in this program. Open the
address it prints in a browser. The game plays in the browser, and saves
itself there (localStorage) after every move; the server keeps nothing.

The game flags (as for 2048 play) choose the page's first game: a saved
game of the same options is resumed, else a new game starts. The
configuration file and the mods' files are read now and sent to the page;
an error in them stops the command before it serves. Without them the
page resumes its last game, or starts a classic one. The page's settings
panel chooses any ruleset, difficulty, TOML configuration and mods.

The server answers only requests that name it: the host of --addr, and
for a loopback address localhost, 127.0.0.1 and [::1] too (for every
interface, 0.0.0.0: localhost and any IP address), with its port. Any other
Host header is refused (421), so that another site's page cannot read the
game through a name pointed at this address (DNS rebinding).

--write DIR writes the site to DIR instead of serving it: static files for
any static host (make web WEBDIR=DIR does the same).

Exit status: 1 for a configuration, mod or network error; 2 for a usage
error.

`

// serveOptions are the flags of `2048 serve`.
type serveOptions struct {
	addr    string
	write   string
	build   config.BuildOptions
	mods    []string
	modSets []string
	seed    string
}

func parseServe(args []string, stderr io.Writer) (o serveOptions, ok bool, code int) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8048", "the `address` to serve on (host:port; port 0 picks a free one)")
	fs.StringVar(&o.write, "write", "", "write the site to the `folder` instead of serving it")
	gameFlags(fs, &o.build, &o.mods, &o.modSets)
	fs.Func("seed", "the first game's `seed` (0 to 2^64-1); default: random", func(s string) error {
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return errors.New("want a whole number from 0 to 2^64-1")
		}
		o.seed = s
		return nil
	})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), serveUsage)
		fs.PrintDefaults()
	}
	if ok, code := parseFlags(fs, args); !ok {
		return o, false, code
	}
	if fs.NArg() > 0 {
		return o, false, cli.Fail(fs, "unexpected argument %q", fs.Arg(0))
	}
	return o, true, 0
}

// runServe runs `2048 serve`.
func runServe(args []string, stdout, stderr io.Writer) int {
	o, ok, code := parseServe(args, stderr)
	if !ok {
		return code
	}
	d, err := serveDefaults(o)
	if err != nil {
		fmt.Fprintf(stderr, "2048 serve: %s\n", safe(err))
		return 1
	}
	if o.write != "" {
		if err := web.Write(o.write, d); err != nil {
			fmt.Fprintf(stderr, "2048 serve: %s\n", safe(err))
			return 1
		}
		fmt.Fprintf(stdout, "wrote the site to %s\n", o.write)
		return 0
	}
	h, err := web.Handler(d)
	if err != nil {
		fmt.Fprintf(stderr, "2048 serve: %s\n", safe(err))
		return 1
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		fmt.Fprintf(stderr, "2048 serve: %s\n", safe(err))
		return 1
	}
	fmt.Fprintf(stdout, "serving the browser game at http://%s/ (Ctrl+C stops)\n", ln.Addr())
	host, _, _ := net.SplitHostPort(o.addr)
	h = web.HostGuard(h, host, ln.Addr().(*net.TCPAddr).Port)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintf(stderr, "2048 serve: %s\n", safe(err))
		return 1
	}
	return 0
}

// serveDefaults turns the game flags into the page's first game, checked
// by building it; nil when no game flag was given.
func serveDefaults(o serveOptions) (*web.Defaults, error) {
	b := o.build
	if b.Ruleset == "" && b.Difficulty == "" && b.File == "" && len(b.Sets) == 0 && len(o.mods) == 0 && len(o.modSets) == 0 && o.seed == "" {
		return nil, nil
	}
	opts := bridge.Options{Ruleset: b.Ruleset, Difficulty: b.Difficulty, Sets: b.Sets, ModSets: o.modSets, Seed: o.seed}
	if b.File != "" {
		src, err := infile.Read(b.File, config.MaxFileSize)
		if err != nil {
			return nil, err
		}
		opts.TOML = string(src)
	}
	for _, ref := range o.mods {
		m, err := install.Load(ref)
		if err != nil {
			return nil, err
		}
		src, err := modSource(m)
		if err != nil {
			return nil, err
		}
		opts.Mods = append(opts.Mods, src)
	}
	d := &web.Defaults{Options: opts}
	if err := d.Check(); err != nil {
		if b.File != "" {
			err = fmt.Errorf("%s", strings.ReplaceAll(err.Error(), bridge.TOMLName, b.File))
		}
		return nil, err
	}
	return d, nil
}

// modSource reads a mod's folder for the page: the files a mod runs from,
// its manifest and its Lua files (mod.Sources, within a mod's limits).
func modSource(m *mod.Mod) (bridge.ModSource, error) {
	files, err := m.Sources()
	if err != nil {
		return bridge.ModSource{}, err
	}
	return bridge.ModSource{Name: filepath.Base(m.Dir), Files: files}, nil
}
