import { arcTail } from '../costs.js';
import type { WeightTable } from '../router.js';
import { directOnEdge, posOnArc, type Endpoint } from '../search.js';
import { Ancestors } from './ancestors.js';
import { Carver, EMPTY_F64, EMPTY_I32, EMPTY_U32, LabelMemory, type LabelHolder } from '../label-memory.js';
import type { CchMetric } from './customize.js';
import { CchMeasures } from './measures.js';
import { sourceSeeds, targetSeeds, type SeedVisit } from './seeds.js';
import { grown } from '../../grown.js';
import { TableTrees } from './trees.js';

/**
 * Many-to-many costs on a customized CCH by elimination-tree buckets: one backward walk per destination up the
 * elimination tree from its seeds (no priority queue: every arc leads to an ancestor, so relaxing the ancestors'
 * arcs in rank order leaves each label final when its vertex is reached) leaves (destination, weight, seconds,
 * metres) at every ancestor it labels; one forward walk per origin scans the buckets at its own ancestors. A best
 * route meets at a common ancestor of its two ends, so every pair is offered its best weight. Walks relax the arcs
 * the metric keeps (some shortest path uses them: perfect customization), as CchQuery.route does.
 *
 * The values are CchQuery.route's for the same pair: the same seeds (seeds.ts), the same direct route on a shared
 * edge, the same arcs, the lowest meeting vertex on ties. Seconds and metres (a measured table) are added once the walks are
 * done, along each pair's two chains of parents from its meeting vertex down to the seeds (the walks kept in
 * TableTrees), each arc's those of the path it unpacks to (CchMeasures), so they are the route's measure up to float
 * rounding: a label's are its parent's plus its arc's, the sum a walk carrying them along with the weights would
 * have left (every label is final when its vertex's arcs are relaxed), but read for the few arcs on those chains
 * rather than for every label a walk improves (a 10 × 10 table on whole HCMC: ≈ 130 arcs, not ≈ 5,600). Buffers are reused across calls: a
 * call allocates only when its buckets or kept walks outgrow them (and a small object per pair on a shared edge).
 */
export class CchTable {
  /** The kept arcs' seconds and metres once a measured table needed them (see `measures`). */
  private measured: CchMeasures | null = null;
  /** Seeds a walk: the first seed of a vertex wins a tie, as in CchQuery. */
  private readonly seedVisit: SeedVisit;
  /** Whether the walk being seeded belongs to a measured table (its seeds' seconds and metres are then computed). */
  private measuredWalk = false;
  /** The walks of a measured table whose caller keeps none. */
  private trees: TableTrees | null = null;
  /**
   * Per walk of a measured table (destinations' then origins'), its seeds whose labels no relaxation beat: walk k's
   * are seedV/seedDur/seedLen[seedStart[k] .. seedStart[k + 1] - 1] (vertex, seconds, metres).
   */
  private seedStart = new Uint32Array(1);
  private seedV = new Uint32Array(64);
  private seedDur = new Float64Array(64);
  private seedLen = new Float64Array(64);
  /** The vertices of a chain of parents being measured, top first. */
  private chain = new Uint32Array(64);
  /** The metres of the chain `chainAt` last measured (its seconds are what it returns). */
  private chainLen = 0;

  /**
   * @param s the labels and buckets the table works in (default: its own); tables of one topology that never run at
   *   once (one router's) share one, so each metric adds only its arcs and their measures
   * @param measure gives the metric's measures when a table first carries seconds and metres (default: made here;
   *   a router adopts another thread's or makes and offers them, see CchMeasures)
   */
  constructor(
    readonly metric: CchMetric,
    private readonly s = new TableLabels(metric.topo.parent),
    private readonly measure: () => CchMeasures = () => new CchMeasures(metric),
  ) {
    const c = metric.costs,
      g = c.graph;
    this.seedVisit = (r, weight, from, arc, f) => {
      if (s.nSeeds === s.seeds.length) s.seeds = grown(s.seeds, s.nSeeds);
      s.seeds[s.nSeeds++] = r;
      if (s.on[r] === s.gen && s.d[r]! <= weight) return;
      s.on[r] = s.gen;
      s.d[r] = weight;
      s.par[r] = -1 - arc;
      if (!this.measuredWalk) return;
      s.dur[r] = (from >= 0 ? c.turnDur(from, arc, arcTail(g, arc)) : 0) + f * c.dur[arc]!;
      s.len[r] = f * g.edgeLen[arc >> 1]!;
    };
  }

  /**
   * The kept arcs' seconds and metres (≈ 2.6 MB a metric on whole HCMC), made (or adopted) when a table first carries
   * seconds and metres: a trip's tables of weights alone never need them.
   */
  get measures(): CchMeasures {
    return (this.measured ??= this.measure());
  }

