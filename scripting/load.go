package scripting

import (
	"errors"
	"strings"
	"weak"

	lua "github.com/mod2048/mod2048/scripting/internal/lua"
	"github.com/mod2048/mod2048/scripting/internal/sandbox"

	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/internal/workcount"
	"github.com/mod2048/mod2048/scripting/mod"
)

// NewHost loads mods (in dependency, priority and id order) for a game of
// the given rules and options (its board size and seed), running each mod's
// entry file. A mod that fails to load is an error naming it, its file and
// line. The options say how the host runs its mods beyond limits
// (Deterministic).
func NewHost(mods []*mod.Mod, rules engine.Rules, opt engine.Options, limits Limits, options ...HostOption) (*Host, error) {
	ordered, err := mod.Order(mods, rules.Name())
	if err != nil {
		return nil, err
	}
	limits, share := shareTurn(limits, len(ordered))
	h := &Host{limits: limits, rules: rules, opt: opt, watchdog: sandbox.TheWatchdog(), callReason: callReason(limits), turnReason: turnReason(limits, share), heldReason: heldReason(limits),
		beforeMoveReason: beforeMoveReason(limits), dryTurnReason: dryTurnReason(limits, share), gameReason: gameReason(limits), builtReason: builtReason(limits)}
	for _, o := range options {
		workcount.Step()
		o(h)
	}
	for _, md := range ordered {
		workcount.Step()
		if err := h.load(md); err != nil {
			h.Close()
			if me := (*ModError)(nil); errors.As(err, &me) {
				me.Dir = md.Dir // its FileError names the file as the user named the folder
			}
			return nil, err
		}
	}
	return h, nil
}

// A HostOption changes how NewHost's host runs its mods.
type HostOption func(*Host)

// Deterministic is the option of a host whose results must be the same on
// every machine: the lab's, a replay's, a fixture's, mod check's. There, a
// call the failsafe stops (Limits.FailsafeTime) is not the
// mod's failure but the sandbox's: NewHost, Move and Start return a
// *CostModelError, and the game is left as it was. Without it (play), the
// failsafe stops the mod's call and the game goes on without the mod's
// effects on the turn, as for any error.
func Deterministic() HostOption { return func(h *Host) { h.deterministic = true } }

func (h *Host) load(md *mod.Mod) error {
	m := &modRun{host: h, mod: md, key: dataKey(md.ID()), budget: sandbox.NewBudget(), log: sandbox.NewLog(h.limits.MaxLog), modules: map[string]lua.LValue{}}
	m.L = sandbox.New(sandboxLimits(h.limits), m.budget, m.log)
	sandbox.SetHost(m.L, m)
	m.meters = sandbox.NewMeters(m.L, m.budget)
	h.watchdog.Add(m.budget, md.ID())
	h.mods = append(h.mods, m)
	m.installAPI()
	m.rng = engine.DeriveRNG(h.opt.Seed, "mod:"+md.ID())
	h.loading = m
	defer func() { h.loading = nil }()
	m.budget.SetCap(h.limits.MaxCallBuilt, h.builtReason) // the game's room is weighed after
	// Compiling the entry file is the load's work: charged first, then
	// done, as require's compiles are.
	m.budget.Start(h.limits.LoadInstructions, loadReason(h.limits), h.limits.FailsafeTime)
	fn, err := m.compile(md.Manifest.Entry, m.budget.Charge)
	if err == nil {
		err = m.L.CallByParam(lua.P{Fn: fn, NRet: 0, Protect: true})
	}
	used, stopped := m.budget.End(h.limits.LoadInstructions)
	if err != nil {
		if fn == nil && stopped.Kind != sandbox.StopBudget {
			return err // the entry file's own error: it cannot be read or does not compile
		}
		if api := (*lua.ApiError)(nil); m.required.err != nil && errors.As(err, &api) && strings.HasSuffix(sandbox.SafeString(api.Object), m.required.raised) {
			return m.required.err // a required file's error, where it is
		}
		me := m.report("load", err, stopped)
		if fn == nil && me.File == "" {
			me.File = md.Manifest.Entry // its compile was more than the load's budget
		}
		if me.Failsafe && h.deterministic {
			return h.costModel(me)
		}
		return me
	}
	m.held.since += used
	if (h.limits.MaxMemory > 0 || h.limits.MaxGameMemory > 0) && m.held.due(memoryLimit(h.limits), h.roomInGame()) {
		if why := m.weigh(); why != "" {
			return modError(Report{Mod: md.ID(), Event: "load", Message: why})
		}
	}
	for ev, fns := range m.handlers {
		workcount.Step()
		for _, fn := range fns {
			workcount.Step()
			u := handlerPayloadUse(fn, ev)
			m.reuse[ev] = append(m.reuse[ev], u.reuse)
			m.reads[ev] = append(m.reads[ev], u.reads)
		}
	}
	// What the main chunk left in storage is where every game starts.
	if m.initial, err = m.save(); err != nil {
		return modError(Report{Mod: md.ID(), Event: "load", Message: "storage: " + err.Error()})
	}
	m.settled(m.initial)
	return nil
}

