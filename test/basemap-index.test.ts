/**
 * The basemap index (src/render/basemap-index.ts) against a straight scan of every feature's bounding box, on the
 * default (central Hanoi) pack, with its grid built first and with a fresh index (its first queries scan, the later
 * ones build and use the grid): boxes from a few streets to the whole pack, so that both of the query's ways of
 * ordering its hits (a sort of few hits, a pass over the stamps for many) and its pass over every feature are used,
 * each box queried again and then a small box inside it (a query must not be disturbed by the stamps of the last).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { Basemap } from '../src/map/basemap.js';
import { BASEMAP_KINDS } from '../src/map/kinds.js';
import type { Pack } from '../src/pack/reader.js';
import { BasemapIndex, basemapIndex, offerBasemapIndexes } from '../src/render/basemap-index.js';

let basemap: Basemap;
let pack: Pack;
beforeAll(async () => {
  const engine = await createEngine();
  basemap = engine.regions[0]!.basemap!;
  pack = engine.regions[0]!.pack;
});

/** Features whose bounding box meets `box` (degrees), by source layer, ascending: every feature tested. */
function scan(box: readonly [number, number, number, number]): Map<string, number[]> {
  const [w, s, e, n] = box.map((v) => v * 1e7);
  const out = new Map<string, number[]>();
  for (let f = 0; f < basemap.count; f++) {
    const b = basemap.bbox.subarray(4 * f, 4 * f + 4);
    if (b[0]! > e! || b[2]! < w! || b[1]! > n! || b[3]! < s!) continue;
    const layer = BASEMAP_KINDS[basemap.kind[f]!]!.layer;
    if (!out.has(layer)) out.set(layer, []);
    out.get(layer)!.push(f);
  }
  return out;
}

describe('basemap index', () => {
  it.each(['grid built first', 'fresh'])(
    'finds exactly the features a straight scan finds, in pack order, for boxes of every size (%s)',
    (kind) => {
      const index = new BasemapIndex(basemap);
      if (kind === 'grid built first') index.buildGrid();
      let [w0, s0, e0, n0] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let f = 0; f < basemap.count; f++) {
        w0 = Math.min(w0, basemap.bbox[4 * f]! * 1e-7);
        s0 = Math.min(s0, basemap.bbox[4 * f + 1]! * 1e-7);
        e0 = Math.max(e0, basemap.bbox[4 * f + 2]! * 1e-7);
        n0 = Math.max(n0, basemap.bbox[4 * f + 3]! * 1e-7);
      }
      const hits: number[] = [];
      // Sizes interleaved small and large; positions across the pack and partly outside it.
      for (const size of [0.01, 0.5, 0.03, 1.2, 0.1, 0.25, 0.005, 0.7])
        for (const [fx, fy] of [
          [0.5, 0.5],
          [0.1, 0.8],
          [0.9, 0.2],
          [-0.05, 0.5],
        ] as const) {
          const cx = w0 + fx * (e0 - w0),
            cy = s0 + fy * (n0 - s0);
          const box = [
            cx - (size * (e0 - w0)) / 2,
            cy - (size * (n0 - s0)) / 2,
            cx + (size * (e0 - w0)) / 2,
            cy + (size * (n0 - s0)) / 2,
          ] as const;
          // The box, the box again and a small box at its centre: each query after one that found the same features.
          const small = [cx - 0.002, cy - 0.002, cx + 0.002, cy + 0.002] as const;
          for (const b of [box, box, small]) {
            const got = new Map([...index.query(b)].map(([layer, list]) => [layer, [...list]]));
            expect(got).toEqual(scan(b));
            hits.push([...got.values()].reduce((k, l) => k + l.length, 0));
          }
        }
      // Both orderings are used: queries with few hits (sorted) and with many (read back from the stamps).
      expect(Math.min(...hits) * 16).toBeLessThan(basemap.count);
      expect(hits.filter((h) => h * 16 >= basemap.count && h < basemap.count / 2).length).toBeGreaterThan(0);
    },
  );

  it("uses another index's arrays offered for its pack when their lengths fit, else its own", () => {
    const other = new BasemapIndex(basemap);
    for (let p = 0; p < 50; p++) other.partSignificance(p);
    const misfit = { ...other.store, identity: 'other pack' };
    offerBasemapIndexes([misfit]);
    expect(basemapIndex(new Basemap(pack)).store.world).not.toBe(other.store.world);
    offerBasemapIndexes([other.store]);
    const index = basemapIndex(new Basemap(pack));
    expect(index.store).toBe(other.store);
    // Parts the other index filled are read as they are, the others filled into the same arrays.
    const fresh = new BasemapIndex(basemap);
    for (const p of [3, 49, 50, 400]) {
      const n = basemap.partFirst.at(p + 1) - basemap.partFirst.at(p);
      const [a, b] = [index.start(p), fresh.start(p)];
      expect(index.partSignificance(p).subarray(a, a + n)).toEqual(fresh.partSignificance(p).subarray(b, b + n));
      expect(index.points(p).subarray(2 * a, 2 * (a + n))).toEqual(fresh.points(p).subarray(2 * b, 2 * (b + n)));
    }
    expect(other.store.ready[400]).toBe(2);
    offerBasemapIndexes([{ ...other.store, ready: other.store.ready.subarray(1) }]);
    expect(basemapIndex(new Basemap(pack)).store.world).not.toBe(other.store.world);
  });
});
