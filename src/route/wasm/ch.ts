import type { ChRoute, ContractionHierarchy } from '../ch.js';
import { posOnArc, type Endpoint } from '../search.js';
import type { WasmGraph } from './core.js';
import { CH, CH_BYTES, CH_LABEL_BYTES, CH_LABEL_PAR, CH_LABEL_PREV, type ChField } from './layout.js';

/** Bucket entries allocated up front for many-to-many searches (the core regrows them by doubling). */
const INITIAL_BUCKETS = 4096;

/**
 * A pack's contraction hierarchy queried by the WebAssembly core, with the signatures and answers of
 * ContractionHierarchy's `route` and `table` (same algorithm, same heap: same meeting state, same path, same sums).
 * Memory: the records' other states, weights, seconds and metres (28 bytes per record) and 112 bytes per state.
 */
export class WasmHierarchy {
  /** Address of the `Ch` header. */
  readonly header: number;
  private readonly stack: number[] = [];

  constructor(readonly core: WasmGraph, readonly costsHeader: number, readonly ch: ContractionHierarchy) {
    const m = core.mem;
    const S = ch.states;
    const arrays = ch.ch;
    this.header = m.filled(CH_BYTES, 0);
    const set: [ChField, number][] = [
      ['states', S], ['edgeBased', ch.edgeBased ? 1 : 0], ['resultArc', -1],
      ['upFirst', m.copy(arrays.upFirst)], ['dnFirst', m.copy(arrays.dnFirst)], ['node', m.copy(arrays.node)],
      ['rw', m.copy(ch.w)], ['rdur', m.copy(ch.dur)], ['rlen', m.copy(ch.len)],
      ['fwd', m.filled(CH_LABEL_BYTES * S, 0)], ['bwd', m.filled(CH_LABEL_BYTES * S, 0)],
      ['fheapItems', m.alloc(4 * S)], ['fheapKeys', m.alloc(8 * S)], ['fheapPos', m.filled(4 * S, 0xff)],
      ['bheapItems', m.alloc(4 * S)], ['bheapKeys', m.alloc(8 * S)], ['bheapPos', m.filled(4 * S, 0xff)],
      ['bucketCap', INITIAL_BUCKETS],
      ['eState', m.alloc(4 * INITIAL_BUCKETS)], ['eDest', m.alloc(4 * INITIAL_BUCKETS)], ['eW', m.alloc(8 * INITIAL_BUCKETS)],
      ['eD', m.alloc(8 * INITIAL_BUCKETS)], ['eL', m.alloc(8 * INITIAL_BUCKETS)], ['order', m.alloc(4 * INITIAL_BUCKETS)],
      ['first', m.alloc(4 * (S + 1))],
    ];
    for (const [f, v] of set) m.i32(this.header + CH[f], v);
  }

  /** States settled by the last query. */
  get settled(): number {
    return this.core.mem.i32(this.header + CH.settled);
  }

  /** Best route between two endpoints, or null (see ContractionHierarchy.route). */
  route(src: Endpoint, dst: Endpoint): ChRoute | null {
    const k = this.core;
    const r = k.exports.ch_route(k.header, this.costsHeader, this.header, src.edge, src.t, src.only ?? -1, dst.edge, dst.t);
    if (r === -1) return null;
    const buf = k.mem.buffer;
    const [weight, dur, dist] = new Float64Array(buf, this.header, 3) as unknown as [number, number, number];
    if (r === -2) {
      const a = k.mem.i32(this.header + CH.resultArc);
      return { path: { arcs: [a], from: posOnArc(src, a), to: posOnArc(dst, a), weight }, weight, dur, dist };
    }
    // Forward records from the source to the meeting state, then backward records on to the target.
    const words = new Int32Array(buf);
    const stride = CH_LABEL_BYTES >> 2;
    const fwd = k.mem.i32(this.header + CH.fwd) >> 2, bwd = k.mem.i32(this.header + CH.bwd) >> 2;
    const par = (side: number, v: number) => words[side + stride * v + (CH_LABEL_PAR >> 2)]!;
    const prev = (side: number, v: number) => words[side + stride * v + (CH_LABEL_PREV >> 2)]!;
    const chain: number[] = [];
    let v = r;
    while (par(fwd, v) >= 0) {
      chain.push(par(fwd, v));
      v = prev(fwd, v);
    }
    const srcArc = -1 - par(fwd, v);
    const arcs = [srcArc];
    for (let i = chain.length - 1; i >= 0; i--) this.unpack(chain[i]!, arcs);
    v = r;
    while (par(bwd, v) >= 0) {
      this.unpack(par(bwd, v), arcs);
      v = prev(bwd, v);
    }
    const dstArc = -1 - par(bwd, v);
    arcs.push(dstArc);
    return { path: { arcs, from: posOnArc(src, srcArc), to: posOnArc(dst, dstArc), weight }, weight, dur, dist };
  }

  /** Appends the road arcs of record r in driving order (from the pack arrays). */
  private unpack(r: number, out: number[]): void {
    const { a, b } = this.ch.ch;
    const stack = this.stack;
    stack.push(r);
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (a[x]! < 0) out.push(b[x]!);
      else stack.push(b[x]!, a[x]!);
    }
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
