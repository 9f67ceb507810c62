// Boardcraft's service worker: keeps the page's build for offline use. scripts/package-web.py
// writes the build manifest into it (the placeholder below), so every build is a new service
// worker, which the browser installs on the next visit after the build is deployed.
//
// - install: every file of the build (index.html, the web app manifest and icons, and
//   b/<hash>/…) goes into a cache named by the build's hash, then the new worker takes over
//   at once (skipWaiting): the files of different builds have different URLs (b/<hash>/), so a
//   page of the old build and one of the new never mix files;
// - activate: the caches of other builds are deleted;
// - fetch: the page itself (a navigation) comes from the network when it can (so a new build
//   is picked up on the next load) and from the cache when offline or when the network does
//   not answer within NAVIGATION_TIMEOUT_MS; every other file of this origin comes from the
//   cache, else from the network; build.json always from the network (the page's "can the
//   server be reached?"), answered with an X-Boardcraft-Offline header when it cannot. Other
//   origins (telegram.org) and the game server's API and websocket are not touched.
const BUILD = __BOARDCRAFT_BUILD__;
const CACHE = `boardcraft-${BUILD.build}`;
const PREFIX = "boardcraft-";
const NAVIGATION_TIMEOUT_MS = 4000;
const scope = new URL(self.registration.scope);
const at = (path) => new URL(path, scope).href;
const PAGE = at("index.html");
const FILES = [
  PAGE,
  at("manifest.webmanifest"),
  at("icons/icon-192.png"),
  at("icons/icon-512.png"),
  at("icons/icon-maskable-512.png"),
  at("icons/apple-touch-icon.png"),
  ...Object.keys(BUILD.files).map((path) => at(BUILD.dir + path)),
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Hashed files may come from the HTTP cache (the page just downloaded them); the page
      // must be this build's, not a newer one deployed meanwhile.
      await cache.addAll(FILES.filter((f) => f !== PAGE));
      const page = await fetch(PAGE, { cache: "no-cache" });
      const text = await page.clone().text();
      if (!page.ok || !text.includes(`"build":"${BUILD.build}"`)) {
        throw new Error(`index.html is not build ${BUILD.build}: a newer build is deployed`);
      }
      await cache.put(PAGE, page);
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

self.addEventListener("message", (event) => {
  if (event.data === "build") event.source?.postMessage({ build: BUILD.build });
});

// Read-only: `caches.open` would create this build's cache again after a newer worker's
// activation deleted it (this worker still answers the navigation that brings the new build).
const cachedPage = () => caches.match(PAGE, { cacheName: CACHE });

async function page(request) {
  try {
    const network = fetch(request);
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error("the network is too slow")), NAVIGATION_TIMEOUT_MS),
    );
    const response = await Promise.race([network, timeout]);
    if (response.ok || !(await cachedPage())) return response;
    throw new Error(`HTTP ${response.status}`);
  } catch {
    const cached = await cachedPage();
    if (cached) return cached;
    return new Response("Boardcraft is offline and was not kept for offline use.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.href.startsWith(scope.href)) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
    return;
  }
  // The game server's API (online play) is never cached.
  if (url.pathname.startsWith(scope.pathname + "api/")) return;
  // build.json is how the page asks whether the server can be reached: never from the cache,
  // and "offline" said as an answer (a failed request would be logged as an error).
  if (url.pathname === scope.pathname + "build.json") {
    event.respondWith(
      fetch(request).catch(
        () => new Response("{}", { headers: { "Content-Type": "application/json", "X-Boardcraft-Offline": "1" } }),
      ),
    );
    return;
  }
  event.respondWith(
    (async () => {
      const cached = await caches.match(request, { ignoreVary: true });
      return cached ?? fetch(request);
    })(),
  );
});
