import { Scratch, scratchBytes } from './scratch.js';

/** `mid` of a kept arc that is a link of the state graph (it unpacks to no lower vertex). */
export const LINK = 0xffffffff;

/**
 * One direction of the arcs a customized CCH keeps (perfect.ts keptArcs), by lower end: those of vertex v are
 * first[v] .. first[v + 1] - 1, heads ascending in `head`, their weights (basic customization's, each the weight of
 * the path the arc unpacks to) in `weight`, and in `mid` the vertex m of the lower triangle that made the weight
 * (LINK when the arc's own link did): driven up, lo → hi runs lo → m → hi (the arc m–lo down, then m–hi up); driven
 * down, hi → m → lo (m–hi down, then m–lo up). Both arcs of a kept arc's triangle are kept too, so a route through
 * kept arcs unpacks through kept arcs alone. 16 bytes per kept arc, plus 4 per vertex, in one block of shared
 * memory where the platform has it (scratch.ts), which other threads may adopt (exchange.ts).
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
 * The arcs of `rows` (a topology's upFirst/upHead) kept each way — bit 0 of `kept` driven up, bit 1 driven down —
 * with their weights and middle vertices (per topology arc): the two CchArcs, up then down, each's four arrays in one
 * block of shared memory where the platform has it. One pass to count, one to copy.
 */
export function keptRows(
  upFirst: Uint32Array,
  upHead: Uint32Array,
  kept: Uint8Array,
  up: Float64Array,
  down: Float64Array,
  midUp: Uint32Array,
  midDown: Uint32Array,
): [CchArcs, CchArcs] {
  const n = upFirst.length - 1;
  let nu = 0,
    nd = 0;
  for (let i = 0; i < kept.length; i++) {
    const k = kept[i]!;
    nu += k & 1;
    nd += k >> 1;
  }
  const rows = (count: number): CchArcs => {
    const block = new Scratch(scratchBytes([count, 8], [n + 1, 4], [count, 4], [count, 4]), { shared: true });
    return { weight: block.f64(count), first: block.u32(n + 1), head: block.u32(count), mid: block.u32(count) };
  };
  const u = rows(nu),
    d = rows(nd);
  const [uFirst, uHead, uWeight, uMid] = [u.first, u.head, u.weight, u.mid];
  const [dFirst, dHead, dWeight, dMid] = [d.first, d.head, d.weight, d.mid];
  let ku = 0,
    kd = 0;
  for (let v = 0; v < n; v++) {
    for (let i = upFirst[v]!, end = upFirst[v + 1]!; i < end; i++) {
      const k = kept[i]!;
      if (k === 0) continue;
      const h = upHead[i]!;
      if (k & 1) {
        uHead[ku] = h;
        uWeight[ku] = up[i]!;
        uMid[ku++] = midUp[i]!;
      }
      if (k & 2) {
        dHead[kd] = h;
        dWeight[kd] = down[i]!;
        dMid[kd++] = midDown[i]!;
      }
    }
    uFirst[v + 1] = ku;
    dFirst[v + 1] = kd;
  }
  return [u, d];
}

/**
 * Why `a` cannot be one direction of a customized metric over a topology of `n` vertices and `arcs` arcs (another
 * thread's, offered for adoption: exchange.ts), or null when it can: the arrays' types and lengths, rows that cover
 * the arcs in order, heads above their row's vertex and ascending, middles below it (or LINK). Linear in the arcs.
 */
export function arcsProblem(a: CchArcs, n: number, arcs: number): string | null {
  const { first, head, weight, mid } = a;
  if (!(first instanceof Uint32Array && head instanceof Uint32Array && mid instanceof Uint32Array))
    return 'rows, heads and middles are not Uint32Arrays';
  if (!(weight instanceof Float64Array)) return 'weights are not a Float64Array';
  const c = head.length;
  if (first.length !== n + 1) return `${first.length} row starts for ${n} vertices`;
  if (c > arcs || weight.length !== c || mid.length !== c)
    return `${c} heads, ${weight.length} weights, ${mid.length} middles for ${arcs} arcs`;
  if (first[0] !== 0 || first[n] !== c) return 'the rows do not cover the arcs';
  for (let v = 0; v < n; v++) {
    const lo = first[v]!,
      hi = first[v + 1]!;
    if (hi < lo) return `row ${v} ends before it starts`;
    for (let k = lo; k < hi; k++) {
      const h = head[k]!,
        m = mid[k]!;
      if (h <= v || h >= n || (k > lo && h <= head[k - 1]!)) return `arc ${k} of row ${v} has head ${h}`;
      if (m !== LINK && m >= v) return `arc ${k} of row ${v} has middle ${m}`;
    }
  }
  return null;
}
