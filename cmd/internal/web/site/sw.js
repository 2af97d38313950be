// The browser game's service worker: it keeps the whole site (the page,
// its style and scripts, main.wasm, the manifest and the icons) in one
// cache named by the site's version, and answers the page from it, so
// that the game starts fast and plays with no network after a first
// visit. The shipped mods are inside main.wasm; a player's own mods are
// kept with the game in the page's localStorage.
//
// The server (package web) writes the site's version, a digest of all its
// files, in place of @VERSION@ below: any new page, script or main.wasm
// gives a new sw.js, which the browser finds on the next visit. The new
// worker downloads the new set whole (cache.addAll fails or succeeds as
// one), takes over, and deletes every older set; the page then reloads
// once (game.js), so a page and a main.wasm of two versions never meet.
"use strict";

const VERSION = "@VERSION@";
const PREFIX = "mod2048-";
const CACHE = PREFIX + VERSION;
const FILES = ["./", "style.css", "game.js", "wasm_exec.js", "main.wasm", "manifest.webmanifest", "icon-192.png", "icon-512.png"];
// LAZY are the workshop's files: the page loads them only when the
// workshop opens, so a player who never opens it never downloads them.
// The worker keeps each in the version's set the first time the page
// fetches it, so an opened workshop opens again offline; a new version's
// worker fetches, as it installs, the new version of each that an older
// set held, so the workshop stays there offline across versions.
const LAZY = ["workshop.js", "workshop.css", "editor.js", "editor-licenses.txt"];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // no-cache: revalidated with the server (304 when unchanged), never
    // an older copy from the HTTP cache.
    await cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" })));
    // The workshop's files an older set held: this version's, now. One
    // that cannot be had (the network went, the file is gone) is left
    // out, as it was before the workshop opened: the game is whole
    // without it.
    const had = new Set();
    for (const name of await caches.keys()) {
      if (!name.startsWith(PREFIX) || name === CACHE) continue;
      const old = await caches.open(name);
      for (const f of LAZY) if (await old.match(f)) had.add(f);
    }
    await Promise.all([...had].map(async (f) => {
      try {
        const res = await fetch(new Request(f, { cache: "no-cache" }));
        if (res.ok) await cache.put(f, res);
      } catch (e) {
        // left out
      }
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

const scope = new URL(self.registration.scope);

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  const rel = url.pathname.slice(scope.pathname.length);
  let key;
  if (rel === "" || rel === "index.html") key = "./";
  else if (FILES.includes(rel) || LAZY.includes(rel)) key = rel;
  else return; // defaults.json and anything else: the network's
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(key);
    if (hit) return hit;
    const res = await fetch(req);
    if (res.ok && LAZY.includes(key)) await cache.put(key, res.clone());
    return res;
  })());
});
