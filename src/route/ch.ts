import type { ArcCosts } from './costs.js';
import { IndexHeap } from './heap.js';
import { posOnArc, type ArcPath, type Endpoint } from './search.js';

/** Witness searches settle at most this many nodes (more shortcuts, faster preprocessing). */
const WITNESS_SETTLES = 60;

/**
 * Node-based contraction hierarchy over the arcs of one vehicle and weighting. Exact for graphs without turn
 * restrictions and barriers: there, a node-based shortest path never turns back along its own edge, so it is also
 * the best edge-based route (see ArcSearch's rules). Records are original arcs (`orig` ≥ 0) or shortcuts joining two
 * records (`c1`, `c2`) through a contracted node; searches only go up in rank.
 */
export class ContractionHierarchy {
  readonly rank: Int32Array;
  /** Per record: weight, original arc (-1 for shortcuts), children. */
  readonly w: Float64Array;
  readonly orig: Int32Array;
  readonly c1: Int32Array;
  readonly c2: Int32Array;
  /** Upward records leaving each node (to a higher node): CSR over nodes, record ids, head nodes. */
  readonly upFirst: Uint32Array;
  readonly upRec: Int32Array;
  readonly upNode: Int32Array;
  /** Records entering each node from a higher node (for the backward search), CSR. */
  readonly dnFirst: Uint32Array;
  readonly dnRec: Int32Array;
  readonly dnNode: Int32Array;
  /** Milliseconds spent building. */
  readonly buildMs: number;

  private readonly fd: Float64Array;
  private readonly bd: Float64Array;
  private readonly fpar: Int32Array;
  private readonly bpar: Int32Array;
  private readonly fseen: Uint32Array;
  private readonly bseen: Uint32Array;
  private readonly fheap: IndexHeap;
  private readonly bheap: IndexHeap;
  private gen = 0;

