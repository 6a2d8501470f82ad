import { IndexHeap } from '../src/route/heap.js';
import type { ChArrays } from '../src/route/ch.js';

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
/** Above this many neighbours a contracted state's neighbours are re-estimated lazily (when popped), not at once. */
const EAGER = 16;

/** Growable typed arrays of the contraction's edge records (base edges and shortcuts). */
class Records {
  n = 0;
  tail = new Uint32Array(1024);
  head = new Uint32Array(1024);
  w = new Float64Array(1024);
  /** Shortcut: first and second child record (path order). Base edge: a = -1, b = payload. */
  a = new Int32Array(1024);
  b = new Int32Array(1024);
  nextOut = new Int32Array(1024);
  nextIn = new Int32Array(1024);

  add(tail: number, head: number, w: number, a: number, b: number): number {
    if (this.n === this.tail.length) this.grow();
    const r = this.n++;
    this.tail[r] = tail; this.head[r] = head; this.w[r] = w; this.a[r] = a; this.b[r] = b;
    return r;
  }

  private grow(): void {
    const m = this.tail.length * 2;
    const g = <T extends Uint32Array | Int32Array | Float64Array>(x: T): T => {
      const y = new (x.constructor as new (n: number) => T)(m);
      y.set(x);
      return y;
    };
    this.tail = g(this.tail); this.head = g(this.head); this.w = g(this.w); this.a = g(this.a); this.b = g(this.b);
    this.nextOut = g(this.nextOut); this.nextIn = g(this.nextIn);
  }
}

/**
 * Contracts a graph into a hierarchy (layout in src/route/ch.ts). Order: priority queue on
 * 2 × shortcuts − removed edges + hierarchy depth, the neighbours of each contracted state re-estimated at once;
 * witness searches bounded by weight and settled states (adaptive while estimating).
 * Exactness does not depend on the witness bounds: a missed witness only adds a needless shortcut. Parallel edges
 * keep the lighter one; a shortcut lighter than an existing edge between the same states replaces it in place
 * (both ends are then still uncontracted, so no shortcut refers to it yet).
 */
