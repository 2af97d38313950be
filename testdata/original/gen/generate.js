#!/usr/bin/env node
// generate.js writes the differential fixtures of testdata/original: random
// boards of sizes 3 to 6 and random moves, played by the original game's own
// GameManager (gabrielecirulli/2048), headless, and written down as .cases
// files that the project's fixture runner plays against our engine.
//
//   node testdata/original/gen/generate.js ORIGINAL OUTDIR [--seed N] [--cases N]
//
// ORIGINAL is a checkout of gabrielecirulli/2048 (its js/grid.js, js/tile.js
// and js/game_manager.js are loaded, unchanged, into a Node vm context);
// OUTDIR receives size3.cases ... size6.cases. The same seed and count give
// byte-identical files. README.md beside this folder says how the original's
// states map onto fixture statuses, and why. No npm package is needed.
"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");
const crypto = require("crypto");

const ORIGINAL_FILES = ["js/tile.js", "js/grid.js", "js/game_manager.js"];
// The cases per board size, in this order; --cases scales them.
const SIZES = [3, 4, 5, 6];
const SHARE = { 3: 0.23, 4: 0.34, 5: 0.215, 6: 0.215 };
const WIN = 2048; // the original's hard-coded goal; our default win_value

function usage(msg) {
  if (msg) process.stderr.write("generate.js: " + msg + "\n");
  process.stderr.write("usage: node generate.js ORIGINAL OUTDIR [--seed N] [--cases N]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { seed: 2048, cases: 3000, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--seed" || a === "--cases") {
      const v = argv[++i];
      if (v === undefined || !/^[0-9]+$/.test(v)) usage(a + " needs a whole number");
      opts[a.slice(2)] = Number(v);
    } else if (a.startsWith("-")) {
      usage("unknown flag " + a);
    } else {
      opts.positional.push(a);
    }
  }
  if (opts.positional.length !== 2) usage("want ORIGINAL and OUTDIR");
  if (opts.seed > 0xffffffff) usage("--seed must fit in 32 bits");
  if (opts.cases < SIZES.length) usage("--cases must be at least " + SIZES.length);
  return opts;
}

// mulberry32: a small seeded PRNG of 32-bit integer arithmetic only, so the
// same seed gives the same numbers on every Node version and machine.
function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// gitBlob returns a file's git blob id, as `git ls-tree` prints it.
function gitBlob(data) {
  const h = crypto.createHash("sha1");
  h.update("blob " + data.length + "\0");
  h.update(data);
  return h.digest("hex");
}

// loadOriginal runs the original's game files in a fresh vm context whose
// Math.random draws from `random` (set per use), and returns the context.
function loadOriginal(dir) {
  const ctx = { console: console };
  vm.createContext(ctx);
  const blobs = [];
  for (const f of ORIGINAL_FILES) {
    const p = path.join(dir, f);
    let data;
    try {
      data = fs.readFileSync(p);
    } catch (e) {
      usage("cannot read " + p + ": " + e.message + " (ORIGINAL must be a checkout of gabrielecirulli/2048)");
    }
    blobs.push(f + " " + gitBlob(data));
    vm.runInContext(data.toString("utf8"), ctx, { filename: p });
  }
  // Stubs for what the original hands to GameManager: no input, no
  // display, and a storage whose saved game is the state we start from.
  vm.runInContext(
    "function StubInput() {}\n" +
      "StubInput.prototype.on = function () {};\n" +
      "function StubActuator() { this.actuated = 0; }\n" +
      "StubActuator.prototype.actuate = function () { this.actuated++; };\n" +
      "StubActuator.prototype.continueGame = function () {};\n" +
      "var pendingState = null;\n" +
      "function StubStorage() {}\n" +
      "StubStorage.prototype.getGameState = function () { var s = pendingState; pendingState = null; return s; };\n" +
      "StubStorage.prototype.setGameState = function () {};\n" +
      "StubStorage.prototype.clearGameState = function () {};\n" +
      "StubStorage.prototype.getBestScore = function () { return 0; };\n" +
      "StubStorage.prototype.setBestScore = function () {};\n",
    ctx,
    { filename: "stubs.js" }
  );
  const rng = { current: null };
  vm.runInContext("Math", ctx).random = function () {
    return rng.current();
  };
  return { ctx, blobs, rng };
}

// Original wraps one GameManager of the original.
class Original {
  constructor(orig, size, state) {
    this.orig = orig;
    this.size = size;
    orig.ctx.pendingState = state;
    this.gm = new orig.ctx.GameManager(size, orig.ctx.StubInput, orig.ctx.StubActuator, orig.ctx.StubStorage);
    if (orig.ctx.pendingState !== null) throw new Error("the original did not load the state");
  }

