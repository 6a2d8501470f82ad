/**
 * The basemap's stored Douglas-Peucker significances (section `map.sig`, written by the pack builder): on a pack built
 * from real data they are the significances of every point (simplify.ts's over the points projected here, part by
 * part), the basemap index uses them only when its sample of parts matches (a tampered section is computed again, a
 * section of the wrong length or type is refused), and the same pack without the section (as packs built before it)
 * draws the same static images and vector tiles, byte for byte.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { Basemap } from '../src/map/basemap.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { Pack, PackError } from '../src/pack/reader.js';
import { BasemapIndex } from '../src/render/basemap-index.js';
import { latToWorldY, lonToWorldX } from '../src/render/raster/mercator.js';
import { significance } from '../src/render/simplify.js';
import { rewrite } from './helpers/pack-rewrite.js';
import { testPack } from './helpers/packs.js';

let bytes: Uint8Array;
let without: Uint8Array;
let truth: Float32Array;
beforeAll(() => {
  bytes = testPack('monaco');
  without = rewrite(bytes, { 'map.sig': null });
  // Each part's significances from its points projected one by one (degrees as the engine reads them: 1e-7 units times
  // 1e-7, a division rounds differently).
  const map = new Basemap(Pack.from(without));
  const xy = new Float64Array(2 * map.lat.length);
  for (let i = 0; i < map.lat.length; i++) {
    xy[2 * i] = lonToWorldX(map.lon[i]! * 1e-7, 0, 1);
    xy[2 * i + 1] = latToWorldY(map.lat[i]! * 1e-7, 0, 1);
  }
  truth = new Float32Array(map.lat.length);
  for (let p = 0; p + 1 < map.partFirst.length; p++)
    significance(xy, map.partFirst[p]!, map.partFirst[p + 1]!, truth, new Float64Array(3));
}, 300_000);

/** Points whose significance in `values` is not the true one (bit for bit), and how many points were compared. */
function differing(values: ArrayLike<number>): { points: number; differ: number } {
  let differ = 0;
  for (let i = 0; i < truth.length; i++) if (!Object.is(values[i], truth[i])) differ++;
  return { points: values.length, differ };
}

/** Every part's significances as the index gives them, in point order. */
function indexed(index: BasemapIndex): Float32Array {
  const out = new Float32Array(index.basemap.lat.length);
  const first = index.basemap.partFirst;
  for (let p = 0; p + 1 < first.length; p++)
    out.set(index.partSignificance(p).subarray(first[p], first[p + 1]), first[p]);
  return out;
}

describe('stored basemap significances', () => {
  it('are the significances of every point of a pack built from real data', () => {
    const stored = new Basemap(Pack.from(bytes)).storedSignificance;
    expect(stored).toBeInstanceOf(Float32Array);
    expect(truth.length).toBeGreaterThan(10_000);
    expect(differing(stored!)).toEqual({ points: truth.length, differ: 0 });
  });

  it('are used by the index when its sample matches, and computed again when they were altered or are missing', () => {
    const map = new Basemap(Pack.from(bytes));
    expect(new BasemapIndex(map).partSignificance(0)).toBe(map.storedSignificance);
    // Every finite value changed: parts of three or more points differ, and the sample holds such parts.
    const altered = truth.map((v) => (Number.isFinite(v) ? v + 1 : v));
    const alteredMap = new Basemap(Pack.from(rewrite(bytes, { 'map.sig': altered })));
    const recomputed = new BasemapIndex(alteredMap);
    expect(recomputed.partSignificance(0)).not.toBe(alteredMap.storedSignificance);
    expect(differing(alteredMap.storedSignificance!).differ).toBeGreaterThan(truth.length / 4);
    expect(differing(indexed(recomputed))).toEqual({ points: truth.length, differ: 0 });
    expect(differing(indexed(new BasemapIndex(new Basemap(Pack.from(without)))))).toEqual({
      points: truth.length,
      differ: 0,
    });
  });

  it('refuses a section of the wrong length or element type as a corrupt basemap', () => {
    for (const sig of [truth.subarray(1), Float64Array.from(truth)])
      expect(() => new Basemap(Pack.from(rewrite(bytes, { 'map.sig': sig })))).toThrow(PackError);
  });

  it('draw the same static images and tiles as the same pack without them', async () => {
    const [a, b] = await Promise.all([createEngine({ packs: [bytes] }), createEngine({ packs: [without] })]);
    const routes = [
      ['43.7384,7.4246', '43.7311,7.4197'],
      ['43.7280,7.4140', '43.7490,7.4370'],
      ['43.7400,7.4270', '43.7420,7.4300'],
    ] as const;
    let images = 0;
    for (const [origin, destination] of routes)
      for (const [width, height, scale] of [
        [600, 400, 1],
        [400, 300, 2],
        [1024, 768, 1],
      ] as const) {
        const q = { origin, destination, width, height, scale };
        const [pa, pb] = [await a.staticRoute(q), await b.staticRoute(q)];
        expect(pa).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(pb as Uint8Array).equals(Buffer.from(pa as Uint8Array))).toBe(true);
        images++;
      }
    expect(images).toBe(9);
    const [ta, tb] = [createTileSource(a.regions), createTileSource(b.regions)];
    let tiles = 0;
    for (let z = 10; z <= 16; z++) {
      const n = 2 ** z;
      const x0 = Math.floor(((7.409 + 180) / 360) * n),
        x1 = Math.floor(((7.44 + 180) / 360) * n);
      const y = (lat: number) => Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
      for (let x = x0; x <= x1; x += Math.max(1, (x1 - x0) >> 2))
        for (let ty = y(43.752); ty <= y(43.725); ty += Math.max(1, (y(43.725) - y(43.752)) >> 2)) {
          const [da, db] = [ta.tile(z, x, ty), tb.tile(z, x, ty)];
          expect(db).toEqual(da);
          if (da && da.length > 0) tiles++;
        }
    }
    expect(tiles).toBeGreaterThan(20);
    await Promise.all([a.close(), b.close()]);
  }, 120_000);
});
