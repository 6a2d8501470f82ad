import { arcIndex, LINK, seek } from './arcs.js';
import { scratchBytes, type Scratch } from './scratch.js';
import type { CchTopology } from './topology.js';

/**
 * A customized weight counts as beaten only below this fraction of itself: a path around an arc that weighs the
 * same (a tie, whose float sum may differ in the last bits) never removes it.
 */
const BEATEN = 1 - 1e-9;

/**
 * The arcs of a customized metric that searches keep, each way: per topology arc, bit 0 when kept driven up (lower
 * → higher end), bit 1 driven down. Those a shortest path may use (neededArcs), and the arcs of their triangles
 * (`midUp`/`midDown`: per arc the middle vertex of the lower triangle that made its weight, LINK for a link), so
 * that a route through kept arcs unpacks through kept arcs alone (a triangle of a needed arc is needed in exact
 * arithmetic; the closure keeps it when float rounding says otherwise). Its arrays, the result too, are carved from
 * `scratch` (keptBytes of room).
 * @param n the topology's vertices
 * @param upFirst the topology's rows
 * @param upHead their heads
 */
export function keptArcs(
  n: number,
  upFirst: Uint32Array,
  upHead: Uint32Array,
  up: Float64Array,
  down: Float64Array,
  midUp: Uint32Array,
  midDown: Uint32Array,
  scratch: Scratch,
): Uint8Array {
  const kept = neededArcs(n, upFirst, upHead, up, down, scratch);
  const keep = (m: number, h: number, bit: number) => {
    kept[arcIndex(upFirst, upHead, m, h)] |= bit;
  };
  // Top down: a triangle's arcs have a lower end below the arc's, so they are reached after it.
  for (let x = n - 1; x >= 0; x--)
    for (let i = upFirst[x]!; i < upFirst[x + 1]!; i++) {
      const y = upHead[i]!;
      if (kept[i]! & 1 && midUp[i] !== LINK) {
        keep(midUp[i]!, x, 2); // x → m → y: the arc m–x down, then m–y up
        keep(midUp[i]!, y, 1);
      }
      if (kept[i]! & 2 && midDown[i] !== LINK) {
        keep(midDown[i]!, y, 2); // y → m → x: the arc m–y down, then m–x up
        keep(midDown[i]!, x, 1);
      }
    }
  return kept;
}

/** The scratch bytes keptArcs needs on a topology (at most: it copies the arcs drivable at least one way). */
export function keptBytes(topo: CchTopology): number {
  const m = topo.arcs;
  return scratchBytes([topo.size + 1, 4], [m, 4], [m, 8], [m, 8], [m, 1]);
}

/**
 * The arcs of a customized metric that a search needs, each way (perfect customization, Dibbelt, Strasser and
 * Wagner): an arc whose weight a path through higher vertices beats lies on no shortest path, so no best route
 * uses it and a search may skip it. Vertices top down, each relaxing the arcs to its higher neighbours through
 * every pair of them (upper and intermediate triangles): the arcs between higher vertices are exact by then.
 * Over the arcs drivable at least one way only (about two thirds of a turn-aware topology's): a triangle with an
 * undrivable arc relaxes nothing but that arc, which is needed neither way, so leaving them out leaves the search
 * fewer triangles and at most a few more arcs needed (a superset: a weight passed on through such an arc would
 * only beat more). Returns per arc 1 when needed driven up (bit 0) and driven down (bit 1); never an arc of
 * Infinity weight.
 */
function neededArcs(
  n: number,
  upFirst: Uint32Array,
  upHead: Uint32Array,
  upW: Float64Array,
  downW: Float64Array,
  scratch: Scratch,
): Uint8Array {
  const first = scratch.u32(n + 1);
  for (let v = 0; v < n; v++) {
    let c = first[v]!;
    for (let i = upFirst[v]!; i < upFirst[v + 1]!; i++) if (upW[i] !== Infinity || downW[i] !== Infinity) c++;
    first[v + 1] = c;
  }
  const m = first[n]!;
  const head = scratch.u32(m),
    up = scratch.f64(m),
    down = scratch.f64(m);
  for (let v = 0, q = 0; v < n; v++)
    for (let i = upFirst[v]!; i < upFirst[v + 1]!; i++) {
      if (upW[i] === Infinity && downW[i] === Infinity) continue;
      head[q] = upHead[i]!;
      up[q] = upW[i]!;
      down[q++] = downW[i]!;
    }
  upperTriangles(n, first, head, up, down);
  const needed = scratch.u8(upW.length);
  // The drivable arcs again in the same order: arc i is compact arc q.
  for (let i = 0, q = 0; i < upW.length; i++) {
    const w = upW[i]!,
      v = downW[i]!;
    if (w === Infinity && v === Infinity) continue;
    needed[i] =
      (w !== Infinity && !(up[q]! < w * BEATEN) ? 1 : 0) | (v !== Infinity && !(down[q]! < v * BEATEN) ? 2 : 0);
    q++;
  }
  return needed;
}

/**
 * Perfect customization's relaxation (neededArcs) over the drivable arcs' rows `first`/`head` and weights each way:
 * vertices top down, each relaxing the arcs to its higher neighbours through every pair of them (upper and
 * intermediate triangles).
 */
function upperTriangles(n: number, first: Uint32Array, head: Uint32Array, up: Float64Array, down: Float64Array): void {
  for (let x = n - 1; x >= 0; x--) {
    const lo = first[x]!,
      hi = first[x + 1]!;
    for (let i = lo; i < hi; i++) {
      const y = head[i]!;
      const kEnd = first[y + 1]!;
      for (let j = i + 1, k = first[y]!; j < hi && k < kEnd; j++) {
        // Triangle x < y < z: the arcs x–y (i), x–z (j) and y–z (k); undrivable arcs are left out of these rows, so
        // y–z may be missing.
        const z = head[j]!;
        k = seek(head, k, kEnd, z);
        if (k === kEnd || head[k] !== z) continue;
        if (up[j]! + down[k]! < up[i]!) up[i] = up[j]! + down[k]!; // x → z → y
        if (up[i]! + up[k]! < up[j]!) up[j] = up[i]! + up[k]!; // x → y → z
        if (up[k]! + down[j]! < down[i]!) down[i] = up[k]! + down[j]!; // y → z → x
        if (down[k]! + down[i]! < down[j]!) down[j] = down[k]! + down[i]!; // z → y → x
      }
    }
  }
}
