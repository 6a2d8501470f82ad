/**
 * Position of `x` in the ascending array `a` (a binary search), or -1 when it is not there.
 * @param a values in ascending order (node or way ids)
 */
export function sortedIndexOf(a: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid]!;
    if (v === x) return mid;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
