import { directOnEdge, posOnArc, type ArcPath, type Endpoint } from '../search.js';
import { Ancestors } from './ancestors.js';
import { keptIndex, LINK, midOf } from './arcs.js';
import type { CchMetric } from './customize.js';
import { sourceSeeds, targetSeeds } from './seeds.js';
import type { TableTrees } from './trees.js';

/**
 * Exact point-to-point routes on a customized CCH by elimination-tree search: every arc of a vertex leads to one of
 * its ancestors in the elimination tree, so the forward side relaxes the up arcs of the seeds' ancestors in rank
 * order (no priority queue), the backward side the same with the arcs' down weights, and the best route meets at a
 * common ancestor. Only the arcs the metric keeps are relaxed (those on some shortest path: perfect customization).
 * Labels follow ArcSearch's: forward, the weight from the source to the head of a state's arc; backward, from there
 * to the target. Shortcuts are unpacked through their middle vertices. Labels (QueryLabels) are reused across
 * queries; a query allocates only its result, its seeds and its ancestor lists.
 */
export class CchQuery {
  /** Vertices on the last query's two ancestor lists. */
  visited = 0;

  /**
   * @param labels the label arrays the query works in (default: its own); queries of one topology that never run at
   *   once (one router's) share one, so each metric adds only its arcs
   */
  constructor(
    readonly metric: CchMetric,
    private readonly labels = new QueryLabels(metric.topo.parent),
  ) {}

