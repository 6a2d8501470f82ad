import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { buildDimacsPack } from '../data-tools/dimacs-pack.js';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router, WASM_QUERY_RESERVE } from '../src/route/router.js';
import { leastHierarchyBytes, WasmHierarchy } from '../src/route/wasm/ch.js';
import { GRAPH_BYTES } from '../src/route/wasm/layout.js';
import type { WasmGraph } from '../src/route/wasm/core.js';
import type { WasmArcSearch } from '../src/route/wasm/search.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { DATA, OSM, PACK_INPUTS, testPack } from './helpers/packs.js';
import { randomEndpoints } from './helpers/route-reference.js';

beforeAll(async () => {
  expect(await loadWasmCore()).not.toBeNull();
});

/**
 * The pack hierarchy queried by the WebAssembly core against the TypeScript query: identical legs (path, weight,
 * duration, distance), identical settled counts and identical matrices; the legs also add up along their paths.
 * Returns the number of routes found.
 */
function same(pack: Pack, profile: number, kind: 'node' | 'edge', n: number, seed: number): number {
  const g = new RoadGraph(pack);
  const ts = new Router(g, pack, { wasm: false });
  const wa = new Router(g, pack);
  const tctx = ts.context(profile),
    wctx = wa.context(profile);
  expect(tctx.ch?.edgeBased).toBe(kind === 'edge');
  expect(wa.core(profile)).toBe('wasm');
  const wch = wa.hierarchyOf(wctx)!;
  expect(wch).toBeInstanceOf(WasmHierarchy);
  const pts = randomEndpoints(g, ts, profile, n, seed);
  // A pair on one edge, the target ahead or behind.
  pts.push({ ...pts[0]!, t: Math.min(1, pts[0]!.t + 0.05) }, { ...pts[0]!, t: Math.max(0, pts[0]!.t - 0.05) });
  const origins = pts.slice(0, n >> 1).concat(pts[0]!),
    dests = pts.slice(n >> 1);
  let found = 0;
  for (const a of origins) {
    for (const b of dests) {
      const want = ts.leg(a, b, profile);
      const settled = tctx.ch!.settled;
      const got = wa.leg(a, b, profile);
      expect(got).toEqual(want);
      expect(wch.settled).toBe(settled);
      if (!got) continue;
      found++;
      const sums = wa.measure(got.path, wctx);
      expect(sums.weight).toBeCloseTo(got.weight, 6);
      expect(sums.duration).toBeCloseTo(got.duration, 6);
      expect(sums.distance).toBeCloseTo(got.distance, 6);
    }
  }
  const tt = ts.table(origins, dests, profile),
    wt = wa.table(origins, dests, profile);
  expect(wt.weight).toEqual(tt.weight);
  expect(wt.dur).toEqual(tt.dur);
  expect(wt.dist).toEqual(tt.dist);
  if (kind === 'edge') {
    // Leaving along a given arc (no U-turn at an intermediate stop).
    for (let i = 0; i + 1 < pts.length; i++) {
      const only = { ...pts[i]!, only: 2 * pts[i]!.edge + (i & 1) };
      expect(wa.leg(only, pts[i + 1]!, profile)).toEqual(ts.leg(only, pts[i + 1]!, profile));
    }
  }
  return found;
}

describe('edge-based pack hierarchies: the WebAssembly query equals the TypeScript one', () => {
  for (const [region, profiles] of [
    ['hanoi', [0, 1, 3]],
    ['dalat', [0]],
    ['monaco', [0, 3]],
  ] as const) {
    for (const profile of profiles) {
      it(`${region}, profile ${profile}`, () => {
        expect(
          same(Pack.from(testPack(region, { hierarchies: true })), profile, 'edge', 30, 11 + profile),
        ).toBeGreaterThan(100);
      });
    }
  }
});

