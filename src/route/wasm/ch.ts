import {
  corruptHierarchy,
  rangesFault,
  recordFault,
  type ChRecordArray,
  type ChRoute,
  type ContractionHierarchy,
} from '../ch.js';
import { posOnArc, type Endpoint } from '../search.js';
import type { WasmGraph } from './core.js';
import {
  CH,
  CH_BLOCK_RECORDS,
  CH_BUCKET_BYTES,
  CH_BYTES,
  CH_DL_BYTES,
  CH_LM_MAX,
  HEAP_ENTRY_BYTES,
  type ChField,
} from './layout.js';

/** Bucket entries allocated up front for many-to-many searches (the core regrows them by doubling). */
const INITIAL_BUCKETS = 4096;

/**
 * Bytes a {@link WasmHierarchy} of `ch` allocates at least: its per-record arrays (36 bytes a record) and per-state
 * arrays (about 140 bytes a state); its landmarks and buckets come on top. The router compares it with an
 * instance's room before copying anything, so that a hierarchy that cannot fit (a wasm32 memory ends at 4 GiB) is
 * refused at once, not after gigabytes were copied and memory grew for nothing. Kept a lower bound of the
 * constructor's allocations (test/wasm-ch.test.ts), so no hierarchy that fits is refused by it.
 */
export function leastHierarchyBytes(ch: ContractionHierarchy): number {
  const S = ch.states;
  const R = ch.records;
  // recW, recNode, kidA, kidB, recDl.
  const perRecord = 8 + 4 + 4 + 4 + CH_DL_BYTES;
  // perm, recFirst, dlStack, packState, path, stack, first; then both search sides (see `side`).
  const perState = 7 * 4 + 2 * (8 + 8 + 4 + 4 + 16 + HEAP_ENTRY_BYTES);
  return perRecord * R + perState * S;
}

/**
 * A pack's hierarchy (with or without a core) queried by the WebAssembly core, with the signatures and answers of
 * ContractionHierarchy's `route` and `table` (same algorithm, same heap: same meeting state, same path, same sums).
 * The core searches and unpacks the records in the pack's order (CH layout v5: states by rank from the top, so the
 * core's states are the first ones; see wasm/src/ch.rs) with labels reduced to weights, which changes no answer. At
 * load: the pack's record arrays copied as they are, and one pass of the core over them (wasm/src/derive.rs) that
 * derives and checks the record weights, so the TypeScript query derives none unless it answers itself.
 * Memory: 36 bytes per record (weight and other state; children; seconds and metres, resident once a query derived
 * them), about 140 bytes per state, and per core state its landmark weights and 40 bytes of core search state.
 * Throws RangeError when memory cannot grow (the router then sets it up in another instance, or routes the vehicle
 * in TypeScript), and the corrupt hierarchy error when a record is (recordFault) or its weight is not finite: the
 * router then stays in TypeScript, whose query refuses the hierarchy likewise.
 */
export class WasmHierarchy {
  /** Address of the `Ch` header. */
  readonly header: number;

  constructor(
    readonly core: WasmGraph,
    readonly costsHeader: number,
    readonly ch: ContractionHierarchy,
  ) {
    const m = core.mem;
    const S = ch.states;
    const R = ch.records;
    this.header = m.filled(CH_BYTES, 0);
    // States renumbered from the highest rank down (see `perm` in wasm/src/ch.rs): the pack's record order (CH
    // layout v5), so the records and their ranges are used as they are.
    const perm = m.alloc(4 * S);
    const permU32 = new Uint32Array(m.buffer, perm, S);
    const rank = ch.sections?.rank ?? ch.ch.rank;
    for (let s = 0; s < S; s++) permU32[s] = S - 1 - rank[s]!;
    // A shortest path holds each state at most once (plus the source and target arcs).
    const pathCap = S + 2;
    const recFirst = this.place('first', 4 * (2 * S + 1));
    // The core's derive trusts the ranges: checked on its copy, the only one (the TypeScript query checks its own).
    const fault = rangesFault(new Uint32Array(m.buffer, recFirst, 2 * S + 1), S, R);
    if (fault) throw corruptHierarchy(fault);
    // The record arrays are the pack's as they are (other states renumbered in place by the core's derive), the
    // weights the core's; seconds and metres are derived at first use (zeroed memory: none derived).
    const set: [ChField, number][] = [
      ['states', S],
      ['edgeBased', ch.edgeBased ? 1 : 0],
      ['resultArc', -1],
      ['perm', perm],
      ['recFirst', recFirst],
      ['recW', m.alloc(8 * R)],
      ['recNode', this.place('node', 4 * R)],
      ['kidA', this.place('a', 4 * R)],
      ['kidB', this.place('b', 4 * R)],
      ['recDl', m.alloc(CH_DL_BYTES * R)],
      ['dlDone', m.filled(4 * Math.ceil(R / 32), 0)],
      ['dlStack', m.alloc(4 * (S + 1))],
      ['packState', m.alloc(4 * S)],
      ['blockState', m.alloc(4 * Math.ceil(R / CH_BLOCK_RECORDS))],
      ['pathCap', pathCap],
      ['path', m.alloc(4 * pathCap)],
      ['stack', m.alloc(4 * pathCap)],
      ...this.side('f', S),
      ...this.side('b', S),
      ['bucketCap', INITIAL_BUCKETS],
      ['eState', m.alloc(4 * INITIAL_BUCKETS)],
      ['eDest', m.alloc(4 * INITIAL_BUCKETS)],
      ['eW', m.alloc(8 * INITIAL_BUCKETS)],
      ['eD', m.alloc(8 * INITIAL_BUCKETS)],
      ['eL', m.alloc(8 * INITIAL_BUCKETS)],
      ['sorted', m.alloc(CH_BUCKET_BYTES * INITIAL_BUCKETS)],
      // Zero at every state between many-to-many calls (wasm/src/ch.rs `first`).
      ['first', m.filled(4 * (S + 1), 0)],
      ...this.coreFields(),
    ];
    for (const [f, v] of set) m.i32(this.header + CH[f], v);
    const bad = core.exports.ch_derive(core.header, costsHeader, this.header);
    if (bad >= 0) {
      // Named from the pack's own arrays (the core renumbered its copy in place).
      const fault = recordFault(ch.ch, bad, ch.costs.weight.length);
      // The core reads an infinite label weight as "not labelled", so a record must never offer an infinite
      // weight (the builder drops closed arcs; only a corrupt pack could).
      throw corruptHierarchy(fault ?? `record ${bad} has a weight that is not finite`);
    }
  }

