package sim

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/mod2048/mod2048/cellular"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/engine/ai"
	"github.com/mod2048/mod2048/scripting/session"
)

// View is what a policy sees of a game: what a player sees, and no more.
// State is the game's state without its random source (its RNG is zero):
// no policy can read the spawns to come from it. Legal is the session's
// legal moves, in which a mod's refusal counts as illegal. Fork copies the
// game at its state for a search, its random source seeded with seed,
// never the game's own, and the mods' hooks run on its moves as dry runs,
// so that a search sees the mods as the player does. Modded says that
// mods are loaded, as the player sees them listed.
type View struct {
	State  *engine.State
	Rules  engine.Rules
	Legal  engine.DirSet
	Fork   func(seed uint64) *engine.Game
	Modded bool
}

// Policy chooses moves. A policy is used by one game at a time; New makes
// one for each game, from the game's seed, so that ties broken at random
// are the same on every run.
type Policy interface {
	Choose(v View) engine.Direction
}

// A nodeCounter is a policy whose search does its work outside the
// engine's rules (the packed classic expert): Nodes returns the positions
// it has evaluated so far, the same on every machine.
type nodeCounter interface {
	Nodes() uint64
}

// PolicyMaker makes a game's policy from its seed.
type PolicyMaker func(seed uint64) (Policy, error)

// PolicyOptions tune the policies that search.
type PolicyOptions struct {
	Depth   int         // lookahead: moves deep
	Samples int         // lookahead: forks a move is sampled on
	AI      ai.Settings // expert: the expert player's settings
	// Weights weigh the evaluation of a ruleset that has its own
	// (ai.Evaluator: cellular's features); nil: its default.
	Weights []float64
}

// Policies lists the policies by name.
func Policies() []string { return []string{"random", "greedy", "lookahead", "expert"} }

// DefaultPolicy is the policy of a run that names none.
const DefaultPolicy = "lookahead"

// The lookahead's defaults: one move deep, each move sampled on four forks.
// The cellular presets' ladder (cellular/RULES.md, "Tuning") is measured
// with them.
const (
	DefaultDepth   = 1
	DefaultSamples = 4
)

// MakePolicy returns the maker of the named policy.
func MakePolicy(name string, o PolicyOptions) (PolicyMaker, error) {
	switch name {
	case "random":
		return func(seed uint64) (Policy, error) { return &randomPolicy{rng: engine.NewRNG(seed)}, nil }, nil
	case "greedy":
		return func(seed uint64) (Policy, error) { return &greedyPolicy{rng: engine.NewRNG(seed)}, nil }, nil
	case "lookahead":
		if o.Depth < 1 || o.Depth > 4 || o.Samples < 1 || o.Samples > 32 {
			return nil, fmt.Errorf("lookahead: depth %d (1 to 4) and samples %d (1 to 32)", o.Depth, o.Samples)
		}
		return func(seed uint64) (Policy, error) {
			return &lookahead{rng: engine.NewRNG(seed), weights: o.Weights,
				search: ai.Search{Depth: o.Depth, Samples: o.Samples, Deep: o.Samples, Schedule: ai.Spread}}, nil
		}, nil
	case "expert":
		if err := o.AI.Validate(); err != nil {
			return nil, fmt.Errorf("expert: %v", err)
		}
		return func(seed uint64) (Policy, error) { return newExpert(o, seed) }, nil
	}
	return nil, fmt.Errorf("unknown policy %q (policies: %s)", name, strings.Join(Policies(), ", "))
}

// randomPolicy plays a legal direction at random.
type randomPolicy struct{ rng engine.RNG }

func (p *randomPolicy) Choose(v View) engine.Direction {
	var legal [4]engine.Direction
	n := 0
	for _, d := range engine.Directions {
		if v.Legal.Has(d) {
			legal[n] = d
			n++
		}
	}
	return legal[p.rng.IntN(n)]
}

// greedyPolicy plays the direction of the best immediate score; ties go to
// one of them at random.
type greedyPolicy struct{ rng engine.RNG }