  constructor(readonly costs: ArcCosts) {
    const t0 = performance.now();
    const g = costs.graph;
    const N = g.nodeCount;
    const W = costs.weight;
    const from: number[] = [], to: number[] = [], w: number[] = [], orig: number[] = [], c1: number[] = [], c2: number[] = [];
    const outs: number[][] = Array.from({ length: N }, () => []);
    const ins: number[][] = Array.from({ length: N }, () => []);
    const add = (u: number, v: number, wt: number, o: number, a: number, b: number) => {
      const r = from.length;
      from.push(u); to.push(v); w.push(wt); orig.push(o); c1.push(a); c2.push(b);
      outs[u]!.push(r);
      ins[v]!.push(r);
      return r;
    };
    for (let a = 0; a < 2 * g.edgeCount; a++) {
      if (W[a] === Infinity) continue;
      const u = g.edgeNodes[(a & ~1) + (a & 1)]!;
      const v = g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
      if (u !== v) add(u, v, W[a]!, a, -1, -1);
    }
    const done = new Uint8Array(N);
    const deleted = new Int32Array(N);
    const dist = new Float64Array(N);
    const seen = new Uint32Array(N);
    const heap = new IndexHeap(N);
    let gen = 0;
    // Cheapest live record per neighbour, in or out of v.
    const best = (list: number[], end: number[], v: number) => {
      const m = new Map<number, number>();
      for (const r of list) {
        const x = end[r]!;
        if (done[x] || x === v) continue;
        const cur = m.get(x);
        if (cur === undefined || w[r]! < w[cur]!) m.set(x, r);
      }
      return m;
    };
    /** Shortcuts needed to contract v: [inRecord, outRecord] pairs. */
    const shortcuts = (v: number): [number, number][] => {
      const inB = best(ins[v]!, from, v);
      const outB = best(outs[v]!, to, v);
      const res: [number, number][] = [];
      if (inB.size === 0 || outB.size === 0) return res;
      let maxOut = 0;
      for (const r of outB.values()) maxOut = Math.max(maxOut, w[r]!);
      for (const [u, ru] of inB) {
        const limit = w[ru]! + maxOut;
        if (++gen === 0xffffffff) { seen.fill(0); gen = 1; }
        heap.clear();
        dist[u] = 0; seen[u] = gen; heap.push(u, 0);
        let settled = 0;
        while (heap.size > 0 && settled < WITNESS_SETTLES) {
          const k = heap.minKey();
          if (k > limit) break;
          const x = heap.pop();
          settled++;
          for (const r of outs[x]!) {
            const y = to[r]!;
            if (done[y] || y === v) continue;
            const nd = k + w[r]!;
            if (seen[y] !== gen || nd < dist[y]!) {
              dist[y] = nd; seen[y] = gen;
              heap.push(y, nd);
            }
          }
        }
        for (const [x, rx] of outB) {
          if (x === u) continue;
          const via = w[ru]! + w[rx]!;
          if (seen[x] === gen && dist[x]! <= via) continue;
          res.push([ru, rx]);
        }
      }
      return res;
    };
    const degree = (v: number) => {
      let d = 0;
      for (const r of ins[v]!) if (!done[from[r]!]) d++;
      for (const r of outs[v]!) if (!done[to[r]!]) d++;
      return d;
    };
    const prio = (v: number) => 2 * shortcuts(v).length - degree(v) + deleted[v]!;
    const queue = new IndexHeap(N);
    for (let v = 0; v < N; v++) queue.push(v, prio(v));
    const rank = new Int32Array(N);
    let next = 0;
    while (queue.size > 0) {
      const v = queue.pop();
      const p = prio(v);
      if (queue.size > 0 && p > queue.minKey()) {
        queue.push(v, p);
        continue;
      }
      for (const [ru, rx] of shortcuts(v)) add(from[ru]!, to[rx]!, w[ru]! + w[rx]!, -1, ru, rx);
      done[v] = 1;
      rank[v] = next++;
      // Neighbours: drop records to contracted nodes from their lists, count the deletion, refresh the priority.
      const nbrs = new Set<number>();
      for (const r of ins[v]!) if (!done[from[r]!]) nbrs.add(from[r]!);
      for (const r of outs[v]!) if (!done[to[r]!]) nbrs.add(to[r]!);
      for (const x of nbrs) {
        deleted[x]!++;
        outs[x] = outs[x]!.filter((r) => !done[to[r]!]);
        ins[x] = ins[x]!.filter((r) => !done[from[r]!]);
        queue.push(x, -Infinity);
        queue.pop();
        queue.push(x, prio(x));
      }
    }
    this.rank = rank;
    const R = from.length;
    this.w = Float64Array.from(w);
    this.orig = Int32Array.from(orig);
    this.c1 = Int32Array.from(c1);
    this.c2 = Int32Array.from(c2);
    const csr = (key: (r: number) => number, other: (r: number) => number, keep: (r: number) => boolean) => {
      const first = new Uint32Array(N + 1);
      for (let r = 0; r < R; r++) if (keep(r)) first[key(r) + 1]!++;
      for (let v = 0; v < N; v++) first[v + 1]! += first[v]!;
      const rec = new Int32Array(first[N]!);
      const node = new Int32Array(first[N]!);
      const fill = first.slice(0, N);
      for (let r = 0; r < R; r++) {
        if (!keep(r)) continue;
        const i = fill[key(r)]!++;
        rec[i] = r;
        node[i] = other(r);
      }
      return { first, rec, node };
    };
    const up = csr((r) => from[r]!, (r) => to[r]!, (r) => rank[to[r]!]! > rank[from[r]!]!);
    const dn = csr((r) => to[r]!, (r) => from[r]!, (r) => rank[from[r]!]! > rank[to[r]!]!);
    this.upFirst = up.first; this.upRec = up.rec; this.upNode = up.node;
    this.dnFirst = dn.first; this.dnRec = dn.rec; this.dnNode = dn.node;
    this.fd = new Float64Array(N); this.bd = new Float64Array(N);
    this.fpar = new Int32Array(N); this.bpar = new Int32Array(N);
    this.fseen = new Uint32Array(N); this.bseen = new Uint32Array(N);
    this.fheap = new IndexHeap(N); this.bheap = new IndexHeap(N);
    this.buildMs = performance.now() - t0;
  }

  /** Bytes of the hierarchy's arrays per arc of the graph. */
  bytesPerArc(): number {
    const b = this.rank.byteLength + this.w.byteLength + this.orig.byteLength + this.c1.byteLength + this.c2.byteLength +
      this.upFirst.byteLength + this.upRec.byteLength + this.upNode.byteLength + this.dnFirst.byteLength + this.dnRec.byteLength + this.dnNode.byteLength;
    return b / (2 * this.costs.graph.edgeCount);
  }