  // values returns the board as rows of values (0 for empty), row r from
  // the top, column c from the left: the original's cells[x][y] is column
  // x, row y.
  values() {
    const out = [];
    for (let r = 0; r < this.size; r++) {
      const row = [];
      for (let c = 0; c < this.size; c++) {
        const t = this.gm.grid.cells[c][r];
        row.push(t ? t.value : 0);
      }
      out.push(row);
    }
    return out;
  }

  // move plays one move in the original (0 up, 1 right, 2 down, 3 left)
  // and reports whether it moved (the original actuates only then) and the
  // tile it spawned: the one tile with neither a previous position nor
  // merge sources, as the original's HTML actuator tells new tiles.
  move(dir) {
    const before = this.gm.actuator.actuated;
    this.gm.move(dir);
    const moved = this.gm.actuator.actuated !== before;
    let spawn = null;
    if (moved) {
      for (let x = 0; x < this.size; x++) {
        for (let y = 0; y < this.size; y++) {
          const t = this.gm.grid.cells[x][y];
          if (t && !t.previousPosition && !t.mergedFrom) {
            if (spawn) throw new Error("two new tiles after one move");
            spawn = { r: y, c: x, v: t.value };
          }
        }
      }
    }
    return { moved, spawn };
  }

  // legal returns the directions that would change the board, found by
  // playing each on a copy of the game (its spawns from a throwaway random
  // source, so the game's own sequence is untouched).
  legal() {
    const saved = this.orig.rng.current;
    this.orig.rng.current = () => 0.5;
    const out = [];
    for (const d of DIRS) {
      const copy = new Original(this.orig, this.size, this.gm.serialize());
      if (copy.move(d.code).moved) out.push(d.name);
    }
    this.orig.rng.current = saved;
    return out;
  }

  // status maps the original's flags onto a fixture status: over is Lost
  // (the original shows "Game over!" when both are set), won without
  // keepPlaying is Won, won with it is Won (continue).
  status() {
    const gm = this.gm;
    if (gm.over) return "Lost";
    if (gm.won) return gm.keepPlaying ? "Won (continue)" : "Won";
    return "Playing";
  }
}

// DIRS in the order our engine lists legal moves; code is the original's.
const DIRS = [
  { name: "Left", code: 3 },
  { name: "Right", code: 1 },
  { name: "Up", code: 0 },
  { name: "Down", code: 2 },
];

// startState is the original's saved-game form of a board, with the flags
// that give it our engine's starting status: a board holding a tile at or
// above 2048 has been won and play goes on (won, keepPlaying); with
// stopOnWin false, keepPlaying is set from the start (the original's "Keep
// going" pressed in advance); a board with no move left is over, by the
// original's own movesAvailable.
function startState(orig, rows, stopOnWin) {
  const size = rows.length;
  const cells = [];
  let hasWin = false;
  for (let x = 0; x < size; x++) {
    const col = [];
    for (let y = 0; y < size; y++) {
      const v = rows[y][x];
      if (v >= WIN) hasWin = true;
      col.push(v ? { position: { x: x, y: y }, value: v } : null);
    }
    cells.push(col);
  }
  const state = { grid: { size: size, cells: cells }, score: 0, over: false, won: hasWin, keepPlaying: hasWin || !stopOnWin };
  const probe = new Original(orig, size, JSON.parse(JSON.stringify(state)));
  state.over = !probe.gm.movesAvailable();
  return state;
}

// Board makers. Each returns rows of values for a size from the
// generator's random source g.
function pick(g, list) {
  return list[Math.floor(g() * list.length)];
}

function randInt(g, lo, hi) {
  return lo + Math.floor(g() * (hi - lo + 1));
}

// tileValue draws a tile of 2^1 .. 2^maxExp, small values likelier.
function tileValue(g, maxExp) {
  const e = 1 + Math.floor(g() * g() * maxExp);
  return 2 ** Math.min(e, maxExp);
}

function emptyRows(size) {
  return Array.from({ length: size }, () => new Array(size).fill(0));
}

// fillRandom sets `count` random cells of rows to values from valueOf.
function fillRandom(g, rows, count, valueOf) {
  const size = rows.length;
  const free = [];
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) if (!rows[r][c]) free.push([r, c]);
  for (let i = 0; i < count && free.length; i++) {
    const k = Math.floor(g() * free.length);
    const [r, c] = free.splice(k, 1)[0];
    rows[r][c] = valueOf();
  }
  return rows;
}

// noMoveRows fills the board so that no two neighbours are equal.
function noMoveRows(g, size, maxExp) {
  const rows = emptyRows(size);
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      let v;
      do {
        v = tileValue(g, maxExp);
      } while ((c > 0 && rows[r][c - 1] === v) || (r > 0 && rows[r - 1][c] === v));
      rows[r][c] = v;
    }
  }
  return rows;
}

