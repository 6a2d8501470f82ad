import { beforeAll, describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import type { Endpoint } from '../src/route/search.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { WasmArcSearch } from '../src/route/wasm/search.js';
import { PlainDijkstra } from './helpers/route-reference.js';
import { testPack } from './helpers/packs.js';
import { mulberry32 as rng } from '../src/trip/rng.js';

beforeAll(async () => {
  expect(await loadWasmCore()).not.toBeNull();
});

for (const region of ['hanoi', 'dalat'] as const) {
  describe(`WebAssembly core on the real ${region} pack`, () => {
    const g = new RoadGraph(Pack.from(testPack(region)));
    const ts = new Router(g, null, { wasm: false });
    const wa = new Router(g);
    const rand = rng(7);
    const [minLat, maxLat, minLon, maxLon] = bounds(g);
    const point = (profile: number) => {
      for (;;) {
        const s = ts.snap(minLat + rand() * (maxLat - minLat), minLon + rand() * (maxLon - minLon), profile, 5000);
        if (s) return s;
      }
    };

    for (const [profile, weighting] of [
      [0, 'fastest'],
      [1, 'fastest'],
      [2, 'fastest'],
      [3, 'fastest'],
      [0, 'shortest'],
    ] as const) {
      it(`profile ${profile} ${weighting}: same paths, weights and settled counts as the TypeScript search`, () => {
        expect(ts.core(profile, weighting)).toBe('typescript');
        expect(wa.core(profile, weighting)).toBe('wasm');
        const tctx = ts.context(profile, weighting);
        const wctx = wa.context(profile, weighting);
        const wsearch = wa.searchOf(wctx);
        expect(wsearch).toBeInstanceOf(WasmArcSearch);
        const plain = new PlainDijkstra(g, profile, weighting);
        let routes = 0;
        for (let q = 0; q < 40; q++) {
          const a: Endpoint = point(profile);
          const b = q % 10 === 0 ? { ...point(profile), edge: a.edge, t: rand() } : point(profile);
          const p = tctx.search.route(a, b);
          const tSettled = tctx.search.settled;
          const w = wsearch.route(a, b);
          expect(w).toEqual(p);
          expect(wsearch.settled).toBe(tSettled);
          if (q < 8) {
            // Independent check: a plain Dijkstra gives the same weight.
            const want = plain.to(plain.run(a.edge, a.t), a, b.edge, b.t);
            if (want === Infinity) expect(w).toBeNull();
            else expect(w!.weight).toBeCloseTo(want, 6);
          }
          if (p) {
            routes++;
            expect(wa.measure(w!, wctx)).toEqual(ts.measure(p, tctx));
            // Leaving along one given arc (a continuation at an intermediate stop).
            const only = { ...a, only: p.arcs[0]! ^ (q & 1) };
            expect(wsearch.route(only, b)).toEqual(tctx.search.route(only, b));
          }
        }
        expect(routes).toBeGreaterThan(12);
      });

      it(`profile ${profile} ${weighting}: identical one-to-many tables`, () => {
        const origins = Array.from({ length: 6 }, () => point(profile));
        const dsts = Array.from({ length: 25 }, () => point(profile));
        dsts.push({ ...dsts[3]! }, { ...origins[0]!, t: Math.min(1, origins[0]!.t + 0.01) });
        const tt = ts.table(origins, dsts, profile, weighting);
        const wt = wa.table(origins, dsts, profile, weighting);
        expect(wt.weight).toEqual(tt.weight);
        expect(wt.dur).toEqual(tt.dur);
        expect(wt.dist).toEqual(tt.dist);
        expect(tt.weight.filter((x) => x < Infinity).length).toBeGreaterThan(40);
        // Matrix values are the direction values, both cores.
        const k = 2 * dsts.length + 7;
        const leg = wa.leg(origins[2]!, dsts[7]!, profile, weighting);
        expect(leg?.weight ?? Infinity).toBeCloseTo(wt.weight[k]!, 6);
        if (leg) expect(Math.round(leg.duration)).toBe(Math.round(wt.dur[k]!));
      });
    }
  });
}

function bounds(g: RoadGraph): [number, number, number, number] {
  let minLat = Infinity,
    maxLat = -Infinity,
    minLon = Infinity,
    maxLon = -Infinity;
  for (let v = 0; v < g.nodeCount; v++) {
    minLat = Math.min(minLat, g.lat(v));
    maxLat = Math.max(maxLat, g.lat(v));
    minLon = Math.min(minLon, g.lon(v));
    maxLon = Math.max(maxLon, g.lon(v));
  }
  return [minLat, maxLat, minLon, maxLon];
}
