import { grown } from '../../grown.js';
import { arcIndex } from './arcs.js';
import { MAPPED_FLOOR, Scratch, scratchBytes } from './scratch.js';
import type { CchArena } from '../wasm/cch-arena.js';

/**
 * The shortcut topology of a contraction order (Customizable Contraction Hierarchies): contracting the vertices
 * lowest rank first, each links all its higher neighbours to one another, whatever the metric. The result is
 * chordal: the higher neighbours of a vertex all lie on its path up the elimination tree (parent = its lowest
 * higher neighbour), which is what the query walks. Built in one pass up the order: a vertex's higher neighbours
 * are its own links up and its children's higher neighbours but itself (symbolic elimination).
 *
 * Vertices are numbered by rank. Arcs run from lower to higher rank: those of vertex r are
 * `upFirst[r] .. upFirst[r + 1] - 1`, their heads `upHead` ascending (4 bytes and a bit per arc, 12 bytes per vertex: what every
 * customization reads, and every search through a metric's slots, arcs.ts; a metric's arcs keep their middle vertices,
 * so nothing lists the arcs by head).
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

  /** A topology over arrays made before (`build`, or another engine's: exchange.ts, checked by topologyProblem). */
  constructor(a: TopologyArrays) {
    this.upFirst = a.upFirst;
    this.upHead = a.upHead;
    this.parent = a.parent;
    this.rankOf = a.rankOf;
    this.stateOf = a.stateOf;
    this.links = a.links;
  }

  /**
   * @param first CSR offsets of the state graph (symmetric, rows without repeats or self-links)
   * @param adj its neighbours
   * @param rank each state's rank (order.ts dissectionOrder), a permutation
   * @param where `shared`: the arrays made here in shared memory (see {@link shared}), to be offered to other
   *   engines. `arena`: the rows, heads and parents in the memory a router's WebAssembly search reads
   *   (cch-arena.ts), where it has room
   */
  static build(
    first: Uint32Array,
    adj: Uint32Array,
    rank: Uint32Array,
    where: { shared?: boolean; arena?: CchArena | null } = {},
  ): CchTopology {
    const n = rank.length;
    // The working arrays come from one block, freed whole when the topology is made (scratch.ts: as arrays of up to
    // 12 MB they left malloc's thresholds raised).
    const work = new Scratch(
      // One entry per array carved below, in order: each is rounded up to 8 bytes apart (four arrays of n words
      // as one entry came 16 bytes short when n is odd).
      scratchBytes([n, 4], [n + 1, 4], [adj.length, 4], [n, 4], [n, 4], [n, 4], [n, 4], [n, 4], [n + 1, 4]),
      { shrink: true },
    );
    const stateOf = work.u32(n);
    for (let s = 0; s < n; s++) stateOf[rank[s]!] = s;
    // The graph's links by rank, each once from its lower end.
    const origFirst = work.u32(n + 1);
    for (let s = 0; s < n; s++)
      for (let i = first[s]!; i < first[s + 1]!; i++) if (rank[adj[i]!]! > rank[s]!) origFirst[rank[s]! + 1] += 1;
    for (let r = 0; r < n; r++) origFirst[r + 1] += origFirst[r]!;
    const orig = work.u32(adj.length).subarray(0, origFirst[n]!);
    const fillAt = work.u32(n);
    fillAt.set(origFirst.subarray(0, n));
    for (let s = 0; s < n; s++)
      for (let i = first[s]!; i < first[s + 1]!; i++) {
        const q = rank[adj[i]!]!;
        if (q > rank[s]!) orig[fillAt[rank[s]!]!++] = q;
      }
    // Row r (its higher neighbours) = its own links up ∪ its elimination-tree children's rows less r itself; rows
    // are made in rank order, so they land one after another in upHead.
    const parent = work.i32(n).fill(-1);
    const childHead = work.i32(n).fill(-1);
    const childNext = work.i32(n).fill(-1);
    const stamp = work.i32(n).fill(-1);
    const upFirst = work.u32(n + 1);
    // The rows' heads are written where they stay (in shared memory when `shared`), not in the working block and
    // copied after: at NY 4 × 4 that copy's source, 0.6 GB, lay beside the first customization until the event loop
    // turned. Room for 16 arcs per link (each link is twice in `adj`), of which whole HCMC fills 4.2: pages never
    // written cost nothing (a plain buffer of at least MAPPED_FLOOR bytes, so that malloc maps it apart, zero and
    // untouched, rather than clearing a reused piece of its heap).
    const room = Math.max(16, 8 * adj.length);
    const arena = where.arena ?? null;
    const inArena = arena?.alloc(4 * room);
    let upHead = inArena
      ? new Uint32Array(inArena.buffer, inArena.at, room)
      : where.shared || arena
        ? new Scratch(scratchBytes([room, 4]), { shared: true }).u32(room)
        : new Uint32Array(new ArrayBuffer(Math.max(4 * room, MAPPED_FLOOR)), 0, room);
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
    const links = new Uint8Array((m + 7) >> 3);
    for (let r = 0; r < n; r++)
      for (let i = origFirst[r]!; i < origFirst[r + 1]!; i++) {
        const a = arcIndex(upFirst, upHead, r, orig[i]!);
        links[a >> 3] |= 1 << (a & 7);
      }
    // The room past the heads goes back to the arena (its pages were never written); heads that outgrew it were
    // copied out of it (`grown`), and all of it goes back.
    if (inArena && arena!.holds(upHead)) arena!.shrink(inArena.at, 4 * room, 4 * m);
    else if (inArena) arena!.free(inArena.at, 4 * room);
    const made = new CchTopology({ upFirst, upHead: upHead.subarray(0, m), parent, rankOf: rank, stateOf, links });
    const topo = where.shared || arena ? made.shared(where) : made.copied();
    work.release();
    return topo;
  }

  /**
   * This topology with its arrays in one block of shared memory where the platform has it (scratch.ts), to be offered
   * to the engines of other threads (exchange.ts): passing it to another thread then shares it rather than copying
   * it. An array already in shared memory (the stored order, a view into a pack opened in place) stays where it is.
   * With an `arena` (cch-arena.ts), the block is the arena's (shared memory where it has no room), and what the
   * WebAssembly search reads (the rows, heads and parents) and the states of the working block go there unless they
   * are there already; the ranks and links, which only other threads' searches read, move only when the topology is
   * offered (`shared`).
   */
  private shared(where: { shared?: boolean; arena?: CchArena | null }): CchTopology {
    const arena = where.arena ?? null;
    const placed = (a: ArrayBufferView) => (arena ? arena.holds(a) : isShared(a));
    const stays = (a: ArrayBufferView) =>
      a === this.rankOf || a === this.links ? !where.shared || isShared(a) || placed(a) : placed(a);
    const words = [this.upFirst, this.upHead, this.parent, this.rankOf, this.stateOf].filter((a) => !stays(a));
    const moveLinks = !stays(this.links);
    const block = new Scratch(
      scratchBytes(...words.map((a): [number, number] => [a.length, 4]), [moveLinks ? this.links.length : 0, 1]),
      { shared: true, arena },
    );
    const u32 = (a: Uint32Array | Int32Array): Uint32Array => {
      if (!words.includes(a)) return new Uint32Array(a.buffer, a.byteOffset, a.length);
      const copy = block.u32(a.length);
      copy.set(new Uint32Array(a.buffer, a.byteOffset, a.length));
      return copy;
    };
    const parent = u32(this.parent);
    const links = moveLinks ? block.u8(this.links.length) : this.links;
    if (links !== this.links) links.set(this.links);
    return new CchTopology({
      upFirst: u32(this.upFirst),
      upHead: u32(this.upHead),
      parent: new Int32Array(parent.buffer, parent.byteOffset, parent.length),
      rankOf: u32(this.rankOf),
      stateOf: u32(this.stateOf),
      links,
    });
  }

  /**
   * This topology with its arrays that are views into a working block copied into arrays of their own (the heads,
   * the order and the links are not).
   */
  private copied(): CchTopology {
    return new CchTopology({
      upFirst: this.upFirst.slice(),
      upHead: this.upHead,
      parent: this.parent.slice(),
      rankOf: this.rankOf,
      stateOf: this.stateOf.slice(),
      links: this.links,
    });
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

/** The arrays of a CchTopology (see its fields), as one engine hands them to another (exchange.ts MetricPart). */
export interface TopologyArrays {
  upFirst: Uint32Array;
  upHead: Uint32Array;
  parent: Int32Array;
  rankOf: Uint32Array;
  stateOf: Uint32Array;
  links: Uint8Array;
}

/** True when `a`'s bytes lie in shared memory (another thread given it reads them where they are). */
function isShared(a: ArrayBufferView): boolean {
  return typeof SharedArrayBuffer === 'function' && a.buffer instanceof SharedArrayBuffer;
}

/**
 * What is wrong with topology arrays `a` offered for a CCH of `n` states, or null when they are one: typed arrays of
 * the lengths `n` and their arcs make, rows from 0 to the last arc with heads ascending above their vertex and below
 * `n`, each vertex's parent its lowest higher neighbour, ranks a permutation and states its inverse, and every row
 * but its parent within its parent's row (the chordal closure the customization's triangles and the queries' walk up
 * the elimination tree rely on). Which arcs are links is not checked: equal keys give equal bits (exchange.ts).
 * Linear in the arcs.
 */
export function topologyProblem(a: TopologyArrays, n: number): string | null {
  const { upFirst, upHead, parent, rankOf, stateOf, links } = a;
  if (![upFirst, upHead, rankOf, stateOf].every((x) => x instanceof Uint32Array))
    return 'rows, heads, ranks and states are not Uint32Arrays';
  if (!(parent instanceof Int32Array) || !(links instanceof Uint8Array))
    return 'parents are not an Int32Array or links not a Uint8Array';
  const m = upHead.length;
  if (upFirst.length !== n + 1 || parent.length !== n || rankOf.length !== n || stateOf.length !== n)
    return `${upFirst.length} row starts, ${parent.length} parents, ${rankOf.length} ranks, ${stateOf.length} states for ${n} states`;
  if (links.length !== (m + 7) >> 3) return `${links.length} link bytes for ${m} arcs`;
  if (upFirst[0] !== 0 || upFirst[n] !== m) return 'the rows do not cover the arcs';
  for (let s = 0; s < n; s++)
    if (rankOf[s]! >= n || stateOf[rankOf[s]!] !== s) return `state ${s} has rank ${rankOf[s]}`;
  for (let r = 0; r < n; r++) {
    const lo = upFirst[r]!,
      hi = upFirst[r + 1]!;
    if (hi < lo) return `row ${r} ends before it starts`;
    for (let k = lo; k < hi; k++) {
      const h = upHead[k]!;
      if (h <= r || h >= n || (k > lo && h <= upHead[k - 1]!)) return `arc ${k} of row ${r} has head ${h}`;
    }
  }
  // Rows are sound now; both rows of a merge ascend, so one pass finds each head of r's row above p in p's row.
  for (let r = 0; r < n; r++) {
    const lo = upFirst[r]!,
      hi = upFirst[r + 1]!;
    const p = lo < hi ? upHead[lo]! : -1;
    if (parent[r] !== p) return `vertex ${r} has parent ${parent[r]}`;
    if (p < 0) continue;
    const end = upFirst[p + 1]!;
    for (let k = lo + 1, j = upFirst[p]!; k < hi; k++) {
      while (j < end && upHead[j]! < upHead[k]!) j++;
      if (j === end || upHead[j] !== upHead[k]) return `arc ${k} of row ${r} is not in its parent's row`;
    }
  }
  return null;
}
