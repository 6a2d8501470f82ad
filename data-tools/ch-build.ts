import { doubled } from '../src/route/doubled.js';
import { IndexHeap } from '../src/route/heap.js';
import type { ChArrays } from '../src/route/ch.js';
import { AdjacencyPool } from './ch-adjacency.js';
import { coreLandmarks, CORE_RULE } from './ch-core.js';

/**
 * A directed graph to contract, as CSR: states 0..states-1 (road nodes for a node-based hierarchy, arcs for an
 * edge-based one), edge i from a state to `head[i]` with `weight[i]` (> 0 or Infinity to drop) and a `payload`
 * (the road arc the edge stands for: the arc itself node-based, the arc turned into edge-based).
 */
export interface BaseGraph {
  states: number;
  first: Uint32Array;
  head: Uint32Array;
  weight: Float64Array;
  payload: Int32Array;
}

/**
 * Witness searches stop after this many settled states while contracting. Priority estimates run for the neighbours
 * of every contracted state, so their limit adapts: about twice the recent mean degree of contracted states, within
 * [SIM_MIN, SIM_MAX] — tiny while the graph is sparse and witnesses are near, larger as it densifies and a missed
 * witness (which only makes a priority pessimistic) costs more.
 */
const REAL_SETTLES = 400;
const SIM_MIN = 5;
const SIM_MAX = 40;
/**
 * Above this many neighbours a contracted state's neighbours are re-estimated lazily (when popped), not at once:
 * on NY (666k edge-based states) estimates were two thirds of the contraction's time, most of it for the
 * neighbours of dense states; 8 rather than 16 cut it without a sparser order costing more later.
 */
const EAGER = 8;
/**
 * Priority terms (as OSRM's contractor weighs them): shortcuts added per edge removed, base edges the shortcuts
 * stand for per base edge removed, and the depth. Quotients rather than the edge difference: a state whose few
 * edges become as many shortcuts is not cheap, and the ordering keeps the dense tail sparser (NY: the time to
 * contract 90 % of the states fell by about a third against 2 × shortcuts − removed + depth).
 */
const PRIO_EDGES = 2;
const PRIO_HOPS = 4;
const PRIO_DEPTH = 1;

/** How far to contract (see CORE_RULE in ch-core.ts for the automatic rule). */
export interface ContractOptions {
  /**
   * Stop when this many states remain uncontracted, whatever the rule (tests force a core with it); 0 contracts
   * fully. Default: the automatic rule.
   */
  coreSize?: number;
}

/** A contracted hierarchy: its arrays, the states left uncontracted at the top (the core) and its landmarks. */
export interface Contracted {
  ch: ChArrays;
  core: number;
  landmarks: number;
}

/** Growable typed arrays of the contraction's edge records (base edges and shortcuts). */
class Records {
  n = 0;
  tail = new Uint32Array(1024);
  head = new Uint32Array(1024);
  w = new Float64Array(1024);
  /** Shortcut: first and second child record (path order). Base edge: a = -1, b = payload. */
  a = new Int32Array(1024);
  b = new Int32Array(1024);
  /** Base edges a record stands for (1 for a base edge). */
  hops = new Int32Array(1024);

  add(tail: number, head: number, w: number, a: number, b: number): number {
    if (this.n === this.tail.length) this.grow();
    const r = this.n++;
    this.tail[r] = tail;
    this.head[r] = head;
    this.w[r] = w;
    this.a[r] = a;
    this.b[r] = b;
    this.hops[r] = a < 0 ? 1 : this.hops[a]! + this.hops[b]!;
    return r;
  }

  private grow(): void {
    this.tail = doubled(this.tail);
    this.head = doubled(this.head);
    this.w = doubled(this.w);
    this.a = doubled(this.a);
    this.b = doubled(this.b);
    this.hops = doubled(this.hops);
  }
}

