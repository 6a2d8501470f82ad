import { directOnEdge, posOnArc, type ArcPath, type Endpoint } from '../search.js';
import { Ancestors } from './ancestors.js';
import { Carver, EMPTY_F64, EMPTY_I32, EMPTY_U32, LabelMemory, type LabelHolder } from '../label-memory.js';
import { LINK } from './arcs.js';
import { grown } from '../../grown.js';
import type { CchMetric } from './customize.js';
import { sourceSeeds, targetSeeds } from './seeds.js';
import type { TableTrees } from './trees.js';
import type { CchCoreSearch } from '../wasm/cch-search.js';

/** The fewest states an unpacked arc has for CchQuery to keep it (shorter ones cost about as much to look up). */
const UNPACKED_MIN = 8;

/**
 * The states of unpacked arcs the queries of one router keep at most, whatever the metric (4 bytes each: 512 KB, and
 * the maps' entries, about as much again).
 */
const UNPACKED_STATES = 1 << 17;

/**
 * Exact point-to-point routes on a customized CCH by elimination-tree search: every arc of a vertex leads to one of
 * its ancestors in the elimination tree, so the forward side relaxes the up arcs of the seeds' ancestors in rank
 * order (no priority queue), the backward side the same with the arcs' down weights, and the best route meets at a
 * common ancestor. Only the arcs the metric keeps are relaxed (those on some shortest path: perfect customization).
 * Labels follow ArcSearch's: forward, the weight from the source to the head of a state's arc; backward, from there
 * to the target. Shortcuts are unpacked through their middle vertices. Labels (QueryLabels) are reused across
 * queries; a query allocates only its result and its seeds (and the arcs it adds to the labels' cache of unpacked
 * arcs).
 */
export class CchQuery {
  /** Vertices on the last query's two ancestor lists. */
  visited = 0;

  /** The WebAssembly search when it reads this query's metric (CchCoreSearch.reads), else null. */
  private readonly core: CchCoreSearch | null;
  /** The last search's meeting vertex (-1: the direct route), in WebAssembly or here. */
  private meet = -1;

  /**
   * @param labels the label arrays the query works in (default: its own); queries of one topology that never run at
   *   once (one router's) share one, so each metric adds only its arcs
   * @param core the router's WebAssembly search (cch-search.ts), used when it reads this metric and the labels lie in
   *   its arena; else, or without it, the search runs here
   */
  constructor(
    readonly metric: CchMetric,
    private readonly labels = new QueryLabels(metric.topo.parent),
    core: CchCoreSearch | null = null,
  ) {
    this.core = core?.reads(metric) ? core : null;
  }

  /** True when this query's searches run in WebAssembly (while its labels lie in the core's arena). */
  get inWasm(): boolean {
    return this.core !== null && this.labels.inArena;
  }

