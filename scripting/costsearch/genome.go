// Package costsearch searches for Lua programs that cost the host more than
// the sandbox charges them: more wall time per charged instruction, or more
// of the process's heap per byte the memory budget weighs. It is a genetic
// search over generated mods in the manner of Perez and Livshits, "Broken
// Metre: Attacking Resource Metering in EVM" (NDSS 2020), which searched
// for Ethereum programs with the most time per unit of gas.
//
// A program is a Genome: a list of genes, each an operation template (Op)
// with its operand sizes, that Source writes out as a mod's main.lua. Run
// plays the mod in the real sandbox (package scripting, at its default
// limits) and measures the two ratios; Search mutates and selects for the
// programs that maximise them. Everything is deterministic but the
// timings: a seed gives the same programs, and the same mutations of them.
//
// The programs it finds, and the known attacks written by hand, live in
// testdata/corpus; TestCostCorpus replays them against the bounds the
// sandbox should keep (enforceBounds), and `make costsearch` runs a search
// for as long as asked (cmd/costsearch).
package costsearch

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Op is an operation template. A gene of it is written as a function of
// its own with upvalues a, b, t, f (named with the gene's index): Setup
// runs once, when the mod loads (charged to the load's budget, not timed),
// and Body runs M times each time the gene's function is called, with j
// the loop's counter, leaving its result in the local r. The text's $N and
// $M are the gene's sizes.
type Op struct {
	Name  string
	Setup string
	Body  string
	// NMax bounds the gene's N (its size: bytes, keys, elements); MMax its
	// M (the times the body runs in a call of the gene).
	NMax, MMax int
}

