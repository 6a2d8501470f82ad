import { grown } from '../grown.js';

/**
 * Douglas-Peucker simplification precomputed once for every tolerance: each vertex gets the largest tolerance at
 * which Douglas-Peucker would still keep it (its "significance"). Keeping the vertices whose significance is at
 * least `t` gives exactly the Douglas-Peucker result at tolerance `t`, so a render at any zoom simplifies a line by
 * one comparison per vertex instead of a recursive search.
 *
 * Invariant: a vertex's significance is at most its parent split's (min(own distance, parent's)), so the kept set
 * at tolerance t is closed under Douglas-Peucker's recursion: a vertex is only kept when the split that exposed it
 * was kept too.
 */

/**
 * Writes the significance of the points first .. end - 1 of `xy` (flat x, y pairs, any unit) into `out` (same
 * index as the point). The first and last point get Infinity. Distances are to the chord's segment (to the chord's
 * first point when it has zero length, as for a closed ring's first split).
 * @param stack scratch for the pending (from, to, parent significance) triples; grown when too small
 * @returns the scratch stack (possibly grown), for reuse by the next call
 */
export function significance(
  xy: ArrayLike<number>,
  first: number,
  end: number,
  out: Float32Array,
  stack: Float64Array,
): Float64Array {
  if (end <= first) return stack;
  out[first] = Infinity;
  out[end - 1] = Infinity;
  let top = 0;
  // Pushes are written out (no closure): this runs once per part, tens of thousands of times for a city.
  if (end - first > 2) {
    if (stack.length < 3) stack = grown(stack, 6);
    stack[0] = first;
    stack[1] = end - 1;
    stack[2] = Infinity;
    top = 3;
  }
  while (top > 0) {
    const parent = stack[--top]!,
      b = stack[--top]!,
      a = stack[--top]!;
    const ax = xy[2 * a]!,
      ay = xy[2 * a + 1]!;
    const dx = xy[2 * b]! - ax,
      dy = xy[2 * b + 1]! - ay;
    const len2 = dx * dx + dy * dy;
    let best = -1,
      bestD2 = -1;
    for (let i = a + 1; i < b; i++) {
      const px = xy[2 * i]! - ax,
        py = xy[2 * i + 1]! - ay;
      let d2: number;
      if (len2 > 0) {
        const t = (px * dx + py * dy) / len2;
        const tc = t < 0 ? 0 : t > 1 ? 1 : t;
        const ex = px - tc * dx,
          ey = py - tc * dy;
        d2 = ex * ex + ey * ey;
      } else d2 = px * px + py * py;
      if (d2 > bestD2) ((bestD2 = d2), (best = i));
    }
    const own = Math.sqrt(bestD2);
    const sig = own < parent ? own : parent;
    out[best] = sig;
    // At most two pushes: room for six more entries.
    if (top + 6 > stack.length) stack = grown(stack, top + 6);
    if (best - a > 1) ((stack[top++] = a), (stack[top++] = best), (stack[top++] = sig));
    if (b - best > 1) ((stack[top++] = best), (stack[top++] = b), (stack[top++] = sig));
  }
  return stack;
}
