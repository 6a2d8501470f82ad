/**
 * Customized metrics shared between engines (route/cch/exchange.ts): an engine adopts the metrics and measures
 * another made for the same pack, vehicle and weighting, and answers byte for byte as an engine that made its own;
 * an offer that does not fit its topology is refused (the engine makes its own), never used.
 */
import { describe, expect, it } from 'vitest';
import { vietnamAdmin } from '../data-tools/admin-bundle.js';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { createEngine, type Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { LINK, midOf, rowStart, type CchArcs } from '../src/route/cch/arcs.js';
import type { MetricExchange, MetricPart } from '../src/route/cch/exchange.js';
import type { ArcMeasures } from '../src/route/cch/measures.js';
import type { TopologyArrays } from '../src/route/cch/topology.js';
import { METRIC_PARTS_KEPT, MetricStore } from '../src/adapters/worker/metric-store.js';
import { ADMIN, OSM, PACK_INPUTS } from './helpers/packs.js';
import { randomEndpoints } from './helpers/route-reference.js';

/** Đà Lạt built without hierarchies: every vehicle routes by a customized metric. */
const noCh = buildOsmPack({
  inputs: PACK_INPUTS.dalat.map((f) => OSM + f),
  name: 'dalat',
  admin: vietnamAdmin(ADMIN),
  hierarchies: false,
});

const PTS = ['11.9404,108.4373', '11.8970,108.4690', '11.9460,108.4580', '11.9300,108.4200'];
const VEHICLES = ['bike', 'truck'] as const;

/** An exchange over one store, as a server's threads share one, and what the routers told it. */
function storeExchange(): { store: MetricStore; adopted: string[]; exchange: MetricExchange } {
  const store = new MetricStore();
  const adopted: string[] = [];
  return {
    store,
    adopted,
    exchange: {
      offer: (k) => store.get(k),
      adopted: (k) => void adopted.push(k),
      published: (k, p) => store.put(k, p),
    },
  };
}

/** The JSON text of directions and a matrix per vehicle (one of them avoiding road kinds), in order. */
/** Measures with no arc stored: `values` only (for parts of the wrong shape or kind). */
function measuresOf(values: Float64Array): ArcMeasures {
  return { stored: new Uint32Array(0), storedRank: new Uint32Array(0), values };
}

function answers(e: Engine): string[] {
  return VEHICLES.flatMap((vehicle) => [
    JSON.stringify(e.direction({ origin: PTS[0], destination: PTS[1], vehicle })),
    JSON.stringify(e.direction({ origin: PTS[2], destination: PTS[3], vehicle, avoid: 'tolls|highways' })),
    JSON.stringify(e.distanceMatrix({ origins: PTS.join('|'), destinations: PTS.join('|'), vehicle })),
  ]);
}

describe('customized metrics shared between engines', () => {
  it('an engine adopts what another made, answering byte for byte as an engine that made its own', async () => {
    const x = storeExchange();
    const own = await createEngine({ packs: [noCh] });
    const maker = await createEngine({ packs: [noCh], metrics: x.exchange });
    // Its own copy of the bytes: the pack's identity matches, not the object.
    const adopter = await createEngine({ packs: [noCh.slice()], metrics: x.exchange });
    const want = answers(own);
    expect(want.every((j) => !j.includes('"ERROR"'))).toBe(true);
    expect(answers(maker)).toEqual(want);
    expect(answers(adopter)).toEqual(want);
    const made = maker.info().packs[0]!.metrics;
    expect(made.metrics.made).toBeGreaterThanOrEqual(VEHICLES.length);
    expect(made.measures.made).toBeGreaterThanOrEqual(1);
    expect(made.topology).toEqual({ made: 1, adopted: 0 });
    expect(made.costs.made).toBeGreaterThanOrEqual(2 * VEHICLES.length);
    expect(made.metrics.adopted + made.measures.adopted + made.costs.adopted + made.refused).toBe(0);
    expect(adopter.info().packs[0]!.metrics).toEqual({
      metrics: { made: 0, adopted: made.metrics.made },
      measures: { made: 0, adopted: made.measures.made },
      topology: { made: 0, adopted: 1 },
      costs: { made: 0, adopted: made.costs.made },
      refused: 0,
    });
    expect(x.adopted).toHaveLength(made.metrics.made + made.measures.made + made.costs.made + 1);
    // The topology adopted is the maker's arrays, in shared memory, and equal to one a router builds alone.
    const topology = [...x.store.entries()].find(([, p]) => p.kind === 'topology')![1];
    if (topology.kind !== 'topology') throw new Error('no topology offered');
    expect(topology.upHead.buffer).toBeInstanceOf(SharedArrayBuffer);
    const alone = new Router(new RoadGraph(Pack.from(noCh.slice())), Pack.from(noCh.slice()));
    alone.context(0).cch();
    const built = (alone as unknown as { customizable: { topo: TopologyArrays } }).customizable.topo;
    for (const f of ['upFirst', 'upHead', 'parent', 'rankOf', 'stateOf', 'links'] as const)
      expect(topology[f]).toEqual(built[f]);
    // Without an exchange an engine counts what it made, as before.
    expect(own.info().packs[0]!.metrics).toEqual(made);
    await Promise.all([own.close(), maker.close(), adopter.close()]);
  });

  it('shares shortest and fastest metrics between routers: legs and tables identical to a router of its own', () => {
    const x = storeExchange();
    const routers = [0, 1, 2].map(() => new Router(new RoadGraph(Pack.from(noCh.slice())), Pack.from(noCh.slice())));
    routers[1]!.exchange = routers[2]!.exchange = x.exchange;
    for (const [profile, weighting] of [
      [0, 'shortest'],
      [3, 'fastest'],
      [3, 'shortest'],
    ] as const) {
      const pts = randomEndpoints(routers[0]!.graph, routers[0]!, profile, 12, 40 + profile);
      const [own, maker, adopter] = routers.map((r) => ({
        legs: pts.slice(1).map((b) => r.leg(pts[0]!, b, profile, weighting)),
        table: r.table(pts.slice(0, 6), pts.slice(6), profile, weighting),
      }));
      expect(maker).toEqual(own);
      expect(adopter).toEqual(own);
    }
    expect(routers[2]!.metricCounts()).toEqual({
      metrics: { made: 0, adopted: 3 },
      measures: { made: 0, adopted: 3 },
      topology: { made: 0, adopted: 1 },
      costs: { made: 0, adopted: routers[1]!.metricCounts().costs.made },
      refused: 0,
    });
  });

  it('a router that made a part another engine made at the same time lets go of its own for that one', () => {
    // Two routers asked for the same metric and measures at once: neither had the other's to adopt. Searching in
    // TypeScript, so that their arcs lie in shared buffers (a router's WebAssembly search keeps its own copy where
    // it reads it: route-cch-wasm.test.ts).
    const made = [new Map<string, MetricPart>(), new Map<string, MetricPart>()];
    const routers = made.map((parts) => {
      const r = new Router(new RoadGraph(Pack.from(noCh.slice())), Pack.from(noCh.slice()), { wasm: false });
      r.exchange = { offer: () => undefined, adopted: () => {}, published: (k, p) => void parts.set(k, p) };
      return r;
    });
    const pts = randomEndpoints(routers[0]!.graph, routers[0]!, 3, 12, 17);
    const run = (r: Router) => ({
      legs: pts.slice(1).map((b) => r.leg(pts[0]!, b, 3, 'shortest')),
      table: r.table(pts.slice(0, 6), pts.slice(6), 3, 'shortest'),
    });
    const want = run(routers[1]!);
    expect(run(routers[0]!)).toEqual(want);
    // Both made the topology, the arcs and their measures (and the arc costs of the contexts each used).
    const metricKeys = (m: Map<string, MetricPart>) =>
      [...m].flatMap(([k, p]) => (p.kind === 'costs' ? [] : [k])).sort();
    expect(metricKeys(made[1]!)).toEqual(metricKeys(made[0]!));
    expect(metricKeys(made[0]!)).toHaveLength(3);
    const ctx = routers[1]!.context(3, 'shortest');
    const held = () => [ctx.cch()!.metric.up.weight, ctx.cch()!.metric.down.mid, ctx.cchTable()!.measures.down];
    const own = held();
    // Other bytes under the same keys (one weight, one middle, one measure changed), or a part of the other kind,
    // are not taken.
    const other = (p: MetricPart): MetricPart => {
      if (p.kind === 'topology' || p.kind === 'costs') return p;
      if (p.kind === 'measures')
        return { ...p, down: { ...p.down, values: p.down.values.map((x, i) => (i === 1 ? x + 1 : x)) } };
      const mid = p.down.mid.slice();
      mid[0]! ^= 1;
      return { ...p, down: { ...p.down, mid } };
    };
    for (const [key, part] of made[0]!) {
      routers[1]!.arrived(key, other(part));
      if (part.kind === 'arcs')
        routers[1]!.arrived(key, {
          kind: 'measures',
          up: measuresOf(part.up.weight),
          down: measuresOf(part.down.weight),
        });
    }
    expect(held().every((a, i) => a === own[i])).toBe(true);
    for (const [key, part] of made[0]!) routers[1]!.arrived(key, part);
    // Now it holds the first router's arrays (shared, not its own copy), and answers as before.
    const arcs = [...made[0]!.values()].find((p) => p.kind === 'arcs');
    const measures = [...made[0]!.values()].find((p) => p.kind === 'measures');
    if (arcs?.kind !== 'arcs' || measures?.kind !== 'measures') throw new Error('parts of the wrong kinds');
    expect(held()).toEqual(own);
    expect(held()[0]).toBe(arcs.up.weight);
    expect(held()[1]).toBe(arcs.down.mid);
    expect(held()[2]).toBe(measures.down);
    expect(run(routers[1]!)).toEqual(want);
  });

  it('keeps at most what one router keeps of a pack, the least recently stored or offered dropped first', () => {
    const store = new MetricStore();
    const part = (i: number): MetricPart => ({
      kind: 'measures',
      up: measuresOf(new Float64Array(i)),
      down: measuresOf(new Float64Array(i)),
    });
    for (let i = 0; i < METRIC_PARTS_KEPT; i++) store.put(`k${i}`, part(i));
    expect(store.get('k0')).toEqual(part(0)); // now the most recently used
    store.put('new', part(1));
    expect(store.size).toBe(METRIC_PARTS_KEPT);
    expect(store.has('k1')).toBe(false);
    expect(store.has('k0') && store.has('k2') && store.has('new')).toBe(true);
    for (let i = 0; i < 3 * METRIC_PARTS_KEPT; i++) store.put(`more${i}`, part(i));
    expect(store.size).toBe(METRIC_PARTS_KEPT);
    expect([...store.entries()].map(([k]) => k)).toEqual(
      Array.from({ length: METRIC_PARTS_KEPT }, (_, i) => `more${2 * METRIC_PARTS_KEPT + i}`),
    );
  });

  /** Wrong parts made from a good one (false: this kind of part stays good). */
  /**
   * A copy of `a` whose arc in the first row from vertex 1 on of at least `min` arcs is changed by `change` (slots,
   * middles).
   */
  const changed = (a: CchArcs, change: (c: CchArcs, k: number, v: number) => void, min = 1): CchArcs => {
    const c = { ...a, slot: a.slot.slice(), mid: a.mid.slice() };
    let v = 1;
    while (rowStart(a, v + 1) - rowStart(a, v) < min) v++;
    change(c, rowStart(a, v), v);
    return c;
  };
  /**
   * A copy of `a` whose first middle in a row from vertex 1 on is written `below` vertices below that row's own
   * vertex (v + 1: below the first vertex; 0: as a far middle, yet not listed as one).
   */
  const midMoved = (a: CchArcs, below: (v: number) => number): CchArcs => {
    const mid = a.mid.slice();
    let at = 0;
    for (let v = 0; v + 1 < a.rowOff.length; v++)
      for (let k = rowStart(a, v); k < rowStart(a, v + 1); k++) {
        if (midOf(a, k, v) === LINK) continue;
        if (v > 0) {
          mid[at] = below(v);
          return { ...a, mid };
        }
        at++;
      }
    throw new Error('no arc has a middle');
  };
  /** A copy of topology part `p` with one row's last head moved up to a vertex its parent's row lacks (not chordal). */
  const unclosed = (p: TopologyArrays): TopologyArrays => {
    const { upFirst, parent } = p;
    const upHead = p.upHead.slice();
    const n = parent.length;
    for (let r = 0; r < n; r++) {
      const last = upFirst[r + 1]! - 1;
      if (last <= upFirst[r]! || upHead[last]! + 1 >= n) continue;
      const moved = upHead[last]! + 1;
      if (upHead.subarray(upFirst[parent[r]!]!, upFirst[parent[r]! + 1]!).includes(moved)) continue;
      upHead[last] = moved;
      return { ...p, upHead };
    }
    throw new Error('every row is closed under its parent');
  };
  const BAD: [string, (p: MetricPart) => MetricPart | false][] = [
    ['a topology with a head fewer', (p) => p.kind === 'topology' && { ...p, upHead: p.upHead.subarray(1) }],
    [
      'a topology with link bits of another length',
      (p) => p.kind === 'topology' && { ...p, links: p.links.subarray(1) },
    ],
    [
      'a topology whose ranks are not a permutation',
      (p) => p.kind === 'topology' && { ...p, rankOf: p.rankOf.map((r, s) => (s === 0 ? p.rankOf[1]! : r)) },
    ],
    [
      'a topology whose parents are not the lowest higher neighbours',
      (p) => p.kind === 'topology' && { ...p, parent: p.parent.map((q) => (q >= 0 ? -1 : q)) },
    ],
    [
      'a topology whose parents are not an Int32Array',
      (p) => p.kind === 'topology' && { ...p, parent: new Uint32Array(p.parent) as never },
    ],
    [
      'a topology whose rows are not closed under their parents',
      (p) => p.kind === 'topology' && { kind: 'topology', ...unclosed(p) },
    ],
    ['a topology offered as arcs', (p) => p.kind === 'topology' && ({ ...p, kind: 'arcs' } as never)],
    ['arcs with a slot fewer', (p) => p.kind === 'arcs' && { ...p, up: { ...p.up, slot: p.up.slot.subarray(1) } }],
    [
      'row offsets of another length',
      (p) => p.kind === 'arcs' && { ...p, down: { ...p.down, rowOff: p.down.rowOff.subarray(1) } },
    ],
    [
      'row offsets of another type',
      (p) => p.kind === 'arcs' && { ...p, up: { ...p.up, rowOff: new Uint32Array(p.up.rowOff) } },
    ],
    [
      'row bases of another type',
      (p) => p.kind === 'arcs' && { ...p, up: { ...p.up, rowBase: new Int32Array(p.up.rowBase) as never } },
    ],
    [
      // Hanoi's longest topology row has fewer than 255 arcs (its slots are bytes).
      'a slot outside its topology row',
      (p) => p.kind === 'arcs' && { ...p, up: changed(p.up, (c, k) => (c.slot[k] = 0xff)) },
    ],
    [
      'slots out of order',
      (p) => p.kind === 'arcs' && { ...p, down: changed(p.down, (c, k) => (c.slot[k + 1] = c.slot[k]!), 2) },
    ],
    [
      'slots wider than the topology needs',
      (p) => p.kind === 'arcs' && { ...p, up: { ...p.up, slot: Uint16Array.from(p.up.slot) } },
    ],
    ['a middle below the first vertex', (p) => p.kind === 'arcs' && { ...p, up: midMoved(p.up, (v) => v + 1) }],
    ['a far middle not listed', (p) => p.kind === 'arcs' && { ...p, down: midMoved(p.down, () => 0) }],
    [
      'a middle bit fewer',
      (p) =>
        p.kind === 'arcs' && {
          ...p,
          down: { ...p.down, viaMid: p.down.viaMid.map((w, i) => (i === 0 ? w & (w - 1) : w)) },
        },
    ],
    [
      'measures of another length',
      (p) => p.kind === 'measures' && { ...p, down: { ...p.down, values: p.down.values.subarray(2) } },
    ],
    [
      'measures with a stored bit fewer',
      (p) =>
        p.kind === 'measures' && {
          ...p,
          up: { ...p.up, stored: p.up.stored.map((w, i, a) => (i === a.findIndex((x) => x !== 0) ? w & (w - 1) : w)) },
        },
    ],
    [
      'measures offered as arcs',
      (p) => p.kind === 'arcs' && { kind: 'measures', up: measuresOf(p.up.weight), down: measuresOf(p.down.weight) },
    ],
    ['arcs offered as measures', (p) => p.kind === 'measures' && ({ ...p, kind: 'arcs' } as never)],
    ['arc costs with a weight fewer', (p) => p.kind === 'costs' && { ...p, weight: p.weight.subarray(1) }],
    [
      'arc costs whose barriers are not bytes',
      (p) => p.kind === 'costs' && { ...p, blocked: Uint16Array.from(p.blocked) as never },
    ],
    ['arc costs without a bound', (p) => p.kind === 'costs' && { ...p, boundPerMetre: NaN }],
    ['arc costs offered as a topology', (p) => p.kind === 'costs' && ({ ...p, kind: 'topology' } as never)],
  ];

  it.each(BAD)('refuses %s and makes its own metric, answering as before', async (_, bad) => {
    const x = storeExchange();
    const own = await createEngine({ packs: [noCh], metrics: x.exchange });
    const want = answers(own);
    const adopted: string[] = [];
    const offered: MetricExchange = {
      offer: (k) => {
        const good = x.store.get(k);
        return good && (bad(good) || good);
      },
      adopted: (k) => void adopted.push(k),
      published: () => {},
    };
    const e = await createEngine({ packs: [noCh], metrics: offered });
    expect(answers(e)).toEqual(want);
    const counts = e.info().packs[0]!.metrics;
    expect(counts.refused).toBeGreaterThan(0);
    // Every refused part was made instead; what fitted was adopted and reported.
    const mine = own.info().packs[0]!.metrics;
    expect(counts.metrics.made + counts.metrics.adopted).toBe(mine.metrics.made);
    expect(counts.measures.made + counts.measures.adopted).toBe(mine.measures.made);
    expect(counts.topology.made + counts.topology.adopted).toBe(1);
    expect(counts.costs.made + counts.costs.adopted).toBe(mine.costs.made);
    expect(counts.metrics.made + counts.measures.made + counts.topology.made + counts.costs.made).toBe(counts.refused);
    expect(adopted).toHaveLength(
      counts.metrics.adopted + counts.measures.adopted + counts.topology.adopted + counts.costs.adopted,
    );
    await Promise.all([own.close(), e.close()]);
  });
});
