// fourcards service worker (docs/web.md "Installable on a phone"): the app shell only.
// It keeps this version's static files - styles, scripts, icons, the manifest - and a page for
// when the server cannot be reached. Never a table's state: no page of a table, no API answer,
// no websocket goes into the cache, and it asks no other host for anything.
"use strict";
const SHELL = "fourcards-shell-{{ shell_version }}";
const FILES = {{ files|tojson }};
const OFFLINE = "/offline";

self.addEventListener("install", function (ev) {
  ev.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(FILES.concat([OFFLINE])); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (ev) {  // an older version's shell goes
  ev.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("fourcards-shell-") === 0 && k !== SHELL; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (ev) {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;  // another host: not ours to answer
  if (url.pathname.indexOf("/static/") === 0 && url.searchParams.has("v")) {
    // a versioned static file never changes: from the shell, else from the server (then kept)
    ev.respondWith(caches.open(SHELL).then(function (cache) {
      return cache.match(req).then(function (hit) {
        return hit || fetch(req).then(function (res) {
          if (res.ok) cache.put(req, res.clone());
          return res;
        });
      });
    }));
  } else if (req.mode === "navigate") {
    // pages always come from the server (a table's page shows its state); offline, a page says so
    ev.respondWith(fetch(req).catch(function () { return caches.match(OFFLINE); }));
  }
});
