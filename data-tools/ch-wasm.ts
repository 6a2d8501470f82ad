import { readFileSync } from 'node:fs';
import type { BaseGraph, Contraction, LiveLists, StopRule, Tuning } from './ch-graph.js';

/**
 * The contraction loop in WebAssembly (ch-contract.wasm, built from wasm/contract by `npm run build:wasm`; it sits
 * next to this module: data-tools/ in the repository, dist/ in the package, copied there by tsup). One instance per
 * contraction: its memory (at most 4 GB, wasm32) is released with it.
 */
const WASM_URL = new URL('./ch-contract.wasm', import.meta.url);

let compiled: WebAssembly.Module | undefined;

/** Field order of `Out` in wasm/contract/lib.rs (u32 each). */
const OUT_FIELDS = [
  'records',
  'tail',
  'head',
  'a',
  'b',
  'recHops',
  'rank',
  'core',
  'outStart',
  'outLen',
  'outEntries',
  'innStart',
  'innLen',
  'innEntries',
  'first',
  'inHead',
  'weight',
  'payload',
  'hops',
  'keep',
] as const;

interface Exports {
  memory: WebAssembly.Memory;
  prepare(states: number, edges: number): number;
  contract(
    coreSize: number,
    maxLeft: number,
    minStates: number,
    degree: number,
    realSettles: number,
    simMin: number,
    simMax: number,
    eager: number,
    prioEdges: number,
    prioHops: number,
    prioDepth: number,
  ): number;
}

/**
 * Runs the contraction loop of `g` in a fresh WebAssembly instance with the tuning `t` (ch-build.ts TUNING) and
 * copies its result out; states marked in `g.keep` stay uncontracted. `progress` hears states contracted, every 1024.
 */
export function contractInWasm(
  g: BaseGraph,
  stop: StopRule,
  t: Tuning,
  progress?: (done: number) => void,
): Contraction {
  compiled ??= new WebAssembly.Module(readFileSync(WASM_URL));
  const instance = new WebAssembly.Instance(compiled, { env: { progress: (done: number) => progress?.(done) } });
  const x = instance.exports as unknown as Exports;
  const E = g.head.length;
  const read = (at: number) => {
    const o = new Uint32Array(x.memory.buffer, at, OUT_FIELDS.length);
    return Object.fromEntries(OUT_FIELDS.map((k, i) => [k, o[i]!])) as Record<(typeof OUT_FIELDS)[number], number>;
  };
  const inp = read(x.prepare(g.states, E));
  new Uint32Array(x.memory.buffer, inp.first, g.states + 1).set(g.first);
  new Uint32Array(x.memory.buffer, inp.inHead, E).set(g.head);
  new Float64Array(x.memory.buffer, inp.weight, E).set(g.weight);
  new Int32Array(x.memory.buffer, inp.payload, E).set(g.payload);
  if (g.hops) new Int32Array(x.memory.buffer, inp.hops, E).set(g.hops);
  if (g.keep) new Uint8Array(x.memory.buffer, inp.keep, g.states).set(g.keep);
  let at: number;
  try {
    at = x.contract(
      stop.coreSize,
      stop.maxLeft,
      stop.minStates,
      stop.degree,
      t.realSettles,
      t.simMin,
      t.simMax,
      t.eager,
      t.prioEdges,
      t.prioHops,
      t.prioDepth,
    );
  } catch (err) {
    // A wasm32 instance has at most 4 GB; the module aborts (a trap) when an allocation fails.
    const mb = Math.round(x.memory.buffer.byteLength / 2 ** 20);
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `contracting ${g.states} states failed in WebAssembly (${mb} MB of memory in use, 4096 at most): ${why}`,
    );
  }
  const o = read(at);
  // Copies (slice), so the instance's memory can go.
  const buf = x.memory.buffer;
  const S = g.states,
    n = o.records;
  const u32 = (at: number, len: number) => new Uint32Array(buf, at, len).slice();
  const i32 = (at: number, len: number) => new Int32Array(buf, at, len).slice();
  /** A pool's lists, its entries (16 bytes: weight, other state, record) split into arrays. */
  const lists = (start: number, len: number, entries: number): LiveLists => {
    const st = i32(start, S),
      ln = i32(len, S);
    // Entries up to the end of the last used slot: only the core's lists are still non-empty.
    let end = 0;
    for (let s = 0; s < S; s++) if (ln[s]! > 0) end = Math.max(end, st[s]! + ln[s]!);
    const wv = new Float64Array(buf, entries, 2 * end),
      ov = new Int32Array(buf, entries, 4 * end);
    const other = new Int32Array(end),
      w = new Float64Array(end),
      rec = new Int32Array(end);
    for (let i = 0; i < end; i++) {
      w[i] = wv[2 * i]!;
      other[i] = ov[4 * i + 2]!;
      rec[i] = ov[4 * i + 3]!;
    }
    return { start: st, len: ln, other, w, rec };
  };
  return {
    records: { n, tail: u32(o.tail, n), head: u32(o.head, n), a: i32(o.a, n), b: i32(o.b, n) },
    hops: i32(o.recHops, n),
    rank: u32(o.rank, S),
    core: o.core,
    out: lists(o.outStart, o.outLen, o.outEntries),
    inn: lists(o.innStart, o.innLen, o.innEntries),
  };
}
