// build.mjs: bundles the workshop's code editor (src/editor.js and the
// CodeMirror packages it imports) into cmd/internal/web/site, which
// `2048 serve` embeds (make editor; commit the three files):
//
//   - editor.js.br: the bundle, minified, brotli-compressed at quality 11
//     (no raw editor.js is kept, as with main.wasm);
//   - editor-licenses.txt: the licence of every npm package in the bundle;
//   - editor.stamp: the digest of the sources it was built from, which
//     the Go test TestEditorIsFresh computes the same way, so that a
//     change to them without a rebuild fails the tests (CI has no node).
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const site = path.join(here, "..", "site");

// The sources of the stamp: these, and every file under src/.
const stampFiles = ["package.json", "package-lock.json", "build.mjs"];

// listFiles returns the files under dir, relative to here, slash-separated.
function listFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(path.join(here, dir), { withFileTypes: true })) {
    const rel = dir + "/" + e.name;
    if (e.isDirectory()) out.push(...listFiles(rel));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

// stamp: sha256 over each source as PATH\0LEN\0BYTES, in sorted path
// order (byte order, as Go's sort.Strings). Keep it in step with
// editor_test.go.
function stamp() {
  const files = [...stampFiles, ...listFiles("src")].sort((a, b) =>
    Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  const h = createHash("sha256");
  for (const f of files) {
    const data = fs.readFileSync(path.join(here, f));
    h.update(Buffer.from(f));
    h.update(Buffer.from("\0" + data.length + "\0"));
    h.update(data);
  }
  return "sha256:" + h.digest("hex");
}

// The bundle goes to a temporary folder: site/ keeps it compressed only.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mod2048-editor-"));
const outfile = path.join(tmp, "editor.js");
const result = await esbuild.build({
  absWorkingDir: here,
  entryPoints: ["src/editor.js"],
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2020",
  charset: "utf8",
  legalComments: "none", // the licences go whole to editor-licenses.txt
  metafile: true,
  outfile,
  logLevel: "warning",
});
const js = fs.readFileSync(outfile);
fs.rmSync(tmp, { recursive: true, force: true });

const br = zlib.brotliCompressSync(js, {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: js.length,
  },
});

// packageOf names the npm package a bundled input came from, with its
// folder: the part after the last node_modules/ (a scope takes two names).
function packageOf(input) {
  const i = input.lastIndexOf("node_modules/");
  if (i < 0) return null;
  const parts = input.slice(i + "node_modules/".length).split("/");
  const name = parts[0].startsWith("@") ? parts[0] + "/" + parts[1] : parts[0];
  return { name, dir: path.join(here, input.slice(0, i), "node_modules", name) };
}

const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const p = packageOf(input);
  if (p && !packages.has(p.dir)) packages.set(p.dir, p.name);
}
const licenceName = /^(LICEN[CS]E|COPYING)(\.(md|txt|markdown))?$/i;
const sections = [];
for (const [dir, name] of [...packages].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const file = fs.readdirSync(dir).filter((f) => licenceName.test(f)).sort()[0];
  const text = file
    ? fs.readFileSync(path.join(dir, file), "utf8").trim()
    : `License: ${pkg.license ?? "(not stated)"} (no licence file was found in the package)`;
  sections.push(`${name} ${pkg.version}\n${"-".repeat(name.length + 1 + pkg.version.length)}\n\n${text}\n`);
}
const licences =
  "The workshop's code editor (editor.js.br) bundles these npm packages,\n" +
  "built by cmd/internal/web/editor (make editor). Their licences:\n\n" +
  sections.join("\n\n");

fs.writeFileSync(path.join(site, "editor.js.br"), br);
fs.writeFileSync(path.join(site, "editor-licenses.txt"), licences);
fs.writeFileSync(path.join(site, "editor.stamp"), stamp() + "\n");

const kb = (n) => (n / 1024).toFixed(1) + " KiB";
console.log(`editor.js: ${js.length} bytes raw (${kb(js.length)}), ${br.length} with brotli (${kb(br.length)})`);
console.log(`bundled: ${[...packages.values()].sort().join(", ")}`);
