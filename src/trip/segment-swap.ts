import { TRIP_LIMITS } from './constants.js';
import { nearestSuccessors } from './neighbours.js';
import { untilStable } from './until-stable.js';

/**
 * One sweep of the direction-preserving 3-opt move ("or-3opt", segment exchange), in place: cut the cycle into
 * three segments A B C (arcs a→b, c→d, e→f, where a ends A, b starts B, c ends B, d starts C, e ends C, f starts A)
 * and reconnect them as A C B (arcs a→d, e→b, c→f). No segment is reversed, so the delta is exact on an asymmetric
 * table from six arc costs. It moves runs of any length (Or-opt only moves 1–3 stops), which is what one-way-like
 * tables need. Candidates: d among the `k` cheapest successors of a (`neighbours`), with a gain a→d < a→b + c→d;
 * then every e after d. For each a the best move is applied when it saves more than `tolerance`.
 *
 * @param pos scratch: pos[stop] = position in order (filled here).
 * @param scratch buffer of length order.length used to rebuild the order.
 * @returns whether any move was applied.
 */
export function segmentSwapPass(
  table: Float64Array,
  n: number,
  order: Int32Array,
  neighbours: { list: Int32Array; k: number },
  pos: Int32Array,
  scratch: Int32Array,
  tolerance: number,
): boolean {
  const m = order.length;
  if (m < 3) return false;
  const { list, k } = neighbours;
  for (let p = 0; p < m; p++) pos[order[p] as number] = p;
  let improved = false;
  for (let i = 0; i < m; i++) {
    const a = order[i] as number;
    const b = order[i + 1 === m ? 0 : i + 1] as number;
    const aRow = a * n;
    const cab = table[aRow + b] as number;
    let bestDelta = -tolerance;
    let bestD = 0;
    let bestQ = 0;
    for (let r = 0; r < k; r++) {
      const d = list[a * k + r] as number;
      // Offsets are positions relative to a; d must leave B = offsets 1 … dOff−1 non-empty.
      let dOff = (pos[d] as number) - i;
      if (dOff < 0) dOff += m;
      if (dOff < 2) continue;
      let cPos = i + dOff - 1;
      if (cPos >= m) cPos -= m;
      const c = order[cPos] as number;
      const cRow = c * n;
      const opened = (table[aRow + d] as number) - cab - (table[cRow + d] as number);
      if (opened >= 0) continue;
      // C = offsets dOff … q (e at q), A = offsets q+1 … m (f first, a last).
      let ePos = cPos;
      for (let q = dOff; q < m; q++) {
        ePos = ePos + 1 === m ? 0 : ePos + 1;
        const fPos = ePos + 1 === m ? 0 : ePos + 1;
        const e = order[ePos] as number;
        const f = order[fPos] as number;
        const delta =
          opened + (table[e * n + b] as number) + (table[cRow + f] as number) - (table[e * n + f] as number);
        if (delta < bestDelta) {
          bestDelta = delta;
          bestD = dOff;
          bestQ = q;
        }
      }
    }
    if (bestD === 0) continue;
    // New cycle A C B, written from f: A (offsets q+1 … m), C (dOff … q), B (1 … dOff−1).
    let w = 0;
    for (let o = bestQ + 1; o <= m; o++) scratch[w++] = order[(i + o) % m] as number;
    for (let o = bestD; o <= bestQ; o++) scratch[w++] = order[(i + o) % m] as number;
    for (let o = 1; o < bestD; o++) scratch[w++] = order[(i + o) % m] as number;
    order.set(scratch);
    for (let p = 0; p < m; p++) pos[order[p] as number] = p;
    improved = true;
  }
  return improved;
}

/**
 * Segment exchange (direction-preserving 3-opt, see {@link segmentSwapPass}) to a local optimum; pure.
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`, e.g. seconds), finite.
 * @param n number of stops.
 * @param order a cyclic order over all n stops.
 * @param options `neighbours`: candidate successors per stop (default TRIP_LIMITS.NEIGHBOURS; n − 1 makes the search
 *   exhaustive).
 * @returns the improved cyclic order (a new array), never costlier than the input.
 */
export function segmentSwap(
  table: Float64Array,
  n: number,
  order: ArrayLike<number>,
  options: { neighbours?: number } = {},
): Int32Array {
  const tour = Int32Array.from(order);
  const candidates = nearestSuccessors(table, n, options.neighbours ?? TRIP_LIMITS.NEIGHBOURS);
  const pos = new Int32Array(n);
  const scratch = new Int32Array(tour.length);
  return untilStable(table, n, tour, (tolerance) =>
    segmentSwapPass(table, n, tour, candidates, pos, scratch, tolerance),
  );
}