// Ops are the templates the generator draws from: the VM's operations,
// the builtins, the mod API, and shapes of source text.
var Ops = []Op{
	// Comparisons, and the VM's arithmetic and tables.
	{Name: "string <", Setup: `a = string.rep("a", $N) .. "x" b = string.rep("a", $N) .. "y"`, Body: `r = a < b`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "string ==", Setup: `a = string.rep("a", $N) .. "x" b = string.rep("a", $N) .. "x"`, Body: `r = a == b`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "string <=", Setup: `a = string.rep("a", $N) .. "x" b = string.rep("a", $N) .. "x"`, Body: `r = a <= b`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "rawequal", Setup: `a = string.rep("a", $N) .. "x" b = string.rep("a", $N) .. "x"`, Body: `r = rawequal(a, b)`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "arithmetic", Body: `r = (j * 3 + 1) % 7 - j / 2`, NMax: 1, MMax: 1 << 14},
	{Name: "math", Body: `r = math.floor(math.sqrt(j)) + math.max(j, 1) + math.abs(-j)`, NMax: 1, MMax: 1 << 14},
	{Name: "small tables", Body: `r = {j, j + 1, x = j}`, NMax: 1, MMax: 1 << 14},
	{Name: "string keys", Setup: `t = {}`, Body: `t["k" .. (j % $N)] = j`, NMax: 1 << 17, MMax: 1 << 14},
	{Name: "number keys", Setup: `t = {}`, Body: `t[(j * 7919) % $N + 0.5] = j`, NMax: 1 << 17, MMax: 1 << 14},
	{Name: "long key get", Setup: `a = string.rep("k", $N) .. "1" t = {[a] = 1}`, Body: `r = t[a]`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "long key set", Setup: `a = string.rep("k", $N) .. "1" t = {}`, Body: `t[a] = j`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "rawget long key", Setup: `a = string.rep("k", $N) .. "1" t = {[a] = 1}`, Body: `r = rawget(t, a)`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "rawset long key", Setup: `a = string.rep("k", $N) .. "1" t = {}`, Body: `rawset(t, a, j)`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "length of a table", Setup: `t = {} for k = 1, $N do t[k] = k end t[math.floor($N / 2) + 1] = nil`, Body: `r = #t`, NMax: 1 << 17, MMax: 1 << 14},
	{Name: "length of a string", Setup: `a = string.rep("l", $N)`, Body: `r = #a`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "concatenation", Setup: `a = string.rep("c", $N)`, Body: `r = a .. j`, NMax: 1 << 20, MMax: 1 << 10},
	{Name: "closures", Body: `local x = j r = function() return x end`, NMax: 1, MMax: 1 << 14},
	{Name: "varargs", Setup: `t = {} for k = 1, $N do t[k] = k end f = function(...) return select("#", ...) end`, Body: `r = f(unpack(t))`, NMax: 1 << 16, MMax: 1 << 10},
	{Name: "select", Setup: `t = {} for k = 1, $N do t[k] = k end f = function(...) return (select($N, ...)) end`, Body: `r = f(unpack(t))`, NMax: 1 << 16, MMax: 1 << 10},
	{Name: "__index chain", Setup: `t = {} for k = 1, $N do t = setmetatable({}, {__index = t}) end`, Body: `r = t.missing`, NMax: 1 << 10, MMax: 1 << 12},
	{Name: "__index function", Setup: `t = setmetatable({}, {__index = function(_, k) return k end})`, Body: `r = t[j]`, NMax: 1, MMax: 1 << 14},
	{Name: "__eq", Setup: `local mt = {__eq = function() return true end} a = setmetatable({}, mt) b = setmetatable({}, mt)`, Body: `r = a == b`, NMax: 1, MMax: 1 << 14},
	{Name: "__lt on strings", Setup: `local mt = {__lt = function(x, y) return x[1] < y[1] end} a = setmetatable({string.rep("m", $N) .. "x"}, mt) b = setmetatable({string.rep("m", $N) .. "y"}, mt)`, Body: `r = a < b`, NMax: 1 << 20, MMax: 1 << 12},
	{Name: "__concat", Setup: `a = setmetatable({}, {__concat = function(x, y) return "c" end})`, Body: `r = a .. "x"`, NMax: 1, MMax: 1 << 12},
	{Name: "pcall error", Setup: bigString("e"), Body: `local ok, e = pcall(error, a) r = e`, NMax: 1 << 24, MMax: 1 << 10},
	{Name: "pcall error with position", Setup: bigString("e") + ` f = function() error(a) end`, Body: `local ok, e = pcall(f) r = e`, NMax: 1 << 24, MMax: 1 << 10},
	{Name: "pcall error table", Body: `local ok, e = pcall(error, {j}) r = e`, NMax: 1, MMax: 1 << 12},
	// The builtins.
	{Name: "tonumber", Setup: `a = string.rep("7", $N)`, Body: `r = tonumber(a)`, NMax: 1 << 20, MMax: 1 << 12},
	{Name: "tonumber hex", Setup: `a = "0x" .. string.rep("f", $N)`, Body: `r = tonumber(a)`, NMax: 1 << 20, MMax: 1 << 12},
	{Name: "tonumber base", Setup: `a = string.rep("z", $N)`, Body: `r = tonumber(a, 36)`, NMax: 1 << 20, MMax: 1 << 12},
	{Name: "tostring of a number", Body: `r = tostring(j + 0.25)`, NMax: 1, MMax: 1 << 14},
	{Name: "tostring of a closure", Body: `r = tostring(function() end)`, NMax: 1, MMax: 1 << 14},
	{Name: "tostring of a table", Body: `r = tostring({})`, NMax: 1, MMax: 1 << 14},
	{Name: "string.rep", Body: `r = string.rep("r", $N)`, NMax: 1 << 20, MMax: 1 << 10},
	{Name: "string.sub of a new string", Body: `r = string.sub(string.rep("p", $N) .. j, 1, 1)`, NMax: 1 << 20, MMax: 1 << 8},
	{Name: "string.sub", Setup: `a = string.rep("s", $N)`, Body: `r = string.sub(a, 2, -2)`, NMax: 1 << 20, MMax: 1 << 12},
	{Name: "string.upper", Setup: `a = string.rep("u", $N)`, Body: `r = string.upper(a)`, NMax: 1 << 20, MMax: 1 << 10},
	{Name: "string.reverse", Setup: `a = string.rep("v", $N)`, Body: `r = string.reverse(a)`, NMax: 1 << 20, MMax: 1 << 10},
	{Name: "string.format %s", Setup: `a = string.rep("f", $N)`, Body: `r = string.format("%s.%d", a, j)`, NMax: 1 << 20, MMax: 1 << 10},
	{Name: "string.format %q", Setup: `a = string.rep("\n", $N)`, Body: `r = string.format("%q", a)`, NMax: 1 << 19, MMax: 1 << 10},
	{Name: "string.find plain", Setup: `a = string.rep("f", $N)`, Body: `r = string.find(a, "x", 1, true)`, NMax: 1 << 20, MMax: 1 << 12},
	{Name: "string.find pattern", Setup: `a = string.rep("f", $N)`, Body: `r = string.find(a, "f-x")`, NMax: 1 << 16, MMax: 1 << 10},
	{Name: "string.gsub", Setup: `a = string.rep("g", $N)`, Body: `r = string.gsub(a, "g", "h")`, NMax: 1 << 16, MMax: 1 << 10},
	{Name: "string.gmatch", Setup: `a = string.rep("w ", $N)`, Body: `for w in string.gmatch(a, "%a+") do r = w end`, NMax: 1 << 15, MMax: 1 << 6},
	{Name: "string.find long class", Setup: longClass(`"["`, `"]"`), Body: `r = string.find(a, b)`, NMax: 64000, MMax: 1 << 6},
	{Name: "string.find frontier of a long class", Setup: longClass(`"%f["`, `"]"`), Body: `r = string.find(a, b)`, NMax: 64000, MMax: 1 << 6},
	{Name: "string.match long class", Setup: longClass(`"["`, `"]*$"`), Body: `r = string.match(a, b)`, NMax: 64000, MMax: 1 << 6},
	{Name: "string.gsub long class", Setup: longClass(`"["`, `"a]"`), Body: `r = string.gsub(a, b, "")`, NMax: 64000, MMax: 1 << 6},
	{Name: "string.gmatch long class", Setup: longClass(`"["`, `"a]"`), Body: `for w in string.gmatch(a, b) do r = w end`, NMax: 64000, MMax: 1 << 4},
	{Name: "string.byte", Setup: `a = string.rep("b", $N)`, Body: `r = select("#", string.byte(a, 1, -1))`, NMax: 1 << 16, MMax: 1 << 10},
	{Name: "string.char", Setup: `t = {} for k = 1, $N do t[k] = 65 end`, Body: `r = string.char(unpack(t))`, NMax: 1 << 16, MMax: 1 << 10},
	{Name: "method on a string", Setup: `a = string.rep("o", $N)`, Body: `r = a:len()`, NMax: 1 << 20, MMax: 1 << 14},
	{Name: "table.concat", Setup: `t = {} for k = 1, $N do t[k] = "e" .. k end`, Body: `r = table.concat(t, ",")`, NMax: 1 << 16, MMax: 1 << 8},
	{Name: "table.insert at the front", Setup: `t = {} for k = 1, $N do t[k] = k end`, Body: `table.insert(t, 1, j) table.remove(t, 1)`, NMax: 1 << 17, MMax: 1 << 12},
	{Name: "table.sort", Setup: `t = {} for k = 1, $N do t[k] = (k * 7919) % $N end`, Body: `table.sort(t) t[1], t[#t] = t[#t], t[1]`, NMax: 1 << 16, MMax: 1 << 6},
	{Name: "table.sort with a function", Setup: `t = {} for k = 1, $N do t[k] = (k * 7919) % $N end f = function(x, y) return x > y end`, Body: `table.sort(t, f) t[1], t[#t] = t[#t], t[1]`, NMax: 1 << 14, MMax: 1 << 4},
	{Name: "unpack", Setup: `t = {} for k = 1, $N do t[k] = k end`, Body: `r = select("#", unpack(t))`, NMax: 1 << 16, MMax: 1 << 10},
	{Name: "next past deleted keys", Setup: `t = {} for k = 1, $N do t["k" .. k] = k end for k = 1, $N do t["k" .. k] = nil end`, Body: `r = next(t)`, NMax: 1 << 18, MMax: 1 << 12},
	{Name: "pairs over holes", Setup: `t = {} for k = 1, $N do t[k] = k end for k = 1, $N - 1 do t[k] = nil end`, Body: `for k, v in pairs(t) do r = v end`, NMax: 1 << 18, MMax: 1 << 10},
	{Name: "ipairs", Setup: `t = {} for k = 1, $N do t[k] = k end`, Body: `for k, v in ipairs(t) do r = v end`, NMax: 1 << 16, MMax: 1 << 6},
	{Name: "setmetatable", Setup: `t = {}`, Body: `r = setmetatable({}, {__index = t})`, NMax: 1, MMax: 1 << 12},
	// The mod API.
	{Name: "storage references", Setup: `a = string.rep("s", $N)`, Body: `local s = storage.refs or {} storage.refs = s s[#s + 1] = a`, NMax: 1 << 20, MMax: 1 << 10},
	{Name: "storage strings", Body: `storage["k" .. (j % 64)] = "v" .. j`, NMax: 1, MMax: 1 << 12},
	{Name: "game.log", Setup: `a = string.rep("g", $N)`, Body: `game.log(a, j)`, NMax: 1 << 20, MMax: 1 << 8},
	{Name: "game.notify", Body: `if a ~= TURN then a = TURN game.notify("n" .. j) end`, NMax: 1, MMax: 1 << 3},
	{Name: "game.cell", Body: `r = game.cell(j % 4, math.floor(j / 4) % 4)`, NMax: 1, MMax: 1 << 12},
	{Name: "game.marks", Body: `r = game.marks()`, NMax: 1, MMax: 1 << 12},
	{Name: "game.cells", Body: `r = game.cells{cell = "^0$"}`, NMax: 1, MMax: 1 << 10},
	{Name: "game.cells long class", Setup: `b = "[" .. string.rep("b", $N) .. "0]"`, Body: `r = game.cells{cell = b}`, NMax: 64000, MMax: 1 << 8},
	{Name: "game.mark", Body: `if a ~= TURN then a = TURN for k = 0, 15 do game.mark(k % 4, math.floor(k / 4), "h", 2) end end`, NMax: 1, MMax: 1 << 5},
	// Shapes of source text: a long literal, compared with a string of its
	// own, and a long constructor.
	{Name: "long literal", Setup: `a = string.rep("q", $N)`, Body: `r = a == [[$Q]]`, NMax: 1 << 16, MMax: 1 << 12},
	{Name: "long constructor", Body: `r = {$L}`, NMax: 1 << 12, MMax: 1 << 8},
}

