import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine.js';
import { createFetchHandler, type FetchHandlerOptions } from '../src/adapters/http/handler.js';
import { acceptsGzip } from '../src/adapters/http/gzip.js';
import type { ApiKey } from '../src/adapters/http/keys.js';
import { createMapResources } from '../src/adapters/http/map-resources.js';
import { MemoryUsageStore } from '../src/adapters/http/usage.js';
import { BASEMAP_KINDS } from '../src/map/kinds.js';
import { tileBounds } from '../src/map/tiles/coords.js';
import { TILE_LAYERS } from '../src/map/tiles/features.js';
import { createTileSource, type TileSource } from '../src/map/tiles/source.js';
import { validateStyle } from '../src/style/validate-style.js';

const KEYS: ApiKey[] = [
  { key: 'rest' },
  { key: 'map', kind: 'tiles' },
  { key: 'sub', kind: 'tiles', restrictions: ['https://*.example.com/*'] },
  { key: 'two', kind: 'tiles', monthlyQuota: 2 },
];

let engine: Engine;
let source: TileSource;
beforeAll(async () => {
  engine = await createEngine();
  source = createTileSource(engine.regions);
});

function handler(opts: FetchHandlerOptions = {}) {
  return createFetchHandler(engine, { keys: KEYS, resources: createMapResources(source), ...opts });
}
type Handler = ReturnType<typeof handler>;
async function get(h: Handler, path: string, headers: Record<string, string> = {}) {
  const res = await h(new Request(`https://maps.test${path}`, { headers }));
  const bytes = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const body =
    type.startsWith('application/json') && !res.headers.get('content-encoding')
      ? JSON.parse(new TextDecoder().decode(bytes))
      : null;
  return { status: res.status, headers: res.headers, bytes, body };
}

/** Tile x, y containing a point at zoom z (Web Mercator, computed here). */
function tileAt(lon: number, lat: number, z: number): [number, number] {
  const r = (lat * Math.PI) / 180;
  return [Math.floor(((lon + 180) / 360) * 2 ** z), Math.floor(((1 - Math.asinh(Math.tan(r)) / Math.PI) / 2) * 2 ** z)];
}
/** Hoàn Kiếm lake, central Hanoi. */
const LAKE: [number, number] = [105.8522, 21.0285];

