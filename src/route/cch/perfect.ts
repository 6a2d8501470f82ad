import type { CchMetric } from './customize.js';

/**
 * A customized weight counts as beaten only below this fraction of itself: a path around an arc that weighs the
 * same (a tie, whose float sum may differ in the last bits) never removes it.
 */
const BEATEN = 1 - 1e-9;

/**
 * The arcs of a customized metric that a search needs, each way (perfect customization, Dibbelt, Strasser and
 * Wagner): an arc whose weight a path through higher vertices beats lies on no shortest path, so no best route
 * uses it and a search may skip it. Vertices top down, each relaxing the arcs to its higher neighbours through
 * every pair of them (upper and intermediate triangles): the arcs between higher vertices are exact by then.
 * Returns per arc 1 when needed driven up (bit 0) and driven down (bit 1); never an arc of Infinity weight.
 */
export function neededArcs(m: CchMetric): Uint8Array {
  const { upFirst, upHead } = m.topo;
  const up = m.up.slice(),
    down = m.down.slice();
  for (let x = m.topo.size - 1; x >= 0; x--) {
    const lo = upFirst[x]!,
      hi = upFirst[x + 1]!;
    for (let i = lo; i < hi; i++) {
      const y = upHead[i]!;
      let j = i + 1;
      for (let k = upFirst[y]!; k < upFirst[y + 1]! && j < hi; k++) {
        // Triangle x < y < z: the arcs x–y (i), x–z (j) and y–z (k).
        const z = upHead[k]!;
        while (j < hi && upHead[j]! < z) j++;
        if (j === hi || upHead[j] !== z) continue;
        if (up[j]! + down[k]! < up[i]!) up[i] = up[j]! + down[k]!; // x → z → y
        if (up[i]! + up[k]! < up[j]!) up[j] = up[i]! + up[k]!; // x → y → z
        if (up[k]! + down[j]! < down[i]!) down[i] = up[k]! + down[j]!; // y → z → x
        if (down[k]! + down[i]! < down[j]!) down[j] = down[k]! + down[i]!; // z → y → x
      }
    }
  }
  const needed = new Uint8Array(up.length);
  for (let i = 0; i < up.length; i++) {
    const w = m.up[i]!,
      v = m.down[i]!;
    needed[i] =
      (w !== Infinity && !(up[i]! < w * BEATEN) ? 1 : 0) | (v !== Infinity && !(down[i]! < v * BEATEN) ? 2 : 0);
  }
  return needed;
}
