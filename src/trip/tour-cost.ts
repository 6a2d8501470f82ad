/**
 * Cost of the round trip `order[0] → order[1] → … → order[k-1] → order[0]` over a row-major n×n table
 * (`table[i*n+j]` = cost i→j, same unit as the table, e.g. seconds). A tour of 0 or 1 stop costs 0 (the diagonal
 * is never read).
 */
export function tourCost(table: Float64Array, n: number, order: ArrayLike<number>): number {
  const k = order.length;
  if (k < 2) return 0;
  let sum = 0;
  for (let p = 0; p < k; p++) {
    const a = order[p] as number;
    const b = order[p + 1 === k ? 0 : p + 1] as number;
    sum += table[a * n + b] as number;
  }
  return sum;
}
