import { beforeAll, describe, expect, it } from 'vitest';
import { CORE_RULE } from '../data-tools/ch-core.js';
import { layoutRecords } from '../data-tools/ch-layout.js';
import { baseGraph } from '../data-tools/ch-pack.js';
import { contractInWasm } from '../data-tools/ch-wasm.js';
import { Pack } from '../src/pack/reader.js';
import { CH_LAYOUT_VERSION, chSection, type ChArrays } from '../src/route/ch.js';
import { chSectionV4, fromV4 } from '../src/route/ch-v4.js';
import { ArcCosts } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { arcBearings } from '../src/route/turn-model.js';
import { TurnTable } from '../src/route/turns.js';
import { WasmHierarchy } from '../src/route/wasm/ch.js';
import { CH } from '../src/route/wasm/layout.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { asciiMapPack } from './helpers/ascii-map.js';
import { layoutV4 } from './helpers/ch-layout-v4.js';
import { RESTRICTED_GRID } from './helpers/ch-maps.js';
import { rewrite } from './helpers/pack-rewrite.js';
import { testPack } from './helpers/packs.js';
import { randomEndpoints } from './helpers/route-reference.js';
import { type Contraction, TUNING } from '../data-tools/ch-graph.js';

beforeAll(async () => {
  expect(await loadWasmCore()).not.toBeNull();
});

interface Entry {
  id: number;
  kind: 'node' | 'edge';
  profiles: number[];
  core: number;
}

const entries = (pack: Pack): { version: number; list: Entry[] } => pack.json('ch.index');

/** The pack's arrays of hierarchy `e` (CH layout v5). */
function arraysOf(pack: Pack, e: Entry): ChArrays {
  const arr = <K extends keyof ChArrays>(k: K) => pack.array<NonNullable<ChArrays[K]>>(chSection(e.id, k));
  return { rank: arr('rank'), first: arr('first'), node: arr('node'), a: arr('a'), b: arr('b') };
}

/** The contraction the pack builder ran for hierarchy `e` (deterministic: the same records and ranks). */
function contractionOf(pack: Pack, e: Entry, coreSize = -1): Contraction {
  const g = new RoadGraph(pack);
  const profile = e.profiles[0]!;
  const costs = new ArcCosts(g, profile, 'fastest', () => arcBearings(g));
  const { graph } = baseGraph(costs, new TurnTable(g, profile));
  return contractInWasm(graph, CORE_RULE.stopRule(graph.states, coreSize), TUNING);
}

const bytes = (x: ArrayBufferView) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);

/**
 * The v5 invariants of one hierarchy: rank a permutation; ranges in order; each state's upward and downward records
 * lead to higher-ranked states (or, in the core, to core states); a shortcut's two children lie in a later range
 * than the shortcut, both in the ranges of one state (the state it bypasses), ranked below both of the shortcut's
 * ends. Returns the shortcuts seen.
 */
function checkInvariants(ch: ChArrays, core: number): number {
  const { rank, first, node, a, b } = ch;
  const S = rank.length,
    R = node.length,
    top = S - core;
  expect(first.length).toBe(2 * S + 1);
  expect(first[0]).toBe(0);
  expect(first[2 * S]).toBe(R);
  const at = new Int32Array(S).fill(-1);
  for (let v = 0; v < S; v++) at[S - 1 - rank[v]!] = v;
  expect(at.includes(-1)).toBe(false);
  // Per record: the position of the state whose range holds it, and whether it is upward.
  const pos = new Int32Array(R),
    up = new Uint8Array(R);
  for (let p = 0; p < S; p++) {
    expect(first[2 * p]! <= first[2 * p + 1]! && first[2 * p + 1]! <= first[2 * p + 2]!).toBe(true);
    const rv = rank[at[p]!]!;
    for (let i = first[2 * p]!; i < first[2 * p + 2]!; i++) {
      pos[i] = p;
      up[i] = i < first[2 * p + 1]! ? 1 : 0;
      const ro = rank[node[i]!]!;
      if (!(ro > rv || (ro >= top && rv >= top))) throw new Error(`record ${i} leads down from position ${p}`);
    }
  }
  let shortcuts = 0;
  for (let i = 0; i < R; i++) {
    if (a[i]! < 0) continue;
    shortcuts++;
    const x = a[i]!,
      y = b[i]!;
    if (!(x > i && y > i && pos[x] === pos[y] && pos[x]! > pos[i]!)) throw new Error(`shortcut ${i}: ${x}, ${y}`);
    // The bypassed state: first child arrives there (downward record), the second leaves it (upward record).
    if (up[x] !== 0 || up[y] !== 1) throw new Error(`shortcut ${i}: children ${x}, ${y} not in and out`);
  }
  return shortcuts;
}

