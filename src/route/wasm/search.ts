import { posOnArc, type ArcPath, type Endpoint } from '../search.js';
import type { TurnTable } from '../turns.js';
import type { WasmGraph } from './core.js';
import { LABEL_BYTES, LABEL_PARENT } from './layout.js';

/**
 * The WebAssembly core's searches for one vehicle and weighting, with the signatures of ArcSearch's `route` and
 * `oneToMany` and the same answers: the core runs the same algorithm with the same heap, so it settles the same
 * arcs in the same order and returns the same paths. Not re-entrant (state is shared per graph).
 */
export class WasmArcSearch {
  /** `header`: address of the vehicle / weighting's `Costs` header (WasmGraph.costs); `turns`: its states. */
  constructor(
    readonly core: WasmGraph,
    readonly header: number,
    readonly turns: TurnTable,
  ) {}

  /** Arcs settled by the last query. */
  get settled(): number {
    return this.core.field('settled');
  }

  /** Best route between two endpoints (bidirectional A*), or null when none exists. */
  route(src: Endpoint, dst: Endpoint): ArcPath | null {
    const k = this.core;
    k.ensureSearchState(this.turns.states);
    const r = k.exports.route(
      k.header,
      this.header,
      src.edge,
      src.t,
      src.lat,
      src.lon,
      src.only ?? -1,
      dst.edge,
      dst.t,
      dst.lat,
      dst.lon,
    );
    if (r === -1) return null;
    const weight = new Float64Array(k.mem.buffer, k.header, 1)[0]!;
    if (r === -2) {
      const a = k.field('resultArc');
      return { arcs: [a], from: posOnArc(src, a), to: posOnArc(dst, a), weight };
    }
    // Join the forward parents back to the source and the backward parents on to the target, states mapped to their
    // arcs (see ArcSearch.joinAt).
    const T = this.turns;
    const words = new Int32Array(k.mem.buffer);
    const fp = (k.address('fwd') + LABEL_PARENT) >>> 2,
      bp = (k.address('bwd') + LABEL_PARENT) >>> 2;
    const stride = LABEL_BYTES >> 2;
    const arcs: number[] = [];
    for (let s = r; s >= 0; s = words[fp + stride * s]!) arcs.push(T.arcOf(s));
    arcs.reverse();
    let x = words[bp + stride * r]!;
    while (x >= 0) {
      arcs.push(T.arcOf(x));
      x = words[bp + stride * x]!;
    }
    const last = -1 - x;
    arcs.push(last);
    return { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, last), weight };
  }

  /**
   * One search from `src` to every endpoint of `dsts`; writes weight, duration (s) and distance (m) per target at
   * `offset + j` of the output arrays (Infinity when unreachable), exactly as ArcSearch.oneToMany does.
   */
  oneToMany(
    src: Endpoint,
    dsts: readonly Endpoint[],
    out: { weight: Float64Array; dur: Float64Array; dist: Float64Array },
    offset = 0,
  ): void {
    const k = this.core;
    k.ensureSearchState(this.turns.states);
    k.writePoints(dsts, dsts.length);
    k.exports.one_to_many(k.header, this.header, src.edge, src.t, dsts.length);
    k.readOutputs(dsts.length, out, offset);
  }
}
