import { Scratch, scratchBytes } from './scratch.js';
import type { CchTopology } from './topology.js';

/**
 * Most topology arcs a customization by parts holds the working rows of beside its top (customizationParts): about
 * 25 bytes each (weights and middle vertices each way, kept bits), so ≈ 26 MB for a window. Smaller windows make a
 * larger top (more separators above them); at NY 4 × 4 (147 M arcs) this size keeps both near 1 M arcs, and ran
 * faster than windows of 4 M (their rows fit the caches better).
 */
const WINDOW_ARCS = 1 << 20;

/**
 * Most topology arcs a customization takes in one piece (one window, no top): a city (whole HCMC has 1.65 M arcs,
 * ≈ 41 MB of working rows), which by parts would take about a third more CPU, its windows' basic customization
 * running twice.
 */
const ONE_PIECE_ARCS = 1 << 23;

/** The window budget of a customization of `topo`: all of it in one piece up to ONE_PIECE_ARCS, else WINDOW_ARCS. */
export function windowBudget(topo: CchTopology): number {
  return topo.arcs <= ONE_PIECE_ARCS ? topo.arcs : WINDOW_ARCS;
}

/**
 * How one customization (customize.ts) is cut so that it never holds the working rows of every topology arc at once
 * (at NY 4 × 4, 147 M arcs, those alone were 3.7 GB):
 * - the top: every vertex whose subtree of the elimination tree has more than the window's arcs in its rows (closed
 *   upwards: a vertex's ancestors are in it too). Its rows stay in memory through the whole customization.
 * - windows below it: ranges of vertices in rank order, each holding whole subtrees of the vertices below the top.
 *   A vertex's lower triangles have their middle vertex among its descendants and its arcs lead to its ancestors, so
 *   a window's basic customization reads and writes only its own rows and the top's, and so does its perfect
 *   customization: a window's rows can be made, used and dropped one window at a time (twice: once to pass its
 *   triangles on to the top's arcs, once to find its kept arcs against the top's final weights).
 * A topology of at most `budget` arcs is one window and no top. Linear in the vertices.
 */
export interface CustomizationParts {
  /** Per vertex: 1 when it is in the top. */
  top: Uint8Array;
  /** Topology arcs in the top's rows. */
  topArcs: number;
  /** The windows in rank order, two numbers each: first vertex, last vertex + 1 (top vertices within are not its). */
  windows: number[];
  /** Most topology arcs of one window's range of vertices. */
  widest: number;
  /** Most arcs of one topology row. */
  longest: number;
}

/**
 * Cuts a topology for customization (see CustomizationParts).
 * @param budget most arcs of a window's subtrees (a window holds more only when one subtree does, or when subtrees
 *   interleave in rank order, which a nested-dissection order never does)
 * @param scratch where `top` and the working array are carved (5 bytes per vertex), released by the caller
 */
export function customizationParts(
  topo: CchTopology,
  budget = windowBudget(topo),
  scratch = new Scratch(scratchBytes([topo.size, 4], [topo.size, 1])),
): CustomizationParts {
  const { upFirst, parent } = topo;
  const n = topo.size;
  // Arcs in the rows of each vertex's subtree: children rank below their parent, so a subtree is summed when reached.
  const sub = scratch.u32(n);
  const top = scratch.u8(n);
  let topArcs = 0,
    longest = 0;
  for (let v = 0; v < n; v++) {
    const row = upFirst[v + 1]! - upFirst[v]!;
    longest = Math.max(longest, row);
    sub[v] += row;
    if (parent[v]! >= 0) sub[parent[v]!] += sub[v]!;
    if (sub[v]! > budget) {
      top[v] = 1;
      topArcs += row;
    }
  }
  // Each vertex below the top: the root of its subtree below the top (parents first, so theirs is known), in `sub`.
  const root = sub;
  for (let v = n - 1; v >= 0; v--) {
    if (top[v]) continue;
    const p = parent[v]!;
    root[v] = p >= 0 && !top[p] ? root[p]! : v;
  }
  // A window can end at a vertex when every subtree it has begun ends there (is rooted at or below it); it ends
  // there unless the next subtree, whose vertices run up to its root, would take it past the budget.
  const windows: number[] = [];
  let widest = 0,
    start = -1,
    reach = -1;
  for (let v = 0; v < n; v++) {
    if (top[v]) continue;
    if (start < 0) start = v;
    reach = Math.max(reach, root[v]!);
    if (v !== reach) continue;
    let next = v + 1;
    while (next < n && top[next]) next++;
    if (next < n && upFirst[root[next]! + 1]! - upFirst[start]! <= budget) continue;
    windows.push(start, v + 1);
    widest = Math.max(widest, upFirst[v + 1]! - upFirst[start]!);
    start = -1;
  }
  return { top, topArcs, windows, widest, longest };
}

/**
 * The working rows of one customization, by local arc: vertex v's topology row lies at at[v] .. at[v] + its length
 * − 1, slot s at at[v] + s (its head upHead[upFirst[v] + s]): the top's rows first, where they stay, then the rows
 * of the window being customized. Per local arc its weight each way (Infinity when undrivable), its middle vertex
 * each way (arcs.ts LINK for none), and the ways it is kept (bit 0 up, bit 1 down). Once a row's basic weights are
 * final its drivable arcs are moved to its front with their heads in `head` (perfect.ts compactRow).
 */
export interface WorkRows {
  upFirst: Uint32Array;
  upHead: Uint32Array;
  at: Uint32Array;
  up: Float64Array;
  down: Float64Array;
  midUp: Uint32Array;
  midDown: Uint32Array;
  kept: Uint8Array;
  head: Uint32Array;
}