  /**
   * Weight, seconds and metres from every origin to every destination into `out`, row-major (origin i, destination
   * j at i * destinations.length + j; each array at least that long); Infinity where there is no route. An `out`
   * without `dur` gets the weights alone, and no seconds or metres are added (the weights are the same). `kept`,
   * when given (sized for these origins and destinations), keeps the walks and each pair's meeting vertex, so that
   * CchQuery.routeIn unpacks any pair's route.
   */
  table(origins: readonly Endpoint[], destinations: readonly Endpoint[], out: WeightTable, kept?: TableTrees): void {
    const nd = destinations.length,
      cells = origins.length * nd;
    const measured = out.dur !== undefined;
    out.weight.fill(Infinity, 0, cells);
    out.dur?.fill(Infinity, 0, cells);
    out.dist?.fill(Infinity, 0, cells);
    if (cells === 0) return;
    // A measured table's pairs are measured along its walks, kept for that when the caller keeps none.
    let trees = kept;
    if (measured && !trees) (trees = this.trees ??= new TableTrees(origins.length, nd)).reset(origins.length, nd);
    if (measured && this.seedStart.length < origins.length + nd + 1)
      this.seedStart = new Uint32Array(origins.length + nd + 1);
    const s = this.s;
    s.claim();
    const cnt = s.count,
      touched = s.touched;
    for (let k = 0; k < s.nTouched; k++) cnt[touched[k]!] = 0;
    s.nTouched = 0;
    let nb = 0;
    for (let j = 0; j < nd; j++) {
      const count = this.walk(destinations[j]!, false, measured);
      const list = s.anc.list,
        d = s.d;
      trees?.keep(false, j, list, count, s.par);
      if (measured) this.keepSeeds(j);
      if (nb + count > s.bv.length) s.growBuckets(nb + count);
      for (let k = 0; k < count; k++) {
        const v = list[k]!;
        if (d[v] === Infinity) continue;
        if (cnt[v]!++ === 0) touched[s.nTouched++] = v;
        s.bv[nb] = v;
        s.bj[nb] = j;
        s.bw[nb] = d[v]!;
        nb++;
      }
    }
    s.group(nb);
    const w = this.metric.costs.weight,
      g = this.metric.costs.graph,
      D = this.metric.costs.dur;
    for (let i = 0; i < origins.length; i++) {
      const src = origins[i]!,
        row = i * nd;
      // Routes that stay on the shared edge, then those through a meeting vertex when lighter (as CchQuery.route).
      for (let j = 0; j < nd; j++) {
        const dst = destinations[j]!;
        if (dst.edge !== src.edge) continue;
        const { arc, weight } = directOnEdge(src, dst, w);
        if (arc < 0) continue;
        const f = posOnArc(dst, arc) - posOnArc(src, arc);
        out.weight[row + j] = weight;
        if (out.dur) out.dur[row + j] = f * D[arc]!;
        if (out.dist) out.dist[row + j] = f * g.edgeLen[arc >> 1]!;
      }
      const count = this.walk(src, true, measured);
      const list = s.anc.list,
        d = s.d;
      trees?.keep(true, i, list, count, s.par);
      if (measured) this.keepSeeds(nd + i);
      for (let k = 0; k < count; k++) {
        const v = list[k]!;
        if (cnt[v] === 0 || d[v] === Infinity) continue;
        this.scan(v, row, out.weight, trees?.meet);
      }
    }
    if (measured) this.measurePairs(origins.length, nd, out, trees!);
  }

  /** Keeps walk k's seeds whose labels no relaxation beat (a parent below 0), with their seconds and metres. */
  private keepSeeds(k: number): void {
    const s = this.s;
    let at = this.seedStart[k]!;
    if (at + s.nSeeds > this.seedV.length) {
      const size = 2 * (at + s.nSeeds);
      [this.seedV, this.seedDur, this.seedLen] = [
        grown(this.seedV, size),
        grown(this.seedDur, size),
        grown(this.seedLen, size),
      ];
    }
    for (let q = 0; q < s.nSeeds; q++) {
      const r = s.seeds[q]!;
      if (s.par[r]! >= 0) continue;
      this.seedV[at] = r;
      this.seedDur[at] = s.dur[r]!;
      this.seedLen[at++] = s.len[r]!;
    }
    this.seedStart[k + 1] = at;
  }