/**
 * Contracts a graph into a hierarchy (layout in src/route/ch.ts). Order: priority queue on shortcuts per removed
 * edge, base edges per removed base edge and hierarchy depth (PRIO_*), the neighbours of each contracted state
 * re-estimated (at once when few, lazily when many); witness searches bounded by weight and settled states
 * (adaptive while estimating). The live edges sit in
 * per-state adjacency pools (ch-adjacency.ts) that drop a state's edges when it is contracted.
 * Exactness does not depend on the witness bounds: a missed witness only adds a needless shortcut. Parallel edges
 * keep the lighter one; a shortcut lighter than an existing edge between the same states replaces it in place
 * (both ends are then still uncontracted, so no shortcut refers to it yet). `progress` hears states contracted of
 * all, every 1024.
 */
export function contract(
  g: BaseGraph,
  options: ContractOptions = {},
  progress?: (done: number, total: number) => void,
): Contracted {
  const S = g.states;
  const R = new Records();
  // Live edges only: out-lists (head, weight, record) and in-lists (tail, weight, record).
  const out = new AdjacencyPool(S);
  const inn = new AdjacencyPool(S);
  /** Live edges (for the core rule's mean degree). */
  let live = 0;
  /** Adds edge u→x of weight w standing for record r, or lowers the existing one to (w, a, b). */
  const addEdge = (u: number, x: number, w: number, a: number, b: number) => {
    const i = out.find(u, x);
    if (i < 0) {
      const r = R.add(u, x, w, a, b);
      out.push(u, x, w, r);
      inn.push(x, u, w, r);
      live++;
      return;
    }
    if (w >= out.w[i]!) return;
    const r = out.rec[i]!;
    out.w[i] = w;
    inn.w[inn.find(x, u)] = w;
    R.w[r] = w;
    R.a[r] = a;
    R.b[r] = b;
    R.hops[r] = a < 0 ? 1 : R.hops[a]! + R.hops[b]!;
  };
  for (let u = 0; u < S; u++) {
    for (let i = g.first[u]!; i < g.first[u + 1]!; i++) {
      const x = g.head[i]!,
        w = g.weight[i]!;
      if (x !== u && w !== Infinity) addEdge(u, x, w, -1, g.payload[i]!);
    }
  }

  // Witness search state.
  const dist = new Float64Array(S);
  const seen = new Uint32Array(S);
  const isTarget = new Uint32Array(S);
  const heap = new IndexHeap(S);
  let gen = 0;
  /** Base edges the shortcuts of the last `shortcuts` call stand for. */
  let addedHops = 0;
  /**
   * Shortcuts needed to contract v (witness searches limited to `settles`); adds them when `apply`. Returns the
   * number of shortcuts.
   */
  const shortcuts = (v: number, settles: number, apply: boolean): number => {
    const nIn = inn.len[v]!;
    const o0 = out.start[v]!,
      nOut = out.len[v]!;
    let count = 0;
    addedHops = 0;
    if (nIn === 0 || nOut === 0) return 0;
    let maxOut = 0;
    for (let k = 0; k < nOut; k++) maxOut = Math.max(maxOut, out.w[o0 + k]!);
    for (let i = 0; i < nIn; i++) {
      // Read through the pools each time: adding a shortcut may move them.
      const u = inn.other[inn.start[v]! + i]!;
      const wu = inn.w[inn.start[v]! + i]!;
      const ru = inn.rec[inn.start[v]! + i]!;
      if (++gen === 0xffffffff) {
        seen.fill(0);
        isTarget.fill(0);
        gen = 1;
      }
      let targets = 0;
      for (let k = 0; k < nOut; k++) {
        const x = out.other[out.start[v]! + k]!;
        if (x !== u && isTarget[x] !== gen) {
          isTarget[x] = gen;
          targets++;
        }
      }
      if (targets === 0) continue;
      const limit = wu + maxOut;
      heap.clear();
      dist[u] = 0;
      seen[u] = gen;
      heap.push(u, 0);
      let settled = 0;
      const oo = out.other,
        ow = out.w,
        os = out.start,
        ol = out.len;
      while (heap.size > 0 && settled < settles) {
        const k = heap.minKey();
        if (k > limit) break;
        const y = heap.pop();
        settled++;
        if (isTarget[y] === gen && --targets === 0) break;
        for (let j = os[y]!, e = j + ol[y]!; j < e; j++) {
          const z = oo[j]!;
          if (z === v) continue;
          const nd = k + ow[j]!;
          // A state beyond the limit could be no witness (it would be popped after the search ends).
          if (nd > limit) continue;
          if (seen[z] !== gen || nd < dist[z]!) {
            dist[z] = nd;
            seen[z] = gen;
            heap.push(z, nd);
          }
        }
      }
      for (let k = 0; k < nOut; k++) {
        const j = out.start[v]! + k;
        const x = out.other[j]!;
        if (x === u) continue;
        const via = wu + out.w[j]!;
        if (seen[x] === gen && dist[x]! <= via) continue;
        count++;
        addedHops += R.hops[ru]! + R.hops[out.rec[j]!]!;
        if (apply) addEdge(u, x, via, ru, out.rec[j]!);
      }
    }
    heap.clear();
    return count;
  };
  // Priority: the quotients of PRIO_EDGES and PRIO_HOPS + hierarchy depth, where depth(x) ≥ depth(v) + 1 for every
  // neighbour x of a contracted v. The depth term spreads contraction evenly over the graph, which keeps the
  // hierarchy shallow and the remaining core sparse.
  const level = new Uint32Array(S);
  let simSettles = SIM_MIN,
    degAvg = 0;
  const prio = (v: number) => {
    const added = shortcuts(v, simSettles, false);
    const removed = inn.len[v]! + out.len[v]!;
    if (removed === 0) return PRIO_DEPTH * level[v]!;
    let removedHops = 0;
    for (let k = 0, i = inn.start[v]!; k < inn.len[v]!; k++, i++) removedHops += R.hops[inn.rec[i]!]!;
    for (let k = 0, i = out.start[v]!; k < out.len[v]!; k++, i++) removedHops += R.hops[out.rec[i]!]!;
    return (PRIO_EDGES * added) / removed + (PRIO_HOPS * addedHops) / removedHops + PRIO_DEPTH * level[v]!;
  };
  const queue = new IndexHeap(S);
  for (let v = 0; v < S; v++) queue.push(v, prio(v));
  const rank = new Uint32Array(S);
  const mark = new Int32Array(S).fill(-1);
  /** States whose key is only a bound (neighbours of a high-degree contraction): re-estimated when popped. */
  const stale = new Uint8Array(S);
  let nbrs = new Int32Array(64);
  let next = 0;
  const forced = options.coreSize;
  while (queue.size > 0) {
    const left = S - next;
    if (forced !== undefined ? left <= forced : CORE_RULE.stop(S, left, (2 * live) / left)) break;
    const v = queue.pop();
    if (stale[v]) {
      stale[v] = 0;
      const p = prio(v);
      if (queue.size > 0 && p > queue.minKey()) {
        queue.push(v, p);
        continue;
      }
    }
    shortcuts(v, REAL_SETTLES, true);
    const nIn = inn.len[v]!,
      nOut = out.len[v]!;
    rank[v] = next++;
    if (progress && (next & 1023) === 0) progress(next, S);
    // Mean degree over roughly the last 1000 contractions.
    degAvg += (nIn + nOut - degAvg) / 1000;
    simSettles = Math.min(SIM_MAX, Math.max(SIM_MIN, Math.round(2 * degAvg)));
    // v leaves its neighbours' lists. Neighbours rise one level above v and get their priority estimated again
    // (their edges changed): at once when few, else lazily, since re-estimating all neighbours of a dense core
    // state costs degree³ searches. `mark` deduplicates them (a state can be both an in- and an out-neighbour).
    let n = 0;
    if (nbrs.length < nIn + nOut) nbrs = new Int32Array(2 * (nIn + nOut));
    for (let i = 0; i < nIn; i++) {
      const x = inn.other[inn.start[v]! + i]!;
      out.remove(x, v);
      if (mark[x] !== v) {
        mark[x] = v;
        nbrs[n++] = x;
      }
    }
    for (let i = 0; i < nOut; i++) {
      const x = out.other[out.start[v]! + i]!;
      inn.remove(x, v);
      if (mark[x] !== v) {
        mark[x] = v;
        nbrs[n++] = x;
      }
    }
    inn.len[v] = 0;
    out.len[v] = 0;
    live -= nIn + nOut;
    for (let i = 0; i < n; i++) {
      const x = nbrs[i]!;
      if (level[x]! <= level[v]!) level[x] = level[v]! + 1;
      if (n <= EAGER) queue.set(x, prio(x));
      else {
        stale[x] = 1;
        queue.set(x, Math.max(queue.keyOf(x), PRIO_DEPTH * level[x]!));
      }
    }
  }
  // What is left is the core: ranked above every contracted state, in state order; its edges are the live ones.
  const core = S - next;
  const coreOf = new Int32Array(S).fill(-1);
  for (let v = 0, c = 0; v < S; v++) {
    if (!queue.has(v)) continue;
    rank[v] = next++;
    coreOf[v] = c++;
  }
  const ch = layout(S, R, rank, core);
  if (core === 0) return { ch, core, landmarks: 0 };
  const lm = coreLandmarks(core, coreOf, out, inn);
  return { ch: { ...ch, ...lm }, core, landmarks: lm.lmFrom.length / core };
}

