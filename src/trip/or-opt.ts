import { untilStable } from './until-stable.js';

/** Longest segment (stops) that Or-opt moves. */
const MAX_SEGMENT = 3;

/**
 * One sweep of Or-opt over the cyclic `order`, in place: every segment of 1…3 consecutive stops is taken out
 * (its neighbours p → next joined) and re-inserted between two other consecutive stops x → y, kept in direction or
 * reversed (a reversed segment pays its backward internal arcs); reversing it in its own place is included. For
 * each segment the best insertion is applied when it saves more than `tolerance`.
 *
 * @param scratch buffer of length order.length used to rebuild the order.
 * @param tolerance minimum saving (table unit) for a move to count.
 * @returns whether any move was applied.
 */
export function orOptPass(
  table: Float64Array,
  n: number,
  order: Int32Array,
  scratch: Int32Array,
  tolerance: number,
): boolean {
  const m = order.length;
  let improved = false;
  for (let i = 0; i < m; i++) {
    for (let len = 1; len <= MAX_SEGMENT && len <= m - 2; len++) {
      const s1 = order[i] as number;
      const last = (i + len - 1) % m;
      const sL = order[last] as number;
      const prev = order[(i + m - 1) % m] as number;
      const after = (i + len) % m;
      const next = order[after] as number;
      let fIn = 0;
      let bIn = 0;
      for (let q = 0; q + 1 < len; q++) {
        const u = order[(i + q) % m] as number;
        const v = order[(i + q + 1) % m] as number;
        fIn += table[u * n + v] as number;
        bIn += table[v * n + u] as number;
      }
      const s1Row = s1 * n;
      const sLRow = sL * n;
      const cut =
        (table[prev * n + next] as number) - (table[prev * n + s1] as number) - (table[sLRow + next] as number);
      const flip = bIn - fIn;

      // Remaining stops in tour order: rest[k] = order[(after + k) % m], k = 0 … rest−1 (rest[0] = next,
      // rest[rest−1] = prev). Insertion arc k joins rest[k] → rest[k+1]; arc rest−1 is the joined prev → next.
      const rest = m - len;
      let bestDelta = -tolerance;
      let bestK = -1;
      let bestReversed = false;
      let pos = after;
      for (let k = 0; k < rest; k++) {
        const x = order[pos] as number;
        pos = pos + 1 === m ? 0 : pos + 1;
        const closing = k === rest - 1;
        const y = closing ? next : (order[pos] as number);
        const xRow = x * n;
        const base = cut - (closing ? (table[prev * n + next] as number) : (table[xRow + y] as number));
        if (!closing) {
          const forward = base + (table[xRow + s1] as number) + (table[sLRow + y] as number);
          if (forward < bestDelta) {
            bestDelta = forward;
            bestK = k;
            bestReversed = false;
          }
        }
        const reversed = base + flip + (table[xRow + sL] as number) + (table[s1Row + y] as number);
        if (reversed < bestDelta) {
          bestDelta = reversed;
          bestK = k;
          bestReversed = true;
        }
      }
      if (bestK < 0) continue;

      // Rebuild: rest[0..bestK], the segment (maybe reversed), rest[bestK+1..].
      let w = 0;
      let r = after;
      for (let k = 0; k <= bestK; k++) {
        scratch[w++] = order[r] as number;
        r = r + 1 === m ? 0 : r + 1;
      }
      for (let q = 0; q < len; q++) scratch[w++] = order[(i + (bestReversed ? len - 1 - q : q)) % m] as number;
      for (let k = bestK + 1; k < rest; k++) {
        scratch[w++] = order[r] as number;
        r = r + 1 === m ? 0 : r + 1;
      }
      order.set(scratch);
      improved = true;
    }
  }
  return improved;
}

/**
 * Or-opt (segments of 1–3 stops, both orientations) to a local optimum; pure: the input order is not modified.
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`, e.g. seconds), finite.
 * @param n number of stops.
 * @param order a cyclic order over all n stops.
 * @returns the improved cyclic order (a new array), never costlier than the input.
 */
export function orOpt(table: Float64Array, n: number, order: ArrayLike<number>): Int32Array {
  const tour = Int32Array.from(order);
  const scratch = new Int32Array(tour.length);
  return untilStable(table, n, tour, (tolerance) => orOptPass(table, n, tour, scratch, tolerance));
}
