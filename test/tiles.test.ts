import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { COORD_SCALE } from '../src/pack/format.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { BASEMAP_KINDS } from '../src/map/kinds.js';
import { parseTileCoords, TILE_EXTENT } from '../src/map/tiles/coords.js';
import { ByteLru } from '../src/map/tiles/lru.js';
import { MvtLayer, MvtType, mvtTile } from '../src/map/tiles/mvt-writer.js';
import { createTileSource, type TileSource } from '../src/map/tiles/source.js';
import { basemapIndex } from '../src/render/basemap-index.js';
import { KIND_MIN_ZOOM } from '../src/map/tiles/zooms.js';
import { testPack } from './helpers/packs.js';

/** Web Mercator world position of a point in tiles at zoom z (fractional), computed here independently. */
const worldTile = (lon: number, lat: number, z: number): [number, number] => {
  const r = (lat * Math.PI) / 180;
  return [((lon + 180) / 360) * 2 ** z, ((1 - Math.asinh(Math.tan(r)) / Math.PI) / 2) * 2 ** z];
};

let region: Region;
let source: TileSource;
const decode = (bytes: Uint8Array | null) => new VectorTile(new PbfReader(bytes!));

beforeAll(() => {
  region = new Region(Pack.from(testPack('hanoi')));
  source = createTileSource(region);
});

/** Brute force: per layer, the basemap features (index list) with at least one vertex strictly inside the tile. */
function featuresWithVertexIn(z: number, x: number, y: number): Map<string, number[]> {
  const map = region.basemap!;
  const out = new Map<string, number[]>();
  for (let f = 0; f < map.count; f++) {
    if (KIND_MIN_ZOOM[map.kind[f]!]! > z) continue;
    const coords = Array.from({ length: map.featPart.at(f + 1) - map.featPart.at(f) }, (_, k) =>
      Array.from(map.partCoords(map.featPart.at(f) + k)),
    ).flat();
    for (let j = 0; j < coords.length; j += 2) {
      const [tx, ty] = worldTile(coords[j]! / COORD_SCALE, coords[j + 1]! / COORD_SCALE, z);
      if (tx > x + 0.001 && tx < x + 0.999 && ty > y + 0.001 && ty < y + 0.999) {
        const layer = BASEMAP_KINDS[map.kind[f]!]!.layer;
        if (!out.has(layer)) out.set(layer, []);
        out.get(layer)!.push(f);
        break;
      }
    }
  }
  return out;
}

const features = (tile: VectorTile, layer: string): VectorTileFeature[] => {
  const l = tile.layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
};

// Hoàn Kiếm: around Phố Huế / Hàng Bài, with roads, buildings and POIs of the Hanoi pack.
const CENTRE = { lon: 105.8516, lat: 21.0175 };