  /** Best route between two endpoints, or null when none exists. */
  route(src: Endpoint, dst: Endpoint): ArcPath | null {
    const L = this.labels;
    L.claim();
    const { arc: direct, weight: directWeight } = directOnEdge(src, dst, this.metric.costs.weight);
    const best =
      (this.inWasm ? this.searchInWasm(src, dst, directWeight) : null) ?? this.search(src, dst, directWeight);
    const meet = this.meet;
    if (best === Infinity) return null;
    if (meet < 0) return { arcs: [direct], from: posOnArc(src, direct), to: posOnArc(dst, direct), weight: best };
    const arcs = this.path(meet);
    return { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, arcs[arcs.length - 1]!), weight: best };
  }

  /**
   * The search of `route` in WebAssembly (CchCoreSearch): the best weight, its meeting vertex in `meet`; null when
   * the core had no room for it (then `search` runs).
   */
  private searchInWasm(src: Endpoint, dst: Endpoint, directWeight: number): number | null {
    const core = this.core!;
    core.clear();
    sourceSeeds(this.metric, src, (r, weight, _, a) => core.seed(true, r, weight, -1 - a));
    targetSeeds(this.metric, dst, (r, weight, _, b) => core.seed(false, r, weight, -1 - b));
    const best = core.run(this.metric, this.labels, directWeight);
    this.meet = core.meet;
    this.visited = core.visited;
    return best;
  }

  /**
   * The search of `route` here in TypeScript: both sides up the elimination tree from the seeds; returns the best
   * weight, no heavier than the direct route's `best`, and its meeting vertex in `meet`.
   */
  private search(src: Endpoint, dst: Endpoint, best: number): number {
    const L = this.labels;
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
    const nf = this.side(fSeeds, fLabels, L.df, L.pf, true);
    const nb = this.side(bSeeds, bLabels, L.db, L.pb, false);
    this.visited = nf + nb;
    // Both sides up in one pass, rank by rank (the two ascending lists merged): a vertex's labels are final when it
    // is reached, so the best meeting so far prunes the arcs of a vertex whose label alone is no better.
    const { fList, bList, df, db, pf, pb } = L;
    let meet = -1;
    let i = 0,
      j = 0;
    while (i < nf && j < nb) {
      const f = fList[i]!,
        b = bList[j]!;
      if (f < b) {
        const dv = df[f]!;
        if (dv < best) this.relax(true, f, dv, df, pf);
        i++;
      } else if (b < f) {
        const bv = db[b]!;
        if (bv < best) this.relax(false, b, bv, db, pb);
        j++;
      } else {
        const dv = df[f]!,
          bv = db[f]!;
        if (dv + bv < best) {
          best = dv + bv;
          meet = f;
        }
        if (dv < best) this.relax(true, f, dv, df, pf);
        if (bv < best) this.relax(false, f, bv, db, pb);
        i++;
        j++;
      }
    }
    // One side's list is done: the other's remaining vertices lie on no list of the first, so they meet nothing.
    for (; i < nf; i++) {
      const v = fList[i]!,
        dv = df[v]!;
      if (dv < best) this.relax(true, v, dv, df, pf);
    }
    for (; j < nb; j++) {
      const v = bList[j]!,
        bv = db[v]!;
      if (bv < best) this.relax(false, v, bv, db, pb);
    }
    this.meet = meet;
    return best;
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
    this.labels.claim();
    const { pf, pb } = this.labels;
    const { fList, fPar, fStart, bList, bPar, bStart } = trees;
    for (let q = fStart[i]!, end = fStart[i + 1]!; q < end; q++) pf[fList[q]!] = fPar[q]!;
    for (let q = bStart[j]!, end = bStart[j + 1]!; q < end; q++) pb[bList[q]!] = bPar[q]!;
    const arcs = this.path(meet);
    return { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, arcs[arcs.length - 1]!), weight };
  }

  /**
   * One side's vertices: the seeds' ancestors in the elimination tree, ascending, into the labels' list of that side
   * (`forward`: fList, else bList), each labelled Infinity, then each seed labelled (`labels`: per seed its weight
   * and where it came from) unless an earlier seed of the same vertex is as light. Returns their count.
   */
  private side(seeds: number[], labels: number[], d: Float64Array, p: Int32Array, forward: boolean): number {
    const L = this.labels,
      walk = L.walk;
    const count = walk.walk(seeds, seeds.length);
    let list = forward ? L.fList : L.bList;
    if (list.length < count) {
      list = grown(list, count);
      if (forward) L.fList = list;
      else L.bList = list;
    }
    const from = walk.list;
    for (let k = 0; k < count; k++) {
      const v = from[k]!;
      list[k] = v;
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
    return count;
  }

  /**
   * Relaxes the kept arcs of vertex v driven up (`upward`: the forward side) or down (the backward side), whose label
   * is dv, into the labels d and parents p of that side.
   */
  private relax(upward: boolean, v: number, dv: number, d: Float64Array, p: Int32Array): void {
    const { rowBase, rowOff, slot, weight } = this.metric.arcsAt(upward, v);
    const upHead = this.metric.topo.upHead;
    const row = this.metric.topo.upFirst[v]!;
    for (let k = rowBase[v >> 8]! + rowOff[v]!, end = rowBase[(v + 1) >> 8]! + rowOff[v + 1]!; k < end; k++) {
      const y = upHead[row + slot[k]!]!,
        nd = dv + weight[k]!;
      if (nd < d[y]!) {
        d[y] = nd;
        p[y] = v;
      }
    }
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
   * or down (unpackArc), from the cache of arcs unpacked before when it has them: the arcs between the vertices high
   * in the elimination tree (its top separators) lie on the routes of many queries, and unpack to many states.
   */
  private unpack(lo: number, hi: number, upward: boolean, out: number[]): void {
    const key = 2 * this.metric.keptAt(upward, lo, hi) + (upward ? 1 : 0);
    const known = this.labels.unpacked(this.metric).get(key);
    if (known) {
      for (let k = 0; k < known.length; k++) out.push(known[k]!);
      return;
    }
    const from = out.length;
    this.unpackArc(lo, hi, upward, out);
    if (out.length - from >= UNPACKED_MIN) this.labels.remember(this.metric, key, out, from);
  }

  /**
   * unpack without the cache: the arc's own transition when it is a link, else its two arcs through the middle
   * vertex, unpacked in turn (up: the arc m–lo down, then m–hi up; down: m–hi down, then m–lo up). Iterative, over a
   * stack of (lo, hi, up) triples kept in the labels, the next arc to unpack on top.
   */
  private unpackArc(lo: number, hi: number, upward: boolean, out: number[]): void {
    const metric = this.metric;
    const stateOf = metric.topo.stateOf;
    const stack = this.labels.stack;
    let top = 0;
    stack[top++] = lo;
    stack[top++] = hi;
    stack[top++] = upward ? 1 : 0;
    while (top > 0) {
      const isUp = stack[--top] === 1,
        h = stack[--top]!,
        l = stack[--top]!;
      const m = metric.midAt(isUp, metric.keptAt(isUp, l, h), l);
      if (m === LINK) {
        out.push(stateOf[isUp ? h : l]!);
        continue;
      }
      // Pushed second, popped first.
      stack[top++] = m;
      stack[top++] = isUp ? h : l;
      stack[top++] = 1;
      stack[top++] = m;
      stack[top++] = isUp ? l : h;
      stack[top++] = 0;
    }
  }
}

/**
 * The labels of CchQuery's two sides over one topology's vertices (24 bytes per vertex, the ancestor walk's 4 and
 * the lists, and at most UNPACKED_STATES states of unpacked arcs): what a query works in, kept between queries and
 * shared by the queries of every metric of a router, its per-vertex arrays in a LabelMemory (a router's is shared
 * with its tables and TypeScript searches). A query labels only its walks' vertices, each before it reads
 * it, so nothing marks which labels are its own.
 */
export class QueryLabels implements LabelHolder {
  /** Laid in the memory by `claim` (empty while another holder has it). */
  df = EMPTY_F64;
  db = EMPTY_F64;
  /** Per vertex: the vertex its forward / backward label came from, or -1 - arc of the graph at a seed. */
  pf = EMPTY_I32;
  pb = EMPTY_I32;
  /** The ancestor walks of both sides (their marks laid in the memory). */
  readonly walk: Ancestors;
  private readonly vertices: number;
  /** The last query's forward and backward vertices, ascending (grown to the longest walk). */
  fList = new Uint32Array(1024);
  bList = new Uint32Array(1024);
  /** CchQuery.unpack's stack of arcs to unpack (grows as deep as the longest unpacking needs). */
  readonly stack: number[] = [];
  /**
   * Per metric, the arcs its queries unpacked before (those of at least UNPACKED_MIN states): per kept arc k
   * (CchMetric.keptAt), key 2k + 1 driven up, 2k driven down, the shared states CchQuery.unpack appends for it. A
   * dropped metric's go with it; all are dropped once UNPACKED_STATES states were kept since they were last (so a
   * dropped metric's count until then).
   */
  private cache = new WeakMap<CchMetric, Map<number, Uint32Array>>();
  private cached = 0;

  /**
   * @param parent the topology's elimination tree (CchTopology.parent)
   * @param memory where the per-vertex arrays lie (default: a block of their own); a router's queries share one with
   *   its tables and TypeScript searches (LabelMemory)
   */
  constructor(
    parent: Int32Array,
    private readonly memory = new LabelMemory(),
  ) {
    this.vertices = parent.length;
    this.walk = new Ancestors(parent);
  }

  /** True when the labels lie in a router's arena (LabelMemory.place), where its WebAssembly search reads them. */
  get inArena(): boolean {
    return this.memory.inArena;
  }

  /**
   * Makes the labels the caller's for one query: lays them anew in the memory when another holder wrote there since
   * (the walks' marks zeroed: the rest is written before it is read).
   */
  claim(): void {
    if (this.memory.heldBy(this)) return;
    const n = this.vertices;
    const carve = this.memory.take(this, Carver.bytes(n, 2, 3));
    this.df = carve.f64(n);
    this.db = carve.f64(n);
    this.pf = carve.i32(n);
    this.pb = carve.i32(n);
    this.walk.relay(carve.u32(n).fill(0));
  }

  drop(): void {
    this.df = this.db = EMPTY_F64;
    this.pf = this.pb = EMPTY_I32;
    this.walk.relay(EMPTY_U32);
  }

  /** The arcs the queries of `metric` unpacked before, by key (see `cache`). */
  unpacked(metric: CchMetric): Map<number, Uint32Array> {
    let m = this.cache.get(metric);
    if (!m) this.cache.set(metric, (m = new Map()));
    return m;
  }

  /**
   * Keeps out[from ..], what arc `key` of `metric` unpacks to, dropping every metric's first when the budget is
   * spent.
   */
  remember(metric: CchMetric, key: number, out: number[], from: number): void {
    const count = out.length - from;
    if (count > UNPACKED_STATES) return;
    if (this.cached + count > UNPACKED_STATES) {
      this.cache = new WeakMap();
      this.cached = 0;
    }
    const states = new Uint32Array(count);
    for (let k = 0; k < count; k++) states[k] = out[from + k]!;
    this.unpacked(metric).set(key, states);
    this.cached += count;
  }
}
