import { describe, expect, it } from 'vitest';
import { direction } from '../src/api/direction.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { Components, strongComponents } from '../src/route/components.js';
import type { RoadGraph } from '../src/route/graph.js';
import { Router, routerOf } from '../src/route/router.js';
import { DEFAULT_LIMITS } from '../src/limits.js';
import { PlainDijkstra, plainCosts } from './helpers/route-reference.js';
import { testPack } from './helpers/packs.js';
import fc from 'fast-check';
import { encodeSnapGrid, snapGridProblem, SnapGridReader } from '../src/route/snap-grid.js';
import { mulberry32 as rng } from '../src/trip/rng.js';

/**
 * Brute-force arc reachability for one vehicle, written from the search's rules (see PlainDijkstra): open arcs,
 * transitions allowed by `turnOk` at the head, plus the two open arcs of one edge leading to each other.
 */
class Reach {
  readonly open: boolean[];
  private readonly succ: number[][] = [];
  private readonly pred: number[][] = [];
  constructor(
    readonly g: RoadGraph,
    profile: number,
  ) {
    const plain = new PlainDijkstra(g, profile, 'fastest');
    this.open = plainCosts(g, profile, 'fastest').w.map((w) => w !== Infinity);
    const out: number[][] = Array.from({ length: g.nodeCount }, () => []);
    for (let a = 0; a < 2 * g.edgeCount; a++) if (this.open[a]) out[plain.tail(a)]!.push(a);
    for (let a = 0; a < 2 * g.edgeCount; a++) {
      this.succ.push([]);
      this.pred.push([]);
    }
    for (let a = 0; a < 2 * g.edgeCount; a++) {
      if (!this.open[a]) continue;
      const next = out[plain.head(a)]!.filter((b) => plain.turnOk(a, b));
      if (this.open[a ^ 1]) next.push(a ^ 1);
      for (const b of next) {
        this.succ[a]!.push(b);
        this.pred[b]!.push(a);
      }
    }
  }

  /** Edges with an arc reachable from (or, backwards, reaching) an open arc of edge e. */
  private bfs(e: number, lists: number[][]): Set<number> {
    const seen = new Uint8Array(2 * this.g.edgeCount);
    const queue = [2 * e, 2 * e + 1].filter((a) => this.open[a]);
    for (const a of queue) seen[a] = 1;
    for (let i = 0; i < queue.length; i++) {
      for (const b of lists[queue[i]!]!) {
        if (!seen[b]) {
          seen[b] = 1;
          queue.push(b);
        }
      }
    }
    return new Set(queue.map((a) => a >> 1));
  }

  /** Edges that edge e reaches and that reach e: its strongly connected component. */
  component(e: number): Set<number> {
    const fwd = this.bfs(e, this.succ);
    const bwd = this.bfs(e, this.pred);
    return new Set([...fwd].filter((x) => bwd.has(x)));
  }
}

/** Points of edge e in degrees, [lat, lon], first node to second. */
function edgePoints(g: RoadGraph, e: number): [number, number][] {
  const pts: [number, number][] = [[g.lat(g.edgeNodes[2 * e]!), g.lon(g.edgeNodes[2 * e]!)]];
  for (let i = g.edgeShape.at(e); i < g.edgeShape.at(e + 1); i++)
    pts.push([g.shapeLat[i]! / 1e7, g.shapeLon[i]! / 1e7]);
  pts.push([g.lat(g.edgeNodes[2 * e + 1]!), g.lon(g.edgeNodes[2 * e + 1]!)]);
  return pts;
}

