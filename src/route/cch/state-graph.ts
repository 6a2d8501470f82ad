import { arcHead } from '../costs.js';
import type { RoadGraph } from '../graph.js';
import type { SharedStates } from './states.js';
import { Scratch, scratchBytes } from './scratch.js';

/**
 * The undirected topology of the turn-aware state graph that every vehicle and weighting shares (SharedStates): two
 * states are neighbours when a vehicle could pass from one onto the other at a node — every transition between arcs
 * the road network has, open or not for some vehicle, U-turns included, and every transition a vehicle's turn table
 * leads into or out of one of its copy states. A metric (customize.ts) gives each its weight, Infinity where the
 * vehicle may not make it.
 */
export interface StateTopology {
  /** states + 1 offsets into `adj`. */
  first: Uint32Array;
  /** Neighbouring states, each row ascending and without repeats. */
  adj: Uint32Array;
}

/**
 * The StateTopology of a road graph's shared states (linear in its transitions; typed arrays only, so building it
 * leaves no grown JS heap behind). Its arrays are views into one block (scratch.ts) that `release` frees at once
 * (the caller then holds none of them); unreleased, a collection frees it.
 */
export function stateTopology(g: RoadGraph, states: SharedStates): StateTopology & { release(): void } {
  const S = states.size;
  // Three passes over the transitions: count them (the block's size), count each state's, then place them.
  let total = 0;
  transitions(g, states, () => (total += 2));
  const block = new Scratch(scratchBytes([S + 1, 4], [total, 4], [S, 4], [total, 4], [S + 1, 4]), { shrink: true });
  const deg = block.u32(S + 1);
  transitions(g, states, (x, y) => {
    deg[x + 1] += 1;
    deg[y + 1] += 1;
  });
  for (let s = 0; s < S; s++) deg[s + 1] += deg[s]!;
  const raw = block.u32(deg[S]!);
  const fill = block.u32(S);
  fill.set(deg.subarray(0, S));
  transitions(g, states, (x, y) => {
    raw[fill[x]!++] = y;
    raw[fill[y]!++] = x;
  });
  // Sort each row, drop repeats (parallel edges meet twice) and self-links (a loop edge turning onto itself).
  const adj = block.u32(raw.length);
  const first = block.u32(S + 1);
  let n = 0;
  for (let s = 0; s < S; s++) {
    const row = raw.subarray(deg[s]!, deg[s + 1]!).sort();
    for (let i = 0; i < row.length; i++) if (row[i] !== s && (i === 0 || row[i] !== row[i - 1])) adj[n++] = row[i]!;
    first[s + 1] = n;
  }
  return { first, adj: adj.subarray(0, n), release: () => block.release() };
}

/**
 * Calls `visit(x, y)` for every transition of the state graph, from state x onto state y (repeats included): every
 * pair of arcs entering and leaving a node, and what the turn tables lead through copies — out of each copy, and
 * out of each state with a rule into a copy.
 */
function transitions(g: RoadGraph, states: SharedStates, visit: (x: number, y: number) => void): void {
  const adjFirst = g.adjFirst,
    adjArc = g.adjArc;
  for (let v = 0; v < g.nodeCount; v++)
    for (let i = adjFirst[v]!; i < adjFirst[v + 1]!; i++)
      for (let j = adjFirst[v]!; j < adjFirst[v + 1]!; j++) visit(adjArc[i]! ^ 1, adjArc[j]!);
  states.tables.forEach((t, p) => {
    for (let s = 0; s < t.states; s++) {
      if (s < t.arcs && t.ruleOf(s) < 0) continue;
      const h = arcHead(g, t.arcOf(s));
      for (let i = adjFirst[h]!; i < adjFirst[h + 1]!; i++) {
        const next = t.next(s, adjArc[i]!);
        if (next < 0 || (s < t.arcs && next < t.arcs)) continue;
        visit(states.shared(p, s), states.shared(p, next));
      }
    }
  });
}
