import { arcTail } from '../costs.js';
import { directOnEdge, posOnArc, type ArcPath, type Endpoint } from '../search.js';
import type { CchMetric } from './customize.js';
import type { CchTopology } from './topology.js';

/**
 * Exact point-to-point routes on a customized CCH by elimination-tree search: every arc of a vertex leads to one of
 * its ancestors in the elimination tree, so the forward side relaxes the up arcs of the seeds' ancestors in rank
 * order (no priority queue), the backward side the same with the arcs' down weights, and the best route meets at a
 * common ancestor. Labels follow ArcSearch's: forward, the weight from the source to the head of a state's arc;
 * backward, from there to the target. Shortcuts are unpacked through their lower triangles. Labels are reused
 * across queries; a query allocates only its result and its ancestor lists.
 */
export class CchQuery {
  private readonly df: Float64Array;
  private readonly db: Float64Array;
  /** Per vertex: the arc its forward / backward label came along, or -1 - arc of the graph at a seed. */
  private readonly pf: Int32Array;
  private readonly pb: Int32Array;
  /** Per vertex: the query that last put it on each side's list (0 = none). */
  private readonly onF: Uint32Array;
  private readonly onB: Uint32Array;
  private gen = 0;
  /** Per vertex: the ancestor walk that last listed it; `list` holds a walk's vertices. */
  private readonly mark: Uint32Array;
  private stamp = 0;
  private readonly list: Uint32Array;
  /** Vertices on the last query's two ancestor lists. */
  visited = 0;

  private readonly topo: CchTopology;

  constructor(readonly metric: CchMetric) {
    const topo = (this.topo = metric.topo);
    const n = topo.size;
    this.df = new Float64Array(n);
    this.db = new Float64Array(n);
    this.pf = new Int32Array(n);
    this.pb = new Int32Array(n);
    this.onF = new Uint32Array(n);
    this.onB = new Uint32Array(n);
    this.mark = new Uint32Array(n);
    this.list = new Uint32Array(n);
  }

