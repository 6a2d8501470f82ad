import { describe, expect, it } from 'vitest';
import { Pack, PackError } from '../src/pack/reader.js';
import { ArcCosts } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { PROFILE_COUNT } from '../src/route/profiles.js';
import { Router } from '../src/route/router.js';
import type { Endpoint } from '../src/route/search.js';
import { buildCch, cchOrder, partOrderer, type Cch } from '../src/route/cch/build.js';
import { orderSections, storedOrder } from '../src/route/cch/stored-order.js';
import { PackWriter } from '../src/pack/writer.js';
import { LINK, midOf, rowStart, type CchArcs } from '../src/route/cch/arcs.js';
import { CchMetric } from '../src/route/cch/customize.js';
import { CchQuery, QueryLabels } from '../src/route/cch/query.js';
import { stateTopology } from '../src/route/cch/state-graph.js';
import { CchTopology, topologyProblem } from '../src/route/cch/topology.js';
import { mulberry32 as rng } from '../src/trip/rng.js';
import { testPack } from './helpers/packs.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';
import { edgeMids, viaWayGrid } from './helpers/via-way-grid.js';

/** Checks one route of a CCH against the plain Dijkstra's weight; true when a route exists. */
function agrees(q: CchQuery, plain: PlainDijkstra, dist: Map<string, number>, a: Endpoint, b: Endpoint): boolean {
  const want = plain.to(dist, a, b.edge, b.t);
  const got = q.route(a, b);
  if (want === Infinity) {
    expect(got).toBeNull();
    return false;
  }
  expect(got).not.toBeNull();
  expect(got!.weight).toBeCloseTo(want, 6);
  // A real path of the vehicle, from the source's edge to the target's, whose own weight is the route's.
  expect(plain.pathOk(got!.arcs)).toBe(true);
  expect(got!.arcs[0]! >> 1).toBe(a.edge);
  expect(got!.arcs.at(-1)! >> 1).toBe(b.edge);
  return true;
}

describe('the CCH topology', () => {
  const g = new RoadGraph(Pack.from(testPack('hanoi')));
  const cch = buildCch(g);
  const { topo, states } = cch;

  it('orders every shared state once', () => {
    const seen = new Uint8Array(topo.size);
    for (const r of topo.rankOf) seen[r]!++;
    expect(seen.every((x) => x === 1)).toBe(true);
    expect(topo.size).toBe(states.size);
    // Hanoi's via-way restrictions add copy states.
    expect(states.size).toBeGreaterThan(states.arcs);
  });

  it('holds every link of the state graph and is chordal: a vertex’s higher neighbours are all its parent’s', () => {
    const { first, adj } = stateTopology(g, states);
    const up = (r: number) => Array.from(topo.upHead.subarray(topo.upFirst[r]!, topo.upFirst[r + 1]!));
    const rows = Array.from({ length: topo.size }, (_, r) => new Set(up(r)));
    let missing = 0;
    for (let s = 0; s < first.length - 1; s++)
      for (let i = first[s]!; i < first[s + 1]!; i++) {
        const r = topo.rankOf[s]!,
          q = topo.rankOf[adj[i]!]!;
        if (!rows[Math.min(r, q)]!.has(Math.max(r, q))) missing++;
      }
    expect(missing).toBe(0);
    for (let r = 0; r < topo.size; r++) {
      const p = topo.parent[r]!;
      const row = up(r);
      if (p < 0) {
        expect(row).toEqual([]);
        continue;
      }
      expect(row[0]).toBe(p);
      expect(row.slice(1).every((q) => rows[p]!.has(q))).toBe(true);
    }
  });
});

