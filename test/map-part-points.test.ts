/**
 * The basemap's points as varint steps (src/map/part-points.ts): every point reads back, a part's bytes that do not
 * hold its points are refused at load naming the section, and a pack storing the points whole (before) draws the
 * same tiles and finds the same buildings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { Basemap } from '../src/map/basemap.js';
import { encodePartPoints, readPart } from '../src/map/part-points.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { offsetSections, readOffsets } from '../src/pack/offsets.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { rewrite } from './helpers/pack-rewrite.js';
import { testPack } from './helpers/packs.js';

/** Tile x, y at zoom z of a point (degrees). */
const tileOf = (lon: number, lat: number, z: number): [number, number] => {
  const r = (lat * Math.PI) / 180;
  return [
    Math.floor(((lon + 180) / 360) * 2 ** z),
    Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z),
  ];
};

describe('basemap points as varint steps', () => {
  it('reads back every point of every part, whatever the coordinates and steps', () => {
    const coord = fc.integer({ min: -1_800_000_000, max: 1_800_000_000 });
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(coord, coord), { maxLength: 12 }), { maxLength: 8 }), (parts) => {
        const partFirst = Uint32Array.from([0, ...parts.map((_, k) => parts.slice(0, k + 1).flat().length)]);
        const flat = parts.flat();
        const lon = Int32Array.from(flat.map((p) => p[0])),
          lat = Int32Array.from(flat.map((p) => p[1]));
        const packed = encodePartPoints(lon, lat, partFirst);
        parts.forEach((part, p) => {
          const got: [number, number][] = [];
          expect(readPart(packed, p, part.length, (x, y) => got.push([x, y]))).toBe(true);
          expect(got).toEqual(part);
          // One point more or fewer than the part holds is not its bytes.
          expect(readPart(packed, p, part.length + 1, () => {})).toBe(false);
          if (part.length > 0) expect(readPart(packed, p, part.length - 1, () => {})).toBe(false);
        });
      }),
    );
  });

  it('takes about half the bytes of whole coordinates on a real pack', () => {
    const pack = Pack.from(testPack('hanoi'));
    const points = new Basemap(pack).pointCount;
    expect(points).toBeGreaterThan(10_000);
    const at = offsetSections('map.at');
    const bytes = pack.array('map.xy').byteLength + pack.array(at.base).byteLength + pack.array(at.low).byteLength;
    expect(bytes).toBeLessThan(0.7 * 8 * points);
  });

  it('reads a part whose bytes do not hold its points no further than its bytes (a corrupt pack opened without checksums)', () => {
    const bytes = testPack('hanoi');
    const xy = Pack.from(bytes).array<Uint8Array>('map.xy').slice();
    // Every number's last byte marked as going on: each part's numbers run past its bytes.
    for (let k = 0; k < xy.length; k++) xy[k] = xy[k]! | 128;
    const corrupt = rewrite(bytes, { 'map.xy': xy });
    const region = new Region(Pack.from(corrupt, { verify: false }));
    const map = region.basemap!;
    const packed = {
      xy,
      at: readOffsets(Pack.from(corrupt), 'map.at'),
      origin: Pack.from(corrupt).array<Int32Array>('map.origin'),
    };
    for (let p = 0; p + 1 < map.partFirst.length; p += 97) {
      const count = map.partFirst.at(p + 1) - map.partFirst.at(p);
      expect(readPart(packed, p, count, () => {})).toBe(false);
      expect(map.partCoords(p).length).toBe(2 * count);
    }
    const source = createTileSource(region);
    const [x, y] = tileOf(region.graph.nodeLon[0]! / 1e7, region.graph.nodeLat[0]! / 1e7, 15);
    expect(() => source.tile(15, x, y)).not.toThrow();
  });

  it('a pack storing the points whole (before) draws the same tiles and finds the same buildings', async () => {
    const bytes = testPack('hanoi');
    const map = new Basemap(Pack.from(bytes));
    const lon: number[] = [],
      lat: number[] = [];
    for (let p = 0; p + 1 < map.partFirst.length; p++) {
      const c = map.partCoords(p);
      for (let k = 0; k < c.length; k += 2) (lon.push(c[k]!), lat.push(c[k + 1]!));
    }
    const whole = rewrite(bytes, {
      'map.xy': null,
      'map.at': null,
      'map.origin': null,
      'map.lat': Int32Array.from(lat),
      'map.lon': Int32Array.from(lon),
    });
    const [a, b] = [bytes, whole].map((x) => new Region(Pack.from(x)));
    const [ta, tb] = [a!, b!].map((r) => createTileSource(r));
    let drawn = 0;
    for (let k = 0; k < 40; k++) {
      const node = Math.floor((k * a!.graph.nodeCount) / 40);
      const at = [a!.graph.nodeLon[node]! / 1e7, a!.graph.nodeLat[node]! / 1e7] as const;
      for (const z of [12, 15, 17]) {
        const [x, y] = tileOf(at[0], at[1], z);
        const tile = ta!.tile(z, x, y);
        if (tile && tile.length > 0) drawn++;
        expect(tb!.tile(z, x, y)).toEqual(tile);
      }
    }
    expect(drawn).toBeGreaterThan(60);
    const [ea, eb] = await Promise.all([bytes, whole].map((x) => createEngine({ packs: [x] })));
    for (let k = 0; k < 60; k++) {
      const node = Math.floor((k * a!.graph.nodeCount) / 60);
      const latlng = `${(a!.graph.nodeLat[node]! / 1e7 + 0.0002).toFixed(6)},${(a!.graph.nodeLon[node]! / 1e7).toFixed(6)}`;
      const strip = (r: unknown) => JSON.stringify(r, (key, v) => (key.startsWith('executed_time') ? undefined : v));
      expect(strip(eb!.geocode({ latlng }))).toBe(strip(ea!.geocode({ latlng })));
    }
  }, 60_000);
});