describe('CH layout v5: records in the order the searches read them', () => {
  it('Hanoi: every hierarchy keeps the invariants, and the WebAssembly core reads the ranges as stored', () => {
    const pack = Pack.from(testPack('hanoi', { hierarchies: true }));
    const index = entries(pack);
    expect(index.version).toBe(CH_LAYOUT_VERSION);
    expect(index.list.length).toBeGreaterThan(1);
    const g = new RoadGraph(pack);
    const router = new Router(g, pack);
    for (const e of index.list) {
      const ch = arraysOf(pack, e);
      expect(checkInvariants(ch, e.core)).toBeGreaterThan(1000);
      const ctx = router.context(e.profiles[0]!);
      const wch = router.hierarchyOf(ctx);
      expect(wch).toBeInstanceOf(WasmHierarchy);
      const h = (wch as WasmHierarchy).header;
      const mem = (wch as WasmHierarchy).core.mem;
      const at = mem.i32(h + CH.recFirst);
      expect(bytes(new Uint32Array(mem.buffer, at, ch.first.length)).equals(bytes(ch.first))).toBe(true);
    }
  });

  it("Hanoi: the WebAssembly core derives every record's weight as TypeScript does, bit for bit", () => {
    const pack = Pack.from(testPack('hanoi', { hierarchies: true }));
    const g = new RoadGraph(pack);
    const wasm = new Router(g, pack),
      ts = new Router(g, pack, { wasm: false });
    for (const e of entries(pack).list) {
      const profile = e.profiles[0]!;
      const wch = wasm.hierarchyOf(wasm.context(profile)) as WasmHierarchy;
      const [p, q] = randomEndpoints(g, ts, profile, 2, 3);
      // TypeScript derives its weights at its first query.
      ts.leg(p!, q!, profile);
      const want = (ts.context(profile).ch as unknown as { w: Float64Array }).w;
      const mem = wch.core.mem;
      const got = new Float64Array(mem.buffer, mem.i32(wch.header + CH.recW), want.length);
      expect(want.length).toBe(arraysOf(pack, e).node.length);
      expect(bytes(got).equals(bytes(want))).toBe(true);
    }
  });

  it('a forced core keeps the invariants (core edges stored at both ends)', () => {
    const { pack } = asciiMapPack(RESTRICTED_GRID, 'layout-core', { coreSize: 20 });
    const [e] = entries(pack).list;
    expect(e!.core).toBe(20);
    checkInvariants(arraysOf(pack, e!), e!.core);
  });

  /** Monaco with the car hierarchy's last shortcut given a first child before it, and that shortcut. */
  const childBefore = (): { pack: Pack; i: number } => {
    const pack = Pack.from(testPack('monaco', { hierarchies: true }));
    const e = entries(pack).list.find((x) => x.profiles.includes(0))!;
    const a = pack.array<Int32Array>(chSection(e.id, 'a')).slice();
    let i = a.length - 1;
    while (i > 0 && a[i]! < 0) i--;
    expect(i).toBeGreaterThan(0);
    a[i] = i - 1;
    return { pack: Pack.from(rewrite(pack, { [chSection(e.id, 'a')]: a })), i };
  };

  it('refuses a shortcut whose child lies before it (the backward derivation would read it unset)', () => {
    const { pack, i } = childBefore();
    const router = new Router(new RoadGraph(pack), pack, { wasm: false });
    const [p, q] = randomEndpoints(router.graph, router, 0, 2, 5);
    const refused = new RegExp(`corrupt contraction hierarchy: record ${i} has children`);
    expect(() => router.leg(p!, q!, 0)).toThrow(refused);
    // Refused again, not answered from weights half derived.
    expect(() => router.leg(p!, q!, 0)).toThrow(refused);
  });

  it('the WebAssembly core refuses it as well, and the router stays in TypeScript, which refuses it', () => {
    const { pack, i } = childBefore();
    const router = new Router(new RoadGraph(pack), pack);
    const [p, q] = randomEndpoints(router.graph, router, 0, 2, 5);
    const refused = new RegExp(`corrupt contraction hierarchy: record ${i} has children`);
    expect(router.core(0)).toBe('typescript');
    expect(router.coreInfo().reason).toMatch(refused);
    expect(() => router.leg(p!, q!, 0)).toThrow(refused);
  });
});

