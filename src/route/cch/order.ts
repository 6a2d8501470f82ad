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
export type Part = Uint32Array[];

/**
 * Hands a part of the dissection to another thread (partOrder there); the function it returns blocks until that
 * thread is done and gives the part's states in order, lowest rank first.
 */
export type Aside = (part: Part) => () => Uint32Array;

/**
 * The rank of each shared state in a nested-dissection order. A copy state (SharedStates) ranks with its arc: it
 * links where its arc does (and to other copies of arcs at the same nodes), so the cuts separate it as they do its arc.
 * @param aside when given, the high side of the first cut is ordered through it (on another thread) while this thread
 *   orders the low side: the halves of a cut are independent, so the ranks are the same as without it
 */
export function dissectionOrder(g: RoadGraph, states: SharedStates, t: StateTopology, aside?: Aside): Uint32Array {
  const dissection = new Dissection(g, states, t);
  const all = DIRECTIONS.map(([dx, dy]) => {
    const key = new Float64Array(g.nodeCount);
    for (let v = 0; v < g.nodeCount; v++) key[v] = dx * g.nodeLon[v]! + dy * g.nodeLat[v]!;
    return Uint32Array.from({ length: g.nodeCount }, (_, i) => i).sort((a, b) => key[a]! - key[b]! || a - b);
  });
  const rank = new Uint32Array(states.size);
  let next = 0;
  const place = (list: ArrayLike<number>) => {
    for (let i = 0; i < list.length; i++) rank[list[i]!] = next++;
  };
  if (!aside || all[0]!.length <= LEAF_NODES) place(dissection.order(all));
  else {
    // As the work list below would: the low side, then the high side, then the cut.
    const { low, high, edges } = dissection.cut(all);
    const join = aside(high);
    place(dissection.order(low));
    place(join());
    place(dissection.statesOf(edges));
  }
  return rank;
}

/** The states of a part of a graph's dissection (one handed aside by dissectionOrder) in order, lowest rank first. */
export function partOrder(g: RoadGraph, states: SharedStates, t: StateTopology, part: Part): Uint32Array {
  return new Dissection(g, states, t).order(part);
}

/** Orders parts of a graph's nested dissection. */
class Dissection {
  private readonly cutter: Cutter;
  private readonly local: Int32Array;

  constructor(
    g: RoadGraph,
    private readonly states: SharedStates,
    private readonly t: StateTopology,
  ) {
    this.cutter = new Cutter(g);
    this.local = new Int32Array(states.size).fill(-1);
  }

  /** The states of `edges`: each edge's two arcs, each followed by its copies. */
  statesOf(edges: Iterable<number>): number[] {
    const out: number[] = [];
    for (const e of edges)
      for (let a = 2 * e; a <= 2 * e + 1; a++) {
        out.push(a);
        for (const x of this.states.copies(a)) out.push(x);
      }
    return out;
  }

  /** A part's cut: its two sides and the edges between them. */
  cut(part: Part): { low: Part; high: Part; edges: number[] } {
    const cut = this.cutter.cut(part);
    const [low, high] = this.cutter.split(part, cut.side);
    return { low, high, edges: cut.edges };
  }

  /** The states of a part in order: each side of its cut (cut likewise), then the cut's states. */
  order(part: Part): Uint32Array {
    const out: number[] = [];
    const add = (list: readonly number[]) => {
      for (const x of list) out.push(x);
    };
    /** Work, popped last first: a part to cut, or a cut's edges to rank once both its halves are ranked. */
    const work: (Part | number[])[] = [part];
    while (work.length > 0) {
      const item = work.pop()!;
      if (!(item[0] instanceof Uint32Array)) {
        add(this.statesOf(item as number[]));
        continue;
      }
      const p = item as Part;
      if (p[0]!.length <= LEAF_NODES) {
        add(minDegreeOrder(this.statesOf(this.cutter.inner(p[0]!)), this.t, this.local));
        continue;
      }
      const { low, high, edges } = this.cut(p);
      work.push(edges, high, low);
    }
    return Uint32Array.from(out);
  }
}

/**
 * Maximum-flow cuts of parts of the node graph, reusing its labels across parts. A part being cut is copied into a
 * compact adjacency of its own (its nodes numbered by their place in part[0], each row its in-part arcs in the
 * graph's order, loops left out): the flows then read neither the graph's edge ends nor another part's nodes, and
 * touch arrays as small as the part.
 *
 * Which maximum flow is found does not change the cut: the nodes the residual graph reaches from the sources are the
 * same for every maximum flow (the least minimum cut), so `cut` returns the same edges and side whatever order the
 * paths are pushed in.
 */
