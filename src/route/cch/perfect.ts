import { grown } from '../../grown.js';
import { LINK, seek } from './arcs.js';
import type { WorkRows } from './parts.js';

/**
 * A customized weight counts as beaten only below this fraction of itself: a path around an arc that weighs the
 * same (a tie, whose float sum may differ in the last bits) never removes it.
 */
const BEATEN = 1 - 1e-9;

/**
 * Marks the arc from vertex `m` up to `h` kept the ways `bit` says (bit 0 up, bit 1 down): an arc of a triangle
 * that made the weight of a kept arc of a higher vertex.
 */
export type Keep = (m: number, h: number, bit: number) => void;

/**
 * The perfect customization (Dibbelt, Strasser and Wagner) of vertex x's row, once the rows of every vertex above it
 * are final: lowers the weights of x's arcs through the arcs between its higher neighbours (upperTriangles), keeps
 * the arcs a shortest path may use (those no path through higher vertices beats), and for each kept arc with a
 * middle vertex m keeps the arcs of its triangle (`keep`: rows of m, below x), so that a route through kept arcs
 * unpacks through kept arcs alone (a triangle of a needed arc is needed in exact arithmetic; this closure keeps it
 * when float rounding says otherwise). Kept arcs are all drivable: a needed arc has a finite weight, and so have
 * both arcs of the triangle that made a finite weight. The row's weights stay lowered (the vertices below read
 * them); the basic weight of each kept arc it lowered is noted in `lowered`, which a kept arc stores.
 * @param basicUp room for the longest row's weights (scratch)
 */
export function perfectRow(
  w: WorkRows,
  x: number,
  keep: Keep,
  lowered: Lowered,
  basicUp: Float64Array,
  basicDown: Float64Array,
): void {
  const { up, down, midUp, midDown, kept, head } = w;
  const lo = w.at[x]!,
    hi = lo + w.upFirst[x + 1]! - w.upFirst[x]!;
  basicUp.set(up.subarray(lo, hi));
  basicDown.set(down.subarray(lo, hi));
  upperTriangles(w, x);
  for (let q = lo; q < hi && head[q] !== ROW_END; q++) {
    const bu = basicUp[q - lo]!,
      bd = basicDown[q - lo]!;
    const k = (kept[q]! |
      (bu !== Infinity && !(up[q]! < bu * BEATEN) ? 1 : 0) |
      (bd !== Infinity && !(down[q]! < bd * BEATEN) ? 2 : 0)) as number;
    kept[q] = k;
    const y = head[q]!;
    if (k & 1) {
      if (up[q] !== bu) lowered.note(q, 0, bu);
      if (midUp[q] !== LINK) {
        keep(midUp[q]!, x, 2); // x → m → y: the arc m–x down, then m–y up
        keep(midUp[q]!, y, 1);
      }
    }
    if (k & 2) {
      if (down[q] !== bd) lowered.note(q, 1, bd);
      if (midDown[q] !== LINK) {
        keep(midDown[q]!, y, 2); // y → m → x: the arc m–y down, then m–x up
        keep(midDown[q]!, x, 1);
      }
    }
  }
}

/**
 * Perfect customization's relaxation at vertex x: the arcs to x's higher neighbours through every pair of them
 * (upper and intermediate triangles). Run on the vertices top down, the arcs between higher vertices are exact by
 * then, and an arc whose weight a path through higher vertices beats lies on no shortest path, so no best route
 * uses it and a search may skip it. Over the drivable arcs only (compactRow): a triangle with an undrivable arc
 * relaxes nothing but that arc, which is needed neither way, so leaving them out leaves the search fewer triangles
 * and at most a few more arcs needed (a superset: a weight passed on through such an arc would only beat more).
 */