export function contract(g: BaseGraph): ChArrays {
  const S = g.states;
  const R = new Records();
  const outHead = new Int32Array(S).fill(-1);
  const inHead = new Int32Array(S).fill(-1);
  const done = new Uint8Array(S);
  /** Finds the live record u→x (−1 when none). */
  const findOut = (u: number, x: number): number => {
    for (let r = outHead[u]!; r >= 0; r = R.nextOut[r]!) if (R.head[r] === x) return r;
    return -1;
  };
  const link = (r: number) => {
    const u = R.tail[r]!, x = R.head[r]!;
    R.nextOut[r] = outHead[u]!; outHead[u] = r;
    R.nextIn[r] = inHead[x]!; inHead[x] = r;
  };
  for (let u = 0; u < S; u++) {
    for (let i = g.first[u]!; i < g.first[u + 1]!; i++) {
      const x = g.head[i]!, w = g.weight[i]!;
      if (x === u || w === Infinity) continue;
      const r = findOut(u, x);
      if (r >= 0) {
        if (w < R.w[r]!) { R.w[r] = w; R.b[r] = g.payload[i]!; }
        continue;
      }
      link(R.add(u, x, w, -1, g.payload[i]!));
    }
  }

  // Witness search state.
  const dist = new Float64Array(S);
  const seen = new Uint32Array(S);
  const isTarget = new Uint32Array(S);
  const heap = new IndexHeap(S);
  let gen = 0;
  let ins = new Int32Array(64), outs = new Int32Array(64);
  let nIn = 0, nOut = 0;
  /** Collects live in / out records of v into `ins` / `outs`, unlinking records to contracted states. */
  const gather = (v: number) => {
    nIn = 0; nOut = 0;
    let prev = -1;
    for (let r = inHead[v]!; r >= 0; r = R.nextIn[r]!) {
      if (done[R.tail[r]!]) {
        if (prev < 0) inHead[v] = R.nextIn[r]!; else R.nextIn[prev] = R.nextIn[r]!;
        continue;
      }
      if (nIn === ins.length) { const t = new Int32Array(2 * nIn); t.set(ins); ins = t; }
      ins[nIn++] = r;
      prev = r;
    }
    prev = -1;
    for (let r = outHead[v]!; r >= 0; r = R.nextOut[r]!) {
      if (done[R.head[r]!]) {
        if (prev < 0) outHead[v] = R.nextOut[r]!; else R.nextOut[prev] = R.nextOut[r]!;
        continue;
      }
      if (nOut === outs.length) { const t = new Int32Array(2 * nOut); t.set(outs); outs = t; }
      outs[nOut++] = r;
      prev = r;
    }
  };
  /**
   * Shortcuts needed to contract v (witness searches limited to `settles`); adds them when `apply`. Returns the
   * number of shortcuts.
   */
  const shortcuts = (v: number, settles: number, apply: boolean): number => {
    gather(v);
    let count = 0;
    if (nIn === 0 || nOut === 0) return 0;
    let maxOut = 0;
    for (let k = 0; k < nOut; k++) maxOut = Math.max(maxOut, R.w[outs[k]!]!);
    for (let i = 0; i < nIn; i++) {
      const ru = ins[i]!;
      const u = R.tail[ru]!;
      const wu = R.w[ru]!;
      if (++gen === 0xffffffff) { seen.fill(0); isTarget.fill(0); gen = 1; }
      let targets = 0;
      for (let k = 0; k < nOut; k++) {
        const x = R.head[outs[k]!]!;
        if (x !== u && isTarget[x] !== gen) { isTarget[x] = gen; targets++; }
      }
      if (targets === 0) continue;
      const limit = wu + maxOut;
      heap.clear();
      dist[u] = 0; seen[u] = gen; heap.push(u, 0);
      let settled = 0;
      while (heap.size > 0 && settled < settles) {
        const k = heap.minKey();
        if (k > limit) break;
        const y = heap.pop();
        settled++;
        if (isTarget[y] === gen && --targets === 0) break;
        for (let r = outHead[y]!; r >= 0; r = R.nextOut[r]!) {
          const z = R.head[r]!;
          if (z === v || done[z]) continue;
          const nd = k + R.w[r]!;
          if (seen[z] !== gen || nd < dist[z]!) {
            dist[z] = nd; seen[z] = gen;
            heap.push(z, nd);
          }
        }
      }
      for (let k = 0; k < nOut; k++) {
        const rx = outs[k]!;
        const x = R.head[rx]!;
        if (x === u) continue;
        const via = wu + R.w[rx]!;
        if (seen[x] === gen && dist[x]! <= via) continue;
        count++;
        if (!apply) continue;
        const r = findOut(u, x);
        if (r >= 0) {
          if (via < R.w[r]!) { R.w[r] = via; R.a[r] = ru; R.b[r] = rx; }
        } else {
          link(R.add(u, x, via, ru, rx));
        }
      }
    }
    heap.clear();
    return count;
  };
  // Priority: edge difference (2 × shortcuts − removed edges) + hierarchy depth, where depth(x) ≥ depth(v) + 1 for
  // every neighbour x of a contracted v. The depth term spreads contraction evenly over the graph, which keeps the
  // hierarchy shallow and the remaining core sparse.
  const level = new Uint32Array(S);
  let simSettles = SIM_MIN, degAvg = 0;
  const prio = (v: number) => level[v]! + 2 * shortcuts(v, simSettles, false) - (nIn + nOut);
  const queue = new IndexHeap(S);
  for (let v = 0; v < S; v++) queue.push(v, prio(v));
  const rank = new Uint32Array(S);
  const mark = new Int32Array(S).fill(-1);
  /** States whose key is only a bound (neighbours of a high-degree contraction): re-estimated when popped. */
  const stale = new Uint8Array(S);
  let nbrs = new Int32Array(64);
  let next = 0;
  while (queue.size > 0) {
    const v = queue.pop();
    if (stale[v]) {
      stale[v] = 0;
      const p = prio(v);
      if (queue.size > 0 && p > queue.minKey()) { queue.push(v, p); continue; }
    }
    shortcuts(v, REAL_SETTLES, true);
    gather(v);
    done[v] = 1;
    rank[v] = next++;
    // Mean degree over roughly the last 1000 contractions.
    degAvg += (nIn + nOut - degAvg) / 1000;
    simSettles = Math.min(SIM_MAX, Math.max(SIM_MIN, Math.round(2 * degAvg)));
    // Neighbours rise one level above v and get their priority estimated again (their edges changed): at once when
    // few, else lazily, since re-estimating all neighbours of a dense core state costs degree³ searches.
    // `mark` deduplicates them (a state can be both an in- and an out-neighbour).
    let n = 0;
    if (nbrs.length < nIn + nOut) nbrs = new Int32Array(2 * (nIn + nOut));
    for (let i = 0; i < nIn; i++) {
      const x = R.tail[ins[i]!]!;
      if (mark[x] !== v) { mark[x] = v; nbrs[n++] = x; }
    }
    for (let i = 0; i < nOut; i++) {
      const x = R.head[outs[i]!]!;
      if (mark[x] !== v) { mark[x] = v; nbrs[n++] = x; }
    }
    for (let i = 0; i < n; i++) {
      const x = nbrs[i]!;
      if (level[x]! <= level[v]!) level[x] = level[v]! + 1;
      if (n <= EAGER) queue.set(x, prio(x));
      else { stale[x] = 1; queue.set(x, Math.max(queue.keyOf(x), level[x]!)); }
    }
  }
  return layout(S, R, rank);
}

/** Splits the records into upward (stored at the tail) and downward (stored at the head) CSR ranges. */
function layout(S: number, R: Records, rank: Uint32Array): ChArrays {
  const n = R.n;
  const isUp = new Uint8Array(n);
  const upFirst = new Uint32Array(S + 1);
  const dnFirst = new Uint32Array(S + 1);
  for (let r = 0; r < n; r++) {
    const t = R.tail[r]!, h = R.head[r]!;
    if (rank[h]! > rank[t]!) { isUp[r] = 1; upFirst[t + 1]!++; } else dnFirst[h + 1]!++;
  }
  const U = upFirst.reduce((s, x) => s + x, 0);
  dnFirst[0] = U;
  for (let v = 0; v < S; v++) { upFirst[v + 1]! += upFirst[v]!; dnFirst[v + 1]! += dnFirst[v]!; }
  const idx = new Int32Array(n);
  const fu = upFirst.slice(0, S), fd = dnFirst.slice(0, S);
  for (let r = 0; r < n; r++) idx[r] = isUp[r] ? fu[R.tail[r]!]!++ : fd[R.head[r]!]!++;
  const node = new Uint32Array(n), a = new Int32Array(n), b = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const i = idx[r]!;
    node[i] = isUp[r] ? R.head[r]! : R.tail[r]!;
    const sc = R.a[r]! >= 0;
    a[i] = sc ? idx[R.a[r]!]! : -1;
    b[i] = sc ? idx[R.b[r]!]! : R.b[r]!;
  }
  return { rank, upFirst, dnFirst, node, a, b };
}