func (p *greedyPolicy) Choose(v View) engine.Direction {
	var best []engine.Direction
	bestScore := engine.Score{}
	for _, d := range v.Legal.List() {
		f := v.Fork(p.rng.Uint64())
		if _, err := f.Move(d); err != nil {
			continue
		}
		switch c := f.Score().Cmp(bestScore); {
		case len(best) == 0 || c > 0:
			best, bestScore = []engine.Direction{d}, f.Score()
		case c == 0:
			best = append(best, d)
		}
	}
	if len(best) == 0 {
		return v.Legal.List()[0]
	}
	return best[p.rng.IntN(len(best))]
}

// lookahead is a depth-limited expectimax through the engine's own rules
// (ai.Search, Spread): each move is played on Samples forks, each
// reseeded so that their spawns sample what chance may bring, and the
// search looks depth moves deep. It never re-implements a rule, so it
// plays classic, cellular and any board. It values a position by the
// ruleset's own evaluation where it has one (cellular: the chance of a win
// learned from played games, Learn), else by evaluate.
type lookahead struct {
	rng     engine.RNG
	weights []float64
	search  ai.Search
	rules   engine.Rules // the rules search.Eval is bound to
}

func (p *lookahead) Choose(v View) engine.Direction {
	seed := p.rng.Uint64()
	if err := bind(&p.search, &p.rules, v.Rules, ai.EvalFor, p.weights, evaluate); err != nil {
		return v.Legal.List()[0]
	}
	d, _ := p.search.Choose(v.Fork(seed), v.Legal, seed)
	return d
}

// bind sets s's evaluation for games of rules r, when r is not bound's:
// evalFor's (ai.EvalFor, ai.ExpertEvalFor), the ruleset's own by weights,
// else fallback.
func bind(s *ai.Search, bound *engine.Rules, r engine.Rules, evalFor evalMaker, weights []float64, fallback func(*engine.Game) float64) error {
	if s.Eval != nil && *bound == r {
		return nil
	}
	eval, err := evalFor(r, weights, fallback)
	if err != nil {
		return err
	}
	s.Eval, *bound = eval, r
	return nil
}

// evalMaker makes a search's evaluation of a ruleset's positions
// (ai.EvalFor, ai.ExpertEvalFor).
type evalMaker func(r engine.Rules, weights []float64, fallback func(*engine.Game) float64) (func(*engine.Game) float64, error)

// evaluate values a classic position for the lookahead: a win is worth
// most, a loss least; otherwise what its tiles are worth, and its empty
// cells. A tile of value v takes v·(log2 v − 1) points to make from 2s, so
// without mods the tiles are worth the score (give or take the 4s that
// spawned), and a mod that takes a tile away, or doubles one, costs or
// gives what the tile did: the score, which only ever grows, would not
// see it.
func evaluate(g *engine.Game) float64 {
	st := g.State()
	switch st.Status {
	case engine.Won, engine.WonContinue:
		return 1e15
	case engine.Lost:
		return -1e15
	}
	worth, empty := 0.0, 0
	for _, c := range st.Board.Cells {
		switch {
		case c.Kind == engine.KindEmpty:
			empty++
		case c.Level > 1:
			worth += math.Ldexp(float64(c.Level-1), int(c.Level))
		}
	}
	return worth + 4*float64(empty)
}

// expertPolicy is the strongest player the lab has, for every ruleset:
// where the ruleset values its own positions (ai.Evaluator: cellular), the
// search through the engine's rules (ai.Search, Spread), ai.Settings'
// fork_depth moves deep with its samples at the root and its deep_samples
// below (by default four moves, six and one: cellular/RULES.md, "The
// expert, measured"), valuing positions by the ruleset's evaluation;
// elsewhere the expert player of engine/ai (its packed 4×4 search, or its
// search through the engine's rules on other boards and with mods).
type expertPolicy struct {
	p       *ai.Player
	rng     engine.RNG
	search  ai.Search
	rules   engine.Rules // the rules search.Eval is bound to
	weights []float64
	nodes   uint64 // the positions its packed searches evaluated
}

