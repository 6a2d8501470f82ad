/**
 * The customization's triangle loops in the WebAssembly core (wasm/src/cch.rs) against the TypeScript loops they
 * mirror (src/route/cch/customize.ts, perfect.ts): the same kept arcs, heads, middle vertices and weights, bit for
 * bit, for vehicles, weightings and avoid masks on real packs.
 */
import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { AVOID_KINDS } from '../src/route/avoid.js';
import { buildCch } from '../src/route/cch/build.js';
import { CchMetric } from '../src/route/cch/customize.js';
import { ArcCosts } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { testPack } from './helpers/packs.js';

/** Every array of both directions' kept arcs, as plain arrays (Object.is per element: -0, NaN and Infinity count). */
const arrays = (m: CchMetric) =>
  (['up', 'down'] as const).flatMap((d) => (['first', 'head', 'weight', 'mid'] as const).map((f) => m[d][f]));
const identical = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.prototype.every.call(a, (x: number, i: number) => Object.is(x, b[i]));

describe('CCH customization in the WebAssembly core', () => {
  for (const region of ['hanoi', 'dalat'] as const)
    it(`${region}: keeps the same arcs with the same weights as the TypeScript loops`, async () => {
      const module = await loadWasmCore();
      expect(module).not.toBeNull();
      const g = new RoadGraph(Pack.from(testPack(region)));
      const { topo, states } = buildCch(g);
      const highways = AVOID_KINDS.find((k) => k.name === 'highways')!.bit;
      for (const [profile, weighting, avoid] of [
        [0, 'fastest', 0],
        [1, 'shortest', 0],
        [3, 'fastest', 0],
        [0, 'fastest', highways],
      ] as const) {
        const costs = new ArcCosts(g, profile, weighting, undefined, undefined, avoid);
        const ts = arrays(new CchMetric(topo, states, costs));
        const wasm = arrays(new CchMetric(topo, states, costs, { core: module }));
        expect(ts.map((a, i) => identical(a, wasm[i]!))).toEqual(ts.map(() => true));
        // Not vacuous: shortcuts were kept, and some weights made through middle vertices.
        expect(ts[1]!.length).toBeGreaterThan(topo.size / 4);
        expect(Array.from(ts[3]!).some((mid) => mid !== 0xffffffff)).toBe(true);
      }
    });
});