describe('vector tiles on the Hanoi pack', () => {
  for (const z of [12, 14, 16]) {
    it(`z${z}: every layer with data in the tile is present, with valid classes, names and geometry`, () => {
      const [fx, fy] = worldTile(CENTRE.lon, CENTRE.lat, z);
      const x = Math.floor(fx),
        y = Math.floor(fy);
      const tile = decode(source.tile(z, x, y));
      const expected = featuresWithVertexIn(z, x, y);
      expect(expected.size).toBeGreaterThan(0);
      expect(expected.has('road')).toBe(true);
      for (const [layer, list] of expected) {
        const got = features(tile, layer);
        expect(got.length, layer).toBeGreaterThan(0);
        const l = tile.layers[layer]!;
        expect(l.extent).toBe(TILE_EXTENT);
        expect(l.version).toBe(2);
        // Named features with a vertex in the tile keep their name (on the road layer at every zoom tested).
        if (layer === 'road') {
          const names = new Set(got.map((f) => f.properties.name));
          for (const f of list) {
            const name = region.strings.get(region.basemap!.name[f]!);
            if (name) expect(names.has(name), name).toBe(true);
          }
        }
      }
      const classes = new Map<string, Set<string>>();
      for (const k of BASEMAP_KINDS)
        (classes.get(k.layer) ?? classes.set(k.layer, new Set()).get(k.layer)!).add(k.class);
      for (const name of Object.keys(tile.layers)) {
        for (const f of features(tile, name)) {
          expect(classes.get(name)?.has(f.properties.class as string), `${name}/${String(f.properties.class)}`).toBe(
            true,
          );
          for (const ring of f.loadGeometry()) {
            for (const p of ring) {
              expect(p.x).toBeGreaterThanOrEqual(-64);
              expect(p.x).toBeLessThanOrEqual(TILE_EXTENT + 64);
              expect(p.y).toBeGreaterThanOrEqual(-64);
              expect(p.y).toBeLessThanOrEqual(TILE_EXTENT + 64);
            }
          }
        }
      }
    });
  }

  it('a road named "Phố Huế" appears in the z14 and z16 tiles holding its vertices, at the projected positions', () => {
    const map = region.basemap!;
    let f = -1;
    for (let i = 0; i < map.count && f < 0; i++) if (region.strings.get(map.name[i]!) === 'Phố Huế') f = i;
    expect(f).toBeGreaterThanOrEqual(0);
    const first = map.partCoords(map.featPart.at(f));
    const lon = first[0]! / COORD_SCALE,
      lat = first[1]! / COORD_SCALE;
    for (const z of [14, 16]) {
      const [fx, fy] = worldTile(lon, lat, z);
      const tile = decode(source.tile(z, Math.floor(fx), Math.floor(fy)));
      const hue = features(tile, 'road').filter((r) => r.properties.name === 'Phố Huế');
      expect(hue.length).toBeGreaterThan(0);
      expect(hue.every((r) => r.type === 2 && r.properties.class === BASEMAP_KINDS[map.kind[f]!]!.class)).toBe(true);
      if (z === 16) {
        // No simplification at the top zoom: the vertex is in the tile, rounded to the tile grid.
        const px = (fx - Math.floor(fx)) * TILE_EXTENT,
          py = (fy - Math.floor(fy)) * TILE_EXTENT;
        const near = hue.some((r) =>
          r.loadGeometry().some((ring) => ring.some((p) => Math.abs(p.x - px) <= 1 && Math.abs(p.y - py) <= 1)),
        );
        expect(near).toBe(true);
      }
    }
  });

  it('carries named POIs from the places store at z16 with category', () => {
    const places = region.places!;
    let i = 0;
    while (i < places.count && !(places.kind[i] === 1 && region.strings.get(places.name[i]!))) i++;
    const [fx, fy] = worldTile(places.lon[i]! / COORD_SCALE, places.lat[i]! / COORD_SCALE, 16);
    const pois = features(decode(source.tile(16, Math.floor(fx), Math.floor(fy))), 'poi');
    const name = region.strings.get(places.name[i]!);
    const hit = pois.find((p) => p.properties.name === name);
    expect(hit?.type).toBe(1);
    expect(hit?.properties.category).toBe(region.strings.get(places.category.at(i)));
    // POIs are not written below their minimum zoom.
    const [gx, gy] = worldTile(places.lon[i]! / COORD_SCALE, places.lat[i]! / COORD_SCALE, 12);
    expect(decode(source.tile(12, Math.floor(gx), Math.floor(gy))).layers.poi).toBeUndefined();
  });

  it('buildings only from z13; a z12 tile has none', () => {
    const [fx, fy] = worldTile(CENTRE.lon, CENTRE.lat, 12);
    expect(decode(source.tile(12, Math.floor(fx), Math.floor(fy))).layers.building).toBeUndefined();
  });

  it('answers null for tiles far away and for invalid coordinates', () => {
    expect(source.tile(14, 0, 0)).toBeNull();
    const [fx, fy] = worldTile(-74.0, 40.7, 16); // New York
    expect(source.tile(16, Math.floor(fx), Math.floor(fy))).toBeNull();
    expect(source.tile(17, 0, 0)).toBeNull();
    expect(source.tile(3, 8, 0)).toBeNull();
    expect(source.tile(1.5, 0, 0)).toBeNull();
  });

  it('merges regions: the same pack twice doubles the features of a tile', () => {
    const [fx, fy] = worldTile(CENTRE.lon, CENTRE.lat, 15);
    const one = decode(source.tile(15, Math.floor(fx), Math.floor(fy)));
    const two = decode(createTileSource([region, region]).tile(15, Math.floor(fx), Math.floor(fy)));
    expect(two.layers.road!.length).toBe(2 * one.layers.road!.length);
  });

  it('caches tiles: the second request returns the same bytes; prepare builds the index without caching tiles', () => {
    const s = createTileSource(region);
    expect(s.stats().indexedRegions).toBe(0);
    s.prepare();
    expect(s.stats()).toEqual({ cachedTiles: 0, cachedBytes: 0, indexedRegions: 1 });
    const [fx, fy] = worldTile(CENTRE.lon, CENTRE.lat, 15);
    const a = s.tile(15, Math.floor(fx), Math.floor(fy));
    expect(s.tile(15, Math.floor(fx), Math.floor(fy))).toBe(a);
    expect(s.stats()).toEqual({ cachedTiles: 1, cachedBytes: a!.byteLength, indexedRegions: 1 });
  });
});