/**
 * Splits the records into upward (stored at the tail) and downward (stored at the head) CSR ranges. A record between
 * two core states (rank ≥ S − core) is stored in both: upward at its tail, downward at its head, so a core state's
 * upward records are its core out-edges and its downward records its core in-edges. The second copy is never a
 * shortcut's child: children always touch the contracted state they bypass.
 */
function layout(S: number, R: Records, rank: Uint32Array, core: number): ChArrays {
  const n = R.n;
  const isUp = new Uint8Array(n);
  const upFirst = new Uint32Array(S + 1);
  const dnFirst = new Uint32Array(S + 1);
  const top = S - core;
  for (let r = 0; r < n; r++) {
    const t = R.tail[r]!,
      h = R.head[r]!;
    if (rank[t]! >= top && rank[h]! >= top) {
      isUp[r] = 2;
      upFirst[t + 1]!++;
      dnFirst[h + 1]!++;
    } else if (rank[h]! > rank[t]!) {
      isUp[r] = 1;
      upFirst[t + 1]!++;
    } else dnFirst[h + 1]!++;
  }
  const U = upFirst.reduce((s, x) => s + x, 0);
  dnFirst[0] = U;
  for (let v = 0; v < S; v++) {
    upFirst[v + 1]! += upFirst[v]!;
    dnFirst[v + 1]! += dnFirst[v]!;
  }
  const idx = new Int32Array(n);
  const fu = upFirst.slice(0, S),
    fd = dnFirst.slice(0, S);
  for (let r = 0; r < n; r++) idx[r] = isUp[r] ? fu[R.tail[r]!]!++ : fd[R.head[r]!]!++;
  const total = dnFirst[S]!;
  const node = new Uint32Array(total),
    a = new Int32Array(total),
    b = new Int32Array(total);
  const put = (i: number, r: number, other: number) => {
    node[i] = other;
    const sc = R.a[r]! >= 0;
    a[i] = sc ? idx[R.a[r]!]! : -1;
    b[i] = sc ? idx[R.b[r]!]! : R.b[r]!;
  };
  for (let r = 0; r < n; r++) {
    put(idx[r]!, r, isUp[r] ? R.head[r]! : R.tail[r]!);
    if (isUp[r] === 2) put(fd[R.head[r]!]!++, r, R.tail[r]!);
  }
  return { rank, upFirst, dnFirst, node, a, b };
}
