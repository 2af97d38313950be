// The workshop: a mod's files in an editor beside the game, as `2048 play
// --watch` and `2048 test` are in a terminal. game.js loads this file (with
// workshop.css and editor.js, the CodeMirror bundle) only when the
// workshop opens, and gives it the page's game (open's page): every rule,
// check and runner is the engine's, behind the page's mod2048 object.
//
//   - Every pause in typing reloads the mod into the running game, which
//     goes on where it is (bridge.ReloadMods); a broken edit keeps the
//     last good code running, and its error is marked at its file and line.
//   - Ctrl-Enter (or Run fixtures) runs the mod's .cases files with the
//     runner of `2048 test`; Record a case (or f on the game) writes the
//     game so far as a case, as the terminal's f key does.
//   - The work is kept in this site's storage after every change; it is
//     exported as a zip that `2048 mod install` takes, imported from a zip
//     or a folder, and shared as a link that holds the files, compressed,
//     in its fragment (#share=...), which opens only when the player says
//     yes. Both go ahead whatever the fixtures say, and name those that
//     failed their last run, or say that they have not run on the files
//     as they are.
"use strict";

(function () {
  const STORE = "mod2048-workshop";
  const PAUSE_MS = 400; // a pause in typing that reloads the mod
  // The annotation file every new mod has (a copy of the host's, for the
  // language server): left out of share links, and put back when one
  // opens.
  const ANNOTATIONS = ".luals/mod2048.lua";
  // What a player's mod may hold, as the engine's bridge.MaxModBytes and
  // bridge.MaxModFiles say (TestWorkshopLimits holds these to them): a
  // share link inflates to at most a mod's bytes and its JSON's wrapping
  // (names, quotes, escapes), and is refused as it inflates past them.
  const MAX_MOD_BYTES = 16777216; // bridge.MaxModBytes, 16 MiB
  const MAX_MOD_FILES = 256; // bridge.MaxModFiles
  const MAX_SHARE_BYTES = MAX_MOD_BYTES + (1 << 20);
  // The longest link text that deflates no more than that: its bytes
  // stored as they are (deflate adds 5 bytes a 64 KiB), in base64.
  const MAX_SHARE_TEXT = Math.ceil((MAX_SHARE_BYTES + MAX_SHARE_BYTES / 8192 + 64) / 3) * 4;

  let page = null; // game.js's page (open's argument)
  let api = null;
  let root = null; // the workshop's element
  let work = null; // {name, files: {path: text}, active, modSets: []}
  const editors = new Map(); // path → editor handle
  let listing = null; // the completion listing (bridge.LuaCompletions)
  let timer = 0;
  let fresh = false; // the next apply starts a new game, whatever runs
  let loadError = null; // the last reload's error, while it stands
  const reports = new Map(); // file → [{line, message}] of handler errors
  const caseFails = new Map(); // file → [{line, message}] of the last run's failed cases
  // The last run of the fixtures: the files it ran on (filesKey) and its
  // cases, for what export and share say of them; null before any run.
  let lastRun = null;

  const $ = (id) => document.getElementById(id);
  const el = (tag, props, ...kids) => {
    const e = document.createElement(tag);
    if (props) Object.assign(e, props);
    for (const k of kids) e.append(k);
    return e;
  };

  // ---- Opening and closing.
  function open(p, hash) {
    if (!page) {
      page = p;
      api = p.api();
      const r = api.completions();
      listing = r.completions || null;
      build();
      page.onView(onView);
      page.onFormGame(formGame);
    }
    document.body.classList.add("workshop-open");
    root.hidden = false;
    if (hash.startsWith("#share=")) {
      offerShare(hash.slice("#share=".length));
      return;
    }
    if (!work) {
      const kept = readKept();
      if (kept) {
        load(kept, false);
      } else {
        showNewForm(true);
      }
    }
  }

  function close() {
    document.body.classList.remove("workshop-open");
    if (root) root.hidden = true;
    flush();
  }

  // ---- Building the panel.
  function button(id, text, title) {
    return el("button", { type: "button", className: "button small", id, textContent: text, title: title || "" });
  }

  function build() {
    root = el("section", { id: "workshop", className: "workshop" });
    root.setAttribute("aria-label", "Mod workshop");
    const zipInput = el("input", { type: "file", id: "ws-import-zip", accept: ".zip,application/zip", className: "ws-file" });
    const dirInput = el("input", { type: "file", id: "ws-import-folder", multiple: true, className: "ws-file" });
    dirInput.setAttribute("webkitdirectory", "");
    const ruleset = el("select", { id: "ws-new-ruleset" }, el("option", { value: "classic", textContent: "classic" }), el("option", { value: "cellular", textContent: "cellular" }));
    root.append(
      el("header", { className: "ws-bar" },
        el("h2", { className: "ws-title" }, "Workshop ", el("span", { id: "ws-name" })),
        el("div", { className: "ws-actions" },
          button("ws-new", "New mod", "Start a mod from the template of 2048 mod new"),
          el("label", { className: "button small", title: "Open a mod's zip" }, "Import zip", zipInput),
          el("label", { className: "button small", title: "Open a mod's folder" }, "Import folder", dirInput),
          button("ws-export", "Export zip", "A zip that 2048 mod install takes"),
          button("ws-share", "Share link", "A link that holds the mod's files"),
          el("a", { className: "button small", id: "ws-close", href: "#", textContent: "Close" }))),
      el("form", { className: "ws-form", id: "ws-new-form", hidden: true },
        el("label", null, "Mod id ", el("input", { id: "ws-new-id", value: "my_mod", spellcheck: false, autocomplete: "off", size: 16 })),
        el("label", null, "Ruleset ", ruleset),
        el("button", { type: "submit", className: "button small", id: "ws-new-create", textContent: "Create" }),
        button("ws-new-cancel", "Cancel"),
        el("span", { className: "ws-hint", id: "ws-new-hint" }),
        el("span", { className: "ws-error", id: "ws-new-error", role: "alert" })),
      el("div", { className: "ws-form", id: "ws-share-box", hidden: true },
        el("label", null, "Link ", el("input", { id: "ws-share-link", readOnly: true, spellcheck: false })),
        button("ws-share-copy", "Copy"),
        button("ws-share-hide", "Done"),
        el("span", { className: "ws-note", id: "ws-share-note" })),
      el("div", { className: "ws-confirm", id: "ws-confirm", hidden: true, role: "dialog" },
        el("p", { id: "ws-confirm-text" }),
        el("ul", { id: "ws-confirm-files" }),
        el("p", { className: "ws-note", id: "ws-confirm-note" }),
        el("div", null, button("ws-confirm-yes", "Open it"), button("ws-confirm-no", "Not now"))),
      el("div", { className: "ws-tabs", id: "ws-tabs", role: "tablist" }),
      el("form", { className: "ws-form", id: "ws-file-form", hidden: true },
        el("label", null, "New file ", el("input", { id: "ws-file-name", placeholder: "lib.lua", spellcheck: false, autocomplete: "off", size: 20 })),
        el("button", { type: "submit", className: "button small", id: "ws-file-add", textContent: "Add" }),
        button("ws-file-cancel", "Cancel"),
        el("span", { className: "ws-error", id: "ws-file-error", role: "alert" })),
      el("div", { className: "ws-editors", id: "ws-editors" }),
      el("p", { className: "ws-status", id: "ws-status", role: "status" }),
      el("div", { className: "ws-settings mod-settings-host", id: "ws-settings" }),
      el("div", { className: "ws-run" },
        button("ws-run", "Run fixtures", "Run the mod's .cases files (Ctrl-Enter)"),
        button("ws-record", "Record a case", "Write the game so far as a fixture case (f on the game)"),
        el("span", { className: "ws-summary", id: "ws-summary" })),
      el("div", { className: "ws-panel-tabs", role: "tablist" },
        panelTab("problems", "Problems"), panelTab("fixtures", "Fixtures"), panelTab("log", "Log")),
      el("div", { className: "ws-panel", id: "ws-panel-problems" }, el("ul", { id: "ws-problems" })),
      el("div", { className: "ws-panel", id: "ws-panel-fixtures", hidden: true }, el("ul", { id: "ws-fixtures" })),
      el("div", { className: "ws-panel", id: "ws-panel-log", hidden: true }, el("pre", { id: "ws-log" })),
      el("p", { className: "ws-credits" }, "The editor is CodeMirror 6: ", el("a", { href: "editor-licenses.txt", target: "_blank", textContent: "its licences" }), "."));
    document.body.insertBefore(root, document.body.firstChild);
    showPanel("problems");

    $("ws-new").addEventListener("click", () => showNewForm(false));
    $("ws-new-cancel").addEventListener("click", () => ($("ws-new-form").hidden = true));
    $("ws-new-form").addEventListener("submit", (e) => { e.preventDefault(); createMod(); });
    $("ws-export").addEventListener("click", exportZip);
    $("ws-share").addEventListener("click", share);
    $("ws-share-copy").addEventListener("click", () => copyLink());
    $("ws-share-hide").addEventListener("click", () => ($("ws-share-box").hidden = true));
    $("ws-close").addEventListener("click", (e) => {
      e.preventDefault();
      history.pushState(null, "", location.pathname + location.search);
      close();
      page.focusGame();
    });
    $("ws-file-form").addEventListener("submit", (e) => { e.preventDefault(); addFile(); });
    $("ws-file-cancel").addEventListener("click", () => ($("ws-file-form").hidden = true));
    $("ws-run").addEventListener("click", runCases);
    $("ws-record").addEventListener("click", () => recordCase(false));
    zipInput.addEventListener("change", () => importZip(zipInput.files[0]).finally(() => (zipInput.value = "")));
    dirInput.addEventListener("change", () => importFolder(dirInput.files).finally(() => (dirInput.value = "")));
    // Ctrl-Enter runs the fixtures, in the editor too: caught on its way
    // down, before the editor takes it (for a blank line).
    document.addEventListener("keydown", (e) => {
      if (root.hidden) return;
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        e.stopPropagation();
        runCases();
        return;
      }
      // f on the game (not in a field or the editor) records a case, as
      // the terminal's f key does.
      const t = e.target;
      const typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
      if (e.key === "f" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        recordCase(true);
      }
    }, true);
    window.addEventListener("pagehide", flush);
  }

  function panelTab(name, text) {
    const b = el("button", { type: "button", className: "ws-panel-tab", id: "ws-tab-" + name, textContent: text });
    b.setAttribute("role", "tab");
    b.addEventListener("click", () => showPanel(name));
    return b;
  }

  function showPanel(name) {
    for (const n of ["problems", "fixtures", "log"]) {
      $("ws-panel-" + n).hidden = n !== name;
      $("ws-tab-" + n).setAttribute("aria-selected", String(n === name));
    }
    if (name === "log") showLog();
  }

  // ---- The work: its files, kept in this site's storage.
  function readKept() {
    try {
      const w = JSON.parse(localStorage.getItem(STORE) || "null");
      if (w && typeof w.name === "string" && w.files && typeof w.files === "object") return w;
    } catch (e) {
      page.notify("The workshop's kept mod cannot be read (" + e.message + ").");
    }
    return null;
  }

  function keep() {
    if (!work) return;
    try {
      localStorage.setItem(STORE, JSON.stringify(work));
    } catch (e) {
      setStatus("error", "The mod cannot be kept in this browser: " + e.message);
    }
  }

  // flush keeps the work and applies a pending edit at once.
  function flush() {
    if (timer) {
      clearTimeout(timer);
      timer = 0;
      keep();
      apply();
    }
  }

  // load opens w's files in the editor and starts a game with the mod (or,
  // when the page's game is already this mod's, reloads it into the game).
  function load(w, isFresh) {
    // The name is the mod's folder: a mod id (its manifest's, else
    // "mod"), whatever a link or a zip called it.
    let name = w.name;
    if (!/^[a-z][a-z0-9_]{0,31}$/.test(name)) {
      const id = /^\s*id\s*=\s*"([a-z][a-z0-9_]{0,31})"/m.exec((w.files && w.files["mod.toml"]) || "");
      name = id ? id[1] : "mod";
    }
    work = { name, files: Object.assign({}, w.files), active: w.active, modSets: w.modSets || [] };
    if (!(work.active in work.files)) work.active = firstTab();
    for (const h of editors.values()) h.destroy();
    editors.clear();
    $("ws-editors").textContent = "";
    reports.clear();
    caseFails.clear();
    shownSettings = null;
    drawTabs();
    select(work.active);
    keep();
    fresh = isFresh;
    apply();
  }

  // tabs are the mod's files that the editor shows: all but the language
  // server's (kept, and exported).
  function tabs() {
    const order = (p) => (p === "mod.toml" ? 0 : p.endsWith(".lua") ? 1 : p.endsWith(".cases") ? 2 : 3);
    return Object.keys(work.files)
      .filter((p) => !p.startsWith(".") && !p.includes("/."))
      .sort((a, b) => order(a) - order(b) || (a === "main.lua" ? -1 : b === "main.lua" ? 1 : a.localeCompare(b)));
  }

  function firstTab() {
    const t = tabs();
    return t.includes("main.lua") ? "main.lua" : t[0];
  }

  function drawTabs() {
    const box = $("ws-tabs");
    box.textContent = "";
    for (const p of tabs()) {
      const b = el("button", { type: "button", className: "ws-tab", textContent: p });
      b.dataset.path = p;
      b.setAttribute("role", "tab");
      b.setAttribute("aria-selected", String(p === work.active));
      if (problemsOf(p).length) b.classList.add("has-error");
      b.addEventListener("click", () => select(p));
      box.appendChild(b);
    }
    const add = el("button", { type: "button", className: "ws-tab ws-tab-add", id: "ws-new-file", textContent: "+", title: "Add a file to the mod" });
    add.setAttribute("aria-label", "Add a file");
    add.addEventListener("click", () => {
      $("ws-file-form").hidden = false;
      $("ws-file-error").textContent = "";
      $("ws-file-name").focus();
    });
    const del = el("button", { type: "button", className: "ws-tab ws-tab-add", id: "ws-delete-file", textContent: "−", title: "Delete the open file" });
    del.setAttribute("aria-label", "Delete the open file");
    del.disabled = work.active === "mod.toml";
    del.addEventListener("click", deleteFile);
    box.append(add, del);
    $("ws-name").textContent = work.name;
  }

  function langOf(p) {
    return p.endsWith(".lua") ? "lua" : p.endsWith(".toml") ? "toml" : p.endsWith(".cases") ? "cases" : "text";
  }

  // editorOf makes (once) the editor of the file p: one for each file,
  // so that each keeps its own undo history.
  function editorOf(p) {
    if (!editors.has(p)) {
      const host = el("div", { className: "ws-editor", hidden: true });
      host.dataset.path = p;
      $("ws-editors").appendChild(host);
      const h = window.mod2048Editor.create(host, {
        doc: work.files[p],
        lang: langOf(p),
        completions: p.endsWith(".lua") ? listing : null,
        onChange: (text) => {
          if (!settingText) edited(p, text);
        },
      });
      editors.set(p, h);
      markFile(p);
    }
    return editors.get(p);
  }

  function select(p) {
    if (!p) return;
    work.active = p;
    if ($("ws-delete-file")) $("ws-delete-file").disabled = p === "mod.toml";
    const h = editorOf(p);
    for (const [q, e] of editors) e.view.dom.parentElement.hidden = q !== p;
    for (const b of $("ws-tabs").children) b.setAttribute("aria-selected", String(b.dataset.path === p));
    h.view.requestMeasure();
  }

  // addFile adds the file the form names: a Lua module for require, a
  // fixture file, a document.
  function addFile() {
    const p = $("ws-file-name").value.trim();
    let problem = "";
    if (!/^[a-z0-9_][a-z0-9_-]*(\/[a-z0-9_][a-z0-9_-]*)*\.(lua|cases|toml|md|txt)$/.test(p)) {
      problem = "Name a .lua, .cases, .toml, .md or .txt file in lower-case letters, digits, _ and - (a folder with /).";
    } else if (p in work.files) {
      problem = p + " is there already.";
    }
    if (problem) {
      $("ws-file-error").textContent = problem;
      return;
    }
    $("ws-file-form").hidden = true;
    $("ws-file-name").value = "";
    const mod = p.replace(/\.lua$/, "");
    work.files[p] = p.endsWith(".lua") ? "-- " + p + ": main.lua runs it with require(\"" + mod + "\"), once, and gets what it returns.\nlocal M = {}\n\nreturn M\n"
      : p.endsWith(".cases") ? "# Fixtures of the mod " + modID() + ": Ctrl-Enter runs them.\n" : "";
    drawTabs();
    select(p);
    keep();
    apply();
  }

  // deleteFile deletes the open file, once the player says yes.
  function deleteFile() {
    const p = work.active;
    if (!p || p === "mod.toml") return;
    ask("Delete " + p + " from the mod " + work.name + "?", [], "Delete it", "Undo cannot bring a deleted file back.").then((yes) => {
      if (!yes) return;
      delete work.files[p];
      const h = editors.get(p);
      if (h) {
        h.view.dom.parentElement.remove();
        h.destroy();
        editors.delete(p);
      }
      reports.delete(p);
      caseFails.delete(p);
      work.active = firstTab();
      drawTabs();
      select(work.active);
      keep();
      apply();
    });
  }

  // edited takes a change to the file p: kept, and applied to the game
  // after a pause in typing.
  function edited(p, text) {
    work.files[p] = text;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = 0;
      keep();
      apply();
    }, PAUSE_MS);
  }

  // setText puts text in the file p and its editor: the workshop's own
  // change (a recorded case), not an edit, so it reloads nothing (the
  // editor tells its change at once, in the dispatch).
  let settingText = false;
  function setText(p, text) {
    work.files[p] = text;
    const h = editors.get(p);
    if (h) {
      const doc = h.view.state.doc;
      settingText = true;
      try {
        h.view.dispatch({ changes: { from: 0, to: doc.length, insert: text } });
      } finally {
        settingText = false;
      }
    }
  }

  function source() {
    return { name: work.name, files: Object.assign({}, work.files) };
  }

  // rulesetsOf reads the rulesets a mod's manifest names ([] for both).
  function rulesetsOf(toml) {
    const m = /^\s*rulesets\s*=\s*\[([^\]]*)\]/m.exec(toml || "");
    return m ? [...m[1].matchAll(/"(\w+)"/g)].map((x) => x[1]) : [];
  }

  // rulesetOf is the ruleset a new game of the mod plays: the first its
  // manifest names, else classic.
  function rulesetOf(toml) {
    return rulesetsOf(toml)[0] || "classic";
  }

  // formGame is the game the settings form starts from o while the
  // workshop is open: with this mod as it stands beside the form's mods,
  // its settings and recorded, when its manifest takes o's ruleset. So
  // every game started in the workshop plays the mod (New Game starts the
  // same setup again), and a case can be recorded from it. A game of a
  // ruleset the mod does not take runs without it, and the status says so.
  function formGame(o) {
    if (!work || root.hidden) return o;
    // The form lists the mod as the game before had it: it goes, and
    // comes back as it stands now.
    const id = modID();
    const others = (o.mods || []).filter((m) => !(m.builtin === id || m.name === work.name));
    const sets = (o.modSets || []).filter((s) => !s.startsWith(id + "."));
    const rs = rulesetsOf(work.files["mod.toml"]);
    const taken = !rs.length || rs.includes(o.ruleset);
    const mods = taken ? others.concat([source()]) : others;
    const modSets = taken ? sets.concat(work.modSets) : sets;
    if (taken) setStatus("ok", "Running: the game plays the mod as it stands");
    else setStatus("info", "This " + o.ruleset + " game runs without " + id + ", a mod for " + rs.join(" and ") + ": start a " + rs[0] + " game to play it again.");
    return Object.assign({}, o, { mods: mods.length ? mods : undefined, modSets: modSets.length ? modSets : undefined, record: taken || undefined });
  }

  // apply gives the game the files as they stand: a reload that keeps the
  // game, or a new game when none of this mod runs.
  function apply() {
    if (!work) return;
    // A manifest that no longer takes the game's ruleset gets a new game
    // of one it takes.
    const rs = rulesetsOf(work.files["mod.toml"]);
    const v = page.view();
    const running = !fresh && playing() && !(rs.length && v && !rs.includes(v.ruleset));
    fresh = false;
    let reply;
    if (running) {
      reply = page.reload([source()], work.modSets);
    } else {
      const seed = page.seed();
      const started = page.start({ ruleset: rulesetOf(work.files["mod.toml"]), mods: [source()], modSets: work.modSets.length ? work.modSets : undefined, seed, record: true });
      reply = started ? { error: started } : { mod: api.inspectMod(source()).mod };
    }
    const err = reply.error;
    loadError = err || null;
    if (!err) reports.clear();
    showSettings(err ? null : reply.mod);
    showProblems();
    if (err) {
      setStatus("error", placed(err) + (running ? " (the game goes on with the last good version)" : ""));
      if (err.file && editors.has(err.file) === false && err.file in work.files) markFile(err.file);
    } else {
      setStatus("ok", "Running: the game plays the mod as it stands");
    }
  }

  // playing says whether the page's game is this workshop's: its one
  // mod, given file by file under the work's name, recorded. A game the
  // player started from the settings is not, and the next edit starts
  // one that is.
  function playing() {
    const o = page.options();
    return !!(work && o && o.record && o.mods && o.mods.length === 1 && o.mods[0].name === work.name && o.mods[0].files);
  }

  // placed is an error's message with its place, named once: the bridge
  // gives the place as values (file, line, column) and the message
  // without it (what).
  function placed(e) {
    if (!e.file) return e.message;
    return e.file + (e.line ? ":" + e.line + (e.column ? ":" + e.column : "") : "") + ": " + (e.what || e.message);
  }

  function setStatus(kind, text) {
    const s = $("ws-status");
    s.textContent = text;
    s.dataset.kind = kind;
  }

  // ---- Problems: the load error and the handlers' errors, each marked at
  // its file and line.
  function problemsOf(p) {
    const out = [];
    if (loadError && loadError.file === p) {
      out.push({ line: loadError.line || 1, message: loadError.what || loadError.message, severity: "error" });
      // A block or bracket left open: its opening line is marked too, as
      // the error's related place.
      if (loadError.openLine) out.push({ line: loadError.openLine, message: "opened here: line " + (loadError.line || 1) + ": " + (loadError.what || loadError.message), severity: "info" });
    }
    for (const r of reports.get(p) || []) out.push(r);
    for (const r of caseFails.get(p) || []) out.push(r);
    return out;
  }

  function markFile(p) {
    const h = editors.get(p);
    if (h) h.setDiagnostics(problemsOf(p));
  }

  function showProblems() {
    const ul = $("ws-problems");
    ul.textContent = "";
    const at = (file, line) => {
      const b = el("button", { type: "button", className: "ws-at", textContent: file ? file + (line ? ":" + line : "") : "mod" });
      b.addEventListener("click", () => goTo(file, line));
      return b;
    };
    const add = (file, line, text, kind, openLine) => {
      const li = el("li", { className: "ws-problem " + kind });
      li.append(at(file, line), " " + text);
      // The line a block left open opens at, a place of its own.
      if (openLine) li.append(" (opened at ", at(file, openLine), ")");
      ul.appendChild(li);
    };
    if (loadError) add(loadError.file, loadError.line, loadError.file ? loadError.what || loadError.message : loadError.message, "error", loadError.file && loadError.openLine);
    for (const [file, list] of reports) for (const r of list) add(file, r.line, r.message, "warning");
    if (!ul.children.length) ul.appendChild(el("li", { className: "ws-none", textContent: "No problems." }));
    for (const p of editors.keys()) markFile(p);
    drawTabs();
  }

  // goTo puts the cursor on a file's line, shown at the top of its
  // editor.
  function goTo(file, line, keepFocus) {
    if (!file || !(file in work.files)) return;
    select(file);
    const h = editors.get(file);
    const doc = h.view.state.doc;
    const at = doc.line(Math.min(Math.max(line || 1, 1), doc.lines));
    h.view.dispatch({ selection: { anchor: at.from }, effects: h.view.constructor.scrollIntoView(at.from, { y: "start", yMargin: 20 }) });
    if (!keepFocus) h.focus();
  }

  // onView takes every view the game shows: the handlers' errors (budget
  // stops among them) are marked at their lines, and the notices and the
  // mod's log go to the log panel.
  function onView(v) {
    if (!work || root.hidden || !playing()) return;
    let changed = false;
    for (const r of v.reports || []) {
      if (!r.file) continue;
      const list = reports.get(r.file) || [];
      list.push({ line: r.line, message: r.event + ": " + r.message + (r.disabled ? " (the mod is now disabled)" : ""), severity: "warning" });
      while (list.length > 20) list.shift();
      reports.set(r.file, list);
      changed = true;
    }
    if (changed) showProblems();
    for (const n of v.notices || []) logLine("notice: " + n.text);
    showLog();
  }

  const notices = [];
  function logLine(text) {
    notices.push(text);
    while (notices.length > 50) notices.shift();
  }

  // showLog shows the mod's log and notices; the log's lines are asked of
  // the engine only while the panel is shown (and when it is opened), not
  // on every move.
  let logLines = [];
  function showLog() {
    if (!work) return;
    if (!$("ws-panel-log").hidden) {
      const r = api.modLog();
      logLines = (r.log && r.log[modID()]) || [];
    }
    const shown = logLines.slice(-200).join("\n");
    $("ws-log").textContent = shown + (notices.length ? (shown ? "\n" : "") + notices.slice(-20).join("\n") : "");
    $("ws-log").scrollTop = $("ws-log").scrollHeight;
  }

  function modID() {
    const m = /^\s*id\s*=\s*"([^"]*)"/m.exec(work.files["mod.toml"] || "");
    return m ? m[1] : work.name;
  }

  // ---- The mod's settings, changed while it runs.
  // showSettings shows the fields of mod's settings (none for null): made
  // again only when the settings the manifest declares change, so an edit
  // elsewhere leaves them, and what is being typed in them, alone.
  let shownSettings = "";
  function showSettings(mod) {
    const box = $("ws-settings");
    const settings = mod && mod.settings && mod.settings.length ? mod.settings : null;
    const key = settings ? JSON.stringify([work.name, mod.id, settings]) : "";
    if (key === shownSettings && (key === "" || box.firstChild)) return;
    shownSettings = key;
    box.textContent = "";
    if (!settings) return;
    page.setValues(work.modSets);
    const fields = page.settingFields(mod);
    if (!fields) return;
    box.appendChild(el("p", { className: "ws-settings-title", textContent: "Settings (applied as you change them)" }));
    box.appendChild(fields);
    fields.addEventListener("change", () => {
      work.modSets = page.modSetsOf(box);
      keep();
      const err = page.reload([source()], work.modSets).error;
      for (const f of fields.querySelectorAll(".has-error")) f.classList.remove("has-error");
      if (err) {
        const name = err.key ? err.key.split("=")[0] : "";
        const field = [...fields.querySelectorAll("input, select")].find((f) => f.dataset.key === name);
        if (field) field.classList.add("has-error");
        setStatus("error", err.message + " (the game goes on with the settings it had)");
      } else {
        setStatus("ok", "Running with the settings " + (work.modSets.join(", ") || "at their defaults"));
      }
    });
  }

  // ---- Fixtures.
  function runCases() {
    if (!work) return;
    flush();
    const r = api.runCases(source());
    const ul = $("ws-fixtures");
    ul.textContent = "";
    showPanel("fixtures");
    if (r.error) {
      ul.appendChild(el("li", { className: "ws-case fail", textContent: r.error.message }));
      $("ws-summary").textContent = r.error.message;
      return;
    }
    const cases = r.cases || [];
    const failed = cases.filter((c) => !c.ok);
    lastRun = { files: filesKey(), cases };
    const byFile = new Map();
    for (const c of cases) {
      const li = el("li", { className: "ws-case " + (c.ok ? "pass" : "fail") });
      const at = el("button", { type: "button", className: "ws-at", textContent: c.file + ":" + (c.ok ? c.line : c.failLine || c.line) });
      at.addEventListener("click", () => goTo(c.file, c.ok ? c.line : c.failLine || c.line));
      li.append(el("span", { className: "ws-mark", textContent: c.ok ? "✓" : "✗" }), " ", at, " " + (c.id || "the file") + (c.title ? " " + c.title : ""));
      if (!c.ok) {
        li.appendChild(el("p", { className: "ws-fail-msg", textContent: (c.step ? "step " + c.step + ": " : "") + c.message }));
        if (c.expect || c.actual) li.appendChild(sideBySide(c.expect || [], c.actual || []));
        // A case recorded for other code says so, and how to record one
        // for the code as it is.
        if (c.stale) li.appendChild(staleNote(c.stale));
        const list = byFile.get(c.file) || [];
        list.push({ line: c.failLine || c.line || 1, message: (c.id ? c.id + ": " : "") + c.message + (c.stale ? " (recorded for other code: " + c.stale + " since)" : ""), severity: "error" });
        byFile.set(c.file, list);
      }
      ul.appendChild(li);
    }
    if (!cases.length) ul.appendChild(el("li", { className: "ws-none", textContent: "The mod has no .cases file: record one from play." }));
    $("ws-summary").textContent = (cases.length - failed.length) + " passed, " + failed.length + " failed";
    $("ws-summary").dataset.kind = failed.length ? "error" : "ok";
    caseFails.clear();
    for (const [p, list] of byFile) caseFails.set(p, list);
    for (const p of byFile.keys()) if (p in work.files) editorOf(p);
    showProblems();
  }

  // staleNote says that a failed case was recorded for other code (stale:
  // "main.lua has changed", from its "# Recorded for:" line), and points
  // to Record a case, which it also is.
  function staleNote(stale) {
    const rec = el("button", { type: "button", className: "ws-at ws-record-again", textContent: "Record a case" });
    rec.addEventListener("click", () => recordCase(false));
    return el("p", { className: "ws-stale" },
      "This case was recorded for other code: " + stale + " since. If the change is meant, play the mod as it is now, ", rec,
      " (or f on the game), and delete this one.");
  }

  // filesKey is the mod's files as they stand, as one string: a run of the
  // fixtures is of these files while it stays the same.
  function filesKey() {
    return JSON.stringify(Object.keys(work.files).sort().map((p) => [p, work.files[p]]));
  }

  // fixtureWarning says what export and share tell of the fixtures: the
  // failed cases of the last run, by file and line, or that they have not
  // run on the files as they are; "" when they all pass, or there are none.
  function fixtureWarning() {
    if (!Object.keys(work.files).some((p) => p.endsWith(".cases"))) return "";
    if (!lastRun) return "its fixtures have not been run: Run fixtures first (Ctrl-Enter)";
    if (lastRun.files !== filesKey()) return "its fixtures have not run since the last edit: Run fixtures first (Ctrl-Enter)";
    const failed = lastRun.cases.filter((c) => !c.ok);
    if (!failed.length) return "";
    const named = failed.slice(0, 3).map((c) => c.file + ":" + (c.failLine || c.line) + " (" + (c.id ? c.id + (c.stale ? ", recorded for other code" : "") : "does not parse") + ")");
    const more = failed.length > named.length ? " and " + (failed.length - named.length) + " more" : "";
    return failed.length + (failed.length === 1 ? " fixture fails: " : " fixtures fail: ") + named.join(", ") + more;
  }

  // sideBySide shows a failed case's expected and actual boards (and
  // marks) in two columns, as `2048 test` prints them.
  function sideBySide(expect, actual) {
    const box = el("div", { className: "ws-boards" });
    box.append(
      el("div", null, el("p", { textContent: "expected" }), el("pre", { textContent: expect.join("\n") })),
      el("div", null, el("p", { textContent: "actual" }), el("pre", { textContent: actual.join("\n") })));
    return box;
  }

  // recordCase writes the game so far as a new case at the end of the
  // mod's .cases file (one is made when it has none).
  function recordCase(fromGame) {
    if (!work) return;
    flush();
    if (!playing()) {
      setStatus("error", loadError
        ? "No game of this mod is running: fix the error first."
        : "The game running does not play " + modID() + ": start a " + rulesetOf(work.files["mod.toml"]) + " game (the settings' Start, or an edit) and record from it.");
      return;
    }
    let file = Object.keys(work.files).find((p) => p.endsWith(".cases") && !p.includes("/"));
    const text = file ? work.files[file] : "";
    const ids = new Set();
    for (const p of Object.keys(work.files)) {
      if (p.endsWith(".cases")) for (const m of work.files[p].matchAll(/^Case:\s*(\S+)/gm)) ids.add(m[1]);
    }
    const prefix = modID().toUpperCase();
    let n = 1;
    while (ids.has(prefix + "-" + n)) n++;
    const id = prefix + "-" + n;
    const r = api.recordCase(id, "");
    if (r.error) {
      setStatus("error", r.error.message);
      return;
    }
    if (!file) {
      file = modID() + ".cases";
      work.files[file] = "";
      drawTabs();
    }
    const joined = text === "" ? r.text : text.replace(/\n*$/, "\n\n") + r.text;
    setText(file, joined);
    keep();
    select(file);
    // From the game's f key, the game keeps the keys.
    goTo(file, joined.slice(0, joined.lastIndexOf("Case: " + id)).split("\n").length, fromGame === true);
    setStatus("ok", "Recorded " + id + " in " + file + ": run the fixtures (Ctrl-Enter).");
  }

  // ---- New, import, export.
  function showNewForm(first) {
    $("ws-new-form").hidden = false;
    $("ws-new-hint").textContent = first ? "Start a mod: its id names its folder and its fixtures." : "";
    $("ws-new-error").textContent = "";
    $("ws-new-id").focus();
    $("ws-new-id").select();
  }

  function createMod() {
    const id = $("ws-new-id").value.trim();
    const r = api.newMod(id, $("ws-new-ruleset").value);
    if (r.error) {
      $("ws-new-hint").textContent = "";
      $("ws-new-error").textContent = r.error.message;
      return;
    }
    $("ws-new-form").hidden = true;
    const go = () => load({ name: id, files: r.files, active: "main.lua" }, true);
    if (!work) return go();
    ask("Replace the mod " + work.name + " in the workshop with a new mod " + id + "?", [], "Replace it", "Export " + work.name + " first to keep it: the workshop holds one mod.").then((yes) => yes && go());
  }

  function unb64(text) {
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  function opened(r) {
    if (r.error) {
      setStatus("error", r.error.message);
      return;
    }
    const go = () => load({ name: r.name, files: r.files }, true);
    if (!work) return go();
    ask("Replace the mod " + work.name + " in the workshop with " + r.name + "?", filesOf(r.files), "Replace it", "Export " + work.name + " first to keep it: the workshop holds one mod.").then((yes) => yes && go());
  }

  // importZip and importFolder open a mod the player picked, read by the
  // page as its settings read a player's mod.
  async function importZip(file) {
    if (!file) return;
    imported(await page.modFromZip(file));
  }

  async function importFolder(list) {
    if (!list || !list.length) return;
    imported(await page.modFromFolder(list));
  }

  function imported(r) {
    if (r.error) setStatus("error", r.error);
    else opened(api.unpackMod(r.src));
  }

  function exportZip() {
    if (!work) return;
    flush();
    const r = api.zipMod(source());
    if (r.error) {
      setStatus("error", "Not exported: " + placed(r.error));
      return;
    }
    const url = URL.createObjectURL(new Blob([unb64(r.zip)], { type: "application/zip" }));
    const a = el("a", { href: url, download: work.name + ".zip" });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    // Exported whatever the fixtures say (as go build builds when tests
    // fail), but nothing of them is kept quiet.
    const install = "nstall it with 2048 mod install " + work.name + ".zip";
    const warn = fixtureWarning();
    if (warn) setStatus("warning", "Exported " + work.name + ".zip, but " + warn + ". I" + install);
    else setStatus("ok", "Exported " + work.name + ".zip: i" + install);
  }

  // ---- Share links: the files as JSON, deflated, in base64url, in the
  // link's fragment, which no browser sends to a server. pipe runs bytes
  // through a stream whole: for deflating only (inflate keeps to a cap).
  async function pipe(bytes, stream) {
    const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
    return new Uint8Array(await out.arrayBuffer());
  }

  // inflate inflates raw deflate bytes as they stream, and returns null as
  // soon as they pass cap bytes: it is fed a few KiB at a time (which
  // inflate to at most about a thousand times that), so no more than cap
  // and a few MiB are ever held.
  async function inflate(bytes, cap) {
    const ds = new DecompressionStream("deflate-raw");
    const writer = ds.writable.getWriter();
    const reader = ds.readable.getReader();
    const feed = (async () => {
      for (let i = 0; i < bytes.length; i += 4096) await writer.write(bytes.subarray(i, i + 4096));
      await writer.close();
    })();
    feed.catch(() => {}); // the reader has its error too
    const chunks = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > cap) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
    await feed;
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  // tooLarge is the error of a shared mod larger than a mod may be.
  function tooLarge(what) {
    const e = new Error("The shared mod " + what + ": not opened.");
    e.name = "ModLimit";
    return e;
  }
  const MOD_SIZE = MAX_MOD_BYTES / (1 << 20) + " MiB";

  // share makes the link of the mod: every file but the API's annotation
  // file (ANNOTATIONS), which the page puts back when the link opens.
  async function share() {
    if (!work) return;
    flush();
    const files = {};
    for (const [p, t] of Object.entries(work.files)) if (p !== ANNOTATIONS) files[p] = t;
    const json = new TextEncoder().encode(JSON.stringify({ name: work.name, files, modSets: work.modSets }));
    if (json.length > MAX_SHARE_BYTES) {
      setStatus("error", work.name + " is larger than a share link may hold (" + MOD_SIZE + "): export it as a zip.");
      return;
    }
    const packed = await pipe(json, new CompressionStream("deflate-raw"));
    const link = location.origin + location.pathname + "#share=" + page.toBase64(packed).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    $("ws-share-box").hidden = false;
    $("ws-share-link").value = link;
    $("ws-share-note").textContent = link.length + " characters; the files stay in the link: nothing is uploaded (" + ANNOTATIONS + " is left out: it is the mod API's, and comes back when the link opens).";
    const warn = fixtureWarning();
    if (warn) setStatus("warning", "The link holds " + work.name + ", but " + warn + ".");
    copyLink();
  }

  function copyLink() {
    const input = $("ws-share-link");
    input.focus();
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(() => ($("ws-share-note").textContent = "Copied. " + $("ws-share-note").textContent.replace(/^Copied\. /, "")), () => {});
    }
  }

  // offerShare reads a shared mod from a link and shows its name and files;
  // it is loaded only when the player says yes.
  async function offerShare(data) {
    let shared;
    try {
      if (data.length > MAX_SHARE_TEXT) throw tooLarge("is larger than a mod may be (" + MOD_SIZE + ")");
      const bytes = unb64(data.replace(/-/g, "+").replace(/_/g, "/"));
      const json = await inflate(bytes, MAX_SHARE_BYTES);
      if (!json) throw tooLarge("is larger than a mod may be (" + MOD_SIZE + ")");
      shared = JSON.parse(new TextDecoder().decode(json));
      if (!shared || typeof shared.name !== "string" || !shared.files || typeof shared.files !== "object") throw new Error("it holds no mod");
      const files = Object.values(shared.files);
      if (files.length > MAX_MOD_FILES) throw tooLarge("has " + files.length + " files, more than the " + MAX_MOD_FILES + " a mod may have");
      let size = 0;
      for (const v of files) {
        if (typeof v !== "string") throw new Error("a file that is not text");
        size += new TextEncoder().encode(v).length;
      }
      if (size > MAX_MOD_BYTES) throw tooLarge("is larger than a mod may be (" + MOD_SIZE + ")");
    } catch (e) {
      setStatus("error", e.name === "ModLimit" ? e.message : "The shared link cannot be read: " + e.message);
      // A reload does not read the link again.
      history.replaceState(null, "", location.pathname + location.search + "#workshop");
      if (!work) {
        const kept = readKept();
        if (kept) load(kept, false);
      }
      return;
    }
    const name = /^\s*name\s*=\s*"([^"]*)"/m.exec(shared.files["mod.toml"] || "");
    const sets = Array.isArray(shared.modSets) && shared.modSets.length ? " Its settings: " + shared.modSets.join(", ") + "." : "";
    const yes = await ask("Open the shared mod " + (name ? name[1] + " (" + shared.name + ")" : shared.name) + "? Its files:", filesOf(shared.files).concat(sets ? [sets.trim()] : []), "Open it",
      "Nothing of it runs until you open it; its files come from the link, not from a server." + (work ? " It replaces " + work.name + " in the workshop." : ""));
    history.replaceState(null, "", location.pathname + location.search + "#workshop");
    if (yes) {
      if (shared.files[".luarc.json"] !== undefined && shared.files[ANNOTATIONS] === undefined) {
        const r = api.newMod(/^[a-z][a-z0-9_]*$/.test(shared.name) ? shared.name : "mod", "");
        if (!r.error) shared.files[ANNOTATIONS] = r.files[ANNOTATIONS];
      }
      const sets = Array.isArray(shared.modSets) ? shared.modSets.filter((x) => typeof x === "string") : [];
      load({ name: shared.name, files: shared.files, modSets: sets }, true);
    } else if (!work) {
      const kept = readKept();
      if (kept) load(kept, false);
      else showNewForm(true);
    }
  }

  // filesOf lists files as "PATH — N bytes", by path.
  function filesOf(files) {
    return Object.entries(files).sort().map(([p, t]) => p + " — " + new TextEncoder().encode(t).length + " bytes");
  }

  // ask shows a question in the workshop's own box (no browser dialog),
  // with a list and a note, and resolves to whether the player said yes.
  function ask(question, items, yesText, note) {
    const box = $("ws-confirm");
    $("ws-confirm-text").textContent = question;
    const ul = $("ws-confirm-files");
    ul.textContent = "";
    for (const i of items) ul.appendChild(el("li", { textContent: i }));
    ul.hidden = !items.length;
    $("ws-confirm-note").textContent = note || "";
    $("ws-confirm-yes").textContent = yesText;
    box.hidden = false;
    $("ws-confirm-yes").focus();
    return new Promise((resolve) => {
      const done = (yes) => {
        box.hidden = true;
        resolve(yes);
      };
      $("ws-confirm-yes").onclick = () => done(true);
      $("ws-confirm-no").onclick = () => done(false);
    });
  }

  // pending says whether an edit waits for the pause in typing that
  // applies it (tests wait for it to be applied, not for time to pass).
  window.mod2048Workshop = { open, close, editor: (p) => editorOf(p), pending: () => timer !== 0 };
})();