  /**
   * Address of hierarchy array k (`bytes` long) in memory: read there straight from the pack's section when the
   * hierarchy reads its sections (the only copy: none on the TypeScript side), else copied from its array.
   */
  private place(k: ChRecordArray, bytes: number): number {
    const m = this.core.mem;
    const sections = this.ch.sections;
    if (!sections) return m.copy(this.ch.ch[k]);
    const at = m.alloc(bytes);
    sections.into(k, new Uint8Array(m.buffer, at, bytes));
    return at;
  }

  /**
   * The fields of the core search (see `Ch` in wasm/src/ch.rs): the landmark weights renumbered like the states (core
   * state c, of rank S − C + c, is state C − 1 − c here) and the search's arrays. Without a core, all empty.
   */
  private coreFields(): [ChField, number][] {
    const m = this.core.mem;
    const ch = this.ch;
    const C = ch.core,
      L = ch.landmarks;
    if (C === 0) return [];
    new Float64Array(m.buffer, this.header + CH_LM_MAX, 1)[0] = ch.lmMax;
    const renumber = (x: Float64Array) => {
      const y = new Float64Array(C * L);
      for (let c = 0; c < C; c++) y.set(x.subarray(c * L, (c + 1) * L), (C - 1 - c) * L);
      return m.copy(y);
    };
    return [
      ['core', C],
      ['landmarks', L],
      ['lmFrom', renumber((ch.sections ?? ch.ch).lmFrom!)],
      ['lmTo', renumber((ch.sections ?? ch.ch).lmTo!)],
      ['potF', m.alloc(8 * C)],
      ['potB', m.alloc(8 * C)],
      ['potGen', m.filled(4 * C, 0)],
      ['lmc', m.alloc(32 * L)],
      ['entF', m.alloc(4 * C)],
      ['entB', m.alloc(4 * C)],
    ];
  }

  /** The fields of one search side's memory (`SideMem` in wasm/src/ch.rs): every state unlabelled, not queued. */
  private side(p: 'f' | 'b', S: number): [ChField, number][] {
    const m = this.core.mem;
    const w = m.alloc(8 * S);
    new Float64Array(m.buffer, w, S).fill(Infinity);
    return [
      [`${p}w`, w],
      [`${p}pp`, m.alloc(8 * S)],
      [`${p}pos`, m.filled(4 * S, 0xff)],
      [`${p}touched`, m.alloc(4 * S)],
      [`${p}dl`, m.alloc(16 * S)],
      [`${p}heap`, m.alloc(HEAP_ENTRY_BYTES * (S + 1))],
    ];
  }

  /** States settled by the last query. */
  get settled(): number {
    return this.core.mem.i32(this.header + CH.settled);
  }

  /** Best route between two endpoints, or null (see ContractionHierarchy.route). */
  route(src: Endpoint, dst: Endpoint): ChRoute | null {
    const k = this.core;
    // One call searches and unpacks; the path is read from memory through views kept across queries.
    const n = k.exports.ch_route(
      k.header,
      this.costsHeader,
      this.header,
      src.edge,
      src.t,
      src.only ?? -1,
      dst.edge,
      dst.t,
    );
    if (n === -1) return null;
    if (n === -3) throw new Error('contraction hierarchy path longer than the graph has arcs');
    const { f64, i32 } = k.mem.views();
    const h = this.header;
    const weight = f64[h >>> 3]!,
      dur = f64[(h >>> 3) + 1]!,
      dist = f64[(h >>> 3) + 2]!;
    if (n === -2) {
      const a = i32[(h + CH.resultArc) >>> 2]!;
      return { path: { arcs: [a], from: posOnArc(src, a), to: posOnArc(dst, a), weight }, weight, dur, dist };
    }
    const at = i32[(h + CH.path) >>> 2]! >>> 2;
    const arcs = new Array<number>(n);
    for (let i = 0; i < n; i++) arcs[i] = i32[at + i]!;
    return {
      path: { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, arcs[n - 1]!), weight },
      weight,
      dur,
      dist,
    };
  }

  /**
   * Many-to-many by buckets (see ContractionHierarchy.table): row-major tables, Infinity where unreachable.
   * Throws RangeError when the core runs out of memory for the buckets.
   */
  table(
    origins: readonly Endpoint[],
    dests: readonly Endpoint[],
    out: { weight: Float64Array; dur: Float64Array; dist: Float64Array },
  ): void {
    const k = this.core;
    const n = origins.length * dests.length;
    k.writePoints([...origins, ...dests], n);
    if (!k.exports.ch_table(k.header, this.costsHeader, this.header, origins.length, dests.length)) {
      throw new RangeError('WebAssembly memory cannot grow for the many-to-many buckets');
    }
    k.readOutputs(n, out, 0);
  }
}
