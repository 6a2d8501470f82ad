import { arcTail } from '../costs.js';
import { keptIndex, LINK, midOf, rowStart, type CchArcs } from './arcs.js';
import type { CchMetric } from './customize.js';
import { Scratch, scratchBytes } from './scratch.js';

/**
 * Seconds and metres of a customized CCH's kept arcs (CchMetric.up / .down), for searches that carry them along the
 * weights (CchTable): `up` and `down` hold at 2k, 2k + 1 the seconds and the metres of kept arc k of that direction
 * (apart from the weights, which every relaxation reads, while few improve a label). An arc's seconds and metres
 * are those of the path it unpacks to (its link, or its two arcs through its middle vertex, recursively), so labels
 * carried along these arcs measure the very path CchQuery.route returns through the same arcs (added in another
 * order: equal up to float rounding). 16 bytes per kept arc and direction: ≈ 9 bytes per topology arc on whole HCMC.
 */
export class CchMeasures {
  /**
   * Driven up (lower → higher end). Replaced only by another engine's copy of the same bytes (Router.arrived), between
   * calls: tables read it afresh on each call.
   */
  up: Float64Array;
  /** Driven down (higher → lower end). As `up`. */
  down: Float64Array;

  /**
   * Vertices ascending: the two arcs of a triangle have a lower end below the arc's, so they come first. Both arrays
   * in one block of shared memory where the platform has it (scratch.ts).
   * @param made the measures when another thread measured the same metric (exchange.ts; the caller checked them:
   *   measuresProblem): adopted as they are
   */
  constructor(m: CchMetric, made?: { up: Float64Array; down: Float64Array }) {
    if (made) {
      ({ up: this.up, down: this.down } = made);
      return;
    }
    const U = m.up,
      D = m.down;
    const block = new Scratch(scratchBytes([2 * U.slot.length, 8], [2 * D.slot.length, 8]), { shared: true });
    const up = (this.up = block.f64(2 * U.slot.length));
    const down = (this.down = block.f64(2 * D.slot.length));
    const { upFirst, upHead } = m.topo;
    // Index 2k of kept arc k from v to h among `a`, in its measures.
    const at = (a: CchArcs, v: number, h: number) => 2 * keptIndex(a, upFirst, upHead, v, h);
    for (let lo = 0; lo < m.topo.size; lo++) {
      const row = upFirst[lo]!;
      for (let k = rowStart(U, lo), end = rowStart(U, lo + 1); k < end; k++) {
        const hi = upHead[row + U.slot[k]!]!,
          mid = midOf(U, k);
        // lo → mid → hi: the arc mid–lo down, then mid–hi up.
        if (mid === LINK) link(m, lo, hi, up, k);
        else sum(up, k, down, at(D, mid, lo), up, at(U, mid, hi));
      }
      for (let k = rowStart(D, lo), end = rowStart(D, lo + 1); k < end; k++) {
        const hi = upHead[row + D.slot[k]!]!,
          mid = midOf(D, k);
        // hi → mid → lo: the arc mid–hi down, then mid–lo up.
        if (mid === LINK) link(m, hi, lo, down, k);
        else sum(down, k, down, at(D, mid, hi), up, at(U, mid, lo));
      }
    }
  }
}

/**
 * Why `made` cannot be the measures of metric `m` (another thread's, offered for adoption: exchange.ts), or null when
 * it can: two Float64Arrays of two values per kept arc of each direction.
 */
export function measuresProblem(m: CchMetric, made: { up: Float64Array; down: Float64Array }): string | null {
  const fits = (a: Float64Array, arcs: number) => a instanceof Float64Array && a.length === 2 * arcs;
  return fits(made.up, m.up.slot.length) && fits(made.down, m.down.slot.length)
    ? null
    : 'not two Float64Arrays of two values per kept arc';
}

/** Seconds and metres of the link from vertex `from` on to vertex `to` into out[2k], out[2k + 1]. */
function link(m: CchMetric, from: number, to: number, out: Float64Array, k: number): void {
  const c = m.costs,
    g = c.graph,
    stateOf = m.topo.stateOf;
  // The turn from the tail's arc and the head's whole arc.
  const a = m.states.arcOf(stateOf[from]!),
    b = m.states.arcOf(stateOf[to]!);
  out[2 * k] = c.turnDur(a, b, arcTail(g, b)) + c.dur[b]!;
  out[2 * k + 1] = g.edgeLen[b >> 1]!;
}

/** out[2k], out[2k + 1] = the seconds and metres of m1[a], m1[a + 1] plus those of m2[b], m2[b + 1]. */
function sum(out: Float64Array, k: number, m1: Float64Array, a: number, m2: Float64Array, b: number): void {
  out[2 * k] = m1[a]! + m2[b]!;
  out[2 * k + 1] = m1[a + 1]! + m2[b + 1]!;
}