/** Plain scan: metres from (lat, lon) to the nearest point of any edge in `edges` (local flat projection). */
function nearestMetres(g: RoadGraph, lat: number, lon: number, edges: Iterable<number>): number {
  const ky = 111195;
  const kx = ky * Math.cos((lat * Math.PI) / 180);
  let best = Infinity;
  for (const e of edges) {
    const p = edgePoints(g, e).map(([a, b]) => [(b - lon) * kx, (a - lat) * ky] as const);
    for (let i = 0; i + 1 < p.length; i++) {
      const [ax, ay] = p[i]!,
        [bx, by] = p[i + 1]!;
      const l2 = (bx - ax) ** 2 + (by - ay) ** 2;
      const u = l2 > 0 ? Math.min(1, Math.max(0, -(ax * (bx - ax) + ay * (by - ay)) / l2)) : 0;
      best = Math.min(best, Math.hypot(ax + u * (bx - ax), ay + u * (by - ay)));
    }
  }
  return best;
}

/** A point at fraction f of edge e's first segment, degrees. */
function onFirstSegment(g: RoadGraph, e: number, f: number): { lat: number; lng: number } {
  const [[a, b], [c, d]] = edgePoints(g, e) as [[number, number], [number, number]];
  return { lat: a + f * (c - a), lng: b + f * (d - b) };
}

describe('components match brute-force reachability on random edges', () => {
  for (const name of ['hanoi', 'dalat', 'monaco'] as const) {
    const pack = Pack.from(testPack(name));
    const region = new Region(pack);
    const g = region.graph;
    for (const profile of [0, 1, 3]) {
      it(`${name}, profile ${profile}`, () => {
        const comps = new Router(g, pack, { wasm: false }).components(profile);
        const reach = new Reach(g, profile);
        const rand = rng(11 + profile);
        for (let e = 0; e < g.edgeCount; e++) {
          expect(comps.edgeComp[e]! >= 0).toBe(reach.open[2 * e]! || reach.open[2 * e + 1]!);
        }
        // Random routable edges, and random edges of small components (rare among random edges).
        const routable = [...Array(g.edgeCount).keys()].filter((e) => comps.edgeComp[e]! >= 0);
        const smallEdges = routable.filter((e) => !comps.big[e]);
        expect(smallEdges.length).toBeGreaterThan(0);
        const picks = [
          ...Array.from({ length: 20 }, () => routable[Math.floor(rand() * routable.length)]!),
          ...Array.from({ length: 8 }, () => smallEdges[Math.floor(rand() * smallEdges.length)]!),
        ];
        let small = 0;
        for (const e of picks) {
          const want = reach.component(e);
          const got = new Set<number>();
          for (let x = 0; x < g.edgeCount; x++) if (comps.edgeComp[x] === comps.edgeComp[e]) got.add(x);
          expect(got).toEqual(want);
          expect(comps.size[comps.edgeComp[e]!]).toBe(want.size);
          expect(comps.big[e]).toBe(want.size >= 1000 ? 1 : 0);
          if (want.size < 1000) small++;
        }
        expect(small).toBeGreaterThanOrEqual(8);
      });
    }
  }
});

describe('the big-component threshold', () => {
  const pack = Pack.from(testPack('dalat'));
  const g = new Region(pack).graph;
  const ctx = new Router(g, pack, { wasm: false }).context(0);

  it('falls back to the largest component when no component reaches the threshold', () => {
    const all = new Components(strongComponents(ctx.costs, ctx.turns), 1e9);
    let big = 0;
    const ids = new Set<number>();
    for (let e = 0; e < g.edgeCount; e++) {
      if (!all.big[e]) continue;
      big++;
      ids.add(all.edgeComp[e]!);
    }
    expect(ids.size).toBe(1);
    expect(big).toBe(all.largest);
    expect(big).toBe(Math.max(...all.size));
    // The brute-force component of a big edge is exactly the big set.
    const e = all.big.indexOf(1);
    expect(new Reach(g, 0).component(e).size).toBe(big);
  });

  it('a threshold of one edge makes every component big, so snapping is the plain nearest road', () => {
    const one = new Router(g, pack, { wasm: false, bigComponentEdges: 1 });
    const comps = one.components(0);
    for (let e = 0; e < g.edgeCount; e++) expect(comps.big[e]).toBe(comps.edgeComp[e]! >= 0 ? 1 : 0);
    const def = new Router(g, pack, { wasm: false });
    const small = [...Array(g.edgeCount).keys()].filter(
      (e) => def.components(0).edgeComp[e]! >= 0 && !def.components(0).big[e],
    );
    expect(small.length).toBeGreaterThan(0);
    for (const e of small.slice(0, 10)) {
      const p = onFirstSegment(g, e, 0.5);
      const s = one.snap(p.lat, p.lng, 0)!;
      expect(s.local).toBeUndefined();
      expect(s.dist).toBeLessThan(0.5);
    }
  });

  it('several components at or above the threshold are all big (Hanoi trucks)', () => {
    const hanoi = Pack.from(testPack('hanoi'));
    const comps = new Router(new Region(hanoi).graph, hanoi, { wasm: false }).components(3);
    const bigIds = new Set<number>();
    comps.edgeComp.forEach((c, e) => {
      if (c >= 0) expect(comps.big[e]).toBe(comps.size[c]! >= 1000 ? 1 : 0);
      if (comps.big[e]) bigIds.add(c);
    });
    expect(bigIds.size).toBeGreaterThan(1);
  });
});

