/**
 * For every stop, its k cheapest successors (smallest c(i, j), j ≠ i), ascending by cost, ties by index.
 * O(n² · k) with a small insertion buffer per row; no sorting of whole rows.
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`, e.g. seconds).
 * @param n number of stops.
 * @param k list length per stop (clamped to n − 1).
 * @returns { list, k } where list[i*k + r] is the r-th cheapest successor of stop i.
 */
export function nearestSuccessors(table: Float64Array, n: number, k: number): { list: Int32Array; k: number } {
  return nearest(table, n, k, n, 1);
}

/**
 * For every stop, its k cheapest predecessors (smallest c(j, i), j ≠ i), ascending by cost, ties by index: the
 * successor lists of the transposed table.
 *
 * @returns { list, k } where list[i*k + r] is the r-th cheapest predecessor of stop i.
 */
export function nearestPredecessors(table: Float64Array, n: number, k: number): { list: Int32Array; k: number } {
  return nearest(table, n, k, 1, n);
}

/**
 * The k cheapest j ≠ i per i of the costs at table[i * rowStep + j * colStep] (rowStep n, colStep 1: successors;
 * 1 and n: predecessors, read down the columns rather than from a transposed copy), ascending, ties by index.
 */
function nearest(
  table: Float64Array,
  n: number,
  k: number,
  rowStep: number,
  colStep: number,
): { list: Int32Array; k: number } {
  const width = Math.max(0, Math.min(k, n - 1));
  const list = new Int32Array(n * width);
  const costs = new Float64Array(width);
  for (let i = 0; i < n; i++) {
    let size = 0;
    const base = i * width;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const c = table[i * rowStep + j * colStep] as number;
      if (size === width && c >= (costs[width - 1] as number)) continue;
      // Insert j into the sorted buffer, dropping the last entry when full.
      let r = size < width ? size++ : width - 1;
      while (r > 0 && (costs[r - 1] as number) > c) {
        costs[r] = costs[r - 1] as number;
        list[base + r] = list[base + r - 1] as number;
        r--;
      }
      costs[r] = c;
      list[base + r] = j;
    }
  }
  return { list, k: width };
}
