// bando demo: MapLibre GL JS on bando's own style, tiles, glyphs and sprite, with search (/Place/AutoComplete,
// /Place/Detail), click-to-route (/Direction) and a trip mode (/trip). Everything is requested from this page's
// origin, so it works offline.
//
// URLs the page expects from the HTTP layer:
//   /demo/maplibre-gl.mjs, /demo/maplibre-gl-worker.mjs, /demo/maplibre-gl.css  (node_modules/maplibre-gl/dist/*;
//     MapLibre 6 is ESM only, no default export, and loads its worker as a module from beside maplibre-gl.mjs)
//   /styles/default/style.json?key=TILES_KEY   (the style, its tiles, glyphs and sprite take the tiles key)
//   /Place/AutoComplete, /Place/Detail, /Direction, /trip with api_key=REST_KEY
// Page URL: /?key=TILES_KEY&api_key=REST_KEY (both optional when the server runs without keys).
import * as maplibregl from '/demo/maplibre-gl.mjs';

const params = new URLSearchParams(location.search);
const TILES_KEY_PARAM = 'key';
const tilesKey = params.get(TILES_KEY_PARAM) ?? '';
const restKey = params.get('api_key') ?? '';

/** Decodes a Google encoded polyline (precision 5) into [lng, lat] pairs. */
export function decodePolyline(str) {
  const out = [];
  let i = 0,
    lat = 0,
    lng = 0;
  while (i < str.length) {
    for (const which of [0, 1]) {
      let shift = 0,
        result = 0,
        b;
      do {
        b = str.charCodeAt(i++) - 63;
        result |= (b & 0x1f) << shift;
        shift += 5;
      } while (b >= 0x20 && i < str.length);
      const d = result & 1 ? ~(result >> 1) : result >> 1;
      if (which === 0) lat += d;
      else lng += d;
    }
    out.push([lng / 1e5, lat / 1e5]);
  }
  return out;
}

/** GET a REST endpoint of this origin with the REST key; resolves to the JSON body (errors included). */
async function rest(path, query) {
  const q = new URLSearchParams(query);
  if (restKey) q.set('api_key', restKey);
  const res = await fetch(`${path}?${q}`);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error_message || body.message || `HTTP ${res.status}`);
  return body;
}

/** The style with its root-relative URLs (`/tiles/…`) prefixed by `origin`; absolute ones are left as they are. */
function absoluteStyle(style, origin) {
  const abs = (u) => (typeof u === 'string' && u.startsWith('/') && !u.startsWith('//') ? origin + u : u);
  const sources = {};
  for (const [id, src] of Object.entries(style.sources ?? {}))
    sources[id] = {
      ...src,
      ...(src.url ? { url: abs(src.url) } : {}),
      ...(src.tiles ? { tiles: src.tiles.map(abs) } : {}),
    };
  const out = { ...style, sources };
  if (style.sprite) out.sprite = abs(style.sprite);
  if (style.glyphs) out.glyphs = abs(style.glyphs);
  return out;
}

const statusEl = document.getElementById('status');
function say(text, error = false) {
  statusEl.textContent = text;
  statusEl.classList.toggle('error', error);
}

const styleUrl = `/styles/default/style.json${tilesKey ? `?${TILES_KEY_PARAM}=${encodeURIComponent(tilesKey)}` : ''}`;
const map = new maplibregl.Map({
  container: 'map',
  style: styleUrl,
  // The style's URLs are relative to this origin unless the server was given --public-url; MapLibre needs the
  // sprite's (and takes every other's) absolute. Concatenated, not `new URL`: that would escape the {z} templates.
  transformStyle: (_previous, style) => absoluteStyle(style, location.origin),
  hash: true,
  // Pixel read-back (the browser test compares pixels with bando's static renderer) needs a preserved buffer.
  canvasContextAttributes: { preserveDrawingBuffer: true },
  // Add the tiles key to this origin's map requests when the style's URLs do not carry it already.
  transformRequest: (url) => {
    if (!tilesKey) return { url };
    const u = new URL(url, location.href);
    if (u.origin === location.origin && !u.searchParams.has(TILES_KEY_PARAM))
      u.searchParams.set(TILES_KEY_PARAM, tilesKey);
    return { url: u.href };
  },
});
map.addControl(new maplibregl.NavigationControl(), 'top-right');
map.addControl(new maplibregl.ScaleControl(), 'bottom-left');
// For tests and curious users: the map and a promise of its first idle.
window.bandoMap = map;
window.bandoReady = new Promise((resolve) => map.once('idle', () => resolve(true)));