  /** Best route between two endpoints (same answer as ArcSearch.route on graphs this hierarchy is valid for). */
  route(src: Endpoint, dst: Endpoint): ArcPath | null {
    const g = this.costs.graph;
    const W = this.costs.weight;
    const en = g.edgeNodes;
    const gen = this.nextGen();
    const F = this.fheap, B = this.bheap;
    F.clear(); B.clear();
    let best = Infinity;
    let direct = -1;
    let meet = -1;
    if (src.edge === dst.edge) {
      for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
        const f = posOnArc(src, a), t = posOnArc(dst, a);
        if (src.only !== undefined && a !== src.only) continue;
        if (W[a] !== Infinity && t >= f && (t - f) * W[a]! < best) { best = (t - f) * W[a]!; direct = a; }
      }
    }
    // Seeds: the source arc's head (parent -2 - arc), the target arc's tail.
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (W[a] === Infinity || (src.only !== undefined && a !== src.only)) continue;
      const v = en[(a & ~1) + 1 - (a & 1)]!;
      const d = (1 - posOnArc(src, a)) * W[a]!;
      if (this.fseen[v] === gen && this.fd[v]! <= d) continue;
      this.fd[v] = d; this.fpar[v] = -2 - a; this.fseen[v] = gen; F.push(v, d);
    }
    for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
      if (W[b] === Infinity) continue;
      const u = en[(b & ~1) + (b & 1)]!;
      const d = posOnArc(dst, b) * W[b]!;
      if (this.bseen[u] === gen && this.bd[u]! <= d) continue;
      this.bd[u] = d; this.bpar[u] = -2 - b; this.bseen[u] = gen; B.push(u, d);
      if (this.fseen[u] === gen && this.fd[u]! + d < best) { best = this.fd[u]! + d; meet = u; }
    }
    while (F.size > 0 || B.size > 0) {
      const fk = F.minKey(), bk = B.minKey();
      if (fk >= best && bk >= best) break;
      const forward = fk <= bk;
      const H = forward ? F : B;
      const v = H.pop();
      const dist = forward ? this.fd : this.bd;
      const other = forward ? this.bd : this.fd;
      const oseen = forward ? this.bseen : this.fseen;
      const seen = forward ? this.fseen : this.bseen;
      const par = forward ? this.fpar : this.bpar;
      const first = forward ? this.upFirst : this.dnFirst;
      const recs = forward ? this.upRec : this.dnRec;
      const nodes = forward ? this.upNode : this.dnNode;
      const dv = dist[v]!;
      if (dv >= best) continue;
      for (let i = first[v]!; i < first[v + 1]!; i++) {
        const x = nodes[i]!;
        const nd = dv + this.w[recs[i]!]!;
        if (seen[x] === gen && nd >= dist[x]!) continue;
        dist[x] = nd; par[x] = recs[i]!; seen[x] = gen;
        H.push(x, nd);
        if (oseen[x] === gen && nd + other[x]! < best) { best = nd + other[x]!; meet = x; }
      }
    }
    if (best === Infinity) return null;
    if (meet < 0) return { arcs: [direct], from: posOnArc(src, direct), to: posOnArc(dst, direct), weight: best };
    const recsF: number[] = [];
    let v = meet;
    while (this.fpar[v]! >= 0) { const r = this.fpar[v]!; recsF.push(r); v = this.fromOf(r); }
    const srcArc = -2 - this.fpar[v]!;
    recsF.reverse();
    const arcs = [srcArc];
    for (const r of recsF) this.unpack(r, arcs);
    v = meet;
    while (this.bpar[v]! >= 0) { const r = this.bpar[v]!; this.unpack(r, arcs); v = this.toOf(r); }
    const dstArc = -2 - this.bpar[v]!;
    arcs.push(dstArc);
    return { arcs, from: posOnArc(src, srcArc), to: posOnArc(dst, dstArc), weight: best };
  }

  /**
   * Many-to-many by buckets: one upward search per destination (entries kept per node), then one upward search per
   * origin scanning the buckets. Each best pair's path is unpacked and handed to `emit(i, j, path)`; unreachable
   * pairs are not emitted.
   */
  table(origins: readonly Endpoint[], dests: readonly Endpoint[], emit: (i: number, j: number, path: ArcPath) => void): void {
    const g = this.costs.graph;
    const W = this.costs.weight;
    const en = g.edgeNodes;
    const buckets = new Map<number, number[]>();
    const backPar: Map<number, number>[] = [];
    dests.forEach((dst, j) => {
      const gen = this.nextGen();
      const B = this.bheap;
      B.clear();
      for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
        if (W[b] === Infinity) continue;
        const u = en[(b & ~1) + (b & 1)]!;
        const d = posOnArc(dst, b) * W[b]!;
        if (this.bseen[u] === gen && this.bd[u]! <= d) continue;
        this.bd[u] = d; this.bpar[u] = -2 - b; this.bseen[u] = gen; B.push(u, d);
      }
      const par = new Map<number, number>();
      while (B.size > 0) {
        const v = B.pop();
        const dv = this.bd[v]!;
        par.set(v, this.bpar[v]!);
        const list = buckets.get(v);
        if (list) list.push(j, dv);
        else buckets.set(v, [j, dv]);
        for (let i = this.dnFirst[v]!; i < this.dnFirst[v + 1]!; i++) {
          const x = this.dnNode[i]!;
          const nd = dv + this.w[this.dnRec[i]!]!;
          if (this.bseen[x] === gen && nd >= this.bd[x]!) continue;
          this.bd[x] = nd; this.bpar[x] = this.dnRec[i]!; this.bseen[x] = gen;
          B.push(x, nd);
        }
      }
      backPar.push(par);
    });
    const best = new Float64Array(dests.length);
    const meet = new Int32Array(dests.length);
    origins.forEach((src, oi) => {
      best.fill(Infinity);
      meet.fill(-1);
      const direct = new Int32Array(dests.length).fill(-1);
      dests.forEach((dst, j) => {
        if (dst.edge !== src.edge) return;
        for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
          const f = posOnArc(src, a), t = posOnArc(dst, a);
          if (W[a] !== Infinity && t >= f && (t - f) * W[a]! < best[j]!) { best[j] = (t - f) * W[a]!; direct[j] = a; }
        }
      });
      const gen = this.nextGen();
      const F = this.fheap;
      F.clear();
      for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
        if (W[a] === Infinity) continue;
        const v = en[(a & ~1) + 1 - (a & 1)]!;
        const d = (1 - posOnArc(src, a)) * W[a]!;
        if (this.fseen[v] === gen && this.fd[v]! <= d) continue;
        this.fd[v] = d; this.fpar[v] = -2 - a; this.fseen[v] = gen; F.push(v, d);
      }
      while (F.size > 0) {
        const v = F.pop();
        const dv = this.fd[v]!;
        const list = buckets.get(v);
        if (list) {
          for (let k = 0; k < list.length; k += 2) {
            const j = list[k]!;
            if (dv + list[k + 1]! < best[j]!) { best[j] = dv + list[k + 1]!; meet[j] = v; direct[j] = -1; }
          }
        }
        for (let i = this.upFirst[v]!; i < this.upFirst[v + 1]!; i++) {
          const x = this.upNode[i]!;
          const nd = dv + this.w[this.upRec[i]!]!;
          if (this.fseen[x] === gen && nd >= this.fd[x]!) continue;
          this.fd[x] = nd; this.fpar[x] = this.upRec[i]!; this.fseen[x] = gen;
          F.push(x, nd);
        }
      }
      dests.forEach((dst, j) => {
        if (best[j] === Infinity) return;
        const d = direct[j]!;
        if (d >= 0) {
          emit(oi, j, { arcs: [d], from: posOnArc(src, d), to: posOnArc(dst, d), weight: best[j]! });
          return;
        }
        const recsF: number[] = [];
        let v = meet[j]!;
        while (this.fpar[v]! >= 0) { const r = this.fpar[v]!; recsF.push(r); v = this.fromOf(r); }
        const srcArc = -2 - this.fpar[v]!;
        recsF.reverse();
        const arcs = [srcArc];
        for (const r of recsF) this.unpack(r, arcs);
        const par = backPar[j]!;
        v = meet[j]!;
        while (par.get(v)! >= 0) { const r = par.get(v)!; this.unpack(r, arcs); v = this.toOf(r); }
        const dstArc = -2 - par.get(v)!;
        arcs.push(dstArc);
        emit(oi, j, { arcs, from: posOnArc(src, srcArc), to: posOnArc(dst, dstArc), weight: best[j]! });
      });
    });
  }

  private nextGen(): number {
    if (++this.gen === 0xffffffff) { this.fseen.fill(0); this.bseen.fill(0); this.gen = 1; }
    return this.gen;
  }

  private fromOf(r: number): number {
    while (this.orig[r]! < 0) r = this.c1[r]!;
    const a = this.orig[r]!;
    return this.costs.graph.edgeNodes[(a & ~1) + (a & 1)]!;
  }

  private toOf(r: number): number {
    while (this.orig[r]! < 0) r = this.c2[r]!;
    const a = this.orig[r]!;
    return this.costs.graph.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
  }

  /** Appends the original arcs of record r, in driving order. */
  private unpack(r: number, out: number[]): void {
    if (this.orig[r]! >= 0) {
      out.push(this.orig[r]!);
      return;
    }
    this.unpack(this.c1[r]!, out);
    this.unpack(this.c2[r]!, out);
  }
}