describe('a CCH topology over an odd number of states', () => {
  it('is built (its working arrays are each rounded up to 8 bytes) and sound, every link in it', () => {
    const g = new RoadGraph(Pack.from(testPack('hanoi')));
    const { rank, topology } = cchOrder(g);
    // The state graph among the states below an odd bound, ranked as the whole graph's order ranks them.
    const n = (Math.min(rank.length, 5001) - 1) | 1;
    const first = new Uint32Array(n + 1);
    const adj: number[] = [];
    for (let s = 0; s < n; s++) {
      for (let i = topology.first[s]!; i < topology.first[s + 1]!; i++)
        if (topology.adj[i]! < n) adj.push(topology.adj[i]!);
      first[s + 1] = adj.length;
    }
    const byRank = Array.from({ length: n }, (_, s) => s).sort((a, b) => rank[a]! - rank[b]!);
    const sub = new Uint32Array(n);
    byRank.forEach((s, r) => (sub[s] = r));
    const topo = CchTopology.build(first, Uint32Array.from(adj), sub);
    expect(topo.size % 2).toBe(1);
    expect(topologyProblem(topo, n)).toBeNull();
    let missing = 0;
    for (let s = 0; s < n; s++)
      for (let i = first[s]!; i < first[s + 1]!; i++) {
        const [lo, hi] = [Math.min(sub[s]!, sub[adj[i]!]!), Math.max(sub[s]!, sub[adj[i]!]!)];
        if (!topo.upHead.subarray(topo.upFirst[lo]!, topo.upFirst[lo + 1]!).includes(hi)) missing++;
      }
    expect(adj.length).toBeGreaterThan(n);
    expect(missing).toBe(0);
  });
});

describe('the CCH topology’s links', () => {
  const g = new RoadGraph(Pack.from(testPack('hanoi')));
  const { topo, states } = buildCch(g);
  const isLink = (i: number) => (topo.links[i >> 3]! & (1 << (i & 7))) !== 0;

  it('mark exactly the state graph’s links, and no vehicle passes along a shortcut directly', () => {
    const { first, adj } = stateTopology(g, states);
    const want = new Set<string>();
    for (let s = 0; s < first.length - 1; s++)
      for (let i = first[s]!; i < first[s + 1]!; i++) {
        const [r, q] = [topo.rankOf[s]!, topo.rankOf[adj[i]!]!];
        want.add(`${Math.min(r, q)}:${Math.max(r, q)}`);
      }
    let marked = 0,
      shortcuts = 0;
    for (let r = 0; r < topo.size; r++)
      for (let i = topo.upFirst[r]!; i < topo.upFirst[r + 1]!; i++) {
        expect(isLink(i)).toBe(want.has(`${r}:${topo.upHead[i]}`));
        if (isLink(i)) marked++;
      }
    expect(marked).toBe(want.size);
    for (let p = 0; p < PROFILE_COUNT; p++) {
      const m = new CchMetric(topo, states, new ArcCosts(g, p, 'fastest'));
      for (let r = 0; r < topo.size; r++)
        for (let i = topo.upFirst[r]!; i < topo.upFirst[r + 1]!; i++) {
          if (isLink(i)) continue;
          shortcuts++;
          const [x, y] = [topo.stateOf[r]!, topo.stateOf[topo.upHead[i]!]!];
          if (m.link(x, y) !== Infinity || m.link(y, x) !== Infinity)
            throw new Error(`profile ${p}: arc ${i} is a link`);
        }
    }
    expect(shortcuts).toBeGreaterThan(0);
  });
});

