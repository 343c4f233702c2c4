// agora's service worker: the pages, their scripts and styles, the string catalogues,
// the rules and the lessons (every file web/offline-files.json lists, made by
// scripts/web-files) and the catalogue of games are kept at install, so they can be
// read offline.  Every request goes to the network first (an answer refreshes the
// copy kept); only when the network fails is the copy used.  Playing needs the
// server: offline, the API answers 503 with a JSON error saying so.
const CACHE = 'agora-v1';

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const list = await fetch('offline-files.json', { cache: 'no-store' }).then((r) => r.json());
    await cache.addAll(['./', 'api/catalog', ...list]);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

const offlineError = () => new Response(JSON.stringify({ error: 'offline: playing needs the server' }),
  { status: 503, headers: { 'Content-Type': 'application/json' } });

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.endsWith('/events')) return;
  const api = url.pathname.startsWith('/api/');
  if (req.method !== 'GET') {
    if (api) event.respondWith(fetch(req).catch(() => offlineError()));
    return;
  }
  const keep = !api || url.pathname === '/api/catalog';
  event.respondWith((async () => {
    try {
      const res = await fetch(req);
      if (res.ok && keep) (await caches.open(CACHE)).put(req, res.clone());
      return res;
    } catch (err) {
      const hit = keep && (await caches.match(req, { ignoreSearch: !api }));
      if (hit) return hit;
      if (req.mode === 'navigate') return (await caches.match('./')) || offlineError();
      return offlineError();
    }
  })());
});
