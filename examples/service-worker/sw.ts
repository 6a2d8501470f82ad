/// <reference lib="webworker" />
/**
 * A Service Worker that answers the online map service's REST URLs from a bando engine inside the browser, so an
 * app written against the online API keeps working offline without changing its URLs.
 *
 * Register it as a module worker with its settings in the query string:
 *   navigator.serviceWorker.register('/sw.js?base=https://api.example.vn&key=YOUR_KEY&pack=/hanoi.pack', { type: 'module' })
 * - base: the online service's base URL; requests under it are answered here, everything else goes to the network.
 * - key:  the api_key your app sends (the only key this worker accepts).
 * - pack: URL of the pack file to load (default: hanoi.pack beside this script).
 */
import { createEngine, createFetchHandler, type FetchHandler } from 'bando';

declare const self: ServiceWorkerGlobalScope;

const settings = new URL(self.location.href).searchParams;
const BASE = new URL(settings.get('base') ?? 'https://api.example.vn');
const KEY = settings.get('key') ?? '';
const PACK = new URL(settings.get('pack') ?? 'hanoi.pack', self.location.href).href;
const PREFIX = BASE.href.replace(/\/$/, '') + '/';

let handler: Promise<FetchHandler> | null = null;
/** The engine is built on the first request the worker answers (and again after the browser stops the worker). */
function getHandler(): Promise<FetchHandler> {
  handler ??= createEngine({ packs: [PACK] }).then((engine) =>
    createFetchHandler(engine, {
      keys: [{ key: KEY, kind: 'rest' }],
      // The online base URL may carry a path (e.g. https://host/v2); endpoints live under it.
      basePath: BASE.pathname.replace(/\/$/, ''),
    }),
  );
  return handler;
}

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (!event.request.url.startsWith(PREFIX)) return;
  event.respondWith(getHandler().then((handle) => handle(event.request)));
});