describe('tiles over parts projected on first use', () => {
  it('cuts the same bytes as over an index with every part projected and simplified first; prepare projects only the parts it draws', () => {
    // Two regions over the same pack bytes: each its own basemap and index.
    const bytes = testPack('hanoi');
    const eager = new Region(Pack.from(bytes));
    const lazy = new Region(Pack.from(bytes));
    const all = basemapIndex(eager.basemap!);
    for (let p = 0; p + 1 < eager.basemap!.partFirst.length; p++) all.partSignificance(p);
    const lazySource = createTileSource(lazy);
    lazySource.prepare();
    const ready = basemapIndex(lazy.basemap!).store.ready;
    expect(ready.some((r) => r === 0)).toBe(true);
    expect(ready.some((r) => r !== 0)).toBe(true);
    const eagerSource = createTileSource(eager);
    const [w, s, e, n] = eager.meta.bbox!;
    let compared = 0;
    for (const z of [12, 14, 16]) {
      const [x0, y0] = worldTile(w, n, z).map(Math.floor) as [number, number];
      const [x1, y1] = worldTile(e, s, z).map(Math.floor) as [number, number];
      // Every other tile at z16 (a few hundred), every tile below.
      for (let x = x0; x <= x1; x++)
        for (let y = y0; y <= y1; y++) {
          if (z === 16 && (x + y) % 2 === 1) continue;
          const want = eagerSource.tile(z, x, y);
          expect(lazySource.tile(z, x, y)).toEqual(want);
          if (want) compared++;
        }
    }
    expect(compared).toBeGreaterThan(100);
  });
});

describe('MvtLayer strings', () => {
  it('writes names, keys and values as TextEncoder does (marks, 4-byte characters, lone surrogates)', () => {
    const names = ['Hồ Hoàn Kiếm', 'Phố Huế', 'a', '', '路 🚲 x', 'broken \ud800 end', 'tail \udc00', '\ud83d'];
    const layer = new MvtLayer('tên lớp', TILE_EXTENT);
    names.forEach((name, i) => {
      layer.beginFeature(MvtType.point, { [`khóa ${i}`]: name });
      layer.moveTo(i, i);
      layer.endPart();
      layer.endFeature();
    });
    const tile = decode(mvtTile([layer.finish()]));
    const utf8 = new TextDecoder();
    const roundTrip = (s: string) => utf8.decode(new TextEncoder().encode(s));
    const l = tile.layers[roundTrip('tên lớp')]!;
    expect(l.length).toBe(names.length);
    names.forEach((name, i) => expect(l.feature(i).properties[`khóa ${i}`]).toBe(roundTrip(name)));
  });
});

describe('parseTileCoords', () => {
  it('accepts integer strings and numbers in range', () => {
    expect(parseTileCoords('14', '13009', '7213')).toEqual({ ok: true, z: 14, x: 13009, y: 7213 });
    expect(parseTileCoords(0, 0, 0)).toEqual({ ok: true, z: 0, x: 0, y: 0 });
  });
  it('names the bad parameter', () => {
    expect(parseTileCoords('17', '0', '0')).toMatchObject({ ok: false, error: expect.stringMatching(/^z must/) });
    expect(parseTileCoords('2', '4', '0')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^x must .* 0 to 3/),
    });
    expect(parseTileCoords('2', '1', '-1')).toMatchObject({ ok: false, error: expect.stringMatching(/^y must/) });
    expect(parseTileCoords('a', '1', '1')).toMatchObject({ ok: false, error: expect.stringMatching(/^z must/) });
  });
});

describe('ByteLru', () => {
  it('evicts least recently used entries beyond the byte and entry bounds', () => {
    const lru = new ByteLru<string>(3, 10);
    lru.set('a', new Uint8Array(4));
    lru.set('b', new Uint8Array(4));
    lru.get('a'); // a is now more recent than b
    lru.set('c', new Uint8Array(4)); // 12 bytes > 10: evicts b
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')?.length).toBe(4);
    expect(lru.byteSize).toBe(8);
    lru.set('d', null);
    lru.set('e', null); // 4 entries > 3: evicts the oldest (c)
    expect(lru.size).toBe(3);
    expect(lru.get('c')).toBeUndefined();
    expect(lru.get('d')).toBeNull();
  });
});
