import { TRIP_LIMITS } from './constants.js';

/**
 * Exact minimum-cost round trip over all n stops of an asymmetric table (Held-Karp dynamic programme over subsets,
 * O(2^n · n²) time, O(2^n · n) memory in typed arrays).
 *
 * @param table row-major n×n costs (`table[i*n+j]` = cost i→j, e.g. seconds); the diagonal is never read.
 *   Entries should be finite (`solveTrip` replaces Infinity by a large finite penalty first); if no finite tour
 *   exists the identity order is returned.
 * @param n number of stops, 1 ≤ n ≤ TRIP_LIMITS.N_EXACT.
 * @returns a cyclic order starting at stop 0.
 * @throws RangeError when n is outside 1..N_EXACT (misuse of the library, not request input).
 */
export function heldKarp(table: Float64Array, n: number): Int32Array {
  if (!Number.isInteger(n) || n < 1 || n > TRIP_LIMITS.N_EXACT) {
    throw new RangeError(`heldKarp: n must be an integer in 1..${TRIP_LIMITS.N_EXACT}, got ${n}`);
  }
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n <= 2) return order;

  // Stop 0 anchors the cycle; bit k of a mask stands for stop k+1. dp[mask*m + j] = cheapest path that leaves 0,
  // visits exactly the stops of `mask` and ends at stop j+1 (j's bit is in mask).
  const m = n - 1;
  const full = (1 << m) - 1;
  const dp = new Float64Array((full + 1) * m).fill(Infinity);
  const parent = new Int8Array((full + 1) * m).fill(-1);
  for (let j = 0; j < m; j++) dp[(1 << j) * m + j] = table[j + 1] as number;

  for (let mask = 1; mask <= full; mask++) {
    const base = mask * m;
    for (let j = 0; j < m; j++) {
      if ((mask & (1 << j)) === 0) continue;
      const v = dp[base + j] as number;
      if (v === Infinity) continue;
      const row = (j + 1) * n + 1;
      for (let k = 0; k < m; k++) {
        if ((mask & (1 << k)) !== 0) continue;
        const idx = (mask | (1 << k)) * m + k;
        const w = v + (table[row + k] as number);
        if (w < (dp[idx] as number)) {
          dp[idx] = w;
          parent[idx] = j;
        }
      }
    }
  }

  let best = Infinity;
  let last = -1;
  for (let j = 0; j < m; j++) {
    const w = (dp[full * m + j] as number) + (table[(j + 1) * n] as number);
    if (w < best) {
      best = w;
      last = j;
    }
  }
  if (last < 0) return order;
  // Walk the parents back from the last stop; positions n-1 … 1.
  let mask = full;
  for (let p = n - 1; p >= 1; p--) {
    order[p] = last + 1;
    const prev = parent[mask * m + last] as number;
    mask &= ~(1 << last);
    last = prev;
  }
  return order;
}