describe('a customized metric’s kept arcs', () => {
  const g = new RoadGraph(Pack.from(testPack('hanoi')));
  const { topo, states } = buildCch(g);

  for (const [p, weighting] of [
    [0, 'fastest'],
    [1, 'shortest'],
  ] as const)
    it(`profile ${p} ${weighting}: each a link of its own weight or the exact sum of two kept arcs through a lower vertex`, () => {
      const m = new CchMetric(topo, states, new ArcCosts(g, p, weighting));
      // The head of kept arc k of vertex v: its slot's place in v's topology row.
      const head = (a: CchArcs, v: number, k: number) => topo.upHead[topo.upFirst[v]! + a.slot[k]!]!;
      // Each direction's arcs by "lower end:head", read straight off the CSR.
      const byEnds = (a: CchArcs) => {
        const map = new Map<string, number>();
        for (let v = 0; v < topo.size; v++)
          for (let k = rowStart(a, v); k < rowStart(a, v + 1); k++) map.set(`${v}:${head(a, v, k)}`, k);
        return map;
      };
      const up = byEnds(m.up),
        down = byEnds(m.down);
      // NaN when not kept: the sum then matches no weight.
      const weight = (a: CchArcs, map: Map<string, number>, v: number, h: number) => {
        const k = map.get(`${v}:${h}`);
        return k === undefined ? NaN : a.weight[k]!;
      };
      let links = 0,
        shortcuts = 0,
        far = 0,
        wrong = 0;
      for (const [a, upward] of [
        [m.up, true],
        [m.down, false],
      ] as const)
        for (let lo = 0; lo < topo.size; lo++) {
          const row = new Set(topo.upHead.subarray(topo.upFirst[lo]!, topo.upFirst[lo + 1]!));
          for (let k = rowStart(a, lo); k < rowStart(a, lo + 1); k++) {
            const hi = head(a, lo, k),
              mid = midOf(a, k, lo),
              w = a.weight[k]!;
            if (a.slot[k]! >= row.size || !row.has(hi) || !(w < Infinity)) wrong++;
            if (mid === LINK) {
              const [x, y] = upward ? [lo, hi] : [hi, lo];
              if (m.link(topo.stateOf[x]!, topo.stateOf[y]!) !== w) wrong++;
              links++;
              continue;
            }
            if (!(mid >= 0 && mid < lo)) wrong++;
            // Middles further than 255 below their arc's lower end are stored apart (CchArcs.far).
            if (lo - mid > 255) far++;
            // Up lo → mid → hi: mid–lo down, then mid–hi up; down hi → mid → lo: mid–hi down, then mid–lo up.
            const sum = upward
              ? weight(m.down, down, mid, lo) + weight(m.up, up, mid, hi)
              : weight(m.down, down, mid, hi) + weight(m.up, up, mid, lo);
            if (sum !== w) wrong++;
            shortcuts++;
          }
        }
      expect(wrong).toBe(0);
      expect(links).toBeGreaterThan(1000);
      expect(shortcuts).toBeGreaterThan(1000);
      expect(far).toBeGreaterThan(100);
      expect(far).toBe((m.up.far.length + m.down.far.length) / 2);
      // Perfect customization leaves out the arcs no shortest path uses, most undrivable ones among them.
      expect(links + shortcuts).toBeLessThan(topo.arcs);
    });
});

describe('the order a pack stores', () => {
  const pack = Pack.from(testPack('hanoi'));
  const g = new RoadGraph(pack);

  it('is the nested-dissection order of the pack’s own state graph, and a CCH over it is the one built from scratch', () => {
    const { rank, topology } = cchOrder(g);
    const stored = storedOrder(pack, topology);
    expect(stored).not.toBeNull();
    expect(Array.from(stored!)).toEqual(Array.from(rank));
    const a = buildCch(g, undefined, (t) => storedOrder(pack, t)).topo;
    const b = buildCch(g).topo;
    expect(Array.from(a.upHead)).toEqual(Array.from(b.upHead));
  });

  it('is the same when the high side of the first cut is ordered apart, as a second thread orders it', () => {
    let handed = 0;
    const apart = cchOrder(g, (high) => {
      handed = high[0]!.length;
      const order = partOrderer(g)(high);
      return () => order;
    });
    expect(handed).toBeGreaterThanOrEqual(Math.floor(g.nodeCount / 4));
    expect(Array.from(apart.rank)).toEqual(Array.from(cchOrder(g).rank));
  });

  it('is ignored when made for another state graph, and refused naming its section when not an order', () => {
    const { rank, topology } = cchOrder(g);
    const { json, array } = orderSections(rank, topology);
    const other = { first: topology.first, adj: topology.adj.map((x) => x ^ 1) };
    expect(storedOrder(pack, other)).toBeNull();
    const broken = rank.slice();
    broken[0] = broken[1]!; // a rank twice, another never
    const bad = Pack.from(
      new PackWriter()
        .addJson(...json)
        .addArray(array[0], broken)
        .finish(),
    );
    expect(() => storedOrder(bad, topology)).toThrow(PackError);
    expect(() => storedOrder(bad, topology)).toThrow(/route\.cch\.order/);
  });
});