  /**
   * Seconds and metres of every pair that meets at a vertex (the others are unreachable or on a shared edge, set
   * already): its origin's walk's at the meeting vertex plus its destination's there, each the sum along the walk's
   * chain of parents from the seed up. The walks' labels are free by now: `par` holds the walk being measured, `dur`
   * and `len` its chains' sums (NaN where not measured yet).
   */
  private measurePairs(no: number, nd: number, out: WeightTable, trees: TableTrees): void {
    const { meet, fList, fPar, fStart, bList, bPar, bStart } = trees;
    const D = out.dur!,
      L = out.dist;
    for (let j = 0; j < nd; j++) {
      this.lay(bList, bPar, bStart[j]!, bStart[j + 1]!, j);
      for (let i = 0, t = j; i < no; i++, t += nd) {
        if (meet[t]! < 0) continue;
        D[t] = this.chainAt(meet[t]!, false);
        if (L) L[t] = this.chainLen;
      }
    }
    for (let i = 0; i < no; i++) {
      this.lay(fList, fPar, fStart[i]!, fStart[i + 1]!, nd + i);
      for (let j = 0, t = i * nd; j < nd; j++, t++) {
        if (meet[t]! < 0) continue;
        // As a walk carrying them would: the origin's label plus the destination's bucket.
        D[t] = this.chainAt(meet[t]!, true) + D[t]!;
        if (L) L[t] = this.chainLen + L[t]!;
      }
    }
  }

  /** Lays walk k (list[from .. to - 1] and their parents) in the labels: unmeasured but at its seeds. */
  private lay(list: Uint32Array, parents: Int32Array, from: number, to: number, k: number): void {
    const { par, dur, len } = this.s;
    for (let q = from; q < to; q++) {
      const v = list[q]!;
      par[v] = parents[q]!;
      dur[v] = NaN;
    }
    for (let q = this.seedStart[k]!, end = this.seedStart[k + 1]!; q < end; q++) {
      const r = this.seedV[q]!;
      dur[r] = this.seedDur[q]!;
      len[r] = this.seedLen[q]!;
    }
  }

  /**
   * Seconds of the laid walk's label at vertex v (forward: an origin's, along up arcs; else a destination's, along
   * down arcs), its metres in `chainLen`: each vertex's on the chain below v not measured yet, from the lowest, is its
   * parent's plus the arc's from the parent (a walk's arcs run from a vertex up to a higher one, its parent lower).
   */
  private chainAt(v: number, forward: boolean): number {
    const { par, dur, len } = this.s;
    const m = this.metric,
      measures = this.measures;
    let top = 0;
    for (let x = v; Number.isNaN(dur[x]!); x = par[x]!) {
      if (top === this.chain.length) this.chain = grown(this.chain, 2 * top);
      this.chain[top++] = x;
    }
    while (top > 0) {
      const y = this.chain[--top]!,
        p = par[y]!;
      dur[y] = dur[p]! + measures.read(forward, m.keptAt(forward, p, y), p, y);
      len[y] = len[p]! + measures.len;
    }
    this.chainLen = len[v]!;
    return dur[v]!;
  }

  /**
   * Offers the destinations whose buckets lie at v to row `row` through the last walk's labels at v; `meet` records
   * v for each pair it improves (the last is the lowest vertex of the best weight, as CchQuery.route's meeting).
   */
  private scan(v: number, row: number, W: Float64Array, meet: Int32Array | undefined): void {
    const { gj, gw, start, count } = this.s;
    const dv = this.s.d[v]!;
    for (let q = start[v]!, end = q + count[v]!; q < end; q++) {
      const t = row + gj[q]!,
        x = dv + gw[q]!;
      if (x < W[t]!) {
        W[t] = x;
        if (meet) meet[t] = v;
      }
    }
  }

  /**
   * One elimination-tree walk from an endpoint's seeds, forward (a source: up weights) or backward (a target: down
   * weights), labels in d and parents in par (seconds and metres in dur/len only at the seeds, and only when
   * `measured`); returns the number of vertices walked (in anc.list).
   */
  private walk(p: Endpoint, forward: boolean, measured: boolean): number {
    const m = this.metric,
      s = this.s;
    const gen = ++s.gen;
    s.nSeeds = 0;
    this.measuredWalk = measured;
    (forward ? sourceSeeds : targetSeeds)(m, p, this.seedVisit);
    const count = s.anc.walk(s.seeds, s.nSeeds);
    const list = s.anc.list,
      d = s.d,
      par = s.par,
      on = s.on;
    for (let k = 0; k < count; k++) {
      const v = list[k]!;
      if (on[v] !== gen) {
        on[v] = gen;
        d[v] = Infinity;
      }
    }
    const { upFirst, upHead } = m.topo;
    for (let k = 0; k < count; k++) {
      const v = list[k]!;
      const dv = d[v]!;
      if (dv === Infinity) continue;
      const { rowBase, rowOff, slot, weight } = m.arcsAt(forward, v);
      const end = rowBase[(v + 1) >> 8]! + rowOff[v + 1]!;
      for (let i = rowBase[v >> 8]! + rowOff[v]!, row = upFirst[v]!; i < end; i++) {
        const y = upHead[row + slot[i]!]!,
          x = dv + weight[i]!;
        if (x < d[y]!) {
          d[y] = x;
          par[y] = v;
        }
      }
    }
    return count;
  }
}