class Cutter {
  /** Per node: the part being cut (its number), so a cut sees only its part's edges. */
  private readonly part: Int32Array;
  private parts = 0;
  /** Per node: its local number in the part being cut. */
  private readonly localOf: Uint32Array;
  /** Per edge: the local arc that met it first while the part's adjacency was made (for `rev`). */
  private readonly slot: Uint32Array;
  /** The part's adjacency: per local node its first local arc (m + 1 used), per local arc its head and graph arc. */
  private readonly first: Uint32Array;
  private readonly head: Uint32Array;
  private readonly arc: Uint32Array;
  /** Per local arc: the local arc of the same edge the other way. */
  private readonly rev: Uint32Array;
  /** Per local arc: the flow along it (-1, 0 or 1; its reverse holds the negation). */
  private readonly flow: Int8Array;
  /** Per local node: 1 source side, 2 sink side, 0 neither, for the direction being tried. */
  private readonly role: Uint8Array;
  /** Per local node: the levelling search that last reached it, and its level there (-1 once a dead end). */
  private readonly seen: Uint32Array;
  private readonly dist: Int32Array;
  /** Per local node: the local arc its depth-first searches try next. */
  private readonly next: Uint32Array;
  /** Local nodes of the path a depth-first search holds. */
  private readonly stack: Uint32Array;
  private readonly queue: Uint32Array;
  /** Sources with an arc to a node that is not one: the only ones a path can leave from. */
  private readonly rim: Uint32Array;
  private bfs = 0;
  /** Per node: side of the kept cut (1 = source side). */
  private readonly mark: Uint8Array;

  constructor(private readonly g: RoadGraph) {
    const N = g.nodeCount,
      A = g.adjArc.length;
    this.part = new Int32Array(N).fill(-1);
    this.localOf = new Uint32Array(N);
    this.slot = new Uint32Array(g.edgeCount);
    this.first = new Uint32Array(N + 1);
    this.head = new Uint32Array(A);
    this.arc = new Uint32Array(A);
    this.rev = new Uint32Array(A);
    this.flow = new Int8Array(A);
    this.role = new Uint8Array(N);
    this.seen = new Uint32Array(N);
    this.dist = new Int32Array(N);
    this.next = new Uint32Array(N);
    this.stack = new Uint32Array(N + 1);
    this.queue = new Uint32Array(N);
    this.rim = new Uint32Array(N);
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
    const m = nodes.length;
    this.local(nodes);
    let best: { edges: number[]; side: Uint8Array } | null = null;
    let bestExpansion = Infinity;
    const role = this.role,
      localOf = this.localOf;
    for (const sorted of part) {
      const k = Math.max(1, Math.floor(m * BALANCE));
      for (let i = 0; i < m; i++) role[localOf[sorted[i]!]!] = i < k ? 1 : i >= m - k ? 2 : 0;
      // No side holds more than half the nodes as the smaller one: a larger flow cannot beat the best.
      const limit = best ? Math.floor(bestExpansion * (m >> 1)) : Infinity;
      const flow = this.maxFlow(sorted, k, limit);
      if (flow <= limit) {
        // Source side: what the last (failed) search reached.
        const reached = this.bfs,
          seen = this.seen;
        const side = new Uint8Array(m);
        let ones = 0;
        for (let i = 0; i < m; i++)
          if (seen[i] === reached) {
            side[i] = 1;
            ones++;
          }
        const expansion = flow / Math.min(ones, m - ones);
        if (expansion < bestExpansion) {
          const edges: number[] = [];
          for (let v = 0; v < m; v++) {
            if (seen[v] !== reached) continue;
            for (let j = this.first[v]!; j < this.first[v + 1]!; j++)
              if (seen[this.head[j]!] !== reached) edges.push(this.arc[j]! >> 1);
          }
          best = { edges, side };
          bestExpansion = expansion;
        }
      }
      this.flow.fill(0, 0, this.first[m]);
    }
    // A cut of no edges parts components that nothing joins: still a cut.
    return best!;
  }

