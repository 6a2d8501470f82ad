import type { ChRoute, ContractionHierarchy } from '../ch.js';
import { posOnArc, type Endpoint } from '../search.js';
import type { WasmGraph } from './core.js';
import { CH, CH_BUCKET_BYTES, CH_BYTES, CH_LABEL_BYTES, CH_LABEL_POS, CH_REC_BYTES, HEAP_ENTRY_BYTES, type ChField } from './layout.js';

/** Bucket entries allocated up front for many-to-many searches (the core regrows them by doubling). */
const INITIAL_BUCKETS = 4096;

/**
 * A pack's contraction hierarchy queried by the WebAssembly core, with the signatures and answers of
 * ContractionHierarchy's `route` and `table` (same algorithm, same heap: same meeting state, same path, same sums).
 * Memory: 40 bytes per record (other state and weight; seconds and metres; children) and 96 bytes per state.
 */
export class WasmHierarchy {
  /** Address of the `Ch` header. */
  readonly header: number;

  constructor(readonly core: WasmGraph, readonly costsHeader: number, readonly ch: ContractionHierarchy) {
    const m = core.mem;
    const S = ch.states;
    const arrays = ch.ch;
    const R = arrays.node.length;
    this.header = m.filled(CH_BYTES, 0);
    // What a relaxation reads (weight, other state) in one 16-byte slot; the rest only along the final chains.
    const rec = m.alloc(CH_REC_BYTES * R), rdl = m.alloc(16 * R), kids = m.alloc(8 * R);
    const recU32 = new Uint32Array(m.buffer, rec, 4 * R), recF64 = new Float64Array(m.buffer, rec, 2 * R);
    const dl = new Float64Array(m.buffer, rdl, 2 * R), ab = new Int32Array(m.buffer, kids, 2 * R);
    for (let r = 0; r < R; r++) {
      recF64[2 * r] = ch.w[r]!; recU32[4 * r + 2] = arrays.node[r]!;
      dl[2 * r] = ch.dur[r]!; dl[2 * r + 1] = ch.len[r]!;
      ab[2 * r] = arrays.a[r]!; ab[2 * r + 1] = arrays.b[r]!;
    }
    const pathCap = 2 * core.graph.edgeCount + 2;
    const set: [ChField, number][] = [
      ['states', S], ['edgeBased', ch.edgeBased ? 1 : 0], ['resultArc', -1],
      ['upFirst', m.copy(arrays.upFirst)], ['dnFirst', m.copy(arrays.dnFirst)],
      ['rec', rec], ['rdl', rdl], ['kids', kids],
      ['pathCap', pathCap], ['path', m.alloc(4 * pathCap)], ['stack', m.alloc(4 * pathCap)],
      ['labels', this.labels(2 * S)], ['fdl', m.alloc(16 * S)], ['bdl', m.alloc(16 * S)],
      ['fheap', m.alloc(HEAP_ENTRY_BYTES * S)], ['bheap', m.alloc(HEAP_ENTRY_BYTES * S)],
      ['bucketCap', INITIAL_BUCKETS],
      ['eState', m.alloc(4 * INITIAL_BUCKETS)], ['eDest', m.alloc(4 * INITIAL_BUCKETS)], ['eW', m.alloc(8 * INITIAL_BUCKETS)],
      ['eD', m.alloc(8 * INITIAL_BUCKETS)], ['eL', m.alloc(8 * INITIAL_BUCKETS)], ['sorted', m.alloc(CH_BUCKET_BYTES * INITIAL_BUCKETS)],
      ['first', m.alloc(4 * (S + 1))],
    ];
    for (const [f, v] of set) m.i32(this.header + CH[f], v);
  }

  /** Address of `n` fresh labels: never seen, not queued (heap position -1), 64-byte aligned (pairs on one line). */
  private labels(n: number): number {
    const m = this.core.mem;
    const at = (m.alloc(CH_LABEL_BYTES * n + 56) + 63) & ~63;
    const words = new Int32Array(m.buffer, at, (CH_LABEL_BYTES >> 2) * n).fill(0);
    for (let s = 0; s < n; s++) words[(CH_LABEL_BYTES >> 2) * s + (CH_LABEL_POS >> 2)] = -1;
    return at;
  }

  /** States settled by the last query. */
  get settled(): number {
    return this.core.mem.i32(this.header + CH.settled);
  }

  /** Best route between two endpoints, or null (see ContractionHierarchy.route). */
  route(src: Endpoint, dst: Endpoint): ChRoute | null {
    const k = this.core;
    // One call searches and unpacks; the path is read from memory through views kept across queries.
    const n = k.exports.ch_route(k.header, this.costsHeader, this.header, src.edge, src.t, src.only ?? -1, dst.edge, dst.t);
    if (n === -1) return null;
    if (n === -3) throw new Error('contraction hierarchy path longer than the graph has arcs');
    const { f64, i32 } = k.mem.views();
    const h = this.header;
    const weight = f64[h >> 3]!, dur = f64[(h >> 3) + 1]!, dist = f64[(h >> 3) + 2]!;
    if (n === -2) {
      const a = i32[(h + CH.resultArc) >> 2]!;
      return { path: { arcs: [a], from: posOnArc(src, a), to: posOnArc(dst, a), weight }, weight, dur, dist };
    }
    const at = i32[(h + CH.path) >> 2]! >> 2;
    const arcs = new Array<number>(n);
    for (let i = 0; i < n; i++) arcs[i] = i32[at + i]!;
    return { path: { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, arcs[n - 1]!), weight }, weight, dur, dist };
  }

  /**
   * Many-to-many by buckets (see ContractionHierarchy.table): row-major tables, Infinity where unreachable.
   * Throws RangeError when the core runs out of memory for the buckets.
   */
  table(origins: readonly Endpoint[], dests: readonly Endpoint[], out: { weight: Float64Array; dur: Float64Array; dist: Float64Array }): void {
    const k = this.core;
    const n = origins.length * dests.length;
    k.writePoints([...origins, ...dests], n);
    if (!k.exports.ch_table(k.header, this.costsHeader, this.header, origins.length, dests.length)) {
      throw new RangeError('WebAssembly memory cannot grow for the many-to-many buckets');
    }
    k.readOutputs(n, out, 0);
  }
}