// longClass is a Setup that makes b a pattern of a bracket class of $N
// bytes of "b", between the Lua strings open and close ("[", "]"), and a
// the subject issue 50 found it in: $N/8 bytes of "a" (the pattern's
// steps read the whole class at each step of the matching).
func longClass(open, close string) string {
	return `a = string.rep("a", math.max(1, math.floor($N / 8))) b = ` + open + ` .. string.rep("b", $N) .. ` + close
}

// bigString is a Setup that makes a of at least $N bytes of c, past
// MaxString by doubling.
func bigString(c string) string {
	return `a = string.rep("` + c + `", math.min($N, 1048576)) while #a < $N do a = a .. a end`
}

// Gene is one operation of a program: Ops[Op], with size N and count M;
// Keep keeps each result in the global K (what the mod holds).
type Gene struct {
	Op   int
	N, M int
	Keep bool
}

// Genome is a program: its genes, called in order Reps times in each call
// of the tick handler, which counts the turns in the global TURN (for the
// mod API's calls a turn allows a few of).
type Genome struct {
	Genes []Gene
	Reps  int
}

// MaxGenes bounds a genome's genes.
const MaxGenes = 8

// maxReps bounds a genome's Reps.
const maxReps = 256

// Source writes the genome as a mod's main.lua.
func (g Genome) Source() string {
	var b strings.Builder
	b.WriteString("-- costsearch: " + g.String() + "\nK = {}\ngame.hazard{name = \"h\", glyph = \"h\"}\n")
	for i, gn := range g.Genes {
		op := Ops[gn.Op]
		expand := func(s string) string {
			s = strings.ReplaceAll(s, "$Q", strings.Repeat("q", gn.N))
			if strings.Contains(s, "$L") {
				var l strings.Builder
				for k := range gn.N {
					if k > 0 {
						l.WriteString(", ")
					}
					l.WriteString(strconv.Itoa(k))
				}
				s = strings.ReplaceAll(s, "$L", l.String())
			}
			s = strings.ReplaceAll(s, "$N", strconv.Itoa(gn.N))
			return strings.ReplaceAll(s, "$M", strconv.Itoa(gn.M))
		}
		fmt.Fprintf(&b, "local g%d\ndo\n  local a, b, t, f\n", i+1)
		if op.Setup != "" {
			fmt.Fprintf(&b, "  %s\n", expand(op.Setup))
		}
		keep := ""
		if gn.Keep {
			keep = " K[#K + 1] = r"
		}
		fmt.Fprintf(&b, "  g%d = function()\n    local r\n    for j = 1, %d do %s%s end\n    return r\n  end\nend\n", i+1, gn.M, expand(op.Body), keep)
	}
	fmt.Fprintf(&b, "game.on(\"tick\", function()\n  TURN = (TURN or 0) + 1\n  for rep = 1, %d do\n", g.Reps)
	for i := range g.Genes {
		fmt.Fprintf(&b, "    g%d()\n", i+1)
	}
	b.WriteString("  end\nend)\n")
	return b.String()
}

