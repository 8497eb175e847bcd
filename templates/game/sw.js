/* KÜT service worker: keeps the site's static assets (styles, scripts, icons) for a fast
   start. Pages and game data are never cached: the game itself needs the server. */
const CONFIG = {{ config|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CONFIG.cache).then((cache) => cache.addAll(CONFIG.assets)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith("kut-static-") && key !== CONFIG.cache).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

async function fromNetwork(request, cache) {
  const response = await fetch(request);
  if (response.ok && response.type === "basic") cache.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(CONFIG.cache);
  try {
    return await fromNetwork(request, cache);
  } catch (error) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CONFIG.cache);
  const cached = await cache.match(request);
  return cached || fromNetwork(request, cache);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(CONFIG.staticPrefix)) return;
  event.respondWith(CONFIG.networkFirst ? networkFirst(request) : cacheFirst(request));
});