describe('node-based hierarchy of a DIMACS window of New York: the WebAssembly query equals the TypeScript one', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'wasm-ch-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('on seeded random pairs', async () => {
    const lines = (f: string) =>
      gunzipSync(readFileSync(`${DATA}dimacs/${f}`))
        .toString('latin1')
        .split('\n');
    const co = lines('USA-road-d.NY.co.gz')
      .filter((l) => l.startsWith('v '))
      .map((l) => l.split(' ').map(Number));
    // Lower Manhattan, in DIMACS micro-degrees.
    const keep = new Map<number, number>();
    for (const [, id, lon, lat] of co)
      if (lon! > -74020000 && lon! < -73970000 && lat! > 40700000 && lat! < 40740000) keep.set(id!, keep.size + 1);
    const arcs = lines('USA-road-d.NY.gr.gz')
      .filter((l) => l.startsWith('a '))
      .map((l) => l.split(' ').map(Number))
      .filter(([, u, v]) => keep.has(u!) && keep.has(v!));
    writeFileSync(
      join(tmp, 'w-d.co.gz'),
      gzipSync(
        [
          `p aux sp co ${keep.size}`,
          ...co.filter(([, id]) => keep.has(id!)).map(([, id, lon, lat]) => `v ${keep.get(id!)} ${lon} ${lat}`),
        ].join('\n') + '\n',
      ),
    );
    writeFileSync(
      join(tmp, 'w-d.gr.gz'),
      gzipSync(
        [
          `p sp ${keep.size} ${arcs.length}`,
          ...arcs.map(([, u, v, w]) => `a ${keep.get(u!)} ${keep.get(v!)} ${w}`),
        ].join('\n') + '\n',
      ),
    );
    expect(keep.size).toBeGreaterThan(1000);
    const pack = Pack.from(await buildDimacsPack(join(tmp, 'w-d.gr.gz'), join(tmp, 'w-d.co.gz'), 'window'));
    expect(same(pack, 0, 'node', 40, 5)).toBeGreaterThan(300);
    // The same window contracted down to a core of 400 states: the node-based core search.
    const cored = Pack.from(
      await buildDimacsPack(join(tmp, 'w-d.gr.gz'), join(tmp, 'w-d.co.gz'), 'window', { coreSize: 400 }),
    );
    expect(cored.json<{ list: { core: number }[] }>('ch.index').list[0]!.core).toBe(400);
    expect(same(cored, 0, 'node', 40, 6)).toBeGreaterThan(300);
  });
});

describe('edge-based hierarchies with a core: the WebAssembly query equals the TypeScript one', () => {
  it('Đà Lạt with a forced core of 1,500 states, three vehicles', () => {
    const bytes = buildOsmPack({
      inputs: PACK_INPUTS.dalat.map((f) => OSM + f),
      name: 'dalat',
      admin: null,
      contraction: { coreSize: 1500 },
    });
    const pack = Pack.from(bytes);
    expect(pack.json<{ list: { core: number }[] }>('ch.index').list.every((e) => e.core === 1500)).toBe(true);
    for (const profile of [0, 1, 3]) expect(same(pack, profile, 'edge', 30, 21 + profile)).toBeGreaterThan(100);
  });
});

describe('a hierarchy the core cannot take', () => {
  it('is refused when a record weight is infinite (a corrupt pack), and the router stays in TypeScript', () => {
    const pack = Pack.from(testPack('monaco', { hierarchies: true }));
    const wa = new Router(new RoadGraph(pack), pack);
    const ctx = wa.context(0);
    // The core reads an infinite label weight as "not labelled", so it must never see one in a record: an original
    // record over an arc made closed after the hierarchy was checked against the costs.
    const arrays = ctx.ch!.ch;
    const r = arrays.a.findIndex((x) => x < 0);
    ctx.costs.weight[arrays.b[r]!] = Infinity;
    expect(wa.core(0)).toBe('typescript');
    expect(wa.hierarchyOf(ctx)).toBe(ctx.ch);
    expect(wa.coreInfo().reason).toMatch(/corrupt contraction hierarchy: record \d+ has a weight that is not finite/);
  });
});