// String names the genome's genes and sizes, in one line.
func (g Genome) String() string {
	parts := make([]string, 0, len(g.Genes))
	for _, gn := range g.Genes {
		s := fmt.Sprintf("%s N=%d M=%d", Ops[gn.Op].Name, gn.N, gn.M)
		if gn.Keep {
			s += " kept"
		}
		parts = append(parts, s)
	}
	return fmt.Sprintf("%d × [%s]", g.Reps, strings.Join(parts, "; "))
}

// Clone returns a copy of g that shares nothing with it.
func (g Genome) Clone() Genome {
	return Genome{Genes: append([]Gene(nil), g.Genes...), Reps: g.Reps}
}

// logSize draws a size from 1 to max, uniform in its logarithm, so that
// small and large sizes are drawn alike.
func logSize(rng *rand.Rand, max int) int {
	if max <= 1 {
		return 1
	}
	return min(max, int(math.Exp(rng.Float64()*math.Log(float64(max)+1))))
}

// randomGene draws a gene, of ops (indices in Ops) if they are given.
func randomGene(rng *rand.Rand, ops []int) Gene {
	op := rng.IntN(len(Ops))
	if len(ops) > 0 {
		op = ops[rng.IntN(len(ops))]
	}
	return Gene{Op: op, N: logSize(rng, Ops[op].NMax), M: logSize(rng, Ops[op].MMax), Keep: rng.IntN(4) == 0}
}

