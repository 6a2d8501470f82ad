/**
 * Whether every stop can reach every other stop through legs of finite cost (a necessary condition for a finite
 * round trip; the diagonal is ignored). Returns the first stop that breaks it, or -1 when strongly connected.
 * O(n²) breadth-first searches forward and backward from stop 0.
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`; Infinity = unreachable).
 * @param n number of stops.
 * @returns { stop, direction } of a stop that cannot be reached from stop 0 ('from') or cannot reach stop 0
 *   ('to'), or null when every stop is mutually reachable.
 */
export function findUnreachableStop(table: Float64Array, n: number): { stop: number; direction: 'from' | 'to' } | null {
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  for (const direction of ['from', 'to'] as const) {
    seen.fill(0);
    seen[0] = 1;
    queue[0] = 0;
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const u = queue[head++] as number;
      for (let v = 0; v < n; v++) {
        if (seen[v] === 1) continue;
        const cost = direction === 'from' ? table[u * n + v] : table[v * n + u];
        if (cost === Infinity) continue;
        seen[v] = 1;
        queue[tail++] = v;
      }
    }
    if (tail < n) return { stop: seen.indexOf(0), direction };
  }
  return null;
}
