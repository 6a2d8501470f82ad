import type { ChRoute, ContractionHierarchy } from '../ch.js';
import { posOnArc, type Endpoint } from '../search.js';
import type { WasmGraph } from './core.js';
import {
  CH,
  CH_BUCKET_BYTES,
  CH_BYTES,
  CH_LM_MAX,
  CH_REC_BYTES,
  CH_UNPACK_BYTES,
  HEAP_ENTRY_BYTES,
  type ChField,
} from './layout.js';

/** Bucket entries allocated up front for many-to-many searches (the core regrows them by doubling). */
const INITIAL_BUCKETS = 4096;

/**
 * A pack's hierarchy (with or without a core) queried by the WebAssembly core, with the signatures and answers of
 * ContractionHierarchy's `route` and `table` (same algorithm, same heap: same meeting state, same path, same sums).
 * The core searches and unpacks the records in the pack's order (CH layout v5: states by rank from the top, so the
 * core's states are the first ones; see wasm/src/ch.rs) with labels reduced to weights, which changes no answer. At
 * load: two passes over the records in order.
 * Memory: 40 bytes per record (other state, weight and unpacking slot; children, seconds and metres), about 130
 * bytes per state, and per core state its landmark weights and 40 bytes of core search state. Throws RangeError
 * when memory cannot grow or a record weight is not finite (a corrupt pack).
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
    const arrays = ch.ch;
    const R = arrays.node.length;
    this.header = m.filled(CH_BYTES, 0);
    // States renumbered from the highest rank down (see `perm` in wasm/src/ch.rs): the pack's record order (CH
    // layout v5), so the records and their ranges are used as they are.
    const perm = new Uint32Array(S);
    for (let s = 0; s < S; s++) perm[s] = S - 1 - arrays.rank[s]!;
    const kids = this.unpackRecords();
    // What a relaxation reads (weight, other state) in one 16-byte slot, with the record's unpacking slot (itself).
    const rec = m.alloc(CH_REC_BYTES * R);
    const recU32 = new Uint32Array(m.buffer, rec, 4 * R),
      recF64 = new Float64Array(m.buffer, rec, 2 * R);
    const w = ch.w,
      node = arrays.node;
    for (let q = 0; q < R; q++) {
      // The core's labels read Infinity as "not labelled", so a record must never offer an infinite weight (the
      // builder drops closed arcs; only a corrupt pack could): refused, the router then stays in TypeScript.
      if (!Number.isFinite(w[q]!)) throw new RangeError(`hierarchy record ${q} has weight ${w[q]}`);
      recF64[2 * q] = w[q]!;
      recU32[4 * q + 2] = perm[node[q]!]!;
      recU32[4 * q + 3] = q;
    }
    // A shortest path holds each state at most once (plus the source and target arcs).
    const pathCap = S + 2;
    const set: [ChField, number][] = [
      ['states', S],
      ['edgeBased', ch.edgeBased ? 1 : 0],
      ['resultArc', -1],
      ['perm', m.copy(perm)],
      ['recFirst', m.copy(arrays.first)],
      ['rec', rec],
      ['kids', kids],
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
      ['first', m.alloc(4 * (S + 1))],
      ...this.coreFields(),
    ];
    for (const [f, v] of set) m.i32(this.header + CH[f], v);
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
      ['lmFrom', renumber(ch.ch.lmFrom!)],
      ['lmTo', renumber(ch.ch.lmTo!)],
      ['potF', m.alloc(8 * C)],
      ['potB', m.alloc(8 * C)],
      ['potGen', m.filled(4 * C, 0)],
      ['lmc', m.alloc(32 * L)],
      ['entF', m.alloc(4 * C)],
      ['entB', m.alloc(4 * C)],
    ];
  }

  /**
   * Records for unpacking (`Unpack` in wasm/src/ch.rs: children or -1 and the payload arc, seconds, metres), in the
   * pack's record order: a record's unpacking slot is its index. A depth-first preorder of the shortcut trees (a
   * subtree mostly following its root in memory) was laid out here before CH layout v5; on NY it cost 0.7 s of CPU at
   * a vehicle's first request, and over 1,024 seeded pairs route p50 and p99 did not differ from this order's
   * (shared machine). Returns the address.
   */
  private unpackRecords(): number {
    const m = this.core.mem;
    const { a, b } = this.ch.ch;
    const { dur, len } = this.ch;
    const R = a.length;
    const at = m.alloc(CH_UNPACK_BYTES * R);
    const i32 = new Int32Array(m.buffer, at, (CH_UNPACK_BYTES >> 2) * R),
      f64 = new Float64Array(m.buffer, at, (CH_UNPACK_BYTES >> 3) * R);
    for (let q = 0; q < R; q++) {
      i32[6 * q] = a[q]!;
      i32[6 * q + 1] = b[q]!;
      f64[3 * q + 1] = dur[q]!;
      f64[3 * q + 2] = len[q]!;
    }
    return at;
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
    const weight = f64[h >> 3]!,
      dur = f64[(h >> 3) + 1]!,
      dist = f64[(h >> 3) + 2]!;
    if (n === -2) {
      const a = i32[(h + CH.resultArc) >> 2]!;
      return { path: { arcs: [a], from: posOnArc(src, a), to: posOnArc(dst, a), weight }, weight, dur, dist };
    }
    const at = i32[(h + CH.path) >> 2]! >> 2;
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