const state = { mode: 'route', points: [], line: null };
const empty = { type: 'FeatureCollection', features: [] };

map.on('load', () => {
  map.addSource('route', { type: 'geojson', data: empty });
  map.addSource('stops', { type: 'geojson', data: empty });
  map.addLayer({
    id: 'route-casing',
    type: 'line',
    source: 'route',
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#ffffff', 'line-width': ['interpolate', ['linear'], ['zoom'], 12, 6, 18, 14] },
  });
  map.addLayer({
    id: 'route-line',
    type: 'line',
    source: 'route',
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#253494', 'line-width': ['interpolate', ['linear'], ['zoom'], 12, 3.5, 18, 9] },
  });
  map.addLayer({
    id: 'stops',
    type: 'symbol',
    source: 'stops',
    layout: {
      'icon-image': ['get', 'icon'],
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
      'icon-anchor': ['match', ['get', 'icon'], 'destination', 'bottom', 'center'],
      'text-field': ['get', 'label'],
      'text-font': ['Noto Sans Bold'],
      'text-size': 11,
      'text-allow-overlap': true,
    },
    paint: { 'text-color': '#ffffff' },
  });
});

function drawStops() {
  const features = state.points.map((p, i) => {
    let icon = 'waypoint',
      label = '';
    if (state.mode === 'route') icon = i === 0 ? 'origin' : 'destination';
    else label = String(p.order ?? i + 1);
    return { type: 'Feature', properties: { icon, label }, geometry: { type: 'Point', coordinates: [p.lng, p.lat] } };
  });
  map.getSource('stops')?.setData({ type: 'FeatureCollection', features });
}

function drawLine(coords) {
  map
    .getSource('route')
    ?.setData(
      coords ? { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: coords } } : empty,
    );
}

function clearAll(message) {
  state.points = [];
  drawStops();
  drawLine(null);
  say(
    message ??
      (state.mode === 'route'
        ? 'Nhấp lên bản đồ để chọn điểm đi, rồi điểm đến.'
        : 'Nhấp để thêm điểm dừng, rồi bấm "Tính lộ trình".'),
  );
}

const fmt = (p) => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;
const vehicle = () => document.getElementById('vehicle').value;

async function route() {
  const [a, b] = state.points;
  say('Đang tìm đường…');
  try {
    const body = await rest('/Direction', { origin: fmt(a), destination: fmt(b), vehicle: vehicle() });
    const r = body.routes?.[0];
    if (!r)
      throw new Error(body.status === 'NOT_FOUND' ? 'Không tìm thấy đường đi (NOT_FOUND)' : body.status || 'no route');
    const coords = decodePolyline(r.overview_polyline.points);
    drawLine(coords);
    const leg = r.legs?.[0];
    say(leg ? `${leg.distance?.text ?? ''} · ${leg.duration?.text ?? ''}` : 'OK');
    fit(coords);
  } catch (err) {
    drawLine(null);
    say(`Lỗi: ${err.message}`, true);
  }
}

