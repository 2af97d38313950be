// The workshop's code editor: CodeMirror 6, set up for the files of a mod
// (its Lua, its TOML, its fixture cases), bundled by esbuild (build.mjs)
// into one script that puts its API on globalThis.mod2048Editor. The page
// loads it only when the workshop opens, so the game itself never pays
// for it.
import { EditorState } from "@codemirror/state";
import {
  EditorView,
  keymap,
  lineNumbers,
  highlightActiveLine,
  highlightActiveLineGutter,
  drawSelection,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  StreamLanguage,
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
  syntaxTree,
} from "@codemirror/language";
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  currentCompletions,
  startCompletion,
} from "@codemirror/autocomplete";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
// Only the two legacy modes the workshop needs: importing the package's
// index would pull in every language it has.
import { lua } from "@codemirror/legacy-modes/mode/lua";
import { toml } from "@codemirror/legacy-modes/mode/toml";

// The fixture files (*.cases): whole-line # comments, and a directive at
// the start of a line (Case:, Given:, Move:, Expect:, ScoreΔ:, ...)
// before its value. The fixture parser knows the directives; the editor
// only needs their shape to colour them.
const cases = {
  name: "cases",
  token(stream) {
    if (stream.sol()) {
      stream.eatSpace();
      if (stream.peek() === "#") {
        stream.skipToEnd();
        return "comment";
      }
      if (stream.match(/^[A-Za-z][A-Za-z0-9Δ]*:/u)) return "keyword";
    }
    if (stream.eatSpace()) return null;
    if (stream.match(/^-?\d+(\.\d+)?\b/)) return "number";
    stream.next();
    return null;
  },
};

// Lua's keywords, offered beside the globals when a word is being typed.
const luaKeywords = [
  "local", "function", "end", "if", "then", "else", "elseif", "return", "for", "in",
  "do", "while", "repeat", "until", "not", "and", "or", "nil", "true", "false", "break",
].map((label) => ({ label, type: "keyword" }));

// entries turns listing entries into CodeMirror completions: the listing
// (written by Go from the mod API) already has their fields.
function entries(list) {
  if (!Array.isArray(list)) return [];
  return list
    .filter((e) => e && typeof e.label === "string")
    .map((e) => {
      const c = { label: e.label };
      if (e.type) c.type = e.type;
      if (e.detail) c.detail = e.detail;
      if (e.info) c.info = e.info;
      return c;
    });
}

// dedupe keeps the first entry of each label: the listing's table keys
// come from several tables (a hazard's, a move request's, ...) and a key
// shared by two would show twice.
function dedupe(list) {
  const seen = new Set();
  return list.filter((e) => !seen.has(e.label) && seen.add(e.label));
}

// innermostOpen returns the innermost bracket still open before pos ("{",
// "(" or "["), or "" at the top level. It skips strings and comments
// roughly (one line's quotes, -- to the end of the line), which is enough
// to tell a table constructor from a call's arguments.
function innermostOpen(text) {
  const stack = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "-" && text[i + 1] === "-") {
      const nl = text.indexOf("\n", i);
      if (nl < 0) break;
      i = nl;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      i = j;
    } else if (c === "{" || c === "(" || c === "[") {
      stack.push(c);
    } else if (c === "}" || c === ")" || c === "]") {
      stack.pop();
    }
  }
  return stack.length ? stack[stack.length - 1] : "";
}

