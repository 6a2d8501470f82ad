import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { ArcCosts, type Weighting } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import type { CchArcs } from '../src/route/cch/arcs.js';
import { buildCch } from '../src/route/cch/build.js';
import { CchMetric } from '../src/route/cch/customize.js';
import { customizationParts } from '../src/route/cch/parts.js';
import { CchQuery } from '../src/route/cch/query.js';
import { testPack } from './helpers/packs.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';

const g = new RoadGraph(Pack.from(testPack('hanoi')));
const { topo, states } = buildCch(g);

/** Every array of a metric's kept arcs each way, as plain arrays (weights compared bit for bit by toEqual). */
const arrays = (a: CchArcs) =>
  Object.fromEntries(Object.entries(a).map(([k, x]) => [k, Array.from(x as ArrayLike<number>)]));

describe('the parts a customization is cut into', () => {
  it('are one window and no top when the topology fits the budget', () => {
    const p = customizationParts(topo, topo.arcs);
    expect(p.topArcs).toBe(0);
    expect(p.windows).toEqual([0, topo.size]);
  });

  for (const budget of [500, 5000, 50000])
    it(`budget ${budget}: a top closed upwards over every vertex whose subtree has more arcs, windows of whole subtrees below it`, () => {
      const { top, topArcs, windows, widest } = customizationParts(topo, budget);
      const n = topo.size;
      const row = (v: number) => topo.upFirst[v + 1]! - topo.upFirst[v]!;
      // Each vertex's subtree arcs, straight from the parents, and its window.
      const sub = new Float64Array(n);
      for (let v = 0; v < n; v++) {
        sub[v]! += row(v);
        if (topo.parent[v]! >= 0) sub[topo.parent[v]!]! += sub[v]!;
      }
      const windowOf = new Int32Array(n).fill(-1);
      for (let i = 0; i < windows.length; i += 2) {
        expect(windows[i]!).toBeLessThan(windows[i + 1]!);
        if (i > 0) expect(windows[i]!).toBeGreaterThanOrEqual(windows[i - 1]!);
        for (let v = windows[i]!; v < windows[i + 1]!; v++) if (!top[v]) windowOf[v] = i / 2;
      }
      let arcsOnTop = 0,
        wide = 0;
      for (let v = 0; v < n; v++) {
        const p = topo.parent[v]!;
        expect(top[v]).toBe(sub[v]! > budget ? 1 : 0);
        if (top[v]) {
          arcsOnTop += row(v);
          if (p >= 0) expect(top[p]).toBe(1);
        } else {
          expect(windowOf[v]).toBeGreaterThanOrEqual(0);
          if (p >= 0 && !top[p]) expect(windowOf[p]).toBe(windowOf[v]);
        }
      }
      for (let i = 0; i < windows.length; i += 2)
        wide = Math.max(wide, topo.upFirst[windows[i + 1]!]! - topo.upFirst[windows[i]!]!);
      expect(topArcs).toBe(arcsOnTop);
      expect(topArcs).toBeGreaterThan(0);
      expect(widest).toBe(wide);
      expect(windows.length / 2).toBeGreaterThan(1);
    });
});

describe('a metric customized by parts', () => {
  for (const [p, weighting, avoid] of [
    [0, 'fastest', 0],
    [1, 'shortest', 0],
    [3, 'fastest', 7],
  ] as [number, Weighting, number][])
    it(`profile ${p} ${weighting}, avoid ${avoid}: the arcs, weights and middles of one piece, whatever the windows`, () => {
      const costs = new ArcCosts(g, p, weighting, undefined, undefined, avoid);
      const whole = new CchMetric(topo, states, costs);
      for (const budget of [500, 20000]) {
        const parts = new CchMetric(topo, states, costs, undefined, budget);
        expect(arrays(parts.up)).toEqual(arrays(whole.up));
        expect(arrays(parts.down)).toEqual(arrays(whole.down));
      }
    });

  it('routes as a plain Dijkstra does', () => {
    const router = new Router(g, null, { wasm: false });
    const costs = new ArcCosts(g, 0, 'fastest');
    const q = new CchQuery(new CchMetric(topo, states, costs, undefined, 2000));
    const plain = new PlainDijkstra(g, 0, 'fastest');
    const pts = randomEndpoints(g, router, 0, 42, 7);
    let routed = 0;
    for (const a of pts.slice(0, 2)) {
      const want = plain.toMany(a, pts.slice(2));
      pts.slice(2).forEach((b, j) => {
        const got = q.route(a, b);
        if (want[j] === Infinity) return expect(got).toBeNull();
        expect(got!.weight).toBeCloseTo(want[j]!, 6);
        expect(plain.pathOk(got!.arcs)).toBe(true);
        routed++;
      });
    }
    expect(routed).toBeGreaterThan(60);
  });
});
