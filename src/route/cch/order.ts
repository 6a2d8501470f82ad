import type { RoadGraph } from '../graph.js';
import { minDegreeOrder } from './min-degree.js';
import type { StateTopology } from './state-graph.js';
import type { SharedStates } from './states.js';

/**
 * Nested dissection of the turn-aware state graph into a contraction order (Customizable Contraction Hierarchies,
 * Dibbelt, Strasser, Wagner), computed on the road graph's nodes: the arcs of a set of edges that cuts the node graph
 * in two separate every state (arc) on one side from every state on the other, since a transition joins two arcs at a
 * node (the turn-aware CCH of Buchhold, Wagner and Zündorf). So the node graph is cut by a small edge cut, the cut
 * edges' arcs ranked above both halves, and each half cut again; a state ranks above everything on both sides of
 * the cut it belongs to, so shortcuts never cross a cut: the smaller the cuts, the fewer shortcuts and the shorter
 * every query.
 *
 * Each cut is Inertial Flow's (Schild, Sommer): the part's nodes sorted along a direction, the first quarter joined to
 * a source and the last quarter to a sink, a maximum flow of unit edge capacities between them, and the cut next to
 * the source side; four directions (west–east, south–north, both diagonals) tried, the one of least expansion kept
 * (cut edges per node on its smaller side: a slightly larger cut that halves the part beats a smaller one that
 * shaves off a quarter; a flow stops once it cannot beat the best found). Parts of at most LEAF_NODES nodes are not
 * cut: their states go in minimum-degree order (min-degree.ts). Deterministic.
 */

/** Fraction of a part's nodes joined to the source, and to the sink, along a direction (Inertial Flow's b). */
const BALANCE = 0.25;
/**
 * Parts of at most this many nodes are ordered by minimum degree instead of cut (whole HCMC, topology arcs: 16
 * nodes 1.65 M, 24 1.64 M, 32 1.63 M but more triangles, 64 1.67 M; cutting down to 2 nodes 1.91 M).
 */
const LEAF_NODES = 24;
/** Directions of the cut as (dx, dy) weights of a node's key. */
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];

/** A part to cut: its nodes sorted along each direction. */
type Part = Uint32Array[];

/**
 * The rank of each shared state in a nested-dissection order. A copy state (SharedStates) ranks with its arc: it
 * links where its arc does (and to other copies of arcs at the same nodes), so the cuts separate it as they do its arc.
 */
export function dissectionOrder(g: RoadGraph, states: SharedStates, t: StateTopology): Uint32Array {
  const N = g.nodeCount;
  const rank = new Uint32Array(states.size);
  const cutter = new Cutter(g);
  const local = new Int32Array(states.size).fill(-1);
  let next = 0;
  /** The states of `edges`: each edge's two arcs, each followed by its copies. */
  const statesOf = (edges: Iterable<number>) => {
    const out: number[] = [];
    for (const e of edges)
      for (let a = 2 * e; a <= 2 * e + 1; a++) {
        out.push(a);
        for (const x of states.copies(a)) out.push(x);
      }
    return out;
  };
  const place = (list: number[]) => {
    for (const x of list) rank[x] = next++;
  };
  const all = DIRECTIONS.map(([dx, dy]) => {
    const key = new Float64Array(N);
    for (let v = 0; v < N; v++) key[v] = dx * g.nodeLon[v]! + dy * g.nodeLat[v]!;
    return Uint32Array.from({ length: N }, (_, i) => i).sort((a, b) => key[a]! - key[b]! || a - b);
  });
  /** Work, popped last first: a part to cut, or a cut's edges to rank once both its halves are ranked. */
  const work: (Part | number[])[] = [all];
  while (work.length > 0) {
    const item = work.pop()!;
    if (!(item[0] instanceof Uint32Array)) {
      place(statesOf(item as number[]));
      continue;
    }
    const part = item as Part;
    if (part[0]!.length <= LEAF_NODES) {
      place(minDegreeOrder(statesOf(cutter.inner(part[0]!)), t, local));
      continue;
    }
    const cut = cutter.cut(part);
    const [low, high] = cutter.split(part, cut.side);
    work.push(cut.edges, high, low);
  }
  return rank;
}