describe('snapping prefers big components', () => {
  for (const name of ['hanoi', 'dalat', 'monaco'] as const) {
    it(`${name}: points on small-component roads snap to the nearest big-component road and get routes`, () => {
      const region = new Region(Pack.from(testPack(name)));
      const g = region.graph;
      const router = routerOf(region);
      const reach = new Reach(g, 0);
      // The main network: the brute-force component of the edge nearest the middle of the pack.
      const [minLon, minLat, maxLon, maxLat] = region.meta.bbox!;
      const mid = router.snap((minLat + maxLat) / 2, (minLon + maxLon) / 2, 0, 5000)!;
      const main = reach.component(mid.edge);
      expect(main.size).toBeGreaterThanOrEqual(1000);
      // Roads a route may start on (not a ferry or a private service road: edgeNoStart, bit 0 the car's).
      const startable = (e: number) => (g.edgeNoStart[e]! & 1) === 0;
      const mainStart = new Set([...main].filter(startable));
      const small = [...Array(g.edgeCount).keys()].filter(
        (e) => (reach.open[2 * e] || reach.open[2 * e + 1]) && !main.has(e) && startable(e),
      );
      expect(small.length).toBeGreaterThan(10);
      const dest = `${mid.lat},${mid.lon}`;
      let checked = 0;
      let wasNotFound = 0;
      for (let k = 0; k < small.length && checked < 15; k += Math.max(1, Math.floor(small.length / 15))) {
        const e = small[k]!;
        const p = onFirstSegment(g, e, 0.5);
        const toMain = nearestMetres(g, p.lat, p.lng, mainStart);
        if (toMain > DEFAULT_LIMITS.snapRadius - 5) continue; // Too close to the limit to call either way.
        checked++;
        const s = router.snap(p.lat, p.lng, 0)!;
        expect(main.has(s.edge)).toBe(true);
        // The snap measures on the sphere (haversine), nearestMetres on a plane: they part by parts in ten thousand.
        expect(Math.abs(s.dist - toMain)).toBeLessThan(Math.max(0.5, toMain * 1e-3));
        expect(s.local).toBeDefined();
        expect(main.has(s.local!.edge)).toBe(false);
        expect(s.local!.dist).toBeLessThan(0.5);
        // The old snap (nearest road of any component) often had no route to the middle; the new one always does.
        if (!router.leg(s.local!, mid, 0) || !router.leg(mid, s.local!, 0)) wasNotFound++;
        const there = direction([region], { origin: `${p.lat},${p.lng}`, destination: dest, vehicle: 'car' });
        const back = direction([region], { origin: dest, destination: `${p.lat},${p.lng}`, vehicle: 'car' });
        expect(there.status).toBe('OK');
        expect(back.status).toBe('OK');
        expect(there.routes[0]!.legs[0]!.start_location).toEqual({ lat: s.lat, lng: s.lon });
      }
      expect(checked).toBeGreaterThan(5);
      expect(wasNotFound).toBeGreaterThan(0);
    });
  }

  it('two points nearest to one small component route within it (snapLeg, snapTable); others leave it', () => {
    const pack = Pack.from(testPack('hanoi'));
    const region = new Region(pack);
    const g = region.graph;
    const router = new Router(g, pack);
    const reach = new Reach(g, 0);
    const comps = router.components(0);
    // A two-way small-component edge with a first segment long enough for two distinct points.
    const e = [...Array(g.edgeCount).keys()].find((x) => {
      if (comps.big[x] || comps.edgeComp[x]! < 0 || !reach.open[2 * x] || !reach.open[2 * x + 1]) return false;
      const [[a, b], [c, d]] = edgePoints(g, x) as [[number, number], [number, number]];
      return Math.hypot((c - a) * 111195, (d - b) * 111195 * Math.cos((a * Math.PI) / 180)) > 40;
    })!;
    expect(e).toBeDefined();
    const p = onFirstSegment(g, e, 0.2);
    const q = onFirstSegment(g, e, 0.8);
    const sp = router.snap(p.lat, p.lng, 0)!;
    const sq = router.snap(q.lat, q.lng, 0)!;
    expect(sp.local).toBeDefined();
    expect(sq.local).toBeDefined();
    expect(comps.edgeComp[sp.local!.edge]).toBe(comps.edgeComp[sq.local!.edge]);
    const leg = router.snapLeg(sp, sq, 0)!;
    for (const a of leg.path.arcs) expect(reach.component(e).has(a >> 1)).toBe(true);
    // Straight along the segment: the metres between the two points (hand check by flat distance).
    const flat = Math.hypot((q.lat - p.lat) * 111195, (q.lng - p.lng) * 111195 * Math.cos((p.lat * Math.PI) / 180));
    expect(Math.abs(leg.distance - flat)).toBeLessThan(1);
    const table = router.snapTable([sp, sq], [sq, sp], 0);
    expect(table.weight[0]).toBeCloseTo(leg.weight, 6);
    expect(table.dist[0]).toBeCloseTo(leg.distance, 6);
    expect(table.weight[3]).toBeCloseTo(router.snapLeg(sq, sp, 0)!.weight, 6);
    // With a point on the main network, the pair runs between the big-component snaps.
    const mid = router.snap(21.0285, 105.8542, 0)!;
    expect(comps.big[mid.edge]).toBe(1);
    const out = router.snapLeg(sp, mid, 0)!;
    expect(out.path.arcs[0]! >> 1).toBe(sp.edge);
    expect(router.ends(sp, mid, 0)).toEqual([sp, mid]);
    const mixed = router.snapTable([sp], [sq, mid], 0);
    expect(mixed.weight[0]).toBeCloseTo(leg.weight, 6);
    expect(mixed.weight[1]).toBeCloseTo(out.weight, 6);
  });
});

describe('snapping grid bytes', () => {
  it('give back each cell its segments, ascending, and name damage', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.uniqueArray(fc.nat(39), { maxLength: 4 }), { maxLength: 300 }),
        (cells, filing) => {
          const of = (k: number) => filing[k]!.filter((c) => c < cells);
          const grid = encodeSnapGrid(cells, filing.length, (k, add) => of(k).forEach(add));
          expect(snapGridProblem(grid, cells, filing.length)).toBeNull();
          const reader = new SnapGridReader();
          for (let c = 0; c < cells; c++) {
            const got: number[] = [];
            for (let s = reader.open(grid, c).next(); s >= 0; s = reader.next()) got.push(s);
            expect(got).toEqual(filing.map((_, k) => k).filter((k) => of(k).includes(c)));
          }
          if (grid.seg.length > 0) {
            const top = filing.reduce((m, _, k) => (of(k).length > 0 ? k : m), -1);
            expect(snapGridProblem(grid, cells, top)).toMatch(new RegExp(`names segment ${top} of ${top}`));
            expect(snapGridProblem({ ...grid, seg: grid.seg.slice().fill(0x80) }, cells, filing.length)).toMatch(
              /cell \d+/,
            );
          }
        },
      ),
    );
  });
});
