// The browser game's page: input, drawing and storage. Every rule of the
// game is the engine's, behind the mod2048 object that main.wasm (package
// bridge) puts on the page: this file only sends the player's actions and
// draws the views that come back. Like the original 2048, it keeps the
// input, the drawing (actuator) and the storage apart from the game.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const reduceMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  const SLIDE_MS = 100;

  // Timings for the budgets, in ms since the navigation began (the
  // performance clock's origin): this script's start, the engine ready,
  // the first playable frame; how long main.wasm took to fetch and
  // compile; each move's engine call and drawing (its animation's start
  // and its last frame's board); and each save.
  const timings = { script: performance.now(), instantiate: 0, wasmReady: 0, firstFrame: 0, moves: [], saves: [] };
  window.mod2048Timings = timings;

  // ---- Storage: localStorage, else memory (as the original falls back).
  const storage = (function () {
    try {
      const k = "__mod2048_probe__";
      window.localStorage.setItem(k, "1");
      window.localStorage.removeItem(k);
      return window.localStorage;
    } catch (e) {
      const mem = new Map();
      return {
        getItem: (k) => (mem.has(k) ? mem.get(k) : null),
        setItem: (k, v) => mem.set(k, String(v)),
        removeItem: (k) => mem.delete(k),
      };
    }
  })();
  const KEY_GAME = "gameState"; // {v, options, save}: the game being played
  const KEY_SETUP = "gameSetup"; // the options of the last game, kept after a loss
  const KEY_BEST = "bestScores"; // {setup key: best score}
  const KEY_CORRUPT = "gameState.unreadable"; // an unreadable gameState, kept aside

  function readJSON(key) {
    const text = storage.getItem(key);
    if (text === null) return { value: null };
    try {
      return { value: JSON.parse(text), text };
    } catch (e) {
      return { error: "it is not JSON (" + e.message + ")", text };
    }
  }
  function writeJSON(key, value) {
    try {
      storage.setItem(key, JSON.stringify(value));
      return true;
    } catch (e) {
      notify("The game could not be saved in this browser: " + e.message);
      return false;
    }
  }
  function keepBest(view) {
    const r = readJSON(KEY_BEST);
    const m = r.value && typeof r.value === "object" && !Array.isArray(r.value) ? r.value : {};
    if (m[view.key] !== view.best) {
      m[view.key] = view.best;
      writeJSON(KEY_BEST, m);
    }
  }

  // ---- State of the page.
  let api = null; // the mod2048 object
  let catalog = null;
  let options = null; // the options of the game being played
  let view = null; // the last view
  let ownMods = []; // the player's own mods, as ModSources
  let modValues = new Map(); // "MOD.SETTING" → its value in the settings panel, as typed
  let noticeTimer = 0;

  // ---- Drawing.
  const grid = $("grid");
  const tiles = $("tiles");
  const game = $("game");
  let gridSize = "";

  function layout(v) {
    const size = v.width + "x" + v.height;
    if (size === gridSize) return;
    gridSize = size;
    const n = Math.max(v.width, v.height);
    const root = document.documentElement.style;
    root.setProperty("--n", String(n));
    // The original's 15 px gaps on a 4×4 board; thinner on larger boards.
    const small = window.matchMedia && window.matchMedia("(max-width: 520px)").matches;
    const gap = Math.max(small ? 3 : 4, Math.round((small ? 10 : 15) * Math.min(1, 4 / n)));
    root.setProperty("--gap", gap + "px");
    grid.textContent = "";
    for (let r = 0; r < v.height; r++) {
      for (let c = 0; c < v.width; c++) {
        const cell = document.createElement("div");
        cell.className = "grid-cell";
        cell.style.setProperty("--r", r);
        cell.style.setProperty("--c", c);
        grid.appendChild(cell);
      }
    }
  }

  // tileClass gives a cell's classes and its text.
  function tileLook(cell) {
    const cls = ["tile"];
    let text = "";
    if (cell.kind === "tile") {
      text = cell.value;
      if (cell.level <= 11) cls.push("tile-" + cell.value);
      else cls.push("tile-super", "s" + Math.min(6, cell.level - 11));
      if (text.length > 7) text = "2^" + cell.level;
    } else if (cell.kind === "alive" || cell.kind === "dormant") {
      text = cell.value;
      const lv = Math.max(1, Math.min(12, cell.level));
      cls.push(lv <= 11 ? "tile-" + Math.pow(2, lv) : "tile-super");
      cls.push("cell-" + cell.kind);
    } else if (cell.kind === "other") {
      text = cell.text;
      cls.push("tile-2");
    }
    if (cell.token) {
      cls.push("token-" + cell.token);
      if (!cell.kind) {
        cls.push("only-token");
        if (cell.token === "catalyst") text = "C";
        else if (cell.token === "blight") text = cell.charges > 1 ? "B" + cell.charges : "B";
        else if (cell.token === "incoming") text = cell.charges > 1 ? "b" + cell.charges : "b";
      }
    }
    const digits = text.length;
    if (digits >= 3) cls.push("d" + Math.min(7, digits));
    return { cls, text };
  }

  function makeTile(cell, r, c, extra) {
    const look = tileLook(cell);
    const el = document.createElement("div");
    el.className = look.cls.concat(extra || []).join(" ");
    el.style.setProperty("--r", r);
    el.style.setProperty("--c", c);
    const inner = document.createElement("div");
    inner.className = "tile-inner";
    inner.textContent = look.text;
    el.appendChild(inner);
    return el;
  }

  function cellName(cell) {
    if (cell.kind === "tile") return cell.value;
    return cell.text || "empty";
  }

  // draw puts the view's board in the page exactly: the tiles with their
  // cells (data-row, data-col, data-cell), the marks, the scores, the
  // buttons and the overlay. popped and spawned are cells to animate.
  function draw(v, popped, spawned) {
    layout(v);
    drawLegend(v);
    // How to play: the game's ruleset's own paragraphs only.
    for (const p of document.querySelectorAll(".game-explanation[data-ruleset]")) p.hidden = p.dataset.ruleset !== v.ruleset;
    const frag = document.createDocumentFragment();
    const pop = new Set((popped || []).map((p) => p[0] + "," + p[1]));
    const fresh = new Set((spawned || []).map((s) => s.at[0] + "," + s.at[1]));
    for (let i = 0; i < v.cells.length; i++) {
      const cell = v.cells[i];
      if (!cell.kind && !cell.token) continue;
      const r = Math.floor(i / v.width), c = i % v.width;
      const k = r + "," + c;
      const extra = [];
      if (pop.has(k)) extra.push("tile-merged");
      else if (fresh.has(k)) extra.push("tile-new");
      const el = makeTile(cell, r, c, extra);
      el.dataset.row = r;
      el.dataset.col = c;
      el.dataset.cell = cell.text;
      frag.appendChild(el);
    }
    const marksAt = new Map();
    for (const m of v.marks) {
      const k = m.at[0] + "," + m.at[1];
      if (!marksAt.has(k)) marksAt.set(k, []);
      marksAt.get(k).push(m);
    }
    for (const [k, ms] of marksAt) {
      const [r, c] = k.split(",").map(Number);
      const holder = document.createElement("div");
      holder.className = "hazard-cell" + (ms.some((m) => m.block) ? " blocked" : "");
      holder.style.setProperty("--r", r);
      holder.style.setProperty("--c", c);
      ms.forEach((m, j) => {
        const b = document.createElement("span");
        b.className = "mark" + (m.block ? " block" : "") + (c >= v.width / 2 ? " tip-left" : "");
        b.textContent = m.glyph;
        b.style.left = 3 + j * 22 + "px";
        if (m.color) b.style.background = m.color;
        b.dataset.tip = markTip(m);
        b.dataset.mark = m.name;
        b.dataset.row = r;
        b.dataset.col = c;
        holder.appendChild(b);
      });
      frag.appendChild(holder);
    }
    tiles.textContent = "";
    tiles.appendChild(frag);
    $("score").firstChild ? ($("score").firstChild.nodeValue = v.score) : ($("score").textContent = v.score);
    setText($("best"), v.best);
    $("undo").disabled = v.undo === 0;
    $("redo").disabled = v.redo === 0;
    setText($("goal"), v.ruleset === "classic" && v.winValue ? v.winValue + "!" : "a stable colony!");
    showGoalLine(v);
    showMessage(v);
    describeBoard(v);
    showSeed(v);
  }

  // ---- Cellular's goal line, as the terminal's: the alive energy
  // against the goal, the last turn stable or not and the multiplier it
  // earned, the turns left, and once the game is over the best stable
  // energy it reached (kept here while the game is played; a new game,
  // or one undone to its start, starts it again).
  let bestStable = 0;

  function showGoalLine(v) {
    const el = $("goal-line");
    const g = v.standing;
    if (!g) {
      el.hidden = true;
      return;
    }
    if (g.turn === 0) bestStable = 0;
    else if (g.stable) bestStable = Math.max(bestStable, g.base);
    const parts = [];
    const strong = (t) => "<strong>" + t + "</strong>";
    parts.push("Energy " + strong(g.goal > 0 ? g.energy + "/" + g.goal : String(g.energy)));
    if (g.hold > 1) parts.push("held " + strong(g.held + " of " + g.hold));
    if (g.played) parts.push((g.stable ? "stable " : "unstable ") + strong(g.multiplier));
    const over = v.status === "lost" || v.status === "won";
    if (g.turnsLeft >= 0 && !over) parts.push(strong(String(g.turnsLeft)) + (g.turnsLeft === 1 ? " turn left" : " turns left"));
    if (over && g.goal > 0) parts.push("best stable " + strong(bestStable + "/" + g.goal));
    const html = parts.join(" · ");
    if (el.innerHTML !== html) el.innerHTML = html;
    el.title = "Energy: the alive cells' energy against the energy a stable turn (no birth, no death) must end with to win. " +
      "The multiplier: the last turn's score multiplier, ×1 on a first stable turn and a quarter more for each stable turn in a row, up to ×3. " +
      "Turns left: before the turn limit.";
    el.hidden = false;
  }

  // setText sets an element's text when it changes (a change costs the
  // page a layout).
  function setText(el, text) {
    if (el.textContent !== text) el.textContent = text;
  }

  // ---- The mods' hazards: each mark's tooltip, the legend, and the
  // marks in the board's text for screen readers.
  let hazards = new Map(); // name → the hazard, as the mods defined it

  function turnsLeft(n) {
    return n === 1 ? "1 turn left" : n + " turns left";
  }

  // hazardName is a hazard's name without its mod's ("ice" for
  // "freeze:ice").
  function hazardName(name) {
    const i = name.indexOf(":");
    return i >= 0 ? name.slice(i + 1) : name;
  }

  // markTip is a mark's tooltip: its hazard's description, and the turns
  // it has left.
  function markTip(m) {
    const hz = hazards.get(m.name);
    const text = hz && hz.description ? hz.description : hazardName(m.name);
    return m.turns ? text + " (" + turnsLeft(m.turns) + ")" : text;
  }

  let legendFor = "";
  function drawLegend(v) {
    const list = v.hazards || [];
    const sig = JSON.stringify(list) + JSON.stringify(v.mods || []);
    if (sig === legendFor) return;
    legendFor = sig;
    hazards = new Map(list.map((h) => [h.name, h]));
    const names = new Map((v.mods || []).map((m) => [m.id, m.name]));
    const ul = $("legend-list");
    ul.textContent = "";
    for (const h of list) {
      const li = document.createElement("li");
      const glyph = document.createElement("span");
      glyph.className = "legend-glyph" + (h.blocks ? " block" : "");
      glyph.textContent = h.glyph;
      if (h.color) glyph.style.background = h.color;
      glyph.setAttribute("aria-hidden", "true");
      const name = document.createElement("strong");
      name.textContent = hazardName(h.name);
      const text = document.createElement("span");
      text.className = "legend-text";
      text.textContent = (h.description ? " " + h.description : "") + " (" + (names.get(h.mod) || h.mod) + (h.blocks ? "; blocks" : "") + ")";
      li.append(glyph, name, text);
      li.dataset.hazard = h.name;
      ul.appendChild(li);
    }
    $("legend").hidden = list.length === 0;
  }

  function describeBoard(v) {
    const marksAt = new Map();
    for (const m of v.marks) {
      const k = m.at[0] * v.width + m.at[1];
      const words = hazardName(m.name) + (m.turns ? ", " + turnsLeft(m.turns) : "");
      marksAt.set(k, marksAt.has(k) ? marksAt.get(k) + "; " + words : words);
    }
    const rows = [];
    for (let r = 0; r < v.height; r++) {
      const row = [];
      for (let c = 0; c < v.width; c++) {
        const i = r * v.width + c;
        const marks = marksAt.get(i);
        row.push(cellName(v.cells[i]) + (marks ? " (" + marks + ")" : ""));
      }
      rows.push("Row " + (r + 1) + ": " + row.join(", ") + ".");
    }
    $("board-text").textContent = rows.join(" ");
  }

  // showSeed puts the seed in play in the settings' seed field, unless the
  // player is typing there.
  let seedShown = "";
  function showSeed(v) {
    const field = $("seed");
    if (v.seed === seedShown || document.activeElement === field) return;
    seedShown = v.seed;
    field.value = v.seed;
  }

  function showMessage(v) {
    const box = $("message");
    const won = v.status === "won", lost = v.status === "lost";
    if (!won && !lost) {
      if (!box.hidden) {
        box.hidden = true;
        box.className = "game-message";
      }
      return;
    }
    const wasShown = !box.hidden;
    box.className = "game-message " + (won ? "game-won" : "game-over");
    $("message-text").textContent = won ? "You win!" : "Game over!";
    $("message-detail").textContent = v.message || "";
    box.hidden = false;
    if (!wasShown) {
      // The overlay fades in late, so the last move can be seen first.
      box.style.animation = "none";
      void box.offsetWidth;
      box.style.animation = "";
    }
  }

  function scorePop(gained) {
    if (!gained || gained === "0" || reduceMotion.matches) return;
    const el = document.createElement("div");
    el.className = "score-addition";
    el.textContent = "+" + gained;
    $("score").appendChild(el);
    setTimeout(() => el.remove(), 700);
  }

  // ---- Animation: the motions of a move, then the board as it is.
  let anim = null; // {timer, finish}
  let lastTiming = null; // the timing of the move being drawn

  // cellAt is the transform that puts a tile on cell p (as .tile's).
  function cellAt(p) {
    return "translate(calc(" + p[1] + " * (var(--cell) + var(--gap))), calc(" + p[0] + " * (var(--cell) + var(--gap))))";
  }

  function animate(prev, v) {
    const motions = v.motions;
    if (!motions || !prev || reduceMotion.matches || prev.width !== v.width || prev.height !== v.height) {
      draw(v, motions ? motions.merged.map((m) => m.into) : [], v.spawns);
      return;
    }
    // Each tile is put where it goes, and slides there from where it was
    // (Web Animations: nothing of the page is laid out to start them).
    const frag = document.createDocumentFragment();
    const moving = [];
    for (const m of motions.moves) {
      const cell = prev.cells[m.from[0] * prev.width + m.from[1]];
      if (!cell || (!cell.kind && !cell.token)) continue;
      const el = makeTile(cell, m.to[0], m.to[1]);
      frag.appendChild(el);
      if (m.from[0] !== m.to[0] || m.from[1] !== m.to[1]) moving.push([el, m.from, m.to]);
    }
    // Tokens that do not move (catalysts, blight) stay where they are.
    for (let i = 0; i < prev.cells.length; i++) {
      const cell = prev.cells[i];
      if (!cell.kind && cell.token) frag.appendChild(makeTile(cell, Math.floor(i / prev.width), i % prev.width));
    }
    tiles.textContent = "";
    tiles.appendChild(frag);
    for (const [el, from, to] of moving) {
      el.animate([{ transform: cellAt(from) }, { transform: cellAt(to) }], { duration: SLIDE_MS, easing: "ease-in-out" });
    }
    const finish = () => {
      if (anim === null) return;
      clearTimeout(anim.timer);
      anim = null;
      const t0 = performance.now();
      draw(v, motions.merged.map((m) => m.into), v.spawns);
      if (timed) timed.draw += performance.now() - t0;
      afterDraw();
    };
    const timed = lastTiming;
    anim = { finish, timer: setTimeout(finish, SLIDE_MS) };
  }

  // ---- Actions: every input is queued and played in order, each exactly
  // once; an input during an animation finishes it at once.
  const queue = [];
  let pumping = false;

  function input(action) {
    if (!api || !view) return;
    if (queue.length >= 64) return; // a held key's repeats beyond a full queue
    queue.push(action);
    pump();
  }

  function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0) {
        if (anim) anim.finish();
        perform(queue.shift());
      }
    } finally {
      pumping = false;
      afterDraw();
    }
  }

  // afterDraw says on the page (body[data-busy]) whether anything is still
  // to come: input to play, an animation, a save, or the settings'
  // choices; tests wait for it to be "0".
  function afterDraw() {
    document.body.dataset.busy = anim || queue.length || savePending || !catalog ? "1" : "0";
  }

  const DIR_NAMES = { left: "Left", right: "Right", up: "Up", down: "Down" };

  function perform(action) {
    const t0 = performance.now();
    let reply;
    switch (action.kind) {
      case "move": reply = api.move(action.dir); break;
      case "undo": reply = api.undo(); break;
      case "redo": reply = api.redo(); break;
      case "keep": reply = api.keepPlaying(); break;
      case "new": reply = api.restart(""); break;
      default: return;
    }
    const t1 = performance.now();
    if (reply.error) {
      if (action.kind === "undo" || action.kind === "redo") announce(reply.error.message);
      else notify(reply.error.message);
      return;
    }
    const prev = view;
    view = reply.view;
    // The move's timing, which its animation's last frame adds to.
    const timed = { engine: 0, draw: 0 };
    lastTiming = timed;
    if (action.kind === "move" && view.changed) timings.moves.push(timed);
    if (action.kind === "move") {
      if (!view.changed) {
        announce(view.notice ? view.notice : DIR_NAMES[action.dir] + ": nothing moves.");
        if (view.notice) notify(view.notice);
        showReports(view.reports);
        told(view);
        return;
      }
      animate(prev, view);
      scorePop(view.gained);
    } else {
      draw(view, [], []);
    }
    const t2 = performance.now();
    persistSoon();
    if (action.kind === "move") Object.assign(timed, { engine: t1 - t0, draw: t2 - t1 + timed.draw });
    showReports(view.reports);
    toast(view.notices);
    announceAction(action, view);
    told(view);
  }

  function announceAction(action, v) {
    let text;
    switch (action.kind) {
      case "move":
        text = DIR_NAMES[action.dir] + ". " + (v.gained && v.gained !== "0" ? "+" + v.gained + ". " : "") + "Score " + v.score + ".";
        break;
      case "undo": text = "Undone. Score " + v.score + "."; break;
      case "redo": text = "Redone. Score " + v.score + "."; break;
      case "keep": text = "Keep going. Score " + v.score + "."; break;
      case "new": text = "New game."; break;
    }
    if (v.status === "won") text += " You win! Keep going or try again.";
    if (v.status === "lost") text += " Game over! Final score " + v.score + ". Try again.";
    announce(text);
  }

  function announce(text) {
    const live = $("live");
    live.textContent = "";
    // A new node, so the same words are read again.
    setTimeout(() => (live.textContent = text), 10);
  }

  function notify(text) {
    $("notice-text").textContent = text;
    $("notice").hidden = false;
    clearTimeout(noticeTimer);
  }

  // toast shows the mods' messages (game.notify) beside the board, or
  // under it on a narrow page (never over it), each with its mod's name,
  // one under the other, for a few seconds; the live region reads them
  // out.
  function toast(notices) {
    if (!notices || notices.length === 0) return;
    const box = $("toasts");
    notices.forEach((n) => {
      const el = document.createElement("div");
      el.className = "toast";
      el.textContent = n.name + ": " + n.text;
      box.appendChild(el);
      setTimeout(() => el.classList.add("gone"), 2600);
      setTimeout(() => el.remove(), 3100);
    });
  }

  // showReports lists the mods' errors beside the board.
  function showReports(reports) {
    if (!reports || reports.length === 0) return;
    const list = $("reports");
    for (const r of reports) {
      const li = document.createElement("li");
      li.textContent = r.text; // it says when the mod is now disabled
      if (r.disabled) li.className = "disabled";
      list.appendChild(li);
    }
    while (list.children.length > 6) list.removeChild(list.firstChild);
    $("reports-box").hidden = false;
  }

  // persist keeps the game and the best score after every change; a lost
  // game is cleared, as the original does. The setup (the game's options,
  // which hold a player's own mods whole) is written once a game, as JSON
  // kept for the saves.
  let optionsJSON = "null";
  let keptBest = ""; // the setup key and best score last kept
  let savePending = 0;

  function persist() {
    if (savePending) {
      clearTimeout(savePending);
      savePending = 0;
    }
    if (!view) return;
    const t0 = performance.now();
    if (keptBest !== view.key + " " + view.best) {
      keepBest(view);
      keptBest = view.key + " " + view.best;
    }
    if (view.status === "lost") {
      storage.removeItem(KEY_GAME);
    } else {
      const r = api.save();
      if (r.error) notify("The game could not be saved: " + r.error.message);
      else store(KEY_GAME, '{"v":1,"options":' + optionsJSON + ',"save":' + JSON.stringify(r.save) + "}");
    }
    timings.saves.push(performance.now() - t0);
    afterDraw();
  }

  // persistSoon saves the game after the move's drawing, in a task of its
  // own: the frame comes first, and moves played together are saved once.
  // A page that goes away saves at once.
  function persistSoon() {
    if (!savePending) savePending = setTimeout(persist, 0);
  }
  window.addEventListener("pagehide", () => savePending && persist());
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && savePending && persist());

  function store(key, text) {
    try {
      storage.setItem(key, text);
    } catch (e) {
      notify("The game could not be saved in this browser: " + e.message);
    }
  }

  // ---- Starting games.
  function bests() {
    const r = readJSON(KEY_BEST);
    return r.value && typeof r.value === "object" && !Array.isArray(r.value) ? r.value : {};
  }

  // withoutSeed is a game's options as the page keeps them: the setup,
  // without the seed of the one game.
  function withoutSeed(o) {
    const c = Object.assign({}, o);
    delete c.seed;
    return c;
  }

  function start(opts, save) {
    const reply = save ? api.resume(opts, save, bests()) : api.newGame(opts, bests());
    if (reply.error) return reply.error;
    if (anim) { clearTimeout(anim.timer); anim = null; }
    queue.length = 0;
    keepSetup(opts);
    view = reply.view;
    gridSize = "";
    draw(view, [], []);
    persistSoon();
    $("reports").textContent = "";
    $("reports-box").hidden = true;
    showReports(view.reports);
    syncForm();
    told(view);
    return null;
  }

  // keepSetup makes opts the game's setup as the page keeps it, with the
  // game (a reload of its mods changes them, and the page then resumes
  // the game with the mods it has now).
  function keepSetup(opts) {
    options = withoutSeed(opts);
    optionsJSON = JSON.stringify(options);
    store(KEY_SETUP, optionsJSON);
  }

  // ---- The workshop (workshop.js): the mod editor beside the game,
  // loaded only when it opens (a button, or a link to #workshop or to a
  // shared mod). It plays through this page's game: page is all it sees
  // of it.
  const viewers = [];
  function told(v) {
    for (const f of viewers) {
      try { f(v); } catch (e) { console.error(e); }
    }
  }

  // formHook, when the workshop has set one, gives a game the settings
  // form starts what the workshop adds to it (its mod).
  let formHook = null;

  const page = {
    api: () => api,
    // onFormGame makes f(opts) the options of every game the settings
    // form starts from opts.
    onFormGame: (f) => (formHook = f),
    view: () => view,
    options: () => options,
    // onView calls f with every view the game shows, after it is drawn.
    onView: (f) => viewers.push(f),
    // start starts a new game of opts; null, or the error that kept the
    // game as it was.
    start(opts) {
      const err = start(opts, null);
      if (!err) announce("New " + view.ruleset + " game.");
      return err;
    },
    // reload gives the game new code for its mods, keeping the game
    // (bridge.ReloadMods): {mod}, the first mod as it now is, or {error},
    // the error that kept the last good code running.
    reload(mods, modSets) {
      if (anim) anim.finish();
      const r = api.reloadMods(mods, modSets || []);
      if (r.error) return { error: r.error };
      keepSetup(Object.assign({}, options, { mods, modSets: modSets && modSets.length ? modSets : undefined }));
      view = r.view;
      draw(view, [], []);
      persistSoon();
      showReports(view.reports);
      told(view);
      return { mod: r.mod };
    },
    // seed is the seed of a new game: the settings' Seed, else a random
    // one.
    seed: () => $("seed").value.trim() || randomSeed(),
    settingFields: (m) => settingFields(m),
    modSetsOf: (root) => modSetsOf(root),
    setValues: (sets) => showSettings(sets),
    notify: (text) => notify(text),
    focusGame: () => game.focus(),
    modFromFolder: (files) => modFromFolder(files),
    modFromZip: (file) => modFromZip(file),
    toBase64: (bytes) => toBase64(bytes),
  };

  // openWorkshop loads the workshop's style, editor and code once, and
  // opens it; hash is the location's fragment that asked for it.
  let workshopLoad = null;
  function openWorkshop(hash) {
    const t0 = performance.now();
    if (!workshopLoad) {
      const add = (tag, attrs) => new Promise((resolve, reject) => {
        const el = document.createElement(tag);
        Object.assign(el, attrs);
        el.onload = resolve;
        el.onerror = () => reject(new Error("the workshop's " + (attrs.src || attrs.href) + " cannot be loaded"));
        document.head.appendChild(el);
      });
      workshopLoad = Promise.all([
        add("link", { rel: "stylesheet", href: "workshop.css" }),
        add("script", { src: "editor.js" }),
        add("script", { src: "workshop.js" }),
      ]).catch((e) => { workshopLoad = null; throw e; });
    }
    return workshopLoad.then(() => {
      window.mod2048Workshop.open(page, hash);
      timings.workshop = performance.now() - t0;
    }, (e) => notify(e.message));
  }

  function onHash() {
    const h = location.hash;
    if (h === "#workshop" || h.startsWith("#workshop/") || h.startsWith("#share=")) {
      if (api) openWorkshop(h);
    } else if (window.mod2048Workshop) {
      window.mod2048Workshop.close();
    }
  }

  function randomSeed() {
    const a = new Uint32Array(2);
    (window.crypto || {}).getRandomValues ? window.crypto.getRandomValues(a) : (a[0] = Date.now() >>> 0, a[1] = (Math.random() * 2 ** 32) >>> 0);
    return (BigInt(a[0]) * 4294967296n + BigInt(a[1])).toString();
  }

  // firstGame resumes the stored game, or starts the one the server asks
  // for, or a classic game; an unreadable stored game gives a new game and
  // a notice.
  function firstGame(defaults) {
    const stored = readJSON(KEY_GAME);
    const setup = readJSON(KEY_SETUP);
    let problem = "";
    const asked = defaults && defaults.options ? defaults.options : null;
    if (stored.error) problem = stored.error;
    else if (stored.value !== null) {
      const s = stored.value;
      if (!s || typeof s !== "object" || typeof s.save !== "string" || !s.options || typeof s.options !== "object") {
        problem = "it is not a saved game";
      } else if (!asked || JSON.stringify(s.options) === JSON.stringify(withoutSeed(asked))) {
        const err = start(s.options, s.save);
        if (!err) return;
        problem = err.message;
      }
    }
    if (problem) {
      storage.setItem(KEY_CORRUPT, stored.text || "");
      storage.removeItem(KEY_GAME);
      notify("The saved game could not be resumed (" + problem + "); this is a new game. The old one is kept as " + KEY_CORRUPT + " in this site's storage.");
    }
    const candidates = [];
    if (asked) candidates.push(asked);
    if (setup.value && typeof setup.value === "object" && !asked) candidates.push(setup.value);
    candidates.push({ ruleset: "classic" });
    for (const c of candidates) {
      const o = Object.assign({}, c);
      if (!o.seed) o.seed = randomSeed();
      const err = start(o, null);
      if (!err) return;
      notify("Could not start the game asked for: " + err.message);
    }
  }

  // ---- The setup form.
  function fillForm() {
    const rs = $("ruleset");
    rs.textContent = "";
    for (const r of catalog.rulesets) rs.add(new Option(r, r));
    rs.addEventListener("change", () => { fillDifficulties(); fillMods(); });
    fillDifficulties();
    fillMods();
    $("toml-preset").addEventListener("click", () => {
      const p = catalog.presets.find((p) => p.name === $("difficulty").value);
      if (p) $("toml").value = p.toml;
    });
    $("mod-folder").addEventListener("change", (e) => readFolder(e.target.files));
    $("mod-zip").addEventListener("change", (e) => readZip(e.target.files[0]));
    $("setup-form").addEventListener("submit", (e) => {
      e.preventDefault();
      submitForm();
    });
  }

  function fillDifficulties() {
    const ruleset = $("ruleset").value;
    const d = $("difficulty");
    const was = d.value;
    d.textContent = "";
    for (const p of catalog.presets.filter((p) => p.ruleset === ruleset)) {
      const o = new Option(p.name + (p.default ? " (default)" : ""), p.name);
      d.add(o);
      if (p.default && !was) o.selected = true;
    }
    if ([...d.options].some((o) => o.value === was)) d.value = was;
  }

  function fillMods() {
    const ruleset = $("ruleset").value;
    const list = $("mod-list");
    const checked = new Set([...list.querySelectorAll("input[name=mod]:checked")].map((i) => i.value));
    list.textContent = "";
    for (const m of catalog.mods) {
      const ok = !m.rulesets || m.rulesets.length === 0 || m.rulesets.includes(ruleset);
      const label = document.createElement("label");
      label.className = "mod";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = m.id;
      box.name = "mod";
      box.id = "mod-" + m.id;
      box.disabled = !ok;
      box.checked = ok && checked.has(m.id);
      label.appendChild(box);
      label.appendChild(document.createTextNode(m.name + " "));
      const desc = document.createElement("span");
      desc.className = "mod-desc";
      desc.textContent = m.description + (ok ? "" : " (" + m.rulesets.join(", ") + " only)");
      label.appendChild(desc);
      list.appendChild(label);
      const fields = settingFields(m);
      if (fields) {
        fields.hidden = !box.checked;
        box.addEventListener("change", () => (fields.hidden = !box.checked));
        list.appendChild(fields);
      }
    }
  }

  // settingFields lists a mod's settings (its manifest's, as the catalog
  // or inspectMod describes them) as fields: a number with its bounds, a
  // switch for true or false, a text for a string, each with its
  // description; their values are the panel's (modValues), else the
  // defaults. null for a mod without settings.
  function settingFields(m) {
    if (!m.settings || m.settings.length === 0) return null;
    const box = document.createElement("div");
    box.className = "mod-settings";
    box.id = "settings-" + m.id;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", m.name + " settings");
    for (const s of m.settings) {
      const key = m.id + "." + s.name;
      const value = modValues.has(key) ? modValues.get(key) : s.default;
      const label = document.createElement("label");
      label.className = "setting setting-" + s.type;
      const field = document.createElement(s.type === "choice" ? "select" : "input");
      field.id = "set-" + m.id + "-" + s.name;
      field.dataset.key = key;
      field.dataset.type = s.type;
      field.dataset.default = s.default;
      const name = document.createElement("span");
      name.className = "setting-name";
      name.textContent = s.name;
      const hint = document.createElement("span");
      hint.className = "setting-hint";
      if (s.type === "bool") {
        field.type = "checkbox";
        field.checked = value === "true";
        hint.textContent = " (default " + (s.default === "true" ? "on" : "off") + ")";
      } else if (s.type === "int" || s.type === "number") {
        field.type = "number";
        field.step = s.type === "int" ? "1" : "any";
        field.inputMode = s.type === "int" ? "numeric" : "decimal";
        if (s.min !== undefined) field.min = s.min;
        if (s.max !== undefined) field.max = s.max;
        field.value = value;
        const range = s.min !== undefined && s.max !== undefined ? s.min + " to " + s.max : s.min !== undefined ? "at least " + s.min : s.max !== undefined ? "at most " + s.max : "";
        hint.textContent = " (" + (range ? range + ", " : "") + "default " + s.default + ")";
      } else if (s.type === "choice") {
        for (const c of s.choices || []) {
          const opt = document.createElement("option");
          opt.value = opt.textContent = c;
          field.appendChild(opt);
        }
        field.value = value;
        hint.textContent = " (default " + s.default + ")";
      } else {
        field.type = "text";
        field.value = value;
        field.spellcheck = false;
        hint.textContent = " (default " + s.default + ")";
      }
      field.autocomplete = "off";
      const keep = () => {
        modValues.set(key, fieldValue(field));
        field.classList.remove("has-error");
      };
      field.addEventListener("input", keep);
      field.addEventListener("change", keep);
      const desc = document.createElement("span");
      desc.className = "setting-desc";
      desc.textContent = s.description || "";
      if (s.type === "bool") {
        const line = document.createElement("span");
        line.className = "setting-line";
        line.append(field, name, hint);
        label.append(line, desc);
      } else {
        name.appendChild(hint);
        label.append(name, field, desc);
      }
      box.appendChild(label);
    }
    return box;
  }

  // fieldValue is a setting's field's value as the panel keeps it.
  function fieldValue(field) {
    return field.type === "checkbox" ? String(field.checked) : field.value;
  }

  // modSetsOf gives the settings of the mods of the box elements in
  // root (the checked ones) as MOD.SETTING=VALUE, as --mod-set takes them
  // (each value a TOML value: a string is quoted); a field left empty, or
  // at its default, gives none. The engine checks every value.
  function modSetsOf(root) {
    const sets = [];
    for (const field of root.querySelectorAll(".mod-settings input, .mod-settings select")) {
      if (field.closest(".mod-settings").hidden) continue;
      const type = field.dataset.type, def = field.dataset.default;
      let text = fieldValue(field);
      if (type === "int" || type === "number") {
        text = text.trim();
        if (text === "" && !field.validity.badInput) continue;
        if (text !== "" && Number(text) === Number(def)) continue;
      } else if (text === def) {
        continue;
      } else if (type === "string" || type === "choice") {
        text = JSON.stringify(text);
      }
      sets.push(field.dataset.key + "=" + text);
    }
    return sets;
  }

  // showSettings puts a game's mod settings (options.modSets) in the
  // panel's values: the settings it does not set are at their defaults.
  function showSettings(sets) {
    modValues = new Map();
    for (const kv of sets || []) {
      const i = kv.indexOf("=");
      if (i < 0) continue;
      let v = kv.slice(i + 1);
      if (v.startsWith('"')) {
        try { v = JSON.parse(v); } catch (e) { /* shown as written */ }
      }
      modValues.set(kv.slice(0, i), v);
    }
  }

  function syncForm() {
    if (!catalog || !options) return;
    $("ruleset").value = view.ruleset;
    fillDifficulties();
    if (view.difficulty) $("difficulty").value = view.difficulty;
    $("toml").value = options.toml || "";
    showSettings(options.modSets);
    fillMods();
    const ids = new Set((options.mods || []).filter((m) => m.builtin).map((m) => m.builtin));
    for (const box of $("mod-list").querySelectorAll("input[name=mod]")) {
      box.checked = ids.has(box.value);
      const fields = $("settings-" + box.value);
      if (fields) fields.hidden = !box.checked;
    }
    ownMods = (options.mods || []).filter((m) => !m.builtin);
    listOwnMods();
  }

  // ownModInfo describes a player's mod by its manifest (mod2048's
  // inspectMod), once for each source: its id, name and version, or why
  // it cannot load.
  const inspected = new WeakMap();
  function ownModInfo(src) {
    if (!inspected.has(src)) {
      const r = api.inspectMod(src);
      inspected.set(src, r.error ? { error: r.error.message } : r.mod);
    }
    return inspected.get(src);
  }

  function listOwnMods() {
    const ul = $("own-mods");
    ul.textContent = "";
    ownMods.forEach((m, i) => {
      const info = ownModInfo(m);
      const li = document.createElement("li");
      li.textContent = (info.name ? info.name + " " + info.version + " (" + m.name + ")" : m.name) + " ";
      li.title = info.description || info.error || "";
      const rm = document.createElement("button");
      rm.type = "button";
      rm.className = "button small";
      rm.textContent = "Remove";
      rm.setAttribute("aria-label", "Remove " + (info.name || m.name));
      rm.addEventListener("click", () => { ownMods.splice(i, 1); listOwnMods(); });
      li.appendChild(rm);
      const fields = info.id ? settingFields(info) : null;
      if (fields) li.appendChild(fields);
      ul.appendChild(li);
    });
  }

  // addOwnMod adds a player's mod that loads, or says why it does not.
  function addOwnMod(src) {
    const info = ownModInfo(src);
    if (info.error) return formError("mod-error", info.error);
    ownMods.push(src);
    formError("mod-error", "");
    listOwnMods();
  }

  // modFromFolder reads a picked folder's files as a mod's source
  // ({name, files}), within the limits: {src}, or {error}.
  async function modFromFolder(files) {
    // Before the catalog has come, the engine's own checks are the only.
    const limits = catalog ? catalog.limits : { modFiles: Infinity, modBytes: Infinity };
    if (files.length > limits.modFiles) return { error: "The folder has " + files.length + " files; a mod may have " + limits.modFiles + "." };
    let total = 0;
    const out = {};
    let name = "";
    for (const f of files) {
      total += f.size;
      if (total > limits.modBytes) return { error: "The folder is larger than a mod may be." };
      const path = f.webkitRelativePath || f.name;
      name = name || path.split("/")[0];
      out[path] = await f.text();
    }
    return { src: { name, files: out } };
  }

  // modFromZip reads a zip file as a mod's source ({name, zip}, the zip
  // in base64), within the limits: {src}, or {error}.
  async function modFromZip(file) {
    if (catalog && file.size > catalog.limits.modBytes) return { error: "The zip is larger than a mod may be." };
    return { src: { name: file.name, zip: toBase64(new Uint8Array(await file.arrayBuffer())) } };
  }

  // toBase64 writes bytes in base64.
  function toBase64(bytes) {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  }

  async function readFolder(files) {
    if (!files || files.length === 0) return;
    const r = await modFromFolder(files);
    if (r.error) return formError("mod-error", r.error);
    addOwnMod(r.src);
  }

  async function readZip(file) {
    if (!file) return;
    const r = await modFromZip(file);
    if (r.error) return formError("mod-error", r.error);
    addOwnMod(r.src);
  }

  function formError(id, text) {
    const el = $(id);
    el.textContent = text;
    el.hidden = !text;
  }

  function submitForm() {
    const o = { ruleset: $("ruleset").value, difficulty: $("difficulty").value };
    const toml = $("toml").value;
    if (toml.trim() !== "") o.toml = toml;
    const mods = [...$("mod-list").querySelectorAll("input[name=mod]:checked")].map((b) => ({ builtin: b.value }));
    const all = mods.concat(ownMods);
    if (all.length) o.mods = all;
    // The mods' settings, as the panel shows them (those of the game
    // before, 2048 serve --mod-set's among them, until changed).
    const modSets = modSetsOf($("mod-list")).concat(modSetsOf($("own-mods")));
    if (modSets.length) o.modSets = modSets;
    const seed = $("seed").value.trim();
    o.seed = seed || randomSeed();
    formError("toml-error", "");
    formError("mod-error", "");
    formError("setup-error", "");
    $("toml").classList.remove("has-error");
    for (const f of document.querySelectorAll(".mod-settings .has-error")) f.classList.remove("has-error");
    const err = start(formHook ? formHook(o) : o, null);
    if (!err) {
      announce("New " + view.ruleset + " game.");
      game.focus();
      return;
    }
    if (err.kind === "config" && err.file === "custom.toml") {
      $("toml").classList.add("has-error");
      formError("toml-error", "Line " + err.line + (err.key ? ", key " + err.key : "") + ": " + err.message);
      selectLine($("toml"), err.line);
    } else if (err.kind === "mod") {
      formError("mod-error", err.message);
      // A setting's error (its key is the MOD.SETTING=VALUE refused)
      // marks its field.
      const name = err.key ? err.key.split("=")[0] : "";
      const field = name ? [...document.querySelectorAll(".mod-settings input, .mod-settings select")].find((f) => f.dataset.key === name) : null;
      if (field) {
        field.classList.add("has-error");
        field.setAttribute("aria-describedby", "mod-error");
        field.focus();
      }
    } else {
      formError("setup-error", err.message);
    }
  }

  function selectLine(area, line) {
    if (!line) return;
    const lines = area.value.split("\n");
    let at = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
    area.focus();
    area.setSelectionRange(at, at + (lines[line - 1] || "").length);
  }

  // ---- Input: keys, buttons, swipes.
  const KEYS = {
    ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down",
    a: "left", d: "right", w: "up", s: "down", A: "left", D: "right", W: "up", S: "down",
    h: "left", l: "right", k: "up", j: "down",
  };

  function onKey(e) {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const dir = e.shiftKey ? undefined : KEYS[e.key];
    if (dir) {
      e.preventDefault();
      input({ kind: "move", dir });
      return;
    }
    if (t && t.tagName === "BUTTON" && (e.key === "Enter" || e.key === " ")) return;
    switch (e.key) {
      case "u": e.preventDefault(); input({ kind: "undo" }); break;
      case "U": e.preventDefault(); input({ kind: "redo" }); break;
      case "r": case "R": e.preventDefault(); input({ kind: "new" }); break;
      case "c": case "Enter":
        if (view && view.status === "won") { e.preventDefault(); input({ kind: "keep" }); }
        break;
    }
  }

  // Swipes: one finger, more than 10 px along the larger axis, and clearly
  // along it (a diagonal is no move).
  const SWIPE_MIN = 10;
  const SWIPE_RATIO = 0.6;
  let touch = null;
  function onTouchStart(e) {
    if (e.touches.length > 1 || e.targetTouches.length > 1) {
      touch = null;
      return;
    }
    touch = { x: e.touches[0].clientX, y: e.touches[0].clientY };
    e.preventDefault();
  }
  function onTouchMove(e) { e.preventDefault(); }
  function onTouchEnd(e) {
    if (!touch || e.touches.length > 0 || e.changedTouches.length !== 1) {
      if (e.touches.length === 0) touch = null;
      return;
    }
    const dx = e.changedTouches[0].clientX - touch.x;
    const dy = e.changedTouches[0].clientY - touch.y;
    touch = null;
    const ax = Math.abs(dx), ay = Math.abs(dy);
    const big = Math.max(ax, ay), small = Math.min(ax, ay);
    if (big <= SWIPE_MIN || small > big * SWIPE_RATIO) return;
    input({ kind: "move", dir: ax > ay ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up") });
  }

  function wire() {
    document.addEventListener("keydown", onKey);
    game.addEventListener("touchstart", onTouchStart, { passive: false });
    game.addEventListener("touchmove", onTouchMove, { passive: false });
    game.addEventListener("touchend", onTouchEnd);
    game.addEventListener("touchcancel", () => (touch = null));
    $("undo").addEventListener("click", () => input({ kind: "undo" }));
    $("redo").addEventListener("click", () => input({ kind: "redo" }));
    $("new-game").addEventListener("click", () => input({ kind: "new" }));
    $("retry").addEventListener("click", () => { input({ kind: "new" }); game.focus(); });
    $("keep-playing").addEventListener("click", () => { input({ kind: "keep" }); game.focus(); });
    $("notice-close").addEventListener("click", () => ($("notice").hidden = true));
    window.addEventListener("hashchange", onHash);
  }

  // ---- Loading.
  async function loadWasm() {
    const go = new Go();
    const ready = new Promise((resolve) => (window.mod2048Ready = resolve));
    let result;
    const t0 = performance.now();
    try {
      result = await WebAssembly.instantiateStreaming(fetch("main.wasm"), go.importObject);
    } catch (e) {
      const bytes = await (await fetch("main.wasm")).arrayBuffer();
      result = await WebAssembly.instantiate(bytes, go.importObject);
    }
    timings.instantiate = performance.now() - t0;
    // A module may name its version in a custom section (the tests' do):
    // the page shows it, to check that page and module go together.
    const named = WebAssembly.Module.customSections(result.module, "mod2048.version");
    if (named.length) document.body.dataset.wasmVersion = new TextDecoder().decode(named[0]);
    go.run(result.instance);
    await ready;
    return window.mod2048;
  }

  async function loadDefaults() {
    try {
      const r = await fetch("defaults.json", { cache: "no-store" });
      if (!r.ok) return null;
      return await r.json();
    } catch (e) {
      return null;
    }
  }

  async function main() {
    wire();
    const [loaded, defaults] = await Promise.all([loadWasm(), loadDefaults()]);
    api = loaded;
    timings.wasmReady = performance.now();
    // The footer names the engine's build, as `2048 version` does.
    if (typeof api.version === "string" && api.version) {
      const v = $("version");
      v.textContent = "2048 " + api.version;
      v.hidden = false;
    }
    firstGame(defaults);
    document.body.dataset.ready = "1";
    onHash();
    afterDraw();
    requestAnimationFrame(() => {
      timings.firstFrame = performance.now();
      // The settings' choices (the catalog loads every shipped mod) and
      // the service worker (its first download of the site) come after
      // the first frame: they take nothing from the start of play.
      setTimeout(() => {
        const c = api.catalog();
        if (c.error) notify("The settings cannot list the choices: " + c.error.message);
        catalog = c.catalog || { rulesets: [], presets: [], mods: [], limits: { modFiles: 0, modBytes: 0 } };
        fillForm();
        syncForm();
        afterDraw();
        registerWorker();
      }, 0);
    });
    game.focus();
  }

  // ---- Offline: the service worker (sw.js) keeps the site's files as
  // one versioned set. When a new version takes over a page that an older
  // worker served, the page reloads once, so that page, scripts and
  // main.wasm are always of one version. The listener is in place from
  // the start: the browser may look for a new worker as soon as the page
  // has come.
  const workers = navigator.serviceWorker;
  if (workers && workers.controller) {
    let reloading = false;
    workers.addEventListener("controllerchange", () => {
      if (reloading) return;
      reloading = true;
      location.reload();
    });
  }

  function registerWorker() {
    if (!workers || !window.isSecureContext) return;
    workers.register("sw.js").then((reg) => {
      if (workers.controller) reg.update().catch(() => {}); // offline: no news
    }, (e) => console.warn("the game cannot be kept for offline play: " + e.message));
  }

  main().catch((e) => {
    $("loading").textContent = "The game could not start: " + e.message;
    console.error(e);
  });
})();