/** Maximum-flow cuts of parts of the node graph, reusing its labels across parts. */
class Cutter {
  /** Per node: the part being cut (its number), so a cut sees only its part's edges. */
  private readonly part: Int32Array;
  private parts = 0;
  /** Per node: 1 source side, 2 sink side, 0 neither, for the direction being tried. */
  private readonly role: Uint8Array;
  /** Per edge: flow, +1 first → second node, -1 the other way. */
  private readonly flow: Int8Array;
  /** Per node: the levelling search that last reached it, and its level there (-1 once a dead end). */
  private readonly seen: Uint32Array;
  private readonly via: Int32Array;
  /** Per node: the adjacency index its depth-first searches try next. */
  private readonly next: Uint32Array;
  /** Nodes of the path a depth-first search holds. */
  private readonly stack: Uint32Array;
  private readonly queue: Uint32Array;
  private bfs = 0;
  /** Per node: side of the kept cut (1 = source side). */
  private readonly mark: Uint8Array;

  constructor(private readonly g: RoadGraph) {
    const N = g.nodeCount;
    this.part = new Int32Array(N).fill(-1);
    this.role = new Uint8Array(N);
    this.flow = new Int8Array(g.edgeCount);
    this.seen = new Uint32Array(N);
    this.via = new Int32Array(N);
    this.next = new Uint32Array(N);
    this.stack = new Uint32Array(N + 1);
    this.queue = new Uint32Array(N);
    this.mark = new Uint8Array(N);
  }

  /** Edges with both ends among `nodes` (a part that is not cut further), each once. */
  inner(nodes: Uint32Array): number[] {
    const g = this.g;
    const p = this.parts++;
    for (const v of nodes) this.part[v] = p;
    const out: number[] = [];
    for (const v of nodes)
      for (let i = g.adjFirst[v]!; i < g.adjFirst[v + 1]!; i++) {
        const a = g.adjArc[i]!;
        const e = a >> 1;
        const u = g.edgeNodes[2 * e]!,
          w = g.edgeNodes[2 * e + 1]!;
        // Once per edge: from its first node's row, leaving along dir 0 (a loop appears twice there).
        if (this.part[u] === p && this.part[w] === p && u === v && (a & 1) === 0) out.push(e);
      }
    return out;
  }

  /**
   * The Inertial Flow cut of least expansion of a part over the four directions: its edges and the source side (`side`
   * marks the part's nodes on it, indexed like part[0]).
   */
  cut(part: Part): { edges: number[]; side: Uint8Array } {
    const nodes = part[0]!;
    const p = this.parts++;
    for (const v of nodes) this.part[v] = p;
    const m = nodes.length;
    let best: { edges: number[]; side: Uint8Array } | null = null;
    let bestExpansion = Infinity;
    for (const sorted of part) {
      const k = Math.max(1, Math.floor(m * BALANCE));
      for (let i = 0; i < m; i++) this.role[sorted[i]!] = i < k ? 1 : i >= m - k ? 2 : 0;
      // No side holds more than half the nodes as the smaller one: a larger flow cannot beat the best.
      const limit = best ? Math.floor(bestExpansion * (m >> 1)) : Infinity;
      const flow = this.maxFlow(sorted.subarray(0, k), p, limit);
      if (flow <= limit) {
        // Source side: what the last (failed) search reached.
        const reached = this.bfs;
        const side = new Uint8Array(m);
        let ones = 0;
        for (let i = 0; i < m; i++)
          if (this.seen[nodes[i]!] === reached) {
            side[i] = 1;
            ones++;
          }
        const expansion = flow / Math.min(ones, m - ones);
        if (expansion < bestExpansion) {
          const edges: number[] = [];
          for (const v of nodes) {
            if (this.seen[v] !== reached) continue;
            for (let i = this.g.adjFirst[v]!; i < this.g.adjFirst[v + 1]!; i++) {
              const w = this.head(this.g.adjArc[i]!);
              if (this.part[w] === p && this.seen[w] !== reached) edges.push(this.g.adjArc[i]! >> 1);
            }
          }
          best = { edges, side };
          bestExpansion = expansion;
        }
      }
      this.clearFlow(nodes);
    }
    // A cut of no edges parts components that nothing joins: still a cut.
    return best!;
  }

  /** The part's sorted lists split by the cut's source side (`side`, indexed like part[0]). */
  split(part: Part, side: Uint8Array): [Part, Part] {
    const nodes = part[0]!;
    for (let i = 0; i < nodes.length; i++) this.mark[nodes[i]!] = side[i]!;
    let ones = 0;
    for (let i = 0; i < side.length; i++) ones += side[i]!;
    const low: Part = [],
      high: Part = [];
    for (const sorted of part) {
      const a = new Uint32Array(ones),
        b = new Uint32Array(sorted.length - ones);
      let na = 0,
        nb = 0;
      for (let i = 0; i < sorted.length; i++) {
        const v = sorted[i]!;
        if (this.mark[v] === 1) a[na++] = v;
        else b[nb++] = v;
      }
      low.push(a);
      high.push(b);
    }
    return [low, high];
  }

