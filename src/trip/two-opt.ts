import { untilStable } from './until-stable.js';

/**
 * Fills prefix sums along the cyclic `order`: fwd[p] = Σ_{q<p} c(order[q] → order[q+1]) and
 * bwd[p] = Σ_{q<p} c(order[q+1] → order[q]) (the same arcs travelled backwards), both of length m+1, where the
 * arc after the last position closes the cycle. fwd[m] is the tour cost.
 */
function fillPrefixSums(table: Float64Array, n: number, order: Int32Array, fwd: Float64Array, bwd: Float64Array): void {
  const m = order.length;
  fwd[0] = 0;
  bwd[0] = 0;
  for (let p = 0; p < m; p++) {
    const a = order[p] as number;
    const b = order[p + 1 === m ? 0 : p + 1] as number;
    fwd[p + 1] = (fwd[p] as number) + (table[a * n + b] as number);
    bwd[p + 1] = (bwd[p] as number) + (table[b * n + a] as number);
  }
}

/**
 * One sweep of asymmetric 2-opt over the cyclic `order`, in place. For the arcs a→b (positions i, i+1) and d→e
 * (positions j, j+1) it considers both ways to reconnect: reversing the segment b…d (arcs a→d, b→e) and reversing
 * the complementary segment e…a (arcs d→a, e→b). Reversing a segment in an asymmetric table changes the cost of
 * every arc inside it, so the exact delta uses the prefix sums of forward and backward arc costs (O(1) per move).
 * For each i the best j is applied when it saves more than `tolerance`.
 *
 * @param fwd, bwd scratch of length order.length + 1 (filled here).
 * @param tolerance minimum saving (table unit) for a move to count.
 * @returns whether any move was applied.
 */
export function twoOptPass(
  table: Float64Array,
  n: number,
  order: Int32Array,
  fwd: Float64Array,
  bwd: Float64Array,
  tolerance: number,
): boolean {
  const m = order.length;
  if (m < 4) return false;
  fillPrefixSums(table, n, order, fwd, bwd);
  let improved = false;
  for (let i = 0; i + 2 < m; i++) {
    const a = order[i] as number;
    const b = order[i + 1] as number;
    const aRow = a * n;
    const bRow = b * n;
    const cab = (fwd[i + 1] as number) - (fwd[i] as number);
    const cba = (bwd[i + 1] as number) - (bwd[i] as number);
    const fb = fwd[i + 1] as number;
    const bb = bwd[i + 1] as number;
    const skew = (bwd[m] as number) - (fwd[m] as number); // B − F: cost of the whole tour reversed minus forward
    let bestDelta = -tolerance;
    let bestJ = -1;
    let bestOuter = false;
    // Segment b…d has ≥ 2 stops (j ≥ i+2) and so has its complement (j − i ≤ m − 2).
    const jMax = Math.min(m - 1, i + m - 2);
    for (let j = i + 2; j <= jMax; j++) {
      const d = order[j] as number;
      const e = order[j + 1 === m ? 0 : j + 1] as number;
      const cde = (fwd[j + 1] as number) - (fwd[j] as number);
      const ced = (bwd[j + 1] as number) - (bwd[j] as number);
      const innerSkew = (bwd[j] as number) - bb - ((fwd[j] as number) - fb); // segment b…d reversed minus forward
      const removed = cab + cde;
      const inner = (table[aRow + d] as number) + (table[bRow + e] as number) + innerSkew - removed;
      if (inner < bestDelta) {
        bestDelta = inner;
        bestJ = j;
        bestOuter = false;
      }
      // Complement reversed: its arcs swap direction (skew − innerSkew − cba − ced), a→b and d→e become d→a, e→b.
      const outer = (table[d * n + a] as number) + (table[e * n + b] as number) + skew - innerSkew - cba - ced;
      if (outer < bestDelta) {
        bestDelta = outer;
        bestJ = j;
        bestOuter = true;
      }
    }
    if (bestJ < 0) continue;
    reverse(order, i + 1, bestJ);
    // Reversing the complement gives the same cycle as reversing the segment, read in the other direction.
    if (bestOuter) reverse(order, 0, m - 1);
    fillPrefixSums(table, n, order, fwd, bwd);
    improved = true;
  }
  return improved;
}

/**
 * Asymmetric 2-opt to a local optimum (see {@link twoOptPass}); pure: the input order is not modified.
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`, e.g. seconds), finite.
 * @param n number of stops.
 * @param order a cyclic order over all n stops.
 * @returns the improved cyclic order (a new array), never costlier than the input.
 */
export function twoOpt(table: Float64Array, n: number, order: ArrayLike<number>): Int32Array {
  const tour = Int32Array.from(order);
  const fwd = new Float64Array(tour.length + 1);
  const bwd = new Float64Array(tour.length + 1);
  return untilStable(table, n, tour, (tolerance) => twoOptPass(table, n, tour, fwd, bwd, tolerance));
}

/** Reverses order[from..to] (inclusive) in place. */
function reverse(order: Int32Array, from: number, to: number): void {
  for (let p = from, q = to; p < q; p++, q--) {
    const t = order[p] as number;
    order[p] = order[q] as number;
    order[q] = t;
  }
}