describe('hierarchies that do not all fit in one instance of the core', () => {
  const pack = Pack.from(testPack('hanoi', { hierarchies: true }));
  const g = new RoadGraph(pack);
  const ts = new Router(g, pack, { wasm: false });
  // Hanoi's three hierarchies: car (shared by taxi and hd), bike, truck.
  const profiles = [0, 1, 3];
  const pts = randomEndpoints(g, ts, 0, 12, 5);
  /** Hierarchy legs and tables, and A* (its labels set up with the context, restored when a later one was refused). */
  const agree = (router: Router) => {
    for (const p of profiles) {
      const search = router.searchOf(router.context(p));
      for (let i = 0; i + 1 < pts.length; i += 2) {
        expect(router.leg(pts[i]!, pts[i + 1]!, p)).toEqual(ts.leg(pts[i]!, pts[i + 1]!, p));
        expect(search.route(pts[i]!, pts[i + 1]!)).toEqual(ts.context(p).search.route(pts[i]!, pts[i + 1]!));
      }
      expect(router.table(pts, pts, p)).toEqual(ts.table(pts, pts, p));
    }
  };
  /** Bytes the TypeScript side fills in an instance with the graph and, unless `profile` is omitted, one vehicle. */
  const bytesOf = (profile?: number) => {
    const r = new Router(g, profile === undefined ? null : pack);
    r.core(profile ?? 0);
    return (r.searchOf(r.context(profile ?? 0)) as WasmArcSearch).core.mem.used;
  };

  it('each goes into an instance of its own when two do not fit in one, with the same answers', () => {
    // Room for the graph and any one vehicle (its costs, hierarchy and A* labels), not two.
    const graph = bytesOf();
    const alone = profiles.map((p) => bytesOf(p) - graph);
    const limit = graph + Math.max(...alone) + WASM_QUERY_RESERVE;
    const wa = new Router(g, pack, { wasmLimit: limit });
    const cores = profiles.map((p) => {
      expect(wa.core(p)).toBe('wasm');
      return (wa.searchOf(wa.context(p)) as WasmArcSearch).core;
    });
    expect(new Set(cores).size).toBe(3);
    expect(wa.coreInfo()).toEqual({ core: 'wasm', reason: null });
    agree(wa);
  });

  it('a vehicle that does not fit alone routes in TypeScript; the others keep the core and say which', () => {
    // Room for the graph, not for a hierarchy: every vehicle's setup is rolled back.
    const wa = new Router(g, pack, { wasmLimit: bytesOf() + WASM_QUERY_RESERVE });
    for (const p of profiles) expect(wa.core(p)).toBe('typescript');
    const info = wa.coreInfo();
    expect(info.core).toBe('wasm');
    expect(info.inTypeScript).toHaveLength(3);
    expect(info.inTypeScript![0]).toMatch(/^car \(fastest\) does not fit in WebAssembly memory \(.+\)$/);
    agree(wa);
  });

  it('a hierarchy bigger than the room left is refused before any of it is copied, and a fitting one never is', () => {
    const graph = bytesOf();
    // A lower bound of what a vehicle takes (its costs and A* labels come on top), and most of it.
    const least = profiles.map((p) => leastHierarchyBytes(ts.context(p).ch!));
    profiles.forEach((p, i) => {
      expect(least[i]).toBeLessThanOrEqual(bytesOf(p) - graph);
      expect(least[i]).toBeGreaterThan(0.5 * (bytesOf(p) - graph));
    });
    // One byte short of the car's least beside the graph's copy: refused by the check, before its costs.
    const plain = new Router(g, null);
    const { graphBytes } = (plain.searchOf(plain.context(0)) as WasmArcSearch).core;
    const wa = new Router(g, pack, { wasmLimit: graphBytes + least[0]! - 1 + WASM_QUERY_RESERVE });
    expect(wa.core(0)).toBe('typescript');
    expect(wa.coreInfo().inTypeScript![0]).toMatch(/its hierarchy needs at least \d+ bytes of the core's memory/);
    // Its memory never grew for the records (the setup used to copy them until the limit was passed).
    const { mem } = (wa as unknown as { wasmGraph: WasmGraph }).wasmGraph;
    expect(mem.used).toBe(graphBytes);
    expect(mem.buffer.byteLength).toBeLessThan(graphBytes + least[0]! / 2);
    agree(wa);
  });

  it('a request the core has no memory left for is answered in TypeScript, and the core answers the next ones', () => {
    // Room for the graph and the car, with the reserve for requests: a 900 × 900 table's outputs (19 MB) do not fit.
    const wa = new Router(g, pack, { wasmLimit: bytesOf(0) + WASM_QUERY_RESERVE });
    expect(wa.core(0)).toBe('wasm');
    const ctx = wa.context(0);
    const core = (wa.searchOf(ctx) as WasmArcSearch).core;
    const big = randomEndpoints(g, ts, 0, 900, 6);
    const n = big.length ** 2;
    const out = { weight: new Float64Array(n), dur: new Float64Array(n), dist: new Float64Array(n) };
    const used = core.mem.used;
    expect(() => (wa.hierarchyOf(ctx) as WasmHierarchy).table(big, big, out)).toThrow(RangeError);
    expect(core.mem.used).toBe(used);
    const [got, want] = [wa.table(big, big, 0), ts.table(big, big, 0)];
    for (const k of ['weight', 'dur', 'dist'] as const)
      expect(Buffer.from(got[k].buffer).equals(Buffer.from(want[k].buffer))).toBe(true);
    // The core still answers, with output arrays bigger than any it had before the failed request.
    const some = big.slice(0, 40);
    expect(wa.core(0)).toBe('wasm');
    expect(wa.table(some, some, 0)).toEqual(ts.table(some, some, 0));
    for (let i = 0; i + 1 < pts.length; i += 2)
      expect(wa.leg(pts[i]!, pts[i + 1]!, 0)).toEqual(ts.leg(pts[i]!, pts[i + 1]!, 0));
  });

  it('a vehicle set up past 2 GiB of the instance answers as TypeScript does (addresses are unsigned)', () => {
    const wa = new Router(g, pack);
    const mem = (wa.searchOf(wa.context(0)) as WasmArcSearch).core.mem;
    // Never touched, so it costs address space only.
    mem.alloc(2 ** 31);
    const bike = wa.searchOf(wa.context(1)) as WasmArcSearch;
    expect(bike.core.mem).toBe(mem);
    expect(bike.header).toBeGreaterThan(2 ** 31);
    for (let i = 0; i + 1 < pts.length; i += 2) {
      expect(wa.leg(pts[i]!, pts[i + 1]!, 1)).toEqual(ts.leg(pts[i]!, pts[i + 1]!, 1));
      expect(bike.route(pts[i]!, pts[i + 1]!)).toEqual(ts.context(1).search.route(pts[i]!, pts[i + 1]!));
    }
    expect(wa.table(pts, pts, 1)).toEqual(ts.table(pts, pts, 1));
    expect(wa.coreInfo()).toEqual({ core: 'wasm', reason: null });
  });

  it('a checkpoint restores the instance: memory handed out since, the header and capacities; freed bytes read as zeros', () => {
    const wa = new Router(g, null);
    wa.core(0);
    const core = (wa.searchOf(wa.context(0)) as WasmArcSearch).core;
    const mem = core.mem;
    const header = () => new Uint8Array(mem.buffer, core.header, GRAPH_BYTES).slice();
    const [used, before] = [mem.used, header()];
    const restore = core.checkpoint();
    // Bigger A* labels and point arrays than the instance has, as a refused vehicle with more states would make.
    core.ensureSearchState(4 * g.edgeCount);
    core.writePoints(pts, 10_000);
    new Uint8Array(mem.buffer, mem.filled(1 << 16, 0xff), 1 << 16).fill(0xee);
    expect(header()).not.toEqual(before);
    restore();
    expect(mem.used).toBe(used);
    expect(header()).toEqual(before);
    // The labels are made again when asked for more states than before the checkpoint.
    core.ensureSearchState(4 * g.edgeCount);
    expect(header()).not.toEqual(before);
    const at = mem.filled(1 << 17, 0);
    expect(new Uint8Array(mem.buffer, at, 1 << 17).every((x) => x === 0)).toBe(true);
  });
});
