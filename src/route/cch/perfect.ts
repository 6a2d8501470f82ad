import { arcIndex, LINK, seek, type DrivableArcs } from './arcs.js';
import { grown } from '../../grown.js';
import { scratchBytes, type Scratch } from './scratch.js';
import type { CchTopology } from './topology.js';

/**
 * A customized weight counts as beaten only below this fraction of itself: a path around an arc that weighs the
 * same (a tie, whose float sum may differ in the last bits) never removes it.
 */
const BEATEN = 1 - 1e-9;

/**
 * The arcs of a customized metric that searches keep, each way (see DrivableArcs): those a shortest path may use
 * (perfect customization, below), and the arcs of their triangles (`midUp`/`midDown`: per arc the middle vertex of
 * the lower triangle that made its weight, LINK for a link), so that a route through kept arcs unpacks through kept
 * arcs alone (a triangle of a needed arc is needed in exact arithmetic; the closure keeps it when float rounding
 * says otherwise). Kept arcs are all drivable: a needed arc has a finite weight, and so have both arcs of the
 * triangle that made a finite weight.
 *
 * Works in place, so a customization needs no second copy of its weights (20 bytes per drivable arc): the drivable
 * arcs' weights and middles are moved to the front of `up`, `down`, `midUp` and `midDown` (compact arc q at q), the
 * perfect customization lowers the weights there, and the basic weight of every kept arc is put back at the end, so
 * that on return those arrays hold, per compact arc, its basic weights and middles (what a kept arc stores). The rows
 * `first`/`head` and `kept` are carved from `scratch` (keptBytes of room).
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
): DrivableArcs {
  const first = scratch.u32(n + 1);
  let longest = 0;
  for (let v = 0; v < n; v++) {
    let c = first[v]!;
    for (let i = upFirst[v]!; i < upFirst[v + 1]!; i++) if (up[i] !== Infinity || down[i] !== Infinity) c++;
    first[v + 1] = c;
    longest = Math.max(longest, c - first[v]!);
  }
  const m = first[n]!;
  const head = scratch.u32(m),
    kept = scratch.u8(m);
  // Compact arc q ≤ topology arc i, so moving them forward overwrites only arcs already moved.
  for (let v = 0, q = 0; v < n; v++)
    for (let i = upFirst[v]!; i < upFirst[v + 1]!; i++) {
      if (up[i] === Infinity && down[i] === Infinity) continue;
      head[q] = upHead[i]!;
      up[q] = up[i]!;
      down[q] = down[i]!;
      midUp[q] = midUp[i]!;
      midDown[q++] = midDown[i]!;
    }
  const keep = (v: number, h: number, bit: number) => {
    kept[arcIndex(first, head, v, h)] |= bit;
  };
  // A vertex's row changes only while the vertex is processed (below), so its basic weights are kept aside for that
  // time only, and afterwards only for the kept arcs whose weight the perfect customization lowered.
  const basicUp = new Float64Array(longest),
    basicDown = new Float64Array(longest);
  let lowered = new Uint32Array(64),
    basic = new Float64Array(64),
    count = 0;
  const putBack = (q: number, way: number, w: number) => {
    if (count === lowered.length) [lowered, basic] = [grown(lowered, count + 1), grown(basic, count + 1)];
    lowered[count] = 2 * q + way;
    basic[count++] = w;
  };
  // Top down: the arcs that mark a vertex's row (closure: a kept arc's triangle has a lower end below the arc's)
  // all belong to higher vertices, processed before it.
  for (let x = n - 1; x >= 0; x--) {
    const lo = first[x]!,
      hi = first[x + 1]!;
    basicUp.set(up.subarray(lo, hi));
    basicDown.set(down.subarray(lo, hi));
    upperTriangles(x, first, head, up, down);
    for (let q = lo; q < hi; q++) {
      const w = basicUp[q - lo]!,
        v = basicDown[q - lo]!;
      const k = (kept[q]! |
        (w !== Infinity && !(up[q]! < w * BEATEN) ? 1 : 0) |
        (v !== Infinity && !(down[q]! < v * BEATEN) ? 2 : 0)) as number;
      kept[q] = k;
      const y = head[q]!;
      if (k & 1) {
        if (up[q] !== w) putBack(q, 0, w);
        if (midUp[q] !== LINK) {
          keep(midUp[q]!, x, 2); // x → m → y: the arc m–x down, then m–y up
          keep(midUp[q]!, y, 1);
        }
      }
      if (k & 2) {
        if (down[q] !== v) putBack(q, 1, v);
        if (midDown[q] !== LINK) {
          keep(midDown[q]!, y, 2); // y → m → x: the arc m–y down, then m–x up
          keep(midDown[q]!, x, 1);
        }
      }
    }
  }
  for (let i = 0; i < count; i++) (lowered[i]! & 1 ? down : up)[lowered[i]! >>> 1] = basic[i]!;
  return { first, head, kept };
}

/** The scratch bytes keptArcs needs on a topology (at most: its rows cover the arcs drivable at least one way). */
export function keptBytes(topo: CchTopology): number {
  const m = topo.arcs;
  return scratchBytes([topo.size + 1, 4], [m, 4], [m, 1]);
}

/**
 * Perfect customization's relaxation at vertex x (Dibbelt, Strasser and Wagner) over the drivable arcs' rows
 * `first`/`head` and weights each way: the arcs to x's higher neighbours through every pair of them (upper and
 * intermediate triangles). Run on the vertices top down, the arcs between higher vertices are exact by then, and an
 * arc whose weight a path through higher vertices beats lies on no shortest path, so no best route uses it and a
 * search may skip it. Over the drivable arcs only: a triangle with an undrivable arc relaxes nothing but that arc,
 * which is needed neither way, so leaving them out leaves the search fewer triangles and at most a few more arcs
 * needed (a superset: a weight passed on through such an arc would only beat more).
 */
function upperTriangles(x: number, first: Uint32Array, head: Uint32Array, up: Float64Array, down: Float64Array): void {
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
