/**
 * The customizable hierarchy's search in WebAssembly (route/wasm/cch-search.ts, wasm/cch): a router without an
 * exchange lays its topology, the kept arcs of every vehicle and weighting that avoid nothing and its labels in one
 * shared WebAssembly memory (cch-arena.ts) and searches there. Its routes are checked against a plain edge-based
 * Dijkstra and against a router searching in TypeScript, byte for byte (the same labels, order and ties); where the
 * memory has no room, or for a metric that avoids road kinds, the search stays in TypeScript with the same answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { AVOID_FACTOR, avoidedEdges } from '../src/route/avoid.js';
import { buildCch } from '../src/route/cch/build.js';
import type { CchArcs } from '../src/route/cch/arcs.js';
import { CchMetric } from '../src/route/cch/customize.js';
import type { MetricExchange, MetricPart } from '../src/route/cch/exchange.js';
import { CchQuery, QueryLabels } from '../src/route/cch/query.js';
import { Scratch } from '../src/route/cch/scratch.js';
import { ArcCosts } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { LabelMemory } from '../src/route/label-memory.js';
import { PROFILE_COUNT } from '../src/route/profiles.js';
import { Router } from '../src/route/router.js';
import type { Endpoint } from '../src/route/search.js';
import { CchArena } from '../src/route/wasm/cch-arena.js';
import { CchCoreSearch } from '../src/route/wasm/cch-search.js';
import { cchModule, loadWasmCore } from '../src/route/wasm/load.js';
import { testPack } from './helpers/packs.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';

const pack = Pack.from(testPack('hanoi'));
const g = new RoadGraph(pack);
const ts = new Router(g, pack, { wasm: false });

beforeAll(async () => {
  await loadWasmCore();
  expect(cchModule()).not.toBeNull();
});

/** Routes of every pair of `ends` (first half to second half) by `query`, as JSON to compare byte for byte. */
function routes(query: CchQuery, ends: Endpoint[]): string[] {
  const half = ends.length >> 1;
  return ends.slice(0, half).flatMap((a) => ends.slice(half).map((b) => JSON.stringify(query.route(a, b))));
}

