/**
 * A stable sort of index lists by a numeric key, on typed arrays without a comparator callback: the edge lists of a
 * polygon fill are sorted once per fill, and a comparator-driven TypedArray sort costs a call per comparison.
 */

/** Runs shorter than this are insertion-sorted before merging. */
const RUN = 16;

/**
 * Sorts `idx[0 .. n)` by `key[idx[i]]` ascending; equal keys keep their order (the same permutation as any stable
 * sort). Keys must not be NaN.
 * @param tmp scratch of length >= n
 * @returns the array now holding the sorted indices in `[0, n)`: `idx` or `tmp`
 */
export function sortIndicesByKey(idx: Uint32Array, n: number, key: Float64Array, tmp: Uint32Array): Uint32Array {
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    for (let i = lo + 1; i < hi; i++) {
      const v = idx[i]!;
      const k = key[v]!;
      let j = i;
      while (j > lo && key[idx[j - 1]!]! > k) {
        idx[j] = idx[j - 1]!;
        j--;
      }
      idx[j] = v;
    }
  }
  let src = idx,
    dst = tmp;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width),
        hi = Math.min(n, lo + 2 * width);
      let a = lo,
        b = mid,
        o = lo;
      // Taking from the left run on ties keeps the sort stable.
      while (a < mid && b < hi) dst[o++] = key[src[b]!]! < key[src[a]!]! ? src[b++]! : src[a++]!;
      while (a < mid) dst[o++] = src[a++]!;
      while (b < hi) dst[o++] = src[b++]!;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}