function upperTriangles(w: WorkRows, x: number): void {
  const { up, down, upFirst, head, at } = w;
  const lo = at[x]!,
    hi = lo + upFirst[x + 1]! - upFirst[x]!;
  for (let i = lo; i < hi && head[i] !== ROW_END; i++) {
    const y = head[i]!;
    const yEnd = at[y]! + upFirst[y + 1]! - upFirst[y]!;
    for (let j = i + 1, k = at[y]!; j < hi && head[j] !== ROW_END; j++) {
      // Triangle x < y < z: the arcs x–y (i), x–z (j) and y–z (k); y–z is missing when it is undrivable.
      const z = head[j]!;
      k = seek(head, k, yEnd, z);
      if (k === yEnd || head[k] === ROW_END) break;
      if (head[k] !== z) continue;
      if (up[j]! + down[k]! < up[i]!) up[i] = up[j]! + down[k]!; // x → z → y
      if (up[i]! + up[k]! < up[j]!) up[j] = up[i]! + up[k]!; // x → y → z
      if (up[k]! + down[j]! < down[i]!) down[i] = up[k]! + down[j]!; // y → z → x
      if (down[k]! + down[i]! < down[j]!) down[j] = down[k]! + down[i]!; // z → y → x
    }
  }
}

/** Ends a compacted row before the end of its room (compactRow): above every head, so a search stops at it. */
export const ROW_END = 0xffffffff;

/**
 * Moves vertex v's drivable arcs (finite at least one way after the basic customization) to the front of its row,
 * in order, each with its head in `head`, and ends the row there (ROW_END to the end of its room): the rows the
 * perfect customization walks and the kept arcs are read from.
 */
export function compactRow(w: WorkRows, v: number): void {
  const { up, down, midUp, midDown, kept, head } = w;
  const lo = w.at[v]!,
    len = w.upFirst[v + 1]! - w.upFirst[v]!,
    row = w.upFirst[v]!;
  let d = lo;
  for (let q = lo; q < lo + len; q++) {
    if (up[q] === Infinity && down[q] === Infinity) continue;
    head[d] = w.upHead[row + q - lo]!;
    up[d] = up[q]!;
    down[d] = down[q]!;
    midUp[d] = midUp[q]!;
    midDown[d] = midDown[q]!;
    kept[d++] = kept[q]!;
  }
  head.fill(ROW_END, d, lo + len);
}

/** The place of the arc from `v` up to `h` among v's compacted arcs (compactRow); -1 when none. */
export function compactIndex(w: WorkRows, v: number, h: number): number {
  const lo = w.at[v]!,
    end = lo + w.upFirst[v + 1]! - w.upFirst[v]!;
  const k = seek(w.head, lo, end, h);
  return k < end && w.head[k] === h ? k : -1;
}

/**
 * The basic weights of the kept arcs whose weight perfectRow lowered, noted row by row top down, and given back row
 * by row bottom up (`restore`), as the kept arcs are written in rank order.
 */
export class Lowered {
  /** Per note: local arc * 2 + way (0 up, 1 down). */
  private arc = new Uint32Array(64);
  private basic = new Float64Array(64);
  private count = 0;

  note(q: number, way: number, weight: number): void {
    if (this.count === this.arc.length)
      [this.arc, this.basic] = [grown(this.arc, this.count + 1), grown(this.basic, this.count + 1)];
    this.arc[this.count] = 2 * q + way;
    this.basic[this.count++] = weight;
  }

  /**
   * Puts back into `up`/`down` the basic weights noted for local arcs lo .. hi − 1 (one row), and forgets those
   * notes: rows must be asked in the reverse of their noting (the notes of the rows below this one already given
   * back), so that this row's are the last ones.
   */
  restore(lo: number, hi: number, up: Float64Array, down: Float64Array): void {
    let p = this.count;
    while (p > 0 && this.arc[p - 1]! >>> 1 >= lo && this.arc[p - 1]! >>> 1 < hi) p--;
    for (let i = p; i < this.count; i++) ((this.arc[i]! & 1) === 0 ? up : down)[this.arc[i]! >>> 1] = this.basic[i]!;
    this.count = p;
  }
}
