/**
 * Table transformations that let the free-cycle solvers handle unreachable legs and fixed trip ends without any
 * special case inside the solvers.
 */

/**
 * Copy of the table where every unreachable leg (Infinity) costs `penalty` = n · (largest finite leg) + 1, and the
 * diagonal is 0. Any round trip with only finite legs costs at most n · (largest finite leg) < penalty, so the
 * solvers prefer every all-finite tour to any tour with an unreachable leg, while deltas stay finite (no
 * Infinity − Infinity). A result whose cost on the original table is not finite therefore means no finite tour was
 * found (for the exact solver: none exists).
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`, e.g. seconds; +Infinity = unreachable), entries ≥ 0.
 * @returns the finite copy and the penalty used (table unit).
 */
export function finiteTable(table: Float64Array, n: number): { table: Float64Array; penalty: number } {
  let widest = 0;
  for (let i = 0; i < table.length; i++) {
    const v = table[i] as number;
    if (v !== Infinity && v > widest) widest = v;
  }
  const penalty = n * widest + 1;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = table[i * n + j] as number;
      out[i * n + j] = i === j ? 0 : v === Infinity ? penalty : v;
    }
  }
  return { table: out, penalty };
}

/**
 * Fixed start s and fixed end e (e is the last stop before returning to s, so the round trip must use the leg
 * e → s). Standard asymmetric-TSP contraction: the forced path e → s becomes one node that is entered like e and
 * left like s. Stop e disappears; stop s keeps its place in the reduced table with
 * in-costs c'(x, s) = c(x, e) and out-costs c'(s, y) = c(s, y). Every reduced cycle maps one-to-one to a round trip
 * with the leg e → s, and costs exactly c(e, s) less, so the reduced optimum is the constrained optimum.
 *
 * Reduced index r stands for original stop r < e ? r : r + 1.
 *
 * @param table row-major n×n costs (finite, see {@link finiteTable}).
 * @param n number of stops (≥ 2).
 * @param start fixed first stop s.
 * @param end fixed last stop e ≠ s.
 * @returns the reduced (n−1)×(n−1) table.
 */
export function contractFixedEnds(table: Float64Array, n: number, start: number, end: number): Float64Array {
  const m = n - 1;
  const out = new Float64Array(m * m);
  for (let r = 0; r < m; r++) {
    const from = r < end ? r : r + 1;
    for (let c = 0; c < m; c++) {
      const to = c < end ? c : c + 1;
      // Entering the merged node means entering e first.
      out[r * m + c] = r === c ? 0 : (table[from * n + (to === start ? end : to)] as number);
    }
  }
  return out;
}

/**
 * Maps a cycle over the reduced table of {@link contractFixedEnds} back to the constrained order over n stops:
 * start first, then the cycle's stops after the merged node, then end.
 *
 * @param cycle cyclic order over the n−1 reduced indices.
 * @returns order over the original n stops with order[0] = start and order[n−1] = end.
 */
export function expandFixedEnds(cycle: ArrayLike<number>, n: number, start: number, end: number): Int32Array {
  const m = n - 1;
  const merged = start < end ? start : start - 1;
  let at = 0;
  while ((cycle[at] as number) !== merged) at++;
  const order = new Int32Array(n);
  order[0] = start;
  for (let p = 1; p < m; p++) {
    const r = cycle[(at + p) % m] as number;
    order[p] = r < end ? r : r + 1;
  }
  order[n - 1] = end;
  return order;
}

/**
 * Rotation of a cyclic order (same cycle, same cost) that puts `stop` at position `position` (0 = first,
 * order.length − 1 = last).
 */
export function rotateCycle(cycle: ArrayLike<number>, stop: number, position: number): Int32Array {
  const m = cycle.length;
  let at = 0;
  while ((cycle[at] as number) !== stop) at++;
  const out = new Int32Array(m);
  for (let p = 0; p < m; p++) out[p] = cycle[(at - position + p + 2 * m) % m] as number;
  return out;
}