// Random draws a genome of 1 to 3 genes, of ops (indices in Ops) if they
// are given.
func Random(rng *rand.Rand, ops []int) Genome {
	g := Genome{Reps: logSize(rng, maxReps)}
	for range 1 + rng.IntN(3) {
		g.Genes = append(g.Genes, randomGene(rng, ops))
	}
	return g
}

// Mutate returns a mutant of g: a size scaled or drawn again, Keep
// flipped, a gene inserted, deleted, replaced or swapped with another,
// Reps changed, or a gene taken from other (a crossover). A new gene is
// of ops (indices in Ops) if they are given.
func Mutate(rng *rand.Rand, g, other Genome, ops []int) Genome {
	g = g.Clone()
	scale := func(v, max int) int {
		if rng.IntN(3) == 0 {
			return logSize(rng, max)
		}
		f := math.Exp((rng.Float64()*2 - 1) * math.Log(8))
		return min(max, int(math.Max(1, math.Round(float64(v)*f))))
	}
	switch k := rng.IntN(8); {
	case k == 0 && len(g.Genes) < MaxGenes:
		i := rng.IntN(len(g.Genes) + 1)
		g.Genes = append(g.Genes[:i], append([]Gene{randomGene(rng, ops)}, g.Genes[i:]...)...)
	case k == 1 && len(g.Genes) > 1:
		i := rng.IntN(len(g.Genes))
		g.Genes = append(g.Genes[:i], g.Genes[i+1:]...)
	case k == 2 && len(g.Genes) > 1:
		i, j := rng.IntN(len(g.Genes)), rng.IntN(len(g.Genes))
		g.Genes[i], g.Genes[j] = g.Genes[j], g.Genes[i]
	case k == 3:
		g.Genes[rng.IntN(len(g.Genes))] = randomGene(rng, ops)
	case k == 4:
		g.Reps = scale(g.Reps, maxReps)
	case k == 5 && len(other.Genes) > 0:
		gn := other.Genes[rng.IntN(len(other.Genes))]
		if len(g.Genes) < MaxGenes && rng.IntN(2) == 0 {
			g.Genes = append(g.Genes, gn)
		} else {
			g.Genes[rng.IntN(len(g.Genes))] = gn
		}
	case k == 6:
		i := rng.IntN(len(g.Genes))
		g.Genes[i].Keep = !g.Genes[i].Keep
	default:
		i := rng.IntN(len(g.Genes))
		op := Ops[g.Genes[i].Op]
		if rng.IntN(2) == 0 {
			g.Genes[i].N = scale(g.Genes[i].N, op.NMax)
		} else {
			g.Genes[i].M = scale(g.Genes[i].M, op.MMax)
		}
	}
	return g
}
