import { directOnEdge, posOnArc, type ArcPath, type Endpoint } from '../search.js';
import { Ancestors } from './ancestors.js';
import type { CchMetric } from './customize.js';
import { sourceSeeds, targetSeeds } from './seeds.js';
import type { CchTopology } from './topology.js';
import { lowerEnd, lowerTriangle } from './triangles.js';

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
  /** The ancestor walks of both sides. */
  private readonly walk: Ancestors;
  /** Vertices on the last query's two ancestor lists. */
  visited = 0;

  private readonly topo: CchTopology;
  /** The lower triangle unpack splits an arc into (lowerTriangle). */
  private readonly tri = new Int32Array(2);

  constructor(readonly metric: CchMetric) {
    const topo = (this.topo = metric.topo);
    const n = topo.size;
    this.df = new Float64Array(n);
    this.db = new Float64Array(n);
    this.pf = new Int32Array(n);
    this.pb = new Int32Array(n);
    this.onF = new Uint32Array(n);
    this.onB = new Uint32Array(n);
    this.walk = new Ancestors(topo.parent);
  }

  /** Best route between two endpoints, or null when none exists. */
  route(src: Endpoint, dst: Endpoint): ArcPath | null {
    const gen = ++this.gen;
    const { arc: direct, weight: directWeight } = directOnEdge(src, dst, this.metric.costs.weight);
    let best = directWeight;
    const fSeeds: number[] = [];
    sourceSeeds(this.metric, src, (r, weight, _, a) => {
      fSeeds.push(r);
      this.seed(this.df, this.pf, this.onF, r, weight, -1 - a, gen);
    });
    const bSeeds: number[] = [];
    targetSeeds(this.metric, dst, (r, weight, _, b) => {
      bSeeds.push(r);
      this.seed(this.db, this.pb, this.onB, r, weight, -1 - b, gen);
    });
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
    const list = this.walk.list.slice(0, this.walk.walk(seeds, seeds.length));
    for (const v of list)
      if (on[v] !== gen) {
        on[v] = gen;
        d[v] = Infinity;
        p[v] = 0;
      }
    return list;
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
      v = lowerEnd(this.topo, i);
    }
    fwd.push(stateOf[v]!);
    for (let k = upArcs.length - 1; k >= 0; k--) this.unpack(upArcs[k]!, true, fwd);
    // Backward side: arcs down from the meet to a seed, then the target arc.
    v = meet;
    while (this.pb[v]! >= 0) {
      const i = this.pb[v]!;
      this.unpack(i, false, fwd);
      v = lowerEnd(this.topo, i);
    }
    for (let k = 0; k < fwd.length; k++) fwd[k] = states.arcOf(fwd[k]!);
    fwd.push(-1 - this.pb[v]!);
    return fwd;
  }

  /**
   * Appends the shared states after the first of arc i, driven up (lower → higher end) or down: the arc's own transition
   * when it weighs the arc's weight, else the lower triangle that made the weight, unpacked in turn.
   */
  private unpack(i: number, upward: boolean, out: number[]): void {
    const tri = this.tri,
      lo = lowerEnd(this.topo, i);
    if (!lowerTriangle(this.metric, i, lo, upward, tri)) {
      out.push(this.topo.stateOf[upward ? this.topo.upHead[i]! : lo]!);
      return;
    }
    const a = tri[0]!,
      b = tri[1]!;
    if (upward) {
      this.unpack(a, false, out);
      this.unpack(b, true, out);
    } else {
      this.unpack(b, false, out);
      this.unpack(a, true, out);
    }
  }
}