  private head(a: number): number {
    return this.g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
  }

  /**
   * Unit-capacity maximum flow from the part's source-role nodes to its sink-role nodes (Dinic: a breadth-first
   * search levels the residual graph, then depth-first searches along rising levels push a blocking flow); stops
   * early once it exceeds `limit`. Leaves `this.bfs` as the search that found no sink (the source side of a minimum
   * cut) when it returns at most `limit`.
   */
  private maxFlow(sources: Uint32Array, p: number, limit: number): number {
    let total = 0;
    for (;;) {
      if (!this.level(sources, p)) return total;
      for (const s of sources) {
        total += this.blocking(s, p, limit - total);
        if (total > limit) return total;
      }
    }
  }

  /** Residual capacity of arc a (dir 0 runs first → second): 1 - the flow along it. */
  private residual(a: number): number {
    const f = this.flow[a >> 1]!;
    return 1 - (a & 1 ? -f : f);
  }

  /**
   * Levels the part's residual graph from the sources (`dist`, valid where `seen` is this search), up to the first
   * level that reaches a sink; resets the depth-first searches' arc pointers. False when no sink is reached.
   */
  private level(sources: Uint32Array, p: number): boolean {
    const g = this.g,
      seen = this.seen,
      dist = this.via,
      queue = this.queue;
    const gen = ++this.bfs;
    let qh = 0,
      qt = 0;
    for (const s of sources) {
      seen[s] = gen;
      dist[s] = 0;
      queue[qt++] = s;
    }
    let sinkLevel = -1;
    while (qh < qt) {
      const v = queue[qh++]!;
      this.next[v] = g.adjFirst[v]!;
      if (sinkLevel >= 0 && dist[v]! >= sinkLevel) continue;
      if (this.role[v] === 2) {
        sinkLevel = dist[v]!;
        continue;
      }
      for (let i = g.adjFirst[v]!; i < g.adjFirst[v + 1]!; i++) {
        const a = g.adjArc[i]!;
        const w = this.head(a);
        if (this.part[w] !== p || seen[w] === gen || this.residual(a) <= 0) continue;
        seen[w] = gen;
        dist[w] = dist[v]! + 1;
        queue[qt++] = w;
      }
    }
    return sinkLevel >= 0;
  }

  /** Pushes unit paths from source s along rising levels to sinks until none is left or `room` is exceeded. */
  private blocking(s: number, p: number, room: number): number {
    const g = this.g,
      seen = this.seen,
      dist = this.via,
      next = this.next,
      gen = this.bfs;
    const stack = this.stack;
    let pushed = 0;
    let top = 0;
    stack[0] = s;
    while (top >= 0) {
      const v = stack[top]!;
      if (this.role[v] === 2 && top > 0) {
        // A path: push one unit along its arcs (the arc taken from each node is its pointer's).
        for (let k = 0; k < top; k++) {
          const a = g.adjArc[next[stack[k]!]!]!;
          this.flow[a >> 1] += a & 1 ? -1 : 1;
        }
        if (++pushed > room) return pushed;
        top = 0;
        continue;
      }
      let advanced = false;
      for (; next[v]! < g.adjFirst[v + 1]!; next[v]!++) {
        const a = g.adjArc[next[v]!]!;
        const w = this.head(a);
        if (this.part[w] !== p || seen[w] !== gen || dist[w] !== dist[v]! + 1 || this.residual(a) <= 0) continue;
        stack[++top] = w;
        advanced = true;
        break;
      }
      if (!advanced) {
        // Dead end: no path through v this phase; step back and move the parent's pointer on.
        dist[v] = -1;
        top--;
        if (top >= 0) next[stack[top]!]!++;
      }
    }
    return pushed;
  }

  private clearFlow(nodes: Uint32Array): void {
    const g = this.g;
    for (const v of nodes) {
      this.role[v] = 0;
      for (let i = g.adjFirst[v]!; i < g.adjFirst[v + 1]!; i++) this.flow[g.adjArc[i]! >> 1] = 0;
    }
  }
}
