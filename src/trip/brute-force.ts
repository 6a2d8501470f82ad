import { TRIP_LIMITS } from './constants.js';
import { tourCost } from './tour-cost.js';

/** Optional fixed ends of a round trip (stop indices into the table). */
export interface TripEnds {
  /** First stop of the trip. */
  start?: number;
  /** Last stop before the return to the start. */
  end?: number;
}

/**
 * Reference solver: tries every permutation (n ≤ TRIP_LIMITS.N_BRUTE_FORCE) and keeps the cheapest round trip that
 * honours the fixed ends directly (no table transformation), so it checks the transformations of `solveTrip`.
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`, e.g. seconds; Infinity allowed).
 * @param n number of stops.
 * @param ends optional fixed start / end (must differ when both are given).
 * @returns the order (start first if given, else end last if given, else stop 0 first) and its round-trip cost
 *   (Infinity when every admissible tour uses an unreachable leg).
 * @throws RangeError when n is outside 1..N_BRUTE_FORCE (misuse, reference only).
 */
export function bruteForce(table: Float64Array, n: number, ends: TripEnds = {}): { order: Int32Array; cost: number } {
  if (!Number.isInteger(n) || n < 1 || n > TRIP_LIMITS.N_BRUTE_FORCE) {
    throw new RangeError(`bruteForce: n must be an integer in 1..${TRIP_LIMITS.N_BRUTE_FORCE}, got ${n}`);
  }
  const { start, end } = ends;
  const anchor = start ?? 0;
  const perm = new Int32Array(n);
  perm[0] = anchor;
  for (let i = 0, p = 1; i < n; i++) if (i !== anchor) perm[p++] = i;

  let best = perm.slice();
  let bestCost = Infinity;
  let found = false;
  const consider = (): void => {
    if (start !== undefined && end !== undefined && perm[n - 1] !== end) return;
    const c = tourCost(table, n, perm);
    if (!found || c < bestCost) {
      found = true;
      bestCost = c;
      best = perm.slice();
    }
  };

  // Heap's algorithm over positions 1..n-1 (position 0 stays the anchor).
  const k = n - 1;
  const counter = new Int32Array(k);
  consider();
  let i = 0;
  while (i < k) {
    if ((counter[i] as number) < i) {
      const a = (i % 2 === 0 ? 0 : counter[i]) as number;
      const tmp = perm[1 + a] as number;
      perm[1 + a] = perm[1 + i] as number;
      perm[1 + i] = tmp;
      consider();
      counter[i] = (counter[i] as number) + 1;
      i = 0;
    } else {
      counter[i] = 0;
      i++;
    }
  }

  if (start === undefined && end !== undefined) {
    // Free cycle with a fixed end: rotate so that `end` is last (its successor becomes the start).
    const at = best.indexOf(end);
    const rotated = new Int32Array(n);
    for (let p = 0; p < n; p++) rotated[p] = best[(at + 1 + p) % n] as number;
    best = rotated;
  }
  return { order: best, cost: bestCost };
}