  /** Best route between two endpoints, or null when none exists. */
  route(src: Endpoint, dst: Endpoint): ArcPath | null {
    const L = this.labels;
    const { arc: direct, weight: directWeight } = directOnEdge(src, dst, this.metric.costs.weight);
    let best = directWeight;
    // Each side's seed vertices, and per seed its label and where it came from (-1 - arc of the graph).
    const fSeeds: number[] = [],
      fLabels: number[] = [];
    sourceSeeds(this.metric, src, (r, weight, _, a) => {
      fSeeds.push(r);
      fLabels.push(weight, -1 - a);
    });
    const bSeeds: number[] = [],
      bLabels: number[] = [];
    targetSeeds(this.metric, dst, (r, weight, _, b) => {
      bSeeds.push(r);
      bLabels.push(weight, -1 - b);
    });
    const fList = this.side(fSeeds, fLabels, L.df, L.pf);
    const bList = this.side(bSeeds, bLabels, L.db, L.pb);
    this.visited = fList.length + bList.length;
    // Both sides up in one pass, rank by rank: a vertex's labels are final when it is reached, so the best meeting
    // so far prunes the arcs of a vertex whose label alone is no better.
    const { rowBase: uBase, rowOff: uOff, slot: uSlot, weight: uWeight } = this.metric.up;
    const { rowBase: dBase, rowOff: dOff, slot: dSlot, weight: dWeight } = this.metric.down;
    const { upFirst, upHead } = this.metric.topo;
    const { df, db, pf, pb } = L;
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
        for (
          let k = uBase[v >> 8]! + uOff[v]!, end = uBase[(v + 1) >> 8]! + uOff[v + 1]!, row = upFirst[v]!;
          k < end;
          k++
        ) {
          const y = upHead[row + uSlot[k]!]!,
            nd = dv + uWeight[k]!;
          if (nd < df[y]!) {
            df[y] = nd;
            pf[y] = v;
          }
        }
      if (bv < best)
        for (
          let k = dBase[v >> 8]! + dOff[v]!, end = dBase[(v + 1) >> 8]! + dOff[v + 1]!, row = upFirst[v]!;
          k < end;
          k++
        ) {
          const y = upHead[row + dSlot[k]!]!,
            nd = bv + dWeight[k]!;
          if (nd < db[y]!) {
            db[y] = nd;
            pb[y] = v;
          }
        }
    }
    if (best === Infinity) return null;
    if (meet < 0) return { arcs: [direct], from: posOnArc(src, direct), to: posOnArc(dst, direct), weight: best };
    const arcs = this.path(meet);
    return { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, arcs[arcs.length - 1]!), weight: best };
  }

  /**
   * What `route(src, dst)` gives, for origin i and destination j of the CchTable call that kept `trees` (with these
   * endpoints) and found their weight `weight`, unpacked from that call's walks instead of searching again. The same
   * route: `route`'s search skips only vertices whose label is no lighter than the best meeting so far, and every
   * vertex of the best route is lighter than that when reached, so the table's unpruned walks give it the same labels
   * and parents (the first lightest offer in rank order on both), and the table meets at the same lowest vertex.
   */
  routeIn(trees: TableTrees, i: number, j: number, src: Endpoint, dst: Endpoint, weight: number): ArcPath | null {
    if (weight === Infinity) return null;
    const meet = trees.meet[i * trees.destinations + j]!;
    if (meet < 0) {
      const direct = directOnEdge(src, dst, this.metric.costs.weight).arc;
      return { arcs: [direct], from: posOnArc(src, direct), to: posOnArc(dst, direct), weight };
    }
    // path() reads parents only along the two chains from the meeting vertex, all of them on the kept walks.
    const { pf, pb } = this.labels;
    const { fList, fPar, fStart, bList, bPar, bStart } = trees;
    for (let q = fStart[i]!, end = fStart[i + 1]!; q < end; q++) pf[fList[q]!] = fPar[q]!;
    for (let q = bStart[j]!, end = bStart[j + 1]!; q < end; q++) pb[bList[q]!] = bPar[q]!;
    const arcs = this.path(meet);
    return { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, arcs[arcs.length - 1]!), weight };
  }

  /**
   * One side's vertices: the seeds' ancestors in the elimination tree, ascending, each labelled Infinity, then each
   * seed labelled (`labels`: per seed its weight and where it came from) unless an earlier seed of the same vertex is
   * as light.
   */
  private side(seeds: number[], labels: number[], d: Float64Array, p: Int32Array): Uint32Array {
    const walk = this.labels.walk;
    const list = walk.list.slice(0, walk.walk(seeds, seeds.length));
    for (const v of list) {
      d[v] = Infinity;
      p[v] = 0;
    }
    for (let k = 0; k < seeds.length; k++) {
      const r = seeds[k]!,
        value = labels[2 * k]!;
      if (d[r]! <= value) continue;
      d[r] = value;
      p[r] = labels[2 * k + 1]!;
    }
    return list;
  }

  /** The arcs of the route through vertex `meet`, source to target arc. */
  private path(meet: number): number[] {
    const { stateOf } = this.metric.topo;
    const states = this.metric.states;
    const { pf, pb } = this.labels;
    const fwd: number[] = [];
    // Forward side: the vertices from the meet down to a seed, then unpacked bottom up.
    const chain: number[] = [];
    let v = meet;
    for (; pf[v]! >= 0; v = pf[v]!) chain.push(v);
    fwd.push(stateOf[v]!);
    for (let k = chain.length - 1; k >= 0; v = chain[k--]!) this.unpack(v, chain[k]!, true, fwd);
    // Backward side: arcs down from the meet to a seed, then the target arc.
    for (v = meet; pb[v]! >= 0; v = pb[v]!) this.unpack(pb[v]!, v, false, fwd);
    for (let k = 0; k < fwd.length; k++) fwd[k] = states.arcOf(fwd[k]!);
    fwd.push(-1 - pb[v]!);
    return fwd;
  }

  /**
   * Appends the shared states after the first of the kept arc between `lo` and `hi` (lo < hi) driven up (lo → hi)
   * or down: the arc's own transition when it is a link, else its two arcs through the middle vertex, unpacked in
   * turn.
   */
  private unpack(lo: number, hi: number, upward: boolean, out: number[]): void {
    const arcs = upward ? this.metric.up : this.metric.down;
    const { upFirst, upHead } = this.metric.topo;
    const m = midOf(arcs, keptIndex(arcs, upFirst, upHead, lo, hi));
    if (m === LINK) {
      out.push(this.metric.topo.stateOf[upward ? hi : lo]!);
      return;
    }
    if (upward) {
      this.unpack(m, lo, false, out);
      this.unpack(m, hi, true, out);
    } else {
      this.unpack(m, hi, false, out);
      this.unpack(m, lo, true, out);
    }
  }
}

/**
 * The labels of CchQuery's two sides over one topology's vertices (24 bytes per vertex, and the ancestor walk's 4
 * and its list): what a query works in, kept between queries and shared by the queries of every metric of a router.
 * A query labels only its walks' vertices, each before it reads it, so nothing marks which labels are its own.
 */
export class QueryLabels {
  readonly df: Float64Array;
  readonly db: Float64Array;
  /** Per vertex: the vertex its forward / backward label came from, or -1 - arc of the graph at a seed. */
  readonly pf: Int32Array;
  readonly pb: Int32Array;
  /** The ancestor walks of both sides. */
  readonly walk: Ancestors;

  /** @param parent the topology's elimination tree (CchTopology.parent) */
  constructor(parent: Int32Array) {
    const n = parent.length;
    this.df = new Float64Array(n);
    this.db = new Float64Array(n);
    this.pf = new Int32Array(n);
    this.pb = new Int32Array(n);
    this.walk = new Ancestors(parent);
  }
}
