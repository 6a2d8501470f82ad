/**
 * Farthest insertion for an asymmetric table (the algorithm the online Trip service names), O(n²).
 *
 * - Start: the pair (i, j) with the largest round-trip cost c(i,j) + c(j,i) forms the cycle i → j → i.
 * - Selection: the unvisited stop whose distance to the tour is largest, where the distance of stop k to the tour is
 *   min over tour stops t of the round-trip cost c(t,k) + c(k,t) (symmetrised so that a stop that is far in either
 *   direction counts as far).
 * - Insertion: between the consecutive tour stops a → b where c(a,k) + c(k,b) − c(a,b) is smallest, using the
 *   directed costs (so direction matters).
 * Ties go to the smallest stop index / the first position along the tour, so the result is deterministic.
 *
 * @param table row-major n×n costs (`table[i*n+j]` = cost i→j, e.g. seconds), finite; the diagonal is never read.
 * @param n number of stops (≥ 1).
 * @returns a cyclic order over all n stops starting at stop 0.
 */
export function farthestInsertion(table: Float64Array, n: number): Int32Array {
  const order = new Int32Array(n);
  if (n <= 2) {
    for (let i = 0; i < n; i++) order[i] = i;
    return order;
  }
  let first = 0;
  let second = 1;
  let widest = -Infinity;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = (table[i * n + j] as number) + (table[j * n + i] as number);
      if (w > widest) {
        widest = w;
        first = i;
        second = j;
      }
    }
  }

  // Cycle as a successor list; minDist[k] = round-trip distance of unvisited k to the tour (-1 once visited).
  const next = new Int32Array(n).fill(-1);
  next[first] = second;
  next[second] = first;
  const minDist = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    minDist[k] = Math.min(
      (table[first * n + k] as number) + (table[k * n + first] as number),
      (table[second * n + k] as number) + (table[k * n + second] as number),
    );
  }
  minDist[first] = -1;
  minDist[second] = -1;

  for (let size = 2; size < n; size++) {
    let k = -1;
    let far = -Infinity;
    for (let v = 0; v < n; v++) {
      const d = minDist[v] as number;
      if (d >= 0 && d > far) {
        far = d;
        k = v;
      }
    }
    // Cheapest directed insertion position along the cycle.
    let bestA = first;
    let bestDelta = Infinity;
    let a = first;
    const kRow = k * n;
    for (let step = 0; step < size; step++) {
      const b = next[a] as number;
      const delta = (table[a * n + k] as number) + (table[kRow + b] as number) - (table[a * n + b] as number);
      if (delta < bestDelta) {
        bestDelta = delta;
        bestA = a;
      }
      a = b;
    }
    next[k] = next[bestA] as number;
    next[bestA] = k;
    minDist[k] = -1;
    for (let v = 0; v < n; v++) {
      const d = minDist[v] as number;
      if (d < 0) continue;
      const w = (table[kRow + v] as number) + (table[v * n + k] as number);
      if (w < d) minDist[v] = w;
    }
  }

  let at = 0;
  for (let p = 0; p < n; p++) {
    order[p] = at;
    at = next[at] as number;
  }
  return order;
}