  /** Best route between two endpoints, or null when none exists. */
  route(src: Endpoint, dst: Endpoint): ArcPath | null {
    const M = this.metric,
      c = M.costs,
      g = c.graph,
      w = c.weight,
      T = M.turns,
      rankOf = this.topo.rankOf;
    const gen = ++this.gen;
    const { arc: direct, weight: directWeight } = directOnEdge(src, dst, w);
    let best = directWeight;
    const fSeeds: number[] = [];
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (w[a] === Infinity || (src.only !== undefined && a !== src.only)) continue;
      const r = rankOf[a]!;
      fSeeds.push(r);
      this.seed(this.df, this.pf, this.onF, r, (1 - posOnArc(src, a)) * w[a]!, -1 - a, gen);
    }
    const bSeeds: number[] = [];
    for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
      if (w[b] === Infinity) continue;
      const u = arcTail(g, b);
      const d = posOnArc(dst, b) * w[b]!;
      for (let i = g.adjFirst[u]!; i < g.adjFirst[u + 1]!; i++) {
        const a = g.adjArc[i]! ^ 1;
        if (w[a] === Infinity || !c.openTurn(a, b, u)) continue;
        const da = c.turnWeight(a, b, u) + d;
        // Arc a and the vehicle's copies of it, those from which the turn onto b is allowed.
        for (let k = -1; k < T.copyFirst[a + 1]! - T.copyFirst[a]!; k++) {
          const s = k < 0 ? a : T.arcs + T.copyFirst[a]! + k;
          if (T.next(s, b) < 0) continue;
          const r = rankOf[M.states.shared(c.profile, s)]!;
          bSeeds.push(r);
          this.seed(this.db, this.pb, this.onB, r, da, -1 - b, gen);
        }
      }
    }
    const fList = this.ancestors(fSeeds, this.df, this.pf, this.onF, gen);
    const bList = this.ancestors(bSeeds, this.db, this.pb, this.onB, gen);
    this.visited = fList.length + bList.length;
    // Both sides up in one pass, rank by rank: a vertex's labels are final when it is reached, so the best meeting
    // so far prunes the arcs of a vertex whose label alone is no better.
    const { upFirst, upHead } = this.topo;
    const { up, down } = this.metric;
    const df = this.df,
      db = this.db,
      pf = this.pf,
      pb = this.pb;
    let meet = -1;
    for (let i = 0, j = 0; i < fList.length || j < bList.length;) {
      const f = i < fList.length ? fList[i]! : Infinity,
        b = j < bList.length ? bList[j]! : Infinity;
      const v = Math.min(f, b);
      const dv = v === f ? df[v]! : Infinity,
        bv = v === b ? db[v]! : Infinity;
      if (v === f) i++;
      if (v === b) j++;
      if (dv + bv < best) {
        best = dv + bv;
        meet = v;
      }
      if (dv < best)
        for (let k = upFirst[v]!; k < upFirst[v + 1]!; k++) {
          const y = upHead[k]!,
            nd = dv + up[k]!;
          if (nd < df[y]!) {
            df[y] = nd;
            pf[y] = k;
          }
        }
      if (bv < best)
        for (let k = upFirst[v]!; k < upFirst[v + 1]!; k++) {
          const y = upHead[k]!,
            nd = bv + down[k]!;
          if (nd < db[y]!) {
            db[y] = nd;
            pb[y] = k;
          }
        }
    }
    if (best === Infinity) return null;
    if (meet < 0) return { arcs: [direct], from: posOnArc(src, direct), to: posOnArc(dst, direct), weight: best };
    const arcs = this.path(meet);
    return { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, arcs[arcs.length - 1]!), weight: best };
  }

  private seed(d: Float64Array, p: Int32Array, on: Uint32Array, r: number, value: number, from: number, gen: number) {
    if (on[r] === gen && d[r]! <= value) return;
    on[r] = gen;
    d[r] = value;
    p[r] = from;
  }

  /** The seeds' ancestors in the elimination tree, ascending, each labelled Infinity unless it is a seed. */
  private ancestors(seeds: number[], d: Float64Array, p: Int32Array, on: Uint32Array, gen: number): Uint32Array {
    const parent = this.topo.parent,
      mark = this.mark;
    const stamp = ++this.stamp;
    let n = 0;
    for (const s of seeds) {
      for (let v = s; v >= 0 && mark[v] !== stamp; v = parent[v]!) {
        mark[v] = stamp;
        this.list[n++] = v;
        if (on[v] !== gen) {
          on[v] = gen;
          d[v] = Infinity;
          p[v] = 0;
        }
      }
    }
    return this.list.slice(0, n).sort();
  }

  /** The arcs of the route through vertex `meet`, source to target arc. */
  private path(meet: number): number[] {
    const { stateOf } = this.topo;
    const states = this.metric.states;
    const fwd: number[] = [];
    let v = meet;
    // Forward side: arcs up from a seed to the meet, collected top down and unpacked bottom up.
    const upArcs: number[] = [];
    while (this.pf[v]! >= 0) {
      const i = this.pf[v]!;
      upArcs.push(i);
      v = this.tailOf(i);
    }
    fwd.push(stateOf[v]!);
    for (let k = upArcs.length - 1; k >= 0; k--) this.unpack(upArcs[k]!, true, fwd);
    // Backward side: arcs down from the meet to a seed, then the target arc.
    v = meet;
    while (this.pb[v]! >= 0) {
      const i = this.pb[v]!;
      this.unpack(i, false, fwd);
      v = this.tailOf(i);
    }
    for (let k = 0; k < fwd.length; k++) fwd[k] = states.arcOf(fwd[k]!);
    fwd.push(-1 - this.pb[v]!);
    return fwd;
  }

  /** First index of downTail[lo .. hi - 1] (ascending) holding `v` or more; hi when none. */
  private lowerBound(v: number, lo: number, hi: number): number {
    const t = this.topo.downTail;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (t[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Lower end of arc i (the vertex whose up arcs hold it). */
  private tailOf(i: number): number {
    const f = this.topo.upFirst;
    let lo = 0,
      hi = f.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (f[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Appends the shared states after the first of arc i, driven up (lower → higher end) or down: the arc's own transition
   * when it weighs the arc's weight, else the lower triangle that made the weight, unpacked in turn.
   */
  private unpack(i: number, upward: boolean, out: number[]): void {
    const { upHead, downFirst, downTail, downArc, stateOf } = this.topo;
    const { up, down } = this.metric;
    const lo = this.tailOf(i),
      hi = upHead[i]!;
    const weight = upward ? up[i]! : down[i]!;
    const from = stateOf[upward ? lo : hi]!,
      to = stateOf[upward ? hi : lo]!;
    if (this.metric.link(from, to) === weight) {
      out.push(to);
      return;
    }
    // Lower neighbours v of both ends: arcs v–lo (a) and v–hi (b). The shorter row is walked, the other searched.
    const loA = downFirst[lo]!,
      loB = downFirst[lo + 1]!,
      hiA = downFirst[hi]!,
      hiB = downFirst[hi + 1]!;
    const walkLo = loB - loA <= hiB - hiA;
    const wA = walkLo ? loA : hiA,
      wB = walkLo ? loB : hiB,
      sB = walkLo ? hiB : loB;
    // Both rows ascend: each search starts where the last one ended.
    let at = walkLo ? hiA : loA;
    for (let k = wA; k < wB && at < sB; k++) {
      const j = (at = this.lowerBound(downTail[k]!, at, sB));
      if (j === sB || downTail[j] !== downTail[k]) continue;
      const a = downArc[walkLo ? k : j]!,
        b = downArc[walkLo ? j : k]!;
      if (upward ? down[a]! + up[b]! === weight : down[b]! + up[a]! === weight) {
        if (upward) {
          this.unpack(a, false, out);
          this.unpack(b, true, out);
        } else {
          this.unpack(b, false, out);
          this.unpack(a, true, out);
        }
        return;
      }
    }
    throw new Error(`CCH arc ${i} has no triangle of its weight`);
  }
}