  /** Makes the adjacency of the part of `nodes` (local node i is nodes[i]). */
  private local(nodes: Uint32Array): void {
    const g = this.g,
      part = this.part,
      localOf = this.localOf,
      slot = this.slot,
      first = this.first,
      head = this.head,
      arc = this.arc,
      rev = this.rev;
    const p = this.parts++;
    for (let i = 0; i < nodes.length; i++) {
      part[nodes[i]!] = p;
      localOf[nodes[i]!] = i;
    }
    let n = 0;
    for (let i = 0; i < nodes.length; i++) {
      const v = nodes[i]!;
      first[i] = n;
      for (let j = g.adjFirst[v]!; j < g.adjFirst[v + 1]!; j++) {
        const a = g.adjArc[j]!;
        const w = g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
        if (part[w] !== p || w === v) continue;
        head[n] = localOf[w]!;
        arc[n] = a;
        // An edge's two arcs lie in its two ends' rows: the second one met links both.
        const e = a >> 1;
        if (localOf[w]! < i) {
          rev[n] = slot[e]!;
          rev[slot[e]!] = n;
        } else slot[e] = n;
        n++;
      }
    }
    first[nodes.length] = n;
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

  /**
   * Unit-capacity maximum flow from the part's source-role nodes (the first k of `sorted`) to its sink-role nodes
   * (Dinic: a breadth-first search levels the residual graph, then depth-first searches along rising levels push a
   * blocking flow); stops early once it exceeds `limit`. Leaves `this.bfs` as the search that found no sink (the
   * source side of a minimum cut) when it returns at most `limit`.
   */
  private maxFlow(sorted: Uint32Array, k: number, limit: number): number {
    const role = this.role,
      first = this.first,
      head = this.head,
      localOf = this.localOf,
      rim = this.rim;
    // Sources all lie on level 0, so a path never enters one: only those next to another node can start one.
    let r = 0;
    for (let i = 0; i < k; i++) {
      const s = localOf[sorted[i]!]!;
      for (let j = first[s]!; j < first[s + 1]!; j++)
        if (role[head[j]!] !== 1) {
          rim[r++] = s;
          break;
        }
    }
    let total = 0;
    for (;;) {
      if (!this.level(sorted, k, r)) return total;
      for (let i = 0; i < r; i++) {
        total += this.blocking(rim[i]!, limit - total);
        if (total > limit) return total;
      }
    }
  }

  /**
   * Levels the part's residual graph from the sources (`dist`, valid where `seen` is this search), up to the first
   * level that reaches a sink; resets the depth-first searches' arc pointers. False when no sink is reached.
   */
  private level(sorted: Uint32Array, k: number, r: number): boolean {
    const seen = this.seen,
      dist = this.dist,
      queue = this.queue,
      next = this.next,
      role = this.role,
      first = this.first,
      head = this.head,
      flow = this.flow,
      localOf = this.localOf,
      rim = this.rim;
    const gen = ++this.bfs;
    for (let i = 0; i < k; i++) {
      const s = localOf[sorted[i]!]!;
      seen[s] = gen;
      dist[s] = 0;
    }
    let qh = 0,
      qt = 0;
    for (let i = 0; i < r; i++) queue[qt++] = rim[i]!;
    let sinkLevel = -1;
    while (qh < qt) {
      const v = queue[qh++]!;
      next[v] = first[v]!;
      const d = dist[v]!;
      if (sinkLevel >= 0 && d >= sinkLevel) continue;
      if (role[v] === 2) {
        sinkLevel = d;
        continue;
      }
      for (let j = first[v]!; j < first[v + 1]!; j++) {
        const w = head[j]!;
        if (seen[w] === gen || flow[j]! > 0) continue;
        seen[w] = gen;
        dist[w] = d + 1;
        queue[qt++] = w;
      }
    }
    return sinkLevel >= 0;
  }

  /** Pushes unit paths from source s along rising levels to sinks until none is left or `room` is exceeded. */
  private blocking(s: number, room: number): number {
    const seen = this.seen,
      dist = this.dist,
      next = this.next,
      role = this.role,
      first = this.first,
      head = this.head,
      flow = this.flow,
      rev = this.rev,
      stack = this.stack,
      gen = this.bfs;
    let pushed = 0;
    let top = 0;
    stack[0] = s;
    while (top >= 0) {
      const v = stack[top]!;
      if (role[v] === 2 && top > 0) {
        // A path: push one unit along its arcs (the arc taken from each node is its pointer's).
        for (let i = 0; i < top; i++) {
          const j = next[stack[i]!]!;
          flow[j]!++;
          flow[rev[j]!]!--;
        }
        if (++pushed > room) return pushed;
        top = 0;
        continue;
      }
      let advanced = false;
      const end = first[v + 1]!,
        up = dist[v]! + 1;
      for (let j = next[v]!; j < end; j++) {
        const w = head[j]!;
        if (seen[w] !== gen || dist[w] !== up || flow[j]! > 0) continue;
        next[v] = j;
        stack[++top] = w;
        advanced = true;
        break;
      }
      if (!advanced) {
        // Dead end: no path through v this phase; step back and move the parent's pointer on.
        next[v] = end;
        dist[v] = -1;
        top--;
        if (top >= 0) next[stack[top]!]!++;
      }
    }
    return pushed;
  }
}