func newExpert(o PolicyOptions, seed uint64) (*expertPolicy, error) {
	p, err := ai.New(o.AI)
	if err != nil {
		return nil, err
	}
	return &expertPolicy{p: p, rng: engine.NewRNG(seed), weights: o.Weights,
		search: ai.Search{Depth: o.AI.ForkDepth, Samples: o.AI.Samples, Deep: o.AI.Deep(), Schedule: ai.Spread}}, nil
}

// Nodes is the positions the expert's packed searches have evaluated (a
// search through the engine's rules counts its moves instead).
func (p *expertPolicy) Nodes() uint64 { return p.nodes }

// searches reports whether the expert plays r's games with its own search
// (r values its own positions), bound to them.
func (p *expertPolicy) searches(r engine.Rules) bool {
	if _, ok := r.(ai.Evaluator); !ok {
		return false
	}
	return bind(&p.search, &p.rules, r, ai.ExpertEvalFor, p.weights, nil) == nil
}

func (p *expertPolicy) Choose(v View) engine.Direction {
	if p.searches(v.Rules) {
		seed := p.rng.Uint64()
		d, _ := p.search.Choose(v.Fork(seed), v.Legal, seed)
		return d
	}
	sug, err := p.p.Best(v.Fork(0), v.Legal)
	p.nodes += uint64(p.p.Nodes)
	if err != nil {
		return v.Legal.List()[0]
	}
	return sug.Dir
}

// ViewOf is what a player sees of a session's game.
func ViewOf(s *session.Session) View {
	return View{State: playerState(s.State(), new(engine.State)), Rules: s.Rules(), Legal: s.Legal(), Fork: s.Fork, Modded: len(s.Mods()) > 0}
}

// playerState makes into into a copy of s as a player sees it: everything
// but its random source, which is zero. The copy shares s's cells, marks
// and data, to read while s stands.
func playerState(s, into *engine.State) *engine.State {
	*into = *s
	into.RNG = engine.RNG{}
	return into
}

// Advice is one move as the expert ranks it.
type Advice struct {
	Dir engine.Direction
	// Win is the chance of a win the expert's search sees after the move,
	// from 0 to 1, where its evaluation is one (cellular); -1 where it is
	// not (classic, whose expert ranks moves by its own units). It is the
	// search's own, not a figure to show a player: on games played by the
	// tips it does not mean what it says (cellular/RULES.md, "The tip").
	Win float64
}

// Expert is the expert policy as a player's adviser: it ranks the legal
// moves of a position (the terminal's tip, autoplay).
type Expert struct {
	p expertPolicy
}

// NewExpert makes the expert of the options (their AI settings and
// weights).
func NewExpert(o PolicyOptions) (*Expert, error) {
	p, err := newExpert(o, 1)
	if err != nil {
		return nil, err
	}
	return &Expert{p: *p}, nil
}

// Chance is the chance of a win from v's position that a player who
// follows the tips has, where the lab has measured it (ChanceFor: a
// cellular preset, no mods); false elsewhere.
func (e *Expert) Chance(v View) (float64, bool) {
	r, ok := v.Rules.(*cellular.Rules)
	if !ok || v.Modded {
		return 0, false
	}
	return ChanceFor(r, v.State)
}

// Advise ranks the legal moves of v's position, best first. The same
// position gives the same ranking.
func (e *Expert) Advise(v View) ([]Advice, error) {
	if v.Legal == 0 {
		return nil, ai.ErrNoMove
	}
	if e.p.searches(v.Rules) {
		seed := engine.PositionSeed(v.State)
		root := v.Fork(seed)
		var out []Advice
		for _, d := range v.Legal.List() {
			if w := e.p.search.Value(root, d, seed); !math.IsInf(w, -1) {
				out = append(out, Advice{Dir: d, Win: w})
			}
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].Win > out[j].Win })
		if len(out) == 0 {
			out = []Advice{{Dir: v.Legal.List()[0], Win: 0}}
		}
		return out, nil
	}
	r, err := e.p.p.Rank(v.Fork(0), v.Legal)
	if err != nil {
		return nil, err
	}
	out := make([]Advice, len(r))
	for i, s := range r {
		out[i] = Advice{Dir: s.Dir, Win: -1}
	}
	return out, nil
}