describe('tiles key semantics', () => {
  it('a REST key on map resources is unauthorised, a tiles key on REST endpoints too; missing and unknown keys', async () => {
    const h = handler();
    const [x, y] = tileAt(...LAKE, 14);
    for (const path of [
      '/styles/default/style.json',
      `/tiles/14/${x}/${y}.pbf`,
      '/fonts/Noto%20Sans%20Regular/0-255.pbf',
      '/sprites/default.json',
    ]) {
      expect((await get(h, `${path}?key=rest`)).body, path).toMatchObject({ status: 'API_KEY_UNAUTHORIZED' });
      expect((await get(h, `${path}?api_key=rest`)).status, path).toBe(403);
      expect((await get(h, path)).body, path).toMatchObject({ status: 'API_KEY_MISSING' });
      expect((await get(h, `${path}?key=nope`)).body, path).toMatchObject({ status: 'API_KEY_INVALID' });
      expect((await get(h, `${path}?key=map`)).status, path).toBe(200);
    }
    expect(await get(h, `/Direction?origin=21.0285,105.8522&destination=21.0243,105.8575&api_key=map`)).toMatchObject({
      status: 403,
      body: { status: 'API_KEY_UNAUTHORIZED' },
    });
  });

  it('URL restrictions with a subdomain wildcard (Origin, else Referer)', async () => {
    const h = handler();
    const style = '/styles/default/style.json?key=sub';
    expect((await get(h, style, { origin: 'https://app.example.com' })).status).toBe(200);
    expect((await get(h, style, { referer: 'https://a.b.example.com/map/page.html' })).status).toBe(200);
    expect((await get(h, style, { origin: 'https://example.com' })).body).toMatchObject({
      status: 'API_KEY_UNAUTHORIZED',
    });
    expect((await get(h, style, { origin: 'http://app.example.com' })).status).toBe(403);
    expect((await get(h, style, { origin: 'https://app.example.com.evil.test' })).status).toBe(403);
    expect((await get(h, style)).status).toBe(403);
  });

  it('the demo page and its files need no key and are not counted', async () => {
    const usage = new MemoryUsageStore();
    const h = handler({ usage });
    const page = await get(h, '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(new TextDecoder().decode(page.bytes)).toContain('/demo/map.js');
    const lib = await get(h, '/demo/maplibre-gl.mjs');
    expect(
      Buffer.from(lib.bytes).equals(
        readFileSync(new URL('../node_modules/maplibre-gl/dist/maplibre-gl.mjs', import.meta.url)),
      ),
    ).toBe(true);
    for (const p of ['/demo/maplibre-gl-worker.mjs', '/demo/maplibre-gl.css', '/demo/map.js'])
      expect((await get(h, p)).status, p).toBe(200);
    expect((await get(h, '/demo/other.js')).status).toBe(404);
    expect(usage.report()).toEqual({});
  });
});

describe('map loads', () => {
  it('each style request is one map load; tiles, glyphs and sprites are free', async () => {
    const usage = new MemoryUsageStore();
    const now = Date.UTC(2025, 8, 15);
    const h = handler({ usage, now: () => now });
    const [x, y] = tileAt(...LAKE, 15);
    await get(h, '/styles/default/style.json?key=map');
    for (let i = 0; i < 4; i++) await get(h, `/tiles/15/${x + i}/${y}.pbf?key=map`);
    await get(h, '/fonts/Noto%20Sans%20Bold/256-511.pbf?key=map');
    await get(h, '/sprites/default@2x.png?key=map');
    await get(h, '/styles/default/style.json?key=map');
    expect(usage.report().map!['2025-09']).toEqual({
      requests: { style: 2, tiles: 4, glyphs: 1, sprites: 1 },
      sessions: 0,
      billable: 2,
    });
  });

  it('over the monthly quota of map loads a style gets 429; the maps already loaded keep their tiles', async () => {
    const usage = new MemoryUsageStore();
    let now = Date.UTC(2025, 8, 30, 23);
    const h = handler({ usage, now: () => now });
    const [x, y] = tileAt(...LAKE, 14);
    expect((await get(h, '/styles/default/style.json?key=two')).status).toBe(200);
    expect((await get(h, '/styles/default/style.json?key=two')).status).toBe(200);
    expect(await get(h, '/styles/default/style.json?key=two')).toMatchObject({
      status: 429,
      body: { status: 'OVER_RATE_LIMIT' },
    });
    expect((await get(h, `/tiles/14/${x}/${y}.pbf?key=two`)).status).toBe(200);
    now = Date.UTC(2025, 9, 1, 1); // a new month
    expect((await get(h, '/styles/default/style.json?key=two')).status).toBe(200);
    expect(usage.report().two!['2025-09']!.billable).toBe(2);
  });
});

describe('resources', () => {
  it('the style points at the public URL and base path with the tiles key, and passes validateStyle', async () => {
    const h = createFetchHandler(engine, {
      keys: KEYS,
      resources: createMapResources(source, { publicUrl: 'https://maps.test' }),
      basePath: '/v1',
    });
    // Without a public URL the style's URLs are relative to the root (never taken from the request's Host).
    const relative = await get(handler({ basePath: '/v1' }), '/v1/styles/default/style.json?key=map');
    expect(relative.body.sources.bando.tiles).toEqual(['/v1/tiles/{z}/{x}/{y}.pbf?key=map']);
    const { body, headers } = await get(h, '/v1/styles/default/style.json?key=map');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body.sources.bando.tiles).toEqual(['https://maps.test/v1/tiles/{z}/{x}/{y}.pbf?key=map']);
    expect(body.glyphs).toBe('https://maps.test/v1/fonts/{fontstack}/{range}.pbf?key=map');
    expect(String(body.sprite)).toMatch(/^https:\/\/maps\.test\/v1\/sprites\/default(\?key=map)?$/);
    expect(validateStyle(body).errors).toEqual([]);
    // Every URL of the style answers through the same handler.
    const tile = body.sources.bando.tiles[0]
      .replace('{z}', '14')
      .replace('{x}', String(tileAt(...LAKE, 14)[0]))
      .replace('{y}', String(tileAt(...LAKE, 14)[1]));
    expect((await h(new Request(tile))).status).toBe(200);
    const font = body.glyphs
      .replace('{fontstack}', encodeURIComponent('Noto Sans Regular'))
      .replace('{range}', '0-255');
    expect((await h(new Request(font))).status).toBe(200);
    const sprite = new URL(body.sprite);
    sprite.pathname += '@2x.json';
    expect((await h(new Request(sprite))).status).toBe(200);
  });

  it('gzip when Accept-Encoding allows it; the same MVT bytes as the tile source; empty tiles are empty 200s', async () => {
    const h = handler();
    const [x, y] = tileAt(...LAKE, 15);
    const plain = await get(h, `/tiles/15/${x}/${y}.pbf?key=map`);
    const zipped = await get(h, `/tiles/15/${x}/${y}.pbf?key=map`, { 'accept-encoding': 'br, gzip;q=0.8' });
    const refused = await get(h, `/tiles/15/${x}/${y}.pbf?key=map`, { 'accept-encoding': 'gzip;q=0, br' });
    const want = source.tile(15, x, y)!;
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(plain.bytes).equals(Buffer.from(want))).toBe(true);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.bytes.length).toBeLessThan(want.length);
    expect(gunzipSync(zipped.bytes).equals(Buffer.from(want))).toBe(true);
    expect(refused.headers.get('content-encoding')).toBeNull();
    for (const r of [plain, zipped]) {
      expect(r.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      expect(r.headers.get('vary')).toBe('accept-encoding');
    }
    // Open sea far from Vietnam: no feature, an empty 200 that decodes as a tile without layers.
    const sea = await get(h, '/tiles/14/100/100.pbf?key=map', { 'accept-encoding': 'gzip' });
    expect([sea.status, sea.bytes.length, sea.headers.get('content-encoding')]).toEqual([200, 0, null]);
    expect(Object.keys(new VectorTile(new PbfReader(sea.bytes)).layers)).toEqual([]);
  });

  it('Accept-Encoding parsing', () => {
    expect([acceptsGzip(null), acceptsGzip('gzip'), acceptsGzip('deflate, gzip;q=1.0'), acceptsGzip('GZIP')]).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect([
      acceptsGzip('gzip;q=0'),
      acceptsGzip('br'),
      acceptsGzip('*'),
      acceptsGzip('*;q=0'),
      acceptsGzip('gzip;q=0, *'),
    ]).toEqual([false, false, true, false, false]);
  });

  it('bad resource URLs answer 400 / 404 naming the part', async () => {
    const h = handler();
    expect(await get(h, '/tiles/17/0/0.pbf?key=map')).toMatchObject({ status: 400, body: { status: 'BAD_REQUEST' } });
    expect((await get(h, '/tiles/14/99999/1.pbf?key=map')).body.error_message).toMatch(/^x must be/);
    expect((await get(h, '/tiles/a/1/1.pbf?key=map')).body.error_message).toMatch(/^z must be/);
    expect((await get(h, '/fonts/Noto%20Sans%20Regular/0-300.pbf?key=map')).body.error_message).toMatch(/^range/);
    expect((await get(h, '/fonts/%E0%A4%A/0-255.pbf?key=map')).status).toBe(400);
    expect(await get(h, '/sprites/other.json?key=map')).toMatchObject({ status: 404, body: { status: 'NOT_FOUND' } });
    expect((await get(h, '/sprites/default.svg?key=map')).status).toBe(404);
  });
});

