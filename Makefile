# The two commands of the README: `make run` and `make test`.
GO ?= go

.PHONY: run fixtures test build install bench fuzz check web editor api ledger loops costsearch stress-web

# run: play: a classic game in the terminal (resumed if one was saved).
# go run says nothing while it builds, so run says it first.
run:
	@echo "building 2048 (the first build takes a minute)..."
	@$(GO) run ./cmd/2048

# fixtures: the fixture runner on the shipped fixtures and the example mods.
fixtures:
	$(GO) run ./cmd/2048 test testdata mods

# test: every test: formatting, vet, the Lua host (its hostile-mod suite
# included) under the race detector, the work count's bound (the build
# tag workcount), then every package: unit, property, fixture and
# end-to-end tests. Each go test may take 30 minutes, not go's default 10:
# a machine as busy as the house asks the suite to pass on (four busy
# loops on 2 cores) takes the race detector's run near 10.
test:
	@unformatted="$$(gofmt -l .)"; if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -timeout 30m -race ./scripting
	$(GO) test -timeout 30m -tags workcount -run 'TestWork|FuzzSandbox' ./scripting/costsearch/...
	$(GO) test -timeout 30m ./...

build:
	$(GO) build -o 2048 ./cmd/2048

# web: build the browser game's engine (cmd/2048wasm, GOOS=js GOARCH=wasm),
# brotli-compressed (main.wasm.br; no raw main.wasm is kept),
# with wasm_exec.js and the stamp of its sources into
# cmd/internal/web/site, which `2048 serve` embeds: commit them.
# WEBDIR=DIR also writes the whole site to DIR, for a static host.
WEBDIR ?=
web:
	$(GO) run ./cmd/internal/web/internal/build
	@if [ -n "$(WEBDIR)" ]; then $(GO) run ./cmd/2048 serve --write "$(WEBDIR)"; fi

# editor: build the workshop's code editor (CodeMirror 6, bundled by
# esbuild from the npm project cmd/internal/web/editor), brotli-compressed
# (editor.js.br; no raw editor.js is kept), with the licences of the
# bundled packages and the stamp of its sources into cmd/internal/web/site,
# which `2048 serve` embeds: commit them. Needs node and npm.
editor:
	cd cmd/internal/web/editor && npm ci && node build.mjs

install:
	$(GO) install ./cmd/2048

# stress-web: the browser tests (cmd/internal/web, headless Chromium) as
# a loaded CI machine runs them: STRESSROUNDS rounds of STRESSRUNS runs
# at once, each with its own browser; each run's result (a failed one's
# whole output kept in a file it names), then "N of M runs passed". Run it
# with other work on the machine too.
STRESSROUNDS ?= 5
STRESSRUNS ?= 2
stress-web:
	$(GO) run ./cmd/internal/web/internal/stress -rounds $(STRESSROUNDS) -runs $(STRESSRUNS)

# bench: the benchmarks, as quoted in the closing notes (ns/op, allocs/op).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# fuzz: a short run of every fuzz target; new corpus entries land in the
# Go build cache (copy the interesting ones into testdata/fuzz to keep them).
# FuzzSandbox (scripting/costsearch/fuzz: Lua programs decoded from the
# fuzzer's bytes, played in the sandbox and held to its bounds) runs for
# FUZZSANDBOXTIME, one worker (each input plays a game, and the time
# oracle wants a core of its own), minimizing a new input for 5s at most
# (not the default minute: a program is slow to replay). Its default is a
# count of inputs (some 100 to 1000 a second): Go 1.26's coordinator may
# end a run of a duration with a spurious "context deadline exceeded"
# when a slow input is still playing (go.dev/issue/75804); a duration
# (FUZZSANDBOXTIME=10m) works too.
FUZZTIME ?= 30s
FUZZSANDBOXTIME ?= 20000x
fuzz:
	$(GO) test ./engine -run '^$$' -fuzz FuzzUnmarshal -fuzztime $(FUZZTIME)
	$(GO) test ./scripting/session/fixture -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)
	$(GO) test ./config -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./scripting/session/replay -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)
	$(GO) test ./config/aiconfig -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)
	$(GO) test ./scripting/mod -run '^$$' -fuzz FuzzManifest -fuzztime $(FUZZTIME)
	$(GO) test ./scripting/mod -run '^$$' -fuzz FuzzReadZip -fuzztime $(FUZZTIME)
	$(GO) test ./scripting/costsearch/fuzz -run '^$$' -fuzz FuzzSandbox -fuzztime $(FUZZSANDBOXTIME) -fuzzminimizetime 5s -parallel 1

# costsearch: a genetic search for Lua programs that cost the host more
# than the sandbox charges them (scripting/costsearch): the most
# wall time per charged instruction, the most heap per weighed byte. It
# runs for COSTTIME from seed COSTSEED and prints the worst programs;
# COSTFLAGS=-write adds them to the corpus that `make test` replays
# (scripting/costsearch/testdata/corpus: commit them).
COSTTIME ?= 1m
COSTSEED ?= 1
COSTFLAGS ?=
costsearch:
	$(GO) run ./scripting/costsearch/cmd/costsearch -time $(COSTTIME) -seed $(COSTSEED) $(COSTFLAGS)

# check: what a commit should leave clean besides the tests.
check: test
	$(GO) mod tidy -diff

# api: write what is generated from the mod API's description
# (scripting/modapi): the LuaLS annotation file scripting/luals/mod2048.lua
# and the reference of the game table in MODDING.md, between its markers.
api:
	$(GO) run ./scripting/modapi/internal/apigen

# ledger: rebuild the allocation ledger of the Lua VM, the sandbox and the host
# (scripting/internal/ledger/allocs.txt) from the compiler's -m output,
# keeping every classification; new sites come out unclassified, for a
# person to classify (TestAllocationLedger fails until they are).
ledger:
	$(GO) run ./scripting/internal/ledger/cmd/ledger -write

# loops: rebuild the loop ledger of the Lua VM, the sandbox and the host
# (scripting/internal/ledger/loops.txt) from the code's for, range and
# goto loops and its recursions, keeping every classification; new loops
# come out unclassified (TestLoopLedger fails until they are classified);
# and opens every loop a mod reaches with workcount.Step() where it lacks
# it (the work count; TestLoopLedger fails while one does).
loops:
	$(GO) run ./scripting/internal/ledger/cmd/loops -write