// KINDS are the board families, with their weights.
const KINDS = [
  { name: "empty", weight: 2, make: (g, n) => emptyRows(n) },
  { name: "one tile", weight: 3, make: (g, n) => fillRandom(g, emptyRows(n), 1, () => tileValue(g, 11)) },
  {
    name: "sparse",
    weight: 14,
    make: (g, n) => fillRandom(g, emptyRows(n), randInt(g, 2, Math.ceil(n * n * 0.35)), () => tileValue(g, randInt(g, 2, 9))),
  },
  {
    name: "half full",
    weight: 16,
    make: (g, n) => fillRandom(g, emptyRows(n), randInt(g, Math.ceil(n * n * 0.35), Math.ceil(n * n * 0.75)), () => tileValue(g, randInt(g, 2, 10))),
  },
  {
    name: "nearly full",
    weight: 16,
    make: (g, n) => fillRandom(g, emptyRows(n), n * n - randInt(g, 1, 2), () => tileValue(g, randInt(g, 2, 8))),
  },
  { name: "full", weight: 12, make: (g, n) => fillRandom(g, emptyRows(n), n * n, () => tileValue(g, randInt(g, 2, 6))) },
  { name: "no move", weight: 6, make: (g, n) => noMoveRows(g, n, randInt(g, 3, 9)) },
  {
    name: "one merge left",
    weight: 5,
    make: (g, n) => {
      const rows = noMoveRows(g, n, randInt(g, 3, 9));
      const r = randInt(g, 0, n - 1);
      const c = randInt(g, 0, n - 2);
      if (g() < 0.5) rows[r][c + 1] = rows[r][c];
      else rows[c + 1][r] = rows[c][r];
      return rows;
    },
  },
  {
    name: "last gaps",
    weight: 8,
    make: (g, n) => {
      const rows = noMoveRows(g, n, randInt(g, 3, 9));
      for (let k = randInt(g, 1, 2); k > 0; k--) rows[randInt(g, 0, n - 1)][randInt(g, 0, n - 1)] = 0;
      return rows;
    },
  },
  {
    name: "near win",
    weight: 12,
    make: (g, n) => {
      const rows = fillRandom(g, emptyRows(n), randInt(g, 2, n * n - 2), () => tileValue(g, randInt(g, 6, 10)));
      // a pair (or two) of 1024s side by side, maybe with a gap
      for (let k = randInt(g, 1, 2); k > 0; k--) {
        const r = randInt(g, 0, n - 1);
        const c = randInt(g, 0, n - 2);
        const c2 = randInt(g, c + 1, n - 1);
        if (g() < 0.5) {
          rows[r][c] = 1024;
          rows[r][c2] = 1024;
          for (let j = c + 1; j < c2; j++) if (g() < 0.7) rows[r][j] = 0;
        } else {
          rows[c][r] = 1024;
          rows[c2][r] = 1024;
          for (let j = c + 1; j < c2; j++) if (g() < 0.7) rows[j][r] = 0;
        }
      }
      return rows;
    },
  },
  {
    name: "won",
    weight: 8,
    make: (g, n) => {
      const rows = fillRandom(g, emptyRows(n), randInt(g, 1, n * n - 1), () => tileValue(g, randInt(g, 4, 12)));
      const r = randInt(g, 0, n - 1);
      const c = randInt(g, 0, n - 1);
      rows[r][c] = 2 ** randInt(g, 11, 14);
      if (g() < 0.4) {
        // a second big tile, maybe equal, to merge past the goal
        const r2 = randInt(g, 0, n - 1);
        const c2 = randInt(g, 0, n - 1);
        if (r2 !== r || c2 !== c) rows[r2][c2] = g() < 0.6 ? rows[r][c] : 2048;
      }
      return rows;
    },
  },
  {
    name: "big tiles",
    weight: 6,
    make: (g, n) => fillRandom(g, emptyRows(n), randInt(g, 2, n * n), () => 2 ** randInt(g, 9, 20)),
  },
];

function chooseKind(g) {
  const total = KINDS.reduce((s, k) => s + k.weight, 0);
  let x = g() * total;
  for (const k of KINDS) {
    if (x < k.weight) return k;
    x -= k.weight;
  }
  return KINDS[KINDS.length - 1];
}

// formatRows writes a board, each column right-aligned to the board's widest
// value.
function formatRows(rows) {
  let w = 1;
  for (const row of rows) for (const v of row) w = Math.max(w, String(v).length);
  return rows.map((row) => row.map((v) => String(v).padStart(w)).join(" ")).join("\n");
}