describe('a router searching its customizable hierarchy in WebAssembly', () => {
  it('searches every vehicle and weighting there: the plain Dijkstra’s weights, the TypeScript search’s routes', () => {
    const wa = new Router(g, pack);
    let compared = 0;
    for (let profile = 0; profile < PROFILE_COUNT; profile++)
      for (const weighting of ['fastest', 'shortest'] as const) {
        const q = wa.context(profile, weighting).cch()!;
        expect(q.inWasm).toBe(true);
        const ends = randomEndpoints(g, ts, profile, 40, 50 + profile);
        expect(routes(q, ends)).toEqual(routes(ts.context(profile, weighting).cch()!, ends));
        const plain = new PlainDijkstra(g, profile, weighting);
        for (const a of ends.slice(0, 2)) {
          const dist = plain.run(a.edge, a.t);
          for (const b of ends.slice(20)) {
            const got = q.route(a, b),
              want = plain.to(dist, a, b.edge, b.t);
            if (want === Infinity) expect(got).toBeNull();
            else {
              expect(got!.weight).toBeCloseTo(want, 6);
              expect(plain.pathOk(got!.arcs)).toBe(true);
              compared++;
            }
          }
        }
      }
    expect(compared).toBeGreaterThan(300);
    expect(wa.coreInfo().customizable).toEqual({ core: 'wasm', reason: null });
  });

  it('keeps a metric that avoids road kinds out of the memory: it searches in TypeScript, as a TypeScript router', () => {
    const wa = new Router(g, pack);
    const q = wa.context(0, 'fastest', 7).cch()!;
    expect(wa.context(0, 'fastest').cch()!.inWasm).toBe(true);
    expect(q.inWasm).toBe(false);
    expect(wa.coreInfo().customizable).toEqual({
      core: 'wasm',
      reason: null,
      inTypeScript: ['car (fastest) searches in TypeScript: it avoids road kinds'],
    });
    const ends = randomEndpoints(g, ts, 0, 30, 71);
    expect(routes(q, ends)).toEqual(routes(ts.context(0, 'fastest', 7).cch()!, ends));
    const avoided = avoidedEdges(g, 7);
    const plain = new PlainDijkstra(g, 0, 'fastest', (e) => (avoided[e] ? AVOID_FACTOR : 1));
    const dist = plain.run(ends[0]!.edge, ends[0]!.t);
    for (const b of ends.slice(15)) {
      const want = plain.to(dist, ends[0]!, b.edge, b.t);
      if (want !== Infinity) expect(q.route(ends[0]!, b)!.weight).toBeCloseTo(want, 6);
    }
  });

  it('searches in TypeScript with the same routes where WebAssembly is turned off', () => {
    const off = new Router(g, pack, { wasm: false });
    expect(off.context(1, 'fastest').cch()!.inWasm).toBe(false);
    expect(off.coreInfo().reason).toMatch(/turned off/);
    const ends = randomEndpoints(g, ts, 1, 30, 72);
    expect(routes(off.context(1, 'fastest').cch()!, ends)).toEqual(routes(ts.context(1, 'fastest').cch()!, ends));
  });

  it('offers what it made to another engine, which reads it in place and searches in TypeScript, the same routes', () => {
    // An exchange within the process, as a server's workers share through their messages (the same views).
    const parts = new Map<string, MetricPart>();
    const exchange: MetricExchange = {
      offer: (key) => parts.get(key),
      adopted: () => {},
      published: (key, part) => void parts.set(key, part),
    };
    const maker = new Router(g, pack),
      taker = new Router(g, pack);
    maker.exchange = taker.exchange = exchange;
    const made = maker.context(2, 'shortest').cch()!;
    expect(made.inWasm).toBe(true);
    const adopted = taker.context(2, 'shortest').cch()!;
    expect(taker.metricCounts().topology).toEqual({ made: 0, adopted: 1 });
    expect(taker.metricCounts().metrics.adopted).toBeGreaterThan(0);
    expect(adopted.metric.up.weight).toBe(made.metric.up.weight);
    expect(adopted.inWasm).toBe(false);
    // Every array of the topology offered lies in shared memory: another thread reads it in place, copying nothing.
    const topology = [...parts].find(([k]) => k.startsWith('topology:'))![1] as Extract<
      MetricPart,
      { kind: 'topology' }
    >;
    for (const a of [
      topology.upFirst,
      topology.upHead,
      topology.parent,
      topology.rankOf,
      topology.stateOf,
      topology.links,
    ])
      expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(taker.coreInfo().customizable).toEqual({
      core: 'typescript',
      reason: "the topology is another engine's (adopted through the metric exchange)",
    });
    const ends = randomEndpoints(g, ts, 2, 30, 74);
    const want = routes(ts.context(2, 'shortest').cch()!, ends);
    expect(routes(made, ends)).toEqual(want);
    expect(routes(adopted, ends)).toEqual(want);
    // A copy of the same bytes arriving (both made it at once) does not move the maker's arcs out of its memory.
    const key = [...parts.keys()].find((k) => k.startsWith('arcs:'))!;
    const part = parts.get(key) as Extract<MetricPart, { kind: 'arcs' }>;
    const copy = (a: CchArcs): CchArcs => ({ ...a, weight: a.weight.slice(), slot: a.slot.slice() });
    maker.arrived(key, { ...part, up: copy(part.up), down: copy(part.down) });
    expect(made.metric.up.weight).toBe(part.up.weight);
    expect(routes(made, ends)).toEqual(want);
  });
});

