import { grown } from '../../grown.js';
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
  /**
   * The working array the parts were cut with (a number per vertex, of no use once they are), for the customization
   * to lay its rows' places in (WorkRows.at) rather than beside it.
   */
  spare: Uint32Array;
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
  return { top, topArcs, windows, widest, longest, spare: sub };
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

/**
 * The ways the top's kept arcs keep arcs below the top (the arcs of their triangles, in windows' rows not yet
 * customized again): noted while the top is customized perfectly, then sorted by topology arc once, and handed to
 * each window as its rows are laid again. A few per kept arc of the top (8 bytes each) instead of two bits per
 * topology arc.
 */
export class BelowMarks {
  /** Per mark: its topology arc * 4 + its ways (bit 0 up, bit 1 down); a float holds it exactly past 2^32. */
  private marks = new Float64Array(64);
  private count = 0;

  /** Marks topology arc `arc` kept the ways `ways` says. */
  note(arc: number, ways: number): void {
    if (this.count === this.marks.length) this.marks = grown(this.marks, this.count + 1);
    this.marks[this.count++] = arc * 4 + ways;
  }

  /** Sorts the marks by arc, once every one is noted: `each` reads them then. */
  finish(): void {
    this.marks = this.marks.slice(0, this.count).sort();
  }

  /** Calls `mark(arc, ways)` for every mark on topology arcs `from` .. `to` − 1, in arc order (finish first). */
  each(from: number, to: number, mark: (arc: number, ways: number) => void): void {
    const m = this.marks;
    let lo = 0,
      hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (m[mid]! < from * 4) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < this.count && m[k]! < to * 4; k++) mark(Math.floor(m[k]! / 4), m[k]! % 4);
  }
}