/**
 * The labels, ancestor walks and buckets of CchTable's walks over one topology's vertices (48 bytes per vertex, and
 * the buckets), kept between calls and shared by the tables of every metric of a router, the per-vertex arrays in a
 * LabelMemory (a router's is shared with its queries and TypeScript searches).
 */
export class TableLabels implements LabelHolder {
  /**
   * Labels of the current walk: weight, seconds and metres (at its seeds; along the chains CchTable measures once the
   * walks are done); `on` the walk that set them. These and the other per-vertex arrays are laid in the memory by
   * `claim` (empty while another holder has it).
   */
  d = EMPTY_F64;
  dur = EMPTY_F64;
  len = EMPTY_F64;
  on = EMPTY_U32;
  /** The vertex each label came from, or -1 - arc of the graph at a seed (read only for TableTrees). */
  par = EMPTY_I32;
  gen = 0;
  readonly anc: Ancestors;
  private readonly vertices: number;
  seeds = new Uint32Array(16);
  nSeeds = 0;
  /** Bucket entries in walk order (vertex, destination, weight), then grouped by vertex. */
  bv = new Uint32Array(1024);
  bj = new Uint32Array(1024);
  bw = new Float64Array(1024);
  gj = new Uint32Array(1024);
  gw = new Float64Array(1024);
  /**
   * Per vertex v: its grouped entries are gj/gw/… [start[v] .. start[v] + count[v] - 1]; count is 0 but at the
   * vertices in touched[0 .. nTouched - 1] (reset at the next call).
   */
  start = EMPTY_U32;
  count = EMPTY_U32;
  touched = EMPTY_U32;
  nTouched = 0;

  /**
   * @param parent the topology's elimination tree (CchTopology.parent)
   * @param memory where the per-vertex arrays lie (default: a block of their own); a router's tables share one with
   *   its queries and TypeScript searches (LabelMemory)
   */
  constructor(
    parent: Int32Array,
    private readonly memory = new LabelMemory(),
  ) {
    this.vertices = parent.length;
    this.anc = new Ancestors(parent);
  }

  /**
   * Makes the labels the caller's for one table: lays them anew in the memory when another holder wrote there since
   * (the walks' generations and marks and the bucket counts zeroed: the rest is written before it is read).
   */
  claim(): void {
    if (this.memory.heldBy(this)) return;
    const n = this.vertices;
    const carve = this.memory.take(this, Carver.bytes(n, 3, 6));
    this.d = carve.f64(n);
    this.dur = carve.f64(n);
    this.len = carve.f64(n);
    this.on = carve.u32(n).fill(0);
    this.gen = 0;
    this.par = carve.i32(n);
    this.start = carve.u32(n);
    this.count = carve.u32(n).fill(0);
    this.touched = carve.u32(n);
    this.nTouched = 0;
    this.anc.relay(carve.u32(n).fill(0));
  }

  drop(): void {
    this.d = this.dur = this.len = EMPTY_F64;
    this.on = this.start = this.count = this.touched = EMPTY_U32;
    this.par = EMPTY_I32;
    this.anc.relay(EMPTY_U32);
  }

  /** Groups the first nb bucket entries by vertex (stable) into gj/gw, at `start` per touched vertex. */
  group(nb: number): void {
    const { start, count, touched } = this;
    let at = 0;
    for (let k = 0; k < this.nTouched; k++) {
      const v = touched[k]!;
      start[v] = at;
      at += count[v]!;
    }
    if (this.gj.length < nb) {
      this.gj = new Uint32Array(this.bv.length);
      this.gw = new Float64Array(this.bv.length);
    }
    for (let k = 0; k < nb; k++) {
      const q = start[this.bv[k]!]!++;
      this.gj[q] = this.bj[k]!;
      this.gw[q] = this.bw[k]!;
    }
    // The fill moved each start to its end: back by the count.
    for (let k = 0; k < this.nTouched; k++) start[touched[k]!]! -= count[touched[k]!]!;
  }

  /** Grows the walk-order bucket arrays to hold at least `need` entries, keeping their contents. */
  growBuckets(need: number): void {
    let size = this.bv.length;
    while (size < need) size *= 2;
    this.bv = grown(this.bv, size);
    this.bj = grown(this.bj, size);
    this.bw = grown(this.bw, size);
  }
}
