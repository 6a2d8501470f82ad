import { doubled } from '../../src/route/doubled.js';
import { IndexHeap } from '../../src/route/heap.js';
import { CORE_RULE } from '../../data-tools/ch-core.js';
import { hierarchy, type ContractOptions, type Contracted } from '../../data-tools/ch-build.js';
import { AdjacencyPool } from './ch-reference-pool.js';
import { type BaseGraph, TUNING } from '../../data-tools/ch-graph.js';

/**
 * The contraction loop of the pack builder written in TypeScript: the reference that the WebAssembly loop
 * (wasm/contract/lib.rs, run by data-tools/ch-build.ts) must match array for array. Kept because it is the loop in
 * the language the rest of the builder is written in, readable next to the Rust one, and because comparing the two
 * byte for byte catches a port that is exact (Dijkstra agrees) but orders differently — a change of pack bytes and
 * of query speed that no distance check would notice. Same algorithm, same tuning (TUNING), same tie-breaking.
 */

/** Growable typed arrays of the contraction's edge records (base edges and shortcuts). */
class Records {
  n = 0;
  tail = new Uint32Array(1024);
  head = new Uint32Array(1024);
  /** Shortcut: first and second child record (path order). Base edge: a = -1, b = payload. */
  a = new Int32Array(1024);
  b = new Int32Array(1024);
  /** Base edges a record stands for (1 for a base edge). */
  hops = new Int32Array(1024);

  add(tail: number, head: number, a: number, b: number): number {
    if (this.n === this.tail.length) this.grow();
    const r = this.n++;
    this.tail[r] = tail;
    this.head[r] = head;
    this.a[r] = a;
    this.b[r] = b;
    this.hops[r] = a < 0 ? 1 : this.hops[a]! + this.hops[b]!;
    return r;
  }

  private grow(): void {
    this.tail = doubled(this.tail);
    this.head = doubled(this.head);
    this.a = doubled(this.a);
    this.b = doubled(this.b);
    this.hops = doubled(this.hops);
  }
}

/** The builder's contraction (data-tools/ch-build.ts `contract`), in TypeScript. */
export function contractReference(g: BaseGraph, options: ContractOptions = {}): Contracted {
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
      const r = R.add(u, x, a, b);
      out.push(u, x, w, r);
      inn.push(x, u, w, r);
      live++;
      return;
    }
    if (w >= out.w[i]!) return;
    const r = out.rec[i]!;
    out.w[i] = w;
    inn.w[inn.find(x, u)] = w;
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
  // Priority: the quotients of prioEdges and prioHops + hierarchy depth, where depth(x) ≥ depth(v) + 1 for every
  // neighbour x of a contracted v. The depth term spreads contraction evenly over the graph, which keeps the
  // hierarchy shallow and the remaining core sparse.
  const level = new Uint32Array(S);
  let simSettles: number = TUNING.simMin,
    degAvg = 0;
  const prio = (v: number) => {
    const added = shortcuts(v, simSettles, false);
    const removed = inn.len[v]! + out.len[v]!;
    if (removed === 0) return TUNING.prioDepth * level[v]!;
    let removedHops = 0;
    for (let k = 0, i = inn.start[v]!; k < inn.len[v]!; k++, i++) removedHops += R.hops[inn.rec[i]!]!;
    for (let k = 0, i = out.start[v]!; k < out.len[v]!; k++, i++) removedHops += R.hops[out.rec[i]!]!;
    return (
      (TUNING.prioEdges * added) / removed + (TUNING.prioHops * addedHops) / removedHops + TUNING.prioDepth * level[v]!
    );
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
    shortcuts(v, TUNING.realSettles, true);
    const nIn = inn.len[v]!,
      nOut = out.len[v]!;
    rank[v] = next++;
    // Mean degree over roughly the last 1000 contractions.
    degAvg += (nIn + nOut - degAvg) / 1000;
    simSettles = Math.min(TUNING.simMax, Math.max(TUNING.simMin, Math.round(2 * degAvg)));
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
      if (n <= TUNING.eager) queue.set(x, prio(x));
      else {
        stale[x] = 1;
        queue.set(x, Math.max(queue.keyOf(x), TUNING.prioDepth * level[x]!));
      }
    }
  }
  // What is left is the core: ranked above every contracted state, in state order; its edges are the live ones.
  const core = S - next;
  for (let v = 0; v < S; v++) if (queue.has(v)) rank[v] = next++;
  return hierarchy(S, { records: R, hops: R.hops, rank, core, out, inn });
}
