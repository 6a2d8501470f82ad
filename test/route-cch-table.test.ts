import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { ArcCosts, type Weighting } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { PROFILE_COUNT } from '../src/route/profiles.js';
import { Router, type CostTable } from '../src/route/router.js';
import type { Endpoint } from '../src/route/search.js';
import { buildCch, type Cch } from '../src/route/cch/build.js';
import { CchMetric } from '../src/route/cch/customize.js';
import { CchQuery } from '../src/route/cch/query.js';
import { CchTable } from '../src/route/cch/table.js';
import { TableTrees } from '../src/route/cch/trees.js';
import { mulberry32 as rng } from '../src/trip/rng.js';
import { testPack } from './helpers/packs.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';
import { edgeMids, viaWayGrid } from './helpers/via-way-grid.js';

const tableOf = (cells: number): CostTable => ({
  weight: new Float64Array(cells).fill(-1),
  dur: new Float64Array(cells).fill(-1),
  dist: new Float64Array(cells).fill(-1),
});

/** Relative difference, 0 when both are the same (Infinity included). */
const rel = (a: number, b: number) => (a === b ? 0 : Math.abs(a - b) / Math.max(1, Math.abs(b)));

/**
 * Checks a CCH table of one metric cell by cell: the weight is CchQuery.route's, bit for bit, and a plain Dijkstra's
 * (which adds the same costs in path order, the CCH along its shortcuts: float addition is not associative, so
 * 1e-9 relative); seconds and metres are Router.measure's of the route's path (the table adds them along its
 * shortcuts: 1e-9 relative); Infinity in all three where there is no route; the route CchQuery.routeIn unpacks
 * from the walks the table kept is CchQuery.route's, arc for arc. Returns the cells with a route and those without.
 */
function checkTable(
  g: RoadGraph,
  router: Router,
  cch: Cch,
  p: number,
  weighting: Weighting,
  origins: Endpoint[],
  dests: Endpoint[],
  plain?: PlainDijkstra,
): { found: number; none: number } {
  const metric = new CchMetric(cch.topo, cch.states, new ArcCosts(g, p, weighting));
  const q = new CchQuery(metric);
  const out = tableOf(origins.length * dests.length);
  const trees = new TableTrees(origins.length, dests.length);
  new CchTable(metric).table(origins, dests, out, trees);
  const ctx = router.context(p, weighting);
  let found = 0,
    none = 0;
  origins.forEach((a, i) => {
    // Only free sources: the reference search has no required first arc (`only` is checked against the route).
    const dist = plain && a.only === undefined ? plain.run(a.edge, a.t) : null;
    dests.forEach((b, j) => {
      const k = i * dests.length + j;
      const path = q.route(a, b);
      expect(q.routeIn(trees, i, j, a, b, out.weight[k]!)).toEqual(path);
      if (dist) expect(rel(out.weight[k]!, plain!.to(dist, a, b.edge, b.t))).toBeLessThan(1e-9);
      if (!path) {
        none++;
        expect([out.weight[k], out.dur[k], out.dist[k]]).toEqual([Infinity, Infinity, Infinity]);
        return;
      }
      found++;
      expect(out.weight[k]).toBe(path.weight);
      const leg = router.measure(path, ctx);
      expect(rel(out.dur[k]!, leg.duration)).toBeLessThan(1e-9);
      expect(rel(out.dist[k]!, leg.distance)).toBeLessThan(1e-9);
    });
  });
  return { found, none };
}

describe('CCH tables through via-way restrictions (shared copy states)', () => {
  const pack = viaWayGrid();
  const g = new RoadGraph(pack);
  const router = new Router(g, pack);

  it('every edge mid-point to every other and to points on its own edge, every vehicle', () => {
    const cch = buildCch(g);
    const mids = edgeMids(g);
    const dests = [...mids, ...mids.map((m) => ({ ...m, t: 0.2 })), ...mids.map((m) => ({ ...m, t: 0.8 }))];
    for (let p = 0; p < PROFILE_COUNT; p++) {
      const { found } = checkTable(g, router, cch, p, 'fastest', mids, dests, new PlainDijkstra(g, p, 'fastest'));
      expect(found).toBeGreaterThan(mids.length * mids.length);
    }
  });
});

for (const region of ['hanoi', 'dalat'] as const) {
  describe(`CCH tables on the real ${region} pack`, () => {
    const pack = Pack.from(testPack(region));
    const g = new RoadGraph(pack);
    const router = new Router(g, pack);
    let cch: Cch | null = null;
    const cchOf = () => (cch ??= buildCch(g));

    for (let p = 0; p < PROFILE_COUNT; p++)
      for (const weighting of ['fastest', 'shortest'] as const)
        it(`profile ${p} ${weighting}: the plain Dijkstra's weights, the route's seconds and metres`, () => {
          const ends = randomEndpoints(g, router, p, 24, 300 + p);
          const rand = rng(17 + p);
          const origins = ends.slice(0, 6);
          // Points on the origins' own edges (ahead and behind) and an origin itself.
          const dests = [...ends.slice(6), ...origins.slice(0, 3).map((o) => ({ ...o, t: rand() })), origins[3]!];
          // A source that must leave along one arc of its edge (no U-turn at a stop), and one that must leave along
          // the closed arc of a one-way edge (it reaches nothing).
          origins.push({ ...origins[4]!, only: 2 * origins[4]!.edge + 1 });
          const w = new ArcCosts(g, p, weighting).weight;
          const oneWay = Array.from({ length: g.edgeCount }, (_, e) => e).find(
            (e) => (w[2 * e] === Infinity) !== (w[2 * e + 1] === Infinity),
          )!;
          origins.push({ ...edgeMids(g)[oneWay]!, only: w[2 * oneWay] === Infinity ? 2 * oneWay : 2 * oneWay + 1 });
          // An edge the vehicle cannot drive either way, where there is one: nothing reaches it, it reaches nothing.
          const closed = Array.from({ length: g.edgeCount }, (_, e) => e).find(
            (e) => w[2 * e] === Infinity && w[2 * e + 1] === Infinity,
          );
          if (closed !== undefined) {
            origins.push(edgeMids(g)[closed]!);
            dests.push(edgeMids(g)[closed]!);
          }
          const plain = new PlainDijkstra(g, p, weighting);
          const { found, none } = checkTable(g, router, cchOf(), p, weighting, origins, dests, plain);
          expect(found).toBeGreaterThan(80);
          const unreachable = closed === undefined ? dests.length : 2 * dests.length + origins.length - 2;
          expect(none).toBeGreaterThanOrEqual(unreachable);
        });

    it('empty origin or destination lists give empty tables', () => {
      const metric = new CchMetric(cchOf().topo, cchOf().states, new ArcCosts(g, 0, 'fastest'));
      const t = new CchTable(metric);
      const ends = randomEndpoints(g, router, 0, 3, 9);
      for (const [o, d] of [
        [[], ends],
        [ends, []],
        [[], []],
      ] as const) {
        const out = tableOf(0);
        t.table(o, d, out);
        expect(out.weight.length + out.dur.length + out.dist.length).toBe(0);
      }
      // The table still answers afterwards.
      const out = tableOf(9);
      t.table(ends, ends, out);
      for (let i = 0; i < 3; i++) expect(out.weight[4 * i]).toBe(0);
    });
  });
}