// luaCompletions is the completion source for Lua, from the listing.
function luaCompletions(listing) {
  const globals = entries(listing.globals);
  const members = listing.members || {};
  const strings = listing.strings || {};
  const words = globals.concat(luaKeywords);
  const tableWords = dedupe(entries(listing.keys).concat(globals));
  return (context) => {
    // Nothing to offer inside a comment.
    const node = syntaxTree(context.state).resolveInner(context.pos, -1);
    if (/comment/.test(node.name)) return null;

    // The first argument of a call whose callee takes known strings:
    // game.on("ti → the event names, replacing what is inside the quotes.
    const str = context.matchBefore(/([A-Za-z_][\w.:]*)\s*\(\s*["']([^"'\n\\]*)$/);
    if (str) {
      const m = /([A-Za-z_][\w.:]*)\s*\(\s*["']([^"'\n\\]*)$/.exec(str.text);
      const callee = m[1].replace(/:/g, ".");
      const list = strings[callee];
      if (!list) return null;
      return {
        from: context.pos - m[2].length,
        options: entries(list),
        validFor: /^[^"'\n\\]*$/,
      };
    }
    // Inside some other string: nothing.
    if (/string/.test(node.name) && !context.explicit) return null;

    // After NAME. : NAME's members (game.ma → game.max_tile, ...). A
    // dotted path (a.b.c) is looked up whole first, then by its last name.
    const mem = context.matchBefore(/[A-Za-z_][\w.]*\.\w*$/);
    if (mem) {
      const dot = mem.text.lastIndexOf(".");
      const path = mem.text.slice(0, dot);
      const list = members[path] || members[path.slice(path.lastIndexOf(".") + 1)];
      if (!list) return null;
      return { from: mem.from + dot + 1, options: entries(list), validFor: /^\w*$/ };
    }

    // A word, or nothing yet when the completion was asked for (Ctrl-Space).
    const word = context.matchBefore(/[A-Za-z_]\w*$/) || { from: context.pos, to: context.pos, text: "" };
    if (word.text === "" && !context.explicit) return null;
    // A word in a table constructor, after its { or a comma: the table
    // keys the mod API reads (return { refuse = ..., game.hazard{ name = ).
    const before = context.state.sliceDoc(Math.max(0, word.from - 4000), word.from);
    const prev = before.replace(/\s+$/, "").slice(-1);
    const inTable = (prev === "{" || prev === ",") && innermostOpen(before) === "{";
    return { from: word.from, options: inTable ? tableWords : words, validFor: /^\w*$/ };
  };
}

// language gives the extensions of a file's language.
function language(lang, listing) {
  switch (lang) {
    case "lua":
      return [
        StreamLanguage.define(lua),
        autocompletion({ override: [luaCompletions(listing || {})] }),
      ];
    case "toml":
      return [StreamLanguage.define(toml), autocompletion()];
    case "cases":
      return [StreamLanguage.define(cases), autocompletion()];
    default:
      return [];
  }
}

// The light theme of the 2048 page: its paper background, its dark brown
// text, the tile-beige gutter; the editor fills its parent, which sets
// its height, and scrolls inside it.
const theme = EditorView.theme(
  {
    "&": { height: "100%", backgroundColor: "#fbf8f1", color: "#3c3a32", fontSize: "13px" },
    ".cm-scroller": { overflow: "auto", fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.45" },
    ".cm-content": { caretColor: "#3c3a32" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "#3c3a32" },
    ".cm-gutters": { backgroundColor: "#eee4da", color: "#8f7a66", border: "none", borderRight: "1px solid #e0d3c4" },
    ".cm-activeLine": { backgroundColor: "#f3ede2" },
    ".cm-activeLineGutter": { backgroundColor: "#e4d7c8", color: "#3c3a32" },
    "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "#f2d9b6" },
    "&.cm-focused": { outline: "none" },
    ".cm-matchingBracket": { backgroundColor: "#f5e0bd", outline: "1px solid #d9b98f" },
    ".cm-tooltip": { backgroundColor: "#fff", border: "1px solid #d8cbbb", color: "#3c3a32" },
    ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "#8f7a66", color: "#f9f6f2" },
    ".cm-panels": { backgroundColor: "#f3ede2", color: "#3c3a32" },
  },
  { dark: false },
);

// makeState builds a fresh state: setDoc uses it too, so that a new
// document starts a new undo history.
function makeState(doc, lang, listing, onChange) {
  return EditorState.create({
    doc,
    extensions: [
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightActiveLine(),
      drawSelection(),
      history(),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      highlightSelectionMatches(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      lintGutter(),
      language(lang, listing),
      keymap.of([
        ...closeBracketsKeymap,
        ...defaultKeymap,
        ...historyKeymap,
        ...searchKeymap,
        ...completionKeymap,
        ...lintKeymap,
        indentWithTab,
      ]),
      theme,
      EditorView.updateListener.of((u) => {
        if (u.docChanged && onChange) onChange(u.state.doc.toString());
      }),
    ],
  });
}

// create makes an editor in parent. opts: doc, lang ("lua", "toml",
// "cases" or "text"), completions (the listing, for Lua; may be null) and
// onChange(doc), called on every change the user makes (not on setDoc:
// its caller has the text already).
function create(parent, opts = {}) {
  let lang = opts.lang || "text";
  const listing = opts.completions || null;
  const onChange = opts.onChange || null;
  const view = new EditorView({
    state: makeState(String(opts.doc ?? ""), lang, listing, onChange),
    parent,
  });
  return {
    view,
    getDoc: () => view.state.doc.toString(),
    // setDoc replaces the document as a new state: its undo history starts
    // again, and its diagnostics go. A second argument changes the
    // language too.
    setDoc(text, newLang) {
      if (newLang) lang = newLang;
      view.setState(makeState(String(text ?? ""), lang, listing, onChange));
    },
    // setDiagnostics marks lines: [{line (1-based), message, severity}];
    // a line out of the document clamps to its first or last line, and []
    // clears them.
    setDiagnostics(list) {
      const doc = view.state.doc;
      const diagnostics = (list || []).map((d) => {
        const n = Math.min(Math.max(1, Math.floor(Number(d.line) || 1)), doc.lines);
        const line = doc.line(n);
        const severity = ["error", "warning", "info"].includes(d.severity) ? d.severity : "error";
        return { from: line.from, to: line.to, severity, message: String(d.message ?? "") };
      });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}

// viewOf accepts a handle or an EditorView, for the browser tests.
const viewOf = (h) => (h && h.view) || h;

globalThis.mod2048Editor = {
  create,
  // For the browser tests: open the completion list as Ctrl-Space does,
  // and read the labels it shows.
  startCompletion: (h) => startCompletion(viewOf(h)),
  currentCompletions: (h) => currentCompletions(viewOf(h).state).map((c) => c.label),
};