// compile reads and compiles one Lua file of the mod's folder; a file that
// lies (or links) outside the folder is refused. Once read, the file's
// compile is charged (charge, sandbox.CompileCost: by its bytes, cached or
// not) before it is compiled: when charge reports the call has not the
// instructions, compile returns errCompileBudget and compiles nothing. The
// code compiled counts as what the call built (Budget.CodeBuilt), which
// the game's ceiling caps; past the cap, compile returns errCompileBudget.
func (m *modRun) compile(rel string, charge func(n int64) bool) (*lua.LFunction, error) {
	src, err := m.mod.ReadFile(rel, mod.MaxSource)
	if err != nil {
		return nil, &mod.FileError{Mod: m.mod.ID(), Dir: m.mod.Dir, File: rel, Message: err.Error()}
	}
	if !charge(sandbox.CompileCost(len(src))) {
		return nil, errCompileBudget
	}
	c, ok := sandbox.CachedCompile(string(src), rel)
	if !ok {
		if err := mod.CheckSource(string(src)); err != nil {
			return nil, modError(Report{Mod: m.mod.ID(), Event: "load", File: rel, Message: err.Error()})
		}
		if c, err = sandbox.CompileCached(string(src), rel, storageNote); err != nil {
			me := m.report("load", err, sandbox.Stop{})
			if me.File == "" {
				me.File = rel
			}
			if me.EOF {
				me.Line = lastLine(string(src))
			}
			return nil, me
		}
	}
	fn, err := sandbox.Bind(m.L, c.Proto, m.meters)
	if err != nil {
		return nil, m.report("load", err, sandbox.Stop{})
	}
	if !m.budget.CodeBuilt(c.Held) {
		return nil, errCompileBudget // past the game's ceiling: the call is stopped
	}
	m.touches = m.touches || c.Note == true
	return fn, nil
}

// errCompileBudget is compile's error when the call has not the
// instructions to compile the file, or the code takes it past the game's
// ceiling; the Budget's stop says which budget.
var errCompileBudget = errors.New("the instruction budget cannot pay for compiling the file")

// lastLine is the number of the last line of text (a final newline ends
// the last line, and starts none), as package mod counts it for the
// manifest.
func lastLine(text string) int {
	return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
}

// storageNote is what the compile cache keeps of a file: whether its
// chunk mentions storage (mentionsStorage).
func storageNote(proto *lua.FunctionProto) any {
	return len(proto.FunctionPrototypes) > 0 && mentionsStorage(proto.FunctionPrototypes[0])
}

// payloadUse is what the host may reuse of a handler's payload, and the
// fields it may read (modRun.reuse and modRun.reads).
type payloadUse struct {
	reuse reuse
	reads uint8
}

// protoEvent is a handler's code and its event. The code is held weakly:
// the cache lives as long as the process, and must not keep a mod's
// compiled code alive after the compile cache let it go.
type protoEvent struct {
	proto weak.Pointer[lua.FunctionProto]
	ev    int
}

// payloadUses keeps handlerPayloadUse's answers: a handler's code is
// compiled once per process (compilecache.go), and every game of the mod
// asks again.
var payloadUses sharedCache[protoEvent, payloadUse]

// handlerPayloadUse reads fn's code for what it does with the payload of
// event ev. A Go function (a mod may register print, say) has no code to
// read: it gets a payload of its own, with every field.
func handlerPayloadUse(fn *lua.LFunction, ev int) payloadUse {
	if fn.IsG {
		return payloadUse{reuse: reuseNone, reads: allFields}
	}
	return payloadUses.getOr(protoEvent{weak.Make(fn.Proto), ev}, func() payloadUse {
		u := payloadUse{reuse: payloadReuse(fn.Proto, payloadScalars[ev]), reads: allFields}
		if u.reuse != reuseNone {
			// The payload cannot escape: only the fields the code names
			// can be read, and the host sets only those.
			u.reads = 0
			for j, key := range payloadKeys[eventNames[ev]] {
				workcount.Step()
				if payloadReads(fn.Proto, key) {
					u.reads |= 1 << j
				}
			}
		}
		return u
	})
}
