import type { ArcCosts } from './costs.js';
import type { TurnTable } from './turns.js';

/**
 * Components with at least this many routable edges are "big": snapping prefers them (OSRM's
 * `--small-component-size`, default 1000, counted there in edge-based nodes, which are our edges).
 */
export const BIG_COMPONENT_EDGES = 1000;

/** Components of one vehicle's edges: per edge its component (-1: closed both ways), per component its edges. */
export interface ComponentArrays {
  edgeComp: Int32Array;
  size: Uint32Array;
}

/**
 * Strongly connected components of one vehicle's edge-based road graph, per edge.
 *
 * Vertices are the open arcs (arc = edge * 2 + dir). Arc a leads to arc b leaving a's head h when the search would
 * take that transition (search.ts): b open, h not a barrier for the vehicle, no U-turn onto a's own edge unless a is
 * the only open arc leaving h, and no via-node turn restriction forbidding a → b. Besides, the two arcs of a two-way
 * edge lead to each other (as OSRM joins the two directions of a segment): a route may start or end anywhere on an
 * edge in either open direction, so both directions belong to one component and an edge has exactly one component.
 * Via-way restrictions, which the search does not apply either, are ignored.
 *
 * Computed in O(arcs + transitions) by an iterative Tarjan over typed arrays; packs may store the result (see
 * stored-components.ts).
 */
export function strongComponents(costs: ArcCosts, turns: TurnTable): ComponentArrays {
  const g = costs.graph;
  const E = g.edgeCount;
  const A = 2 * E;
  const w = costs.weight;
  const en = g.edgeNodes;
  const adjFirst = g.adjFirst,
    adjArc = g.adjArc;
  const index = new Int32Array(A).fill(-1);
  const low = new Int32Array(A);
  const comp = new Int32Array(A).fill(-1);
  const stack = new Int32Array(A);
  const callArc = new Int32Array(A);
  /** Per frame: next adjacency position to try at the arc's head; -1 = the twin arc comes first. */
  const callIt = new Int32Array(A);
  let sp = 0;
  let counter = 0;
  let comps = 0;
  for (let r = 0; r < A; r++) {
    if (w[r] === Infinity || index[r] !== -1) continue;
    index[r] = low[r] = counter++;
    stack[sp++] = r;
    callArc[0] = r;
    callIt[0] = -1;
    let depth = 1;
    while (depth > 0) {
      const a = callArc[depth - 1]!;
      const h = en[(a & ~1) + 1 - (a & 1)]!;
      let it = callIt[depth - 1]!;
      let next = -1;
      if (it === -1) {
        it = costs.blocked[h] ? adjFirst[h + 1]! : adjFirst[h]!;
        if (w[a ^ 1] !== Infinity) next = a ^ 1;
      }
      const end = adjFirst[h + 1]!;
      while (next < 0 && it < end) {
        const b = adjArc[it++]!;
        if (w[b] === Infinity) continue;
        if (a >> 1 === b >> 1 && costs.outOpen[h] !== 1) continue;
        if (turns.next(a, b) < 0) continue;
        next = b;
      }
      callIt[depth - 1] = it;
      if (next >= 0) {
        if (index[next] === -1) {
          index[next] = low[next] = counter++;
          stack[sp++] = next;
          callArc[depth] = next;
          callIt[depth] = -1;
          depth++;
        } else if (comp[next] === -1 && index[next]! < low[a]!) {
          low[a] = index[next]!; // On the stack: same component as a.
        }
        continue;
      }
      // Every successor of a is done.
      if (low[a] === index[a]) {
        let x: number;
        do {
          x = stack[--sp]!;
          comp[x] = comps;
        } while (x !== a);
        comps++;
      }
      depth--;
      if (depth > 0) {
        const p = callArc[depth - 1]!;
        if (low[a]! < low[p]!) low[p] = low[a]!;
      }
    }
  }
  const edgeComp = new Int32Array(E);
  const size = new Uint32Array(comps);
  for (let e = 0; e < E; e++) {
    const c = comp[2 * e] !== -1 ? comp[2 * e]! : comp[2 * e + 1]!;
    edgeComp[e] = c;
    if (c >= 0) size[c]!++;
  }
  return { edgeComp, size };
}

/**
 * The components of one vehicle's road graph (see strongComponents) with the big ones marked: an edge is big when its
 * component holds at least `threshold` edges, or, when no component is that large (a small extract), when its
 * component is a largest one.
 */
export class Components {
  /** Per edge: component id, or -1 when the vehicle may drive the edge in neither direction. */
  readonly edgeComp: Int32Array;
  /** Per component: number of edges. */
  readonly size: Uint32Array;
  /** Per edge: 1 when the edge lies in a big component. */
  readonly big: Uint8Array;
  /** Edges of the largest component. */
  readonly largest: number;

  constructor(
    arrays: ComponentArrays,
    readonly threshold = BIG_COMPONENT_EDGES,
  ) {
    this.edgeComp = arrays.edgeComp;
    this.size = arrays.size;
    const E = this.edgeComp.length;
    let largest = 0;
    for (let c = 0; c < this.size.length; c++) largest = Math.max(largest, this.size[c]!);
    this.largest = largest;
    const cut = Math.min(threshold, largest);
    this.big = new Uint8Array(E);
    for (let e = 0; e < E; e++) {
      const c = this.edgeComp[e]!;
      this.big[e] = c >= 0 && this.size[c]! >= cut && cut > 0 ? 1 : 0;
    }
  }

  /** Number of components (of edges the vehicle may drive). */
  get count(): number {
    return this.size.length;
  }
}