describe('served tiles decoded with @mapbox/vector-tile', () => {
  /** Brute force over the pack: names of the features of `layer` whose bounding box meets the tile (with buffer). */
  function packNames(layer: string, z: number, x: number, y: number): Set<string> {
    const region = engine.regions[0]!;
    const b = region.basemap!;
    const [w, s, e, n] = tileBounds(z, x, y, 64).map((v) => v * 1e7);
    const names = new Set<string>();
    for (let f = 0; f < b.count; f++) {
      if (BASEMAP_KINDS[b.kind[f]!]!.layer !== layer) continue;
      if (b.bbox[4 * f]! > e! || b.bbox[4 * f + 2]! < w! || b.bbox[4 * f + 1]! > n! || b.bbox[4 * f + 3]! < s!)
        continue;
      const name = region.strings.get(b.name[f]!);
      if (name) names.add(name);
    }
    return names;
  }

  for (const z of [12, 14, 16]) {
    it(`zoom ${z}: layers, features inside the tile, road names that the pack has there`, async () => {
      const h = handler();
      const [x, y] = tileAt(...LAKE, z);
      const res = await get(h, `/tiles/${z}/${x}/${y}.pbf?key=map`, { 'accept-encoding': 'gzip' });
      const tile = new VectorTile(new PbfReader(gunzipSync(res.bytes)));
      const layers = Object.keys(tile.layers);
      expect(layers).toContain('road');
      for (const l of layers) expect(TILE_LAYERS).toContain(l);
      const [w, s, e, n] = tileBounds(z, x, y, 64);
      const roads = tile.layers.road!;
      expect(roads.length).toBeGreaterThan(10);
      const names = new Set<string>();
      for (let i = 0; i < roads.length; i++) {
        const f = roads.feature(i);
        expect(f.type).toBe(2);
        if (typeof f.properties.name === 'string') names.add(f.properties.name);
        const g = f.toGeoJSON(x, y, z).geometry as { coordinates: number[][] | number[][][] };
        const pts =
          typeof (g.coordinates[0] as number[])[0] === 'number'
            ? (g.coordinates as number[][])
            : (g.coordinates as number[][][]).flat();
        for (const [lon, lat] of pts) {
          expect(lon!).toBeGreaterThanOrEqual(w - 1e-9);
          expect(lon!).toBeLessThanOrEqual(e + 1e-9);
          expect(lat!).toBeGreaterThanOrEqual(s - 1e-9);
          expect(lat!).toBeLessThanOrEqual(n + 1e-9);
        }
      }
      expect(names.size).toBeGreaterThan(0);
      const inPack = packNames('road', z, x, y);
      for (const name of names) expect(inPack.has(name), name).toBe(true);
      if (z >= 14) expect(names.has('Phố Đinh Tiên Hoàng')).toBe(true); // the street along the lake's east shore
    });
  }
});

describe('bando stats', () => {
  it('shows the map loads a tiles key made (from a real usage file written by serve)', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { FileUsageStore } = await import('../src/adapters/http/usage-file.js');
    const { statsCommand } = await import('../src/adapters/cli/stats.js');
    const dir = mkdtempSync(join(tmpdir(), 'bando-webmap-stats-'));
    const file = join(dir, 'keys.usage.json');
    const usage = FileUsageStore.open(file);
    const h = handler({ usage, now: () => Date.UTC(2025, 10, 3) });
    await get(h, '/styles/default/style.json?key=map');
    await get(h, '/styles/default/style.json?key=map');
    await get(h, `/tiles/14/${tileAt(...LAKE, 14).join('/')}.pbf?key=map`);
    usage.close?.();
    let out = '';
    const write = process.stdout.write;
    process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
    try {
      await statsCommand.run({ positional: [], params: {}, flags: new Map([['usage', [file]]]) });
    } finally {
      process.stdout.write = write;
      rmSync(dir, { recursive: true, force: true });
    }
    expect(out).toContain('map  2025-11  requests=3  billable=2  autocomplete_sessions=0  map_loads=2');
  });
});