describe('the search over an arena with little room', () => {
  const { topo, states } = buildCch(g);
  const costs = new ArcCosts(g, 0, 'fastest');
  const ends = randomEndpoints(g, ts, 0, 30, 73);
  const want = routes(new CchQuery(new CchMetric(topo, states, costs)), ends);

  /** A topology and car metric laid in an arena of `limit` bytes, and a query over it (with lists of room `cap`). */
  function over(limit: number, cap?: number) {
    const arena = CchArena.create(cchModule()!, limit)!;
    const cch = buildCch(g, states.tables, undefined, undefined, { arena });
    const metric = new CchMetric(cch.topo, cch.states, costs, undefined, undefined, null, arena);
    const memory = new LabelMemory();
    memory.place(arena, 0);
    const core = CchCoreSearch.over(arena, cch.topo, cap);
    return { arena, core, query: new CchQuery(metric, new QueryLabels(cch.topo.parent, memory), core) };
  }

  it('customized by parts, in the arena, answers the same', () => {
    const whole = over(2 ** 32);
    // Windows of a tenth of the arcs: room for the arcs finite after the basic customization, more than are kept.
    const arena = CchArena.create(cchModule()!)!;
    const cch = buildCch(g, states.tables, undefined, undefined, { arena });
    const before = arena.used;
    const metric = new CchMetric(cch.topo, cch.states, costs, undefined, cch.topo.arcs / 10, null, arena);
    const added = arena.used - before;
    const memory = new LabelMemory();
    memory.place(arena, 0);
    const query = new CchQuery(metric, new QueryLabels(cch.topo.parent, memory), CchCoreSearch.over(arena, cch.topo));
    expect(query.inWasm).toBe(true);
    expect(routes(query, ends)).toEqual(want);
    // The same arcs as one piece's.
    const kept = (a: CchMetric) =>
      [a.up, a.down].reduce((n, x) => n + Object.values(x).reduce((m, v: Uint8Array) => m + v.byteLength, 0), 0);
    expect(kept(metric)).toBe(kept(whole.query.metric));
    // The arena holds the arcs kept at their size (nine arrays each way, each rounded up to 8 bytes), not the room
    // counted for the arcs finite after the basic customization: room a block left unwritten in its middle could not
    // be given back, and would keep later metrics out of the memory.
    expect(added).toBeGreaterThanOrEqual(kept(metric));
    expect(added).toBeLessThan(kept(metric) + 2 * 9 * 8);
  });

  it('customized by parts with no room left in the arena, moves its arcs to shared memory: the same routes', () => {
    const probe = CchArena.create(cchModule()!)!;
    buildCch(g, states.tables, undefined, undefined, { arena: probe });
    // Room for the topology (and the query's block), not for the arcs.
    const arena = CchArena.create(cchModule()!, probe.used + 65536)!;
    const cch = buildCch(g, states.tables, undefined, undefined, { arena });
    expect(arena.holds(cch.topo.upHead)).toBe(true);
    const metric = new CchMetric(cch.topo, cch.states, costs, undefined, cch.topo.arcs / 10, null, arena);
    for (const a of [metric.up, metric.down]) {
      expect(arena.holds(a.weight)).toBe(false);
      expect(a.weight.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
    const query = new CchQuery(metric, undefined, CchCoreSearch.over(arena, cch.topo));
    expect(query.inWasm).toBe(false);
    expect(routes(query, ends)).toEqual(want);
  });

  it('grows its lists when a walk is longer than their room, and answers the same', () => {
    const { query } = over(2 ** 32, 4);
    expect(query.inWasm).toBe(true);
    expect(routes(query, ends)).toEqual(want);
  });

  it('leaves the metric, then the topology, in TypeScript when the arena cannot hold them, with the same routes', () => {
    const full = over(2 ** 32);
    const used = full.arena.used;
    // Room for the topology and labels but not the metric's arcs; then not even the topology's heads.
    for (const limit of [used - 4 * topo.size, 2 * 65536]) {
      const { core, query } = over(limit);
      expect(query.inWasm).toBe(false);
      if (limit > 65536 * 2) expect(core).not.toBeNull();
      expect(routes(query, ends)).toEqual(want);
    }
  });
});

describe('an arena', () => {
  it('hands out zeroed 8-aligned blocks, reuses and merges what is given back, and knows its views', () => {
    const arena = CchArena.create(cchModule()!)!;
    const a = arena.alloc(100)!,
      b = arena.alloc(1000)!,
      c = arena.alloc(24)!;
    for (const x of [a, b, c]) expect(x.at % 8).toBe(0);
    expect(b.at).toBe(a.at + 104);
    new Uint8Array(b.buffer, b.at, 1000).fill(7);
    const used = arena.used;
    arena.free(b.at, 1000);
    expect(arena.used).toBe(used - 1000);
    // First fit in the hole, zeroed.
    const d = arena.alloc(16)!;
    expect(d.at).toBe(b.at);
    expect([...new Uint8Array(d.buffer, d.at, 16)].every((x) => x === 0)).toBe(true);
    arena.free(d.at, 16);
    // Freed at the end, the top comes down past the merged holes: the next block starts where b did.
    arena.free(c.at, 24);
    const e = arena.alloc(4096)!;
    expect(e.at).toBe(b.at);
    expect([...new Uint8Array(e.buffer, e.at, 4096)].every((x) => x === 0)).toBe(true);
    // Views of the memory before and after it grew are its own; others are not.
    const big = arena.alloc(8 * 65536)!;
    expect(arena.holds(new Uint8Array(a.buffer, a.at, 1))).toBe(true);
    expect(arena.holds(new Float64Array(big.buffer, big.at, 8))).toBe(true);
    expect(arena.holds(new Uint8Array(new SharedArrayBuffer(8)))).toBe(false);
    expect(arena.holds(new Uint8Array(8))).toBe(false);
  });

  it('takes a scratch block, and is given back its end past the last array carved', () => {
    const arena = CchArena.create(cchModule()!)!;
    const used = arena.used;
    const scratch = new Scratch(1000, { arena });
    scratch.u8(100);
    const last = scratch.f64(100);
    expect(arena.holds(last)).toBe(true);
    expect(arena.used).toBe(used + 1000);
    scratch.giveBack(last.subarray(0, 10));
    expect(arena.used).toBe(used + 104 + 80);
    // Without room in the arena, a block of shared memory of its own.
    const small = CchArena.create(cchModule()!, arena.used)!;
    expect(small.holds(new Scratch(1000, { arena: small }).u8(10))).toBe(false);
  });

  it('does not touch again the room a block gave back unwritten, and zeroes what was written', () => {
    const arena = CchArena.create(cchModule()!)!;
    const room = arena.alloc(1 << 20)!,
      after = arena.alloc(64)!;
    // A byte written where the contract says none was: seen again only if the block is not zeroed when handed out.
    const bytes = new Uint8Array(room.buffer);
    bytes[room.at + 5000] = 9;
    arena.shrink(room.at, 1 << 20, 4096);
    const again = arena.alloc(8192)!;
    expect(again.at).toBe(room.at + 4096);
    expect(bytes[room.at + 5000]).toBe(9);
    // Freed at the end, a block lowers it past the holes that then end there.
    arena.free(after.at, 64);
    expect(arena.alloc(64)!.at).toBe(room.at + 4096 + 8192);
    // A block freed (written) is zeroed when handed out again.
    const a = arena.alloc(64)!;
    arena.alloc(64);
    bytes[a.at] = 3;
    arena.free(a.at, 64);
    expect(arena.alloc(64)!.at).toBe(a.at);
    expect(bytes[a.at]).toBe(0);
  });

  it('refuses a block past its limit, and shrinks a block to what it keeps', () => {
    const arena = CchArena.create(cchModule()!, 4 * 65536)!;
    expect(arena.alloc(4 * 65536)).toBeNull();
    const a = arena.alloc(65536)!;
    const used = arena.used;
    arena.shrink(a.at, 65536, 100);
    expect(arena.used).toBe(used - 65536 + 104);
    expect(arena.alloc(2 * 65536)!.at).toBe(a.at + 104);
  });
});