async function trip() {
  if (state.points.length < 2) return say('Cần ít nhất 2 điểm dừng.', true);
  say('Đang tính lộ trình…');
  try {
    const body = await rest('/trip', { waypoints: state.points.map(fmt).join(';'), vehicle: vehicle() });
    const t = body.trips?.[0];
    if (!t) throw new Error(body.message || body.code || body.status || 'no trip');
    (body.waypoints ?? []).forEach((w, i) => {
      if (state.points[i]) state.points[i].order = w.waypoint_index + 1;
    });
    drawStops();
    const coords = decodePolyline(t.geometry);
    drawLine(coords);
    say(`Lộ trình: ${(t.distance / 1000).toFixed(1)} km · ${Math.round(t.duration / 60)} phút`);
    fit(coords);
  } catch (err) {
    drawLine(null);
    say(`Lỗi: ${err.message}`, true);
  }
}

function fit(coords) {
  if (coords.length < 2) return;
  const b = coords.reduce((bb, c) => bb.extend(c), new maplibregl.LngLatBounds(coords[0], coords[0]));
  map.fitBounds(b, { padding: 60, maxZoom: 17, duration: 400 });
}

function addPoint(p) {
  if (state.mode === 'route') {
    if (state.points.length >= 2) clearAll();
    state.points.push(p);
    drawStops();
    if (state.points.length === 2) route();
    else say('Chọn điểm đến.');
  } else {
    state.points.push(p);
    drawStops();
    say(`${state.points.length} điểm dừng. Bấm "Tính lộ trình".`);
  }
}

map.on('click', (e) => addPoint({ lat: e.lngLat.lat, lng: e.lngLat.lng }));

for (const radio of document.querySelectorAll('input[name=mode]')) {
  radio.addEventListener('change', () => {
    state.mode = radio.value;
    document.getElementById('trip').hidden = state.mode !== 'trip';
    clearAll();
  });
}
document.getElementById('trip').addEventListener('click', trip);
document.getElementById('clear').addEventListener('click', () => clearAll());
document.getElementById('vehicle').addEventListener('change', () => {
  if (state.mode === 'route' && state.points.length === 2) route();
});

// Search: autocomplete as the user types (debounced), place detail on choice, which becomes a route point.
const search = document.getElementById('search');
const list = document.getElementById('suggestions');
let timer = 0,
  seq = 0;
search.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    const input = search.value.trim();
    const mine = ++seq;
    if (!input) return void (list.innerHTML = '');
    try {
      const c = map.getCenter();
      const body = await rest('/Place/AutoComplete', {
        input,
        location: `${c.lat.toFixed(6)},${c.lng.toFixed(6)}`,
        limit: '8',
      });
      if (mine !== seq) return;
      list.innerHTML = '';
      for (const p of body.predictions ?? []) {
        const li = document.createElement('li');
        li.tabIndex = 0;
        li.setAttribute('role', 'option');
        const main = p.structured_formatting?.main_text ?? p.description;
        li.textContent = main;
        const small = document.createElement('small');
        small.textContent = p.structured_formatting?.secondary_text ?? '';
        li.append(small);
        const choose = () => choosePlace(p.place_id, main);
        li.addEventListener('click', choose);
        li.addEventListener('keydown', (ev) => {
          if (ev.key === 'Enter') choose();
        });
        list.append(li);
      }
      if (!list.children.length) say('Không có kết quả.');
    } catch (err) {
      say(`Lỗi tìm kiếm: ${err.message}`, true);
    }
  }, 200);
});

async function choosePlace(placeId, label) {
  list.innerHTML = '';
  search.value = label;
  try {
    const body = await rest('/Place/Detail', { place_id: placeId });
    const loc = body.result?.geometry?.location;
    if (!loc) throw new Error(body.status || 'no location');
    map.flyTo({ center: [loc.lng, loc.lat], zoom: Math.max(map.getZoom(), 16) });
    addPoint({ lat: loc.lat, lng: loc.lng });
  } catch (err) {
    say(`Lỗi: ${err.message}`, true);
  }
}