describe('via-way turn restrictions through shared copy states', () => {
  const g = new RoadGraph(viaWayGrid());

  it('every pair of edge mid-points, every vehicle: the plain Dijkstra’s weight, on an allowed path', () => {
    const cch = buildCch(g);
    const mids = edgeMids(g);
    let beaten = 0;
    for (let p = 0; p < PROFILE_COUNT; p++) {
      const plain = new PlainDijkstra(g, p, 'fastest');
      const free = new PlainDijkstra(g, p, 'fastest');
      free.viaWay.length = 0;
      const q = new CchQuery(new CchMetric(cch.topo, cch.states, new ArcCosts(g, p, 'fastest')));
      for (const a of mids) {
        const dist = plain.run(a.edge, a.t);
        const freeDist = free.run(a.edge, a.t);
        for (const b of mids)
          if (agrees(q, plain, dist, a, b) && free.to(freeDist, a, b.edge, b.t) < plain.to(dist, a, b.edge, b.t) - 1e-6)
            beaten++;
      }
    }
    // The restrictions matter: for some pairs a search that ignored them would find a lighter path.
    expect(beaten).toBeGreaterThan(3);
  });
});

for (const region of ['hanoi', 'dalat'] as const) {
  describe(`CCH routes on the real ${region} pack match a plain edge-based Dijkstra`, () => {
    const pack = Pack.from(testPack(region));
    const g = new RoadGraph(pack);
    const router = new Router(g, pack);
    let cch: Cch | null = null;
    for (let p = 0; p < PROFILE_COUNT; p++)
      for (const weighting of ['fastest', 'shortest'] as const)
        it(`profile ${p} ${weighting}, one topology customized for each`, () => {
          cch ??= buildCch(g);
          const plain = new PlainDijkstra(g, p, weighting);
          const q = new CchQuery(new CchMetric(cch.topo, cch.states, new ArcCosts(g, p, weighting)));
          const ends = randomEndpoints(g, router, p, 27, 100 + p);
          const rand = rng(7 + p);
          let found = 0;
          for (let s = 0; s < 3; s++) {
            const a = ends[s]!;
            const dist = plain.run(a.edge, a.t);
            for (let k = 3; k < ends.length; k++) if (agrees(q, plain, dist, a, ends[k]!)) found++;
            // The same edge both ways: ahead on it, and behind (then the route leaves and comes back).
            const t = rand();
            if (agrees(q, plain, dist, a, { ...a, t })) found++;
          }
          expect(found).toBeGreaterThan(30);
        });
  });
}

describe('the cache of unpacked arcs', () => {
  const pack = Pack.from(testPack('hanoi'));
  const g = new RoadGraph(pack);
  const router = new Router(g, pack);

  it('gives the routes unpacking afresh gives, and is dropped whole once its budget of states is spent', () => {
    const cch = buildCch(g);
    const metric = new CchMetric(cch.topo, cch.states, new ArcCosts(g, 0, 'fastest'));
    const labels = new QueryLabels(cch.topo.parent);
    const cached = new CchQuery(metric, labels);
    const ends = randomEndpoints(g, router, 0, 60, 11);
    const pairs = ends.flatMap((a, i) => ends.slice(i + 1).map((b) => [a, b] as const));
    const first = pairs.map(([a, b]) => cached.route(a, b));
    // The second pass reads the arcs the first kept; a query with labels of its own starts with none.
    expect(labels.unpacked(metric).size).toBeGreaterThan(10);
    const again = pairs.map(([a, b]) => cached.route(a, b));
    const fresh = new CchQuery(metric);
    const afresh = pairs.map(([a, b]) => fresh.route(a, b));
    expect(first.filter((r) => r && r.arcs.length > 20).length).toBeGreaterThan(100);
    expect(again).toEqual(first);
    expect(afresh).toEqual(first);
    // 2^17 states in all: a second arc of 70,000 states drops the first (and whatever the routes kept).
    const long = Array.from({ length: 70_000 }, (_, k) => k);
    labels.remember(metric, 1, long, 0);
    labels.remember(metric, 3, long, 0);
    expect([...labels.unpacked(metric).keys()]).toEqual([3]);
  });
});
