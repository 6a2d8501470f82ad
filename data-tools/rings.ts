/**
 * Joins way node lists into closed rings (multipolygon assembly): ways sharing end nodes are chained, reversing
 * where needed. Unclosable pieces are dropped. Input and output are lists of node ids.
 */
export function assembleRings(ways: number[][]): number[][] {
  const pending = ways.filter((w) => w.length >= 2).map((w) => [...w]);
  const rings: number[][] = [];
  while (pending.length > 0) {
    let ring = pending.shift()!;
    let grown = true;
    while (ring[0] !== ring[ring.length - 1] && grown) {
      grown = false;
      const end = ring[ring.length - 1];
      for (let i = 0; i < pending.length; i++) {
        const w = pending[i]!;
        if (w[0] === end) ring = ring.concat(w.slice(1));
        else if (w[w.length - 1] === end) ring = ring.concat(w.slice(0, -1).reverse());
        else continue;
        pending.splice(i, 1);
        grown = true;
        break;
      }
    }
    if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) rings.push(ring);
  }
  return rings;
}

/** Signed area of a ring in its own planar units (shoelace); positive when counter-clockwise. */
export function ringArea(xs: ArrayLike<number>, ys: ArrayLike<number>): number {
  let a = 0;
  for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) a += (xs[j]! - xs[i]!) * (ys[j]! + ys[i]!);
  return a / 2;
}
