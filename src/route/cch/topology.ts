import { grown } from '../../grown.js';
import { arcIndex } from './arcs.js';

/**
 * The shortcut topology of a contraction order (Customizable Contraction Hierarchies): contracting the vertices
 * lowest rank first, each links all its higher neighbours to one another, whatever the metric. The result is
 * chordal: the higher neighbours of a vertex all lie on its path up the elimination tree (parent = its lowest
 * higher neighbour), which is what the query walks. Built in one pass up the order: a vertex's higher neighbours
 * are its own links up and its children's higher neighbours but itself (symbolic elimination).
 *
 * Vertices are numbered by rank. Arcs run from lower to higher rank: those of vertex r are
 * `upFirst[r] .. upFirst[r + 1] - 1`, their heads `upHead` ascending (4 bytes and a bit per arc, 12 bytes per vertex: what every
 * customization reads; a metric's arcs keep their middle vertices, so nothing lists the arcs by head).
 */
export class CchTopology {
  readonly upFirst: Uint32Array;
  readonly upHead: Uint32Array;
  /** Per vertex: its parent in the elimination tree (its lowest higher neighbour), -1 at a root. */
  readonly parent: Int32Array;
  /** Vertex of each state (its rank) and state of each vertex. */
  readonly rankOf: Uint32Array;
  readonly stateOf: Uint32Array;
  /**
   * Per arc one bit (arc i: bit i & 7 of byte i >> 3): set when the arc is a link of the state graph, clear for a
   * shortcut, whose ends no vehicle passes between directly (its link weight is Infinity in every metric).
   */
  readonly links: Uint8Array;

  /**
   * @param first CSR offsets of the state graph (symmetric, rows without repeats or self-links)
   * @param adj its neighbours
   * @param rank each state's rank (order.ts dissectionOrder), a permutation
   */
  constructor(first: Uint32Array, adj: Uint32Array, rank: Uint32Array) {
    const n = rank.length;
    this.rankOf = rank;
    const stateOf = (this.stateOf = new Uint32Array(n));
    for (let s = 0; s < n; s++) stateOf[rank[s]!] = s;
    // The graph's links by rank, each once from its lower end.
    const origFirst = new Uint32Array(n + 1);
    for (let s = 0; s < n; s++)
      for (let i = first[s]!; i < first[s + 1]!; i++) if (rank[adj[i]!]! > rank[s]!) origFirst[rank[s]! + 1] += 1;
    for (let r = 0; r < n; r++) origFirst[r + 1] += origFirst[r]!;
    const orig = new Uint32Array(origFirst[n]!);
    const fillAt = origFirst.slice(0, n);
    for (let s = 0; s < n; s++)
      for (let i = first[s]!; i < first[s + 1]!; i++) {
        const q = rank[adj[i]!]!;
        if (q > rank[s]!) orig[fillAt[rank[s]!]!++] = q;
      }
    // Row r (its higher neighbours) = its own links up ∪ its elimination-tree children's rows less r itself; rows
    // are made in rank order, so they land one after another in upHead.
    const parent = (this.parent = new Int32Array(n).fill(-1));
    const childHead = new Int32Array(n).fill(-1);
    const childNext = new Int32Array(n).fill(-1);
    const stamp = new Int32Array(n).fill(-1);
    const upFirst = (this.upFirst = new Uint32Array(n + 1));
    let upHead = new Uint32Array(Math.max(16, 4 * orig.length));
    let m = 0;
    const add = (q: number, r: number) => {
      if (stamp[q] === r) return;
      stamp[q] = r;
      if (m === upHead.length) upHead = grown(upHead, m + 1);
      upHead[m++] = q;
    };
    for (let r = 0; r < n; r++) {
      const start = m;
      for (let i = origFirst[r]!; i < origFirst[r + 1]!; i++) add(orig[i]!, r);
      for (let c = childHead[r]!; c >= 0; c = childNext[c]!)
        for (let i = upFirst[c]!; i < upFirst[c + 1]!; i++) if (upHead[i] !== r) add(upHead[i]!, r);
      upHead.subarray(start, m).sort();
      upFirst[r + 1] = m;
      if (m > start) {
        const p = upHead[start]!;
        parent[r] = p;
        childNext[r] = childHead[p]!;
        childHead[p] = r;
      }
    }
    this.upHead = upHead.slice(0, m);
    const links = (this.links = new Uint8Array((m + 7) >> 3));
    for (let r = 0; r < n; r++)
      for (let i = origFirst[r]!; i < origFirst[r + 1]!; i++) {
        const a = arcIndex(upFirst, this.upHead, r, orig[i]!);
        links[a >> 3] |= 1 << (a & 7);
      }
  }

  /** Number of vertices (states). */
  get size(): number {
    return this.rankOf.length;
  }

  /** Number of arcs (original links and shortcuts, each once). */
  get arcs(): number {
    return this.upHead.length;
  }
}