describe('a version 4 hierarchy (written by the previous layout) answers as the version 5 one', () => {
  it('Hanoi car, full and with a forced core: v4 laid out at load equals v5 byte for byte', () => {
    const pack = Pack.from(testPack('hanoi', { hierarchies: true }));
    const e = entries(pack).list.find((x) => x.profiles.includes(0))!;
    for (const coreSize of [-1, 1000]) {
      const c = contractionOf(pack, e, coreSize);
      const S = c.rank.length;
      const v5 = layoutRecords(S, c.records, c.rank, c.core);
      if (coreSize < 0)
        for (const k of ['rank', 'first', 'node', 'a', 'b'] as const)
          expect(bytes(v5[k]).equals(bytes(arraysOf(pack, e)[k])), k).toBe(true);
      const old = fromV4(layoutV4(S, c.records, c.rank, c.core));
      for (const k of ['rank', 'first', 'node', 'a', 'b'] as const)
        expect(bytes(old[k]).equals(bytes(v5[k])), k).toBe(true);
    }
  });

  /** The pack with its hierarchies rewritten in layout v4 (the same contraction), index version 4. */
  function asV4(pack: Pack): Uint8Array {
    const index = entries(pack);
    const change: Record<string, unknown> = { 'ch.index': { ...index, version: 4 } };
    for (const e of index.list) {
      const c = contractionOf(pack, e, e.core > 0 ? e.core : -1);
      const v4 = layoutV4(c.rank.length, c.records, c.rank, c.core);
      change[chSection(e.id, 'first')] = null;
      change[chSectionV4(e.id, 'upFirst')] = v4.upFirst;
      change[chSectionV4(e.id, 'dnFirst')] = v4.dnFirst;
      for (const k of ['node', 'a', 'b'] as const) change[chSection(e.id, k)] = v4[k];
    }
    return rewrite(pack, change);
  }

  /** Legs and matrices of both packs, TypeScript and WebAssembly queries, identical; returns the routes found. */
  function sameAnswers(v5: Pack, v4: Pack, profile: number, n: number, seed: number): number {
    let found = 0;
    for (const wasm of [false, true]) {
      const a = new Router(new RoadGraph(v5), v5, { wasm }),
        b = new Router(new RoadGraph(v4), v4, { wasm });
      expect(a.context(profile).ch).not.toBeNull();
      expect(b.context(profile).ch).not.toBeNull();
      if (wasm) expect(b.hierarchyOf(b.context(profile))).toBeInstanceOf(WasmHierarchy);
      const pts = randomEndpoints(new RoadGraph(v5), a, profile, n, seed);
      const origins = pts.slice(0, n >> 1),
        dests = pts.slice(n >> 1);
      for (const o of origins)
        for (const d of dests) {
          const x = a.leg(o, d, profile);
          expect(b.leg(o, d, profile)).toEqual(x);
          if (x) found++;
        }
      const ta = a.table(origins, dests, profile),
        tb = b.table(origins, dests, profile);
      expect(tb.weight).toEqual(ta.weight);
      expect(tb.dur).toEqual(ta.dur);
      expect(tb.dist).toEqual(ta.dist);
    }
    return found;
  }

  it('Monaco, every vehicle: a v4 pack routes exactly as the v5 pack', () => {
    const v5 = Pack.from(testPack('monaco', { hierarchies: true }));
    const v4 = Pack.from(asV4(v5));
    expect(entries(v4).version).toBe(4);
    expect(v4.has(chSection(0, 'first'))).toBe(false);
    for (const profile of [0, 1, 3]) expect(sameAnswers(v5, v4, profile, 24, 7 + profile)).toBeGreaterThan(50);
  });

  it('a core hierarchy: a v4 pack routes exactly as the v5 pack', () => {
    const { pack } = asciiMapPack(RESTRICTED_GRID, 'layout-v4-core', { coreSize: 25 });
    const v4 = Pack.from(asV4(pack));
    expect(sameAnswers(pack, v4, 0, 30, 3)).toBeGreaterThan(100);
  });
});