function sameRows(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// stats counts what the cases exercise; the generator prints them.
const stats = { cases: 0, moves: 0, moved: 0, unchanged: 0, ignored: 0, fours: 0, winStop: 0, winContinue: 0, lostByMove: 0 };

// makeCase plays one case in the original and returns its text.
function makeCase(orig, g, spawnRng, size, id) {
  const kind = chooseKind(g);
  const rows = kind.make(g, size);
  const stopOnWin = g() >= 0.3;
  const long = g() < 0.12;
  const moves = long ? randInt(g, 8, 20) : randInt(g, 1, 6);

  const game = new Original(orig, size, startState(orig, rows, stopOnWin));
  if (!sameRows(game.values(), rows)) throw new Error(id + ": the original did not load the board as given");
  orig.rng.current = spawnRng;

  const config = "size=" + size + (stopOnWin ? "" : " stop_on_win=false");
  const out = [];
  out.push("Case: " + id + " " + kind.name + ", " + moves + (moves === 1 ? " move" : " moves") + (stopOnWin ? "" : ", stop_on_win=false"));
  out.push("Config: " + config);
  out.push("Given:");
  out.push(formatRows(rows));
  out.push("Status: " + game.status());
  out.push("Legal: " + (game.legal().join(" ") || "none"));

  let total = 0;
  for (let i = 0; i < moves; i++) {
    const d = pick(g, DIRS);
    const wasWon = game.gm.won;
    const wasOver = game.gm.isGameTerminated();
    const score = game.gm.score;
    const res = game.move(d.code);
    stats.moves++;
    if (wasOver) stats.ignored++;
    else if (!res.moved) stats.unchanged++;
    else {
      stats.moved++;
      if (res.spawn && res.spawn.v === 4) stats.fours++;
      if (!wasWon && game.gm.won) stats[game.gm.keepPlaying ? "winContinue" : "winStop"]++;
    }
    if (res.moved && !wasWon && game.gm.won && !game.gm.keepPlaying && res.spawn) {
      // seeds/000 C11: a win with stop_on_win=true spawns nothing. The
      // original spawns (and may then find the board over); the fixture
      // keeps the seed's rule: the spawned tile is taken back, and the
      // game is Won, as the original's flags say once it is.
      game.gm.grid.cells[res.spawn.c][res.spawn.r] = null;
      game.gm.over = false;
      res.spawn = null;
    }
    if (res.moved && game.gm.over) stats.lostByMove++;
    const delta = game.gm.score - score;
    total += delta;
    out.push("Move: " + d.name);
    if (res.spawn) out.push("SpawnScript: [{" + res.spawn.r + "," + res.spawn.c + "," + res.spawn.v + "}]");
    out.push("Expect:");
    out.push(formatRows(game.values()));
    out.push("ScoreΔ: " + delta);
    out.push("Status: " + game.status());
    out.push("Legal: " + (game.legal().join(" ") || "none"));
  }
  stats.cases++;
  out.push("Score: " + total);
  out.push("Remaining: 0");
  return out.join("\n") + "\n";
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const [origDir, outDir] = opts.positional;
  const orig = loadOriginal(origDir);
  const g = mulberry32(opts.seed);
  const spawnRng = mulberry32((opts.seed ^ 0x9e3779b9) >>> 0);
  fs.mkdirSync(outDir, { recursive: true });

  let left = opts.cases;
  SIZES.forEach((size, i) => {
    const n = i === SIZES.length - 1 ? left : Math.round(opts.cases * SHARE[size]);
    left -= n;
    const parts = [];
    parts.push(
      "# Differential cases: " + size + "x" + size + " boards played by the original game\n" +
        "# (gabrielecirulli/2048), generated; do not edit. Regenerate as\n" +
        "# testdata/original/README.md says:\n" +
        "#   node testdata/original/gen/generate.js ORIGINAL testdata/original --seed " + opts.seed + " --cases " + opts.cases + "\n" +
        "# from the original's files (git blob ids):\n" +
        orig.blobs.map((b) => "#   " + b + "\n").join("") +
        "# A stopping win spawns nothing here (seeds/000 C11), where the original spawns.\n"
    );
    for (let k = 1; k <= n; k++) {
      const id = "O" + size + "-" + String(k).padStart(4, "0");
      parts.push(makeCase(orig, g, spawnRng, size, id));
    }
    fs.writeFileSync(path.join(outDir, "size" + size + ".cases"), parts.join("\n"));
  });
  process.stderr.write(
    stats.cases + " cases, " + stats.moves + " moves: " + stats.moved + " moved (" + stats.fours + " spawned a 4), " +
      stats.unchanged + " changed nothing, " + stats.ignored + " in a finished game; wins by a merge: " +
      stats.winStop + " stopping, " + stats.winContinue + " going on; " + stats.lostByMove + " moves lost the game\n"
  );
}

main();
