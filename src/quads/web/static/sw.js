// The service worker: the page opens without the server, and a new release is
// seen at once.
//
// The server serves this file at /sw.js with BUILD filled in (quads/web/pwa.py):
// the release (the package's version and a digest of the page's files and
// catalogues) and the files to keep.  A new release therefore changes this
// file, the browser installs the new worker, which keeps the new files under a
// new cache name, takes over at once, and deletes the caches of older releases.
//
// Network first: every file kept is fetched from the server whenever it
// answers within a few seconds (revalidated, never taken from the HTTP cache
// unchecked), and the copy kept is refreshed; the copy answers when the server
// cannot be reached or is slow to answer.  Stale-while-revalidate would open the
// page a little faster, but after each deployment it would run the previous
// release's scripts once more, against a server that may already answer
// differently.
//
// Only the page's own files (the engine's WebAssembly module and the opening books
// of /engine/books/ among them) and its message catalogues are kept.  Every other
// request (the API and its live sockets, /docs, /openapi.json, /join/...) is
// left to the browser untouched: no answer of the API ever comes from a cache.

const BUILD = {"version": "dev", "files": ["/"]};

const PREFIX = "quads-";
const CACHE = PREFIX + BUILD.version;
const KEPT = new Set(BUILD.files);

/** Answers that mean "the server is not there", as the page's api.js counts them. */
const UNREACHABLE = new Set([502, 503, 504]);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(BUILD.files.map((path) => new Request(path, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const key = url.pathname === "/index.html" ? "/" : url.pathname;
  if (!KEPT.has(key)) return; // to the network, as if there were no worker
  event.respondWith(networkFirst(event, request, key));
});

/** How long the server has to answer before the copy kept answers instead (a network
 * that hangs, as on a train, must not keep the installed app from opening). */
const PATIENCE_MS = 3000;

/** The server's answer when it gives one in time, else the copy kept under `key`
 * (the server's late answer still refreshes that copy). */
async function networkFirst(event, request, key) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(key);
  const fromServer = fetch(request, { cache: "no-cache" }).then((response) => {
    if (response.ok) event.waitUntil(cache.put(key, response.clone()));
    return response;
  });
  if (!kept) return fromServer;
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), PATIENCE_MS);
  });
  const answer = await Promise.race([fromServer.catch(() => null), late]);
  clearTimeout(timer);
  if (answer === null || UNREACHABLE.has(answer.status)) {
    event.waitUntil(fromServer.catch(() => null)); // let a late answer refresh the copy
    return kept;
  }
  return answer;
}
