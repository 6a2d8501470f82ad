// MapLibre GL JS 6 on bando's offline style: the Service Worker public/sw.js (examples/service-worker) answers the
// style, vector tiles, glyphs and sprite from the pack inside the browser, so the map needs no network.
import * as maplibregl from 'maplibre-gl'; // MapLibre 6 is ES modules only, with no default export
import 'maplibre-gl/dist/maplibre-gl.css';
// Bundled, MapLibre cannot find its worker beside itself: give the worker file's URL (Vite's ?url import).
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';

maplibregl.setWorkerUrl(workerUrl);

const TILES_KEY = 'my-map-key'; // any key: the worker accepts the one it is registered with
await navigator.serviceWorker.register(`./sw.js?tiles_key=${TILES_KEY}&pack=./hanoi.pack`, { type: 'module' });
await navigator.serviceWorker.ready;
if (!navigator.serviceWorker.controller)
  await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));

const map = new maplibregl.Map({
  container: 'map',
  style: `/styles/default/style.json?key=${TILES_KEY}`,
  center: [105.8522, 21.0285], // Hoàn Kiếm lake, in the default pack
  zoom: 15,
});
map.addControl(new maplibregl.NavigationControl());
window.map = map; // for the browser console
