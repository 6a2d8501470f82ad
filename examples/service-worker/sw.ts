/// <reference lib="webworker" />
/**
 * A Service Worker that answers the online map service's REST URLs — and its web-map resources (style, vector
 * tiles, glyphs, sprite) — from a bando engine inside the browser, so an app written against the online API keeps
 * working offline without changing its URLs.
 *
 * Register it as a module worker with its settings in the query string:
 *   navigator.serviceWorker.register('/sw.js?base=https://api.example.vn&key=YOUR_KEY&tiles_key=YOUR_TILES_KEY&pack=/hanoi.pack', { type: 'module' })
 * - base:      the online service's base URL; requests under it are answered here.
 * - key:       the api_key your app sends (the only REST key this worker accepts; optional: without it REST
 *              requests answer 403, as a map-only app wants).
 * - tiles_key: the map tiles key your map sends (optional; without it map resources answer 403).
 * - pack:      URL of the pack file to load (default: hanoi.pack beside this script).
 * The demo map page (demo/index.html with map.js and MapLibre, copied beside this script) is precached with the pack
 * at install; its same-origin map and REST requests are answered here too. Everything else goes to the network.
 */
import {
  createEngine,
  createFetchHandler,
  createMapResources,
  createTileSource,
  MemoryUsageStore,
  type ApiKey,
  type FetchHandler,
} from 'bando';

declare const self: ServiceWorkerGlobalScope;

const settings = new URL(self.location.href).searchParams;
const BASE = new URL(settings.get('base') ?? 'https://api.example.vn');
const KEY = settings.get('key');
const TILES_KEY = settings.get('tiles_key');
const PACK = new URL(settings.get('pack') ?? 'hanoi.pack', self.location.href).href;
const PREFIX = BASE.href.replace(/\/$/, '') + '/';
const CACHE = 'bando-offline-v1';
/** Static files kept for offline use: the pack and the demo page's files (each optional). */
const PRECACHE = [
  PACK,
  ...[
    'demo/index.html',
    'demo/map.js',
    'demo/maplibre-gl.mjs',
    'demo/maplibre-gl-worker.mjs',
    'demo/maplibre-gl.css',
    'assets/sprites/default.json',
    'assets/sprites/default.png',
    'assets/sprites/default@2x.json',
    'assets/sprites/default@2x.png',
  ].map((f) => new URL(f, self.location.href).href),
];

/** A shipped asset (glyphs, sprite) hosted beside this script under assets/: from the cache, else the network. */
async function asset(relative: string): Promise<Uint8Array | null> {
  const url = new URL(`assets/${relative.split('/').map(encodeURIComponent).join('/')}`, self.location.href).href;
  const res = (await caches.match(url)) ?? (await fetch(url).catch(() => null));
  if (!res?.ok) return null;
  if (relative.startsWith('fonts/')) await caches.open(CACHE).then((c) => c.put(url, res.clone()));
  return new Uint8Array(await res.arrayBuffer());
}
/** Same-origin paths the demo page calls: the web-map resources and the REST endpoints. */
const LOCAL =
  /^\/(styles|tiles|fonts|sprites)\/|^\/(geocode|direction|distancematrix|place\/autocomplete|place\/detail|trip|staticmap\/route)$/i;

let handlers: Promise<{ online: FetchHandler; local: FetchHandler }> | null = null;
/** The engine is built on the first request the worker answers (and again after the browser stops the worker). */
function getHandlers() {
  handlers ??= (async () => {
    const cached = await caches.match(PACK);
    const engine = await createEngine({ packs: [cached ? await cached.arrayBuffer() : PACK] });
    // A key is never empty (createFetchHandler refuses one): a setting left out gives no key of that kind.
    const keys: ApiKey[] = [];
    if (KEY) keys.push({ key: KEY, kind: 'rest' });
    if (TILES_KEY) keys.push({ key: TILES_KEY, kind: 'tiles' });
    // No gzip here: a Service Worker's requests carry no Accept-Encoding, and nothing travels a network.
    // demo: false — the demo files are static files of this site (precached), not engine answers.
    // node:fs is absent here, so glyphs and sprites come from the assets this site hosts (see asset()).
    // The style's tile, glyph and sprite URLs are absolute (MapLibre needs the sprite's so), under the origin its
    // request came to: the online service's or this site's.
    const tiles = createTileSource(engine.regions);
    const resources = (publicUrl: string) => createMapResources(tiles, { demo: false, assets: asset, publicUrl });
    const usage = new MemoryUsageStore();
    return {
      // The online base URL may carry a path (e.g. https://host/v2); endpoints live under it.
      online: createFetchHandler(engine, {
        keys,
        usage,
        resources: resources(BASE.origin),
        basePath: BASE.pathname.replace(/\/$/, ''),
      }),
      // Same-origin requests of the demo page: answered inside the browser, so plain http://localhost is as safe as
      // the loopback peer that `allowHttp` asks for.
      local: createFetchHandler(engine, { keys, usage, resources: resources(self.location.origin), allowHttp: true }),
    };
  })();
  return handlers;
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => Promise.allSettled(PRECACHE.map((u) => cache.add(u))))
      .then(() => self.skipWaiting()),
  );
});
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const url = event.request.url;
  if (url.startsWith(PREFIX)) return event.respondWith(getHandlers().then((h) => h.online(event.request)));
  const u = new URL(url);
  if (u.origin !== self.location.origin || event.request.method !== 'GET') return;
  if (LOCAL.test(u.pathname))
    return event.respondWith(getHandlers().then((h) => h.local(event.request, { remoteAddress: '127.0.0.1' })));
  if (PRECACHE.includes(u.origin + u.pathname))
    event.respondWith(caches.match(u.origin + u.pathname).then((r) => r ?? fetch(event.request)));
});
