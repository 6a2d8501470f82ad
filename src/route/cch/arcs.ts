/** `mid` of a kept arc that is a link of the state graph (it unpacks to no lower vertex). */
export const LINK = 0xffffffff;

/**
 * One direction of the arcs a customized CCH keeps (perfect.ts keptArcs), by lower end: those of vertex v are
 * first[v] .. first[v + 1] - 1, heads ascending in `head`, their weights (basic customization's, each the weight of
 * the path the arc unpacks to) in `weight`, and in `mid` the vertex m of the lower triangle that made the weight
 * (LINK when the arc's own link did): driven up, lo → hi runs lo → m → hi (the arc m–lo down, then m–hi up); driven
 * down, hi → m → lo (m–hi down, then m–lo up). Both arcs of a kept arc's triangle are kept too, so a route through
 * kept arcs unpacks through kept arcs alone. 16 bytes per kept arc, plus 4 per vertex.
 */
export interface CchArcs {
  first: Uint32Array;
  head: Uint32Array;
  weight: Float64Array;
  mid: Uint32Array;
}

/**
 * Index of the arc from `v` to `h` in a CSR of arcs by lower end, heads ascending per row (a CchArcs' first/head, or
 * a topology's upFirst/upHead): a binary search of v's row; -1 when v has no such arc.
 */
export function arcIndex(first: Uint32Array, head: Uint32Array, v: number, h: number): number {
  let lo = first[v]!,
    hi = first[v + 1]!;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (head[m]! < h) lo = m + 1;
    else hi = m;
  }
  return lo < first[v + 1]! && head[lo] === h ? lo : -1;
}

/**
 * Index of the first of head[from .. end - 1] (ascending) that is ≥ h, or `end` when none is: a galloping search
 * (steps 1, 2, 4 … then a binary search), so walking a long row to a few heads in order costs about their
 * logarithms, not the row's length. Triangle enumeration walks the row of a vertex's higher neighbour this way to
 * the vertex's own higher neighbours, often a handful of a long row.
 */
export function seek(head: Uint32Array, from: number, end: number, h: number): number {
  let lo = from,
    hi = from,
    step = 1;
  // Invariant: every head before lo is < h.
  while (hi < end && head[hi]! < h) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > end) hi = end;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (head[m]! < h) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/**
 * The arcs of `rows` (a topology's upFirst/upHead) with bit `bit` set in `kept`, with their weights and middle
 * vertices (per topology arc): a CchArcs.
 */
export function keptRows(
  upFirst: Uint32Array,
  upHead: Uint32Array,
  kept: Uint8Array,
  bit: number,
  weight: Float64Array,
  mid: Uint32Array,
): CchArcs {
  const n = upFirst.length - 1;
  let count = 0;
  for (let i = 0; i < kept.length; i++) if (kept[i]! & bit) count++;
  const out: CchArcs = {
    first: new Uint32Array(n + 1),
    head: new Uint32Array(count),
    weight: new Float64Array(count),
    mid: new Uint32Array(count),
  };
  let k = 0;
  for (let v = 0; v < n; v++) {
    for (let i = upFirst[v]!; i < upFirst[v + 1]!; i++) {
      if (!(kept[i]! & bit)) continue;
      out.head[k] = upHead[i]!;
      out.weight[k] = weight[i]!;
      out.mid[k++] = mid[i]!;
    }
    out.first[v + 1] = k;
  }
  return out;
}
