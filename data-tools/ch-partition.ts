import { CORE_RULE } from './ch-core.js';
import { GrowableFloat64, GrowableInt32, GrowableUint32 } from './growable.js';
import {
  type BaseGraph,
  type Contraction,
  type LiveLists,
  type StopRule,
  type Tuning,
  TUNING,
  type CellCoreRule,
} from './ch-graph.js';

/**
 * When a hierarchy is contracted cell-wise (see `Partitioned`) rather than in one WebAssembly instance, and how
 * finely. An instance holds at most 4 GB (wasm32) and needs about 0.9 KB per state (NY: 0.61 GB), with its pools
 * growing by doubling; 2 M states (about 1.8 GB) keeps a margin: `minStates`. Below it packs keep their bytes. On NY
 * as OSM (666 k edge-based states per vehicle, three vehicles; side by side, shared machine), cells of 131 k states
 * (1.3 % of the states on a boundary, bench/ch-cells.ts) stopping at `cellCore` took 285 s of contraction CPU where
 * one instance per hierarchy took 291 s, with 2 % more records and a contraction peak RSS of 1.6 GB against 2.5;
 * cells contracted to their last interior state took 375 s and made 22–26 % more records. `cellStates`: the most
 * states of one cell (about 0.12 GB per instance in flight); `topStates`: an overlay bigger than this is cut again;
 * `cellCore`: when a cell stops (CellCoreRule), the whole graph's core rule applied to the cell's interior.
 * `tuning`: the instances' witness searches are shorter than one whole hierarchy's (ch-build.ts TUNING): cells and
 * the top are contracted into their dense last few percent, where most of their time goes, and a missed witness only
 * adds a shortcut. Measured (one thread each, CPU): on two cells of NY's car graph, the densest (Manhattan) and a
 * typical one, 400 real and 40 estimating settles took 38.3 and 12.1 s, 100 and 20 took 27.5 and 10.1 s with 5 %
 * more and 2.5 % fewer records; the 4 × 4's car top (315 k states to a core of 50 k) took 245 s, with them 176 s and
 * 6.5 % more records (0.5 % of the hierarchy's).
 */
export const PARTITION = {
  minStates: 2_000_000,
  cellStates: 131_072,
  topStates: 1_000_000,
  cellCore: { fraction: CORE_RULE.fraction, degree: CORE_RULE.degree },
  tuning: { ...TUNING, realSettles: 100, simMax: 20 },
} as const;

/** One instance's work in a partitioned contraction: a cell (boundary states kept) or the top overlay. */
export interface CellJob {
  graph: BaseGraph;
  stop: StopRule;
  tuning: Tuning;
}

/**
 * One level of a partitioned contraction: its states (global state of each, in key order, so ranges are compact
 * on the map) and its graph over them. Level 0 is the base graph (its edges become new records); an overlay's edges
 * stand for records already made (payload: the record, with its hops).
 */
interface Level {
  ids: Uint32Array;
  g: BaseGraph;
  base: boolean;
}

/** The cells of a level: ranges of its states, each state's cell, the states on a boundary and how many per cell. */
interface Cut {
  bounds: Uint32Array;
  cellOf: Uint32Array;
  boundary: Uint8Array;
  boundaryOf: Uint32Array;
}

/**
 * A hierarchy contracted cell-wise (nested-dissection style CH), for graphs too big for one instance and in
 * parallel: the states, in key order (BaseGraph `key`: spatially ordered), are cut into ranges of at most
 * `cellStates`; a state is a boundary state when an edge joins it to another cell. Each cell's interior is
 * contracted in its own instance with its boundary states kept (witness searches confined to the cell stay sound: a
 * missed witness only adds a shortcut), until the cell's core rule (CellCoreRule) stops it. The states each cell
 * leaves (its boundary and leftover interior), with the live edges among them (each standing for a record already
 * made) and the edges between cells, form the overlay, which keeps the level order
 * and is cut again while bigger than `topStates`, else contracted in one instance by the core rule (its fraction of
 * the whole graph's states) or to the forced core size. Records, ranks (cell interiors first in cell order, then
 * each overlay level, the core last in state order) and the core's live lists come out as one `Contraction`, the
 * same shape a single instance gives, so the layout and pack format do not change.
 *
 * Driven by rounds: `jobs()` gives the instances of the current level (independent: run them in any order or
 * thread), `take(i, result)` must then be called in job order, and `contraction()` gives the result once `jobs()`
 * returns null. Memory between rounds: the records made so far and the current level's graph.
 */
export class Partitioned {
  private readonly S: number;
  private readonly tail = new GrowableUint32();
  private readonly head = new GrowableUint32();
  private readonly a = new GrowableInt32();
  private readonly b = new GrowableInt32();
  private readonly hops = new GrowableInt32();
  private readonly rank: Uint32Array;
  private nextRank = 0;
  private level: Level;
  private cut: Cut | null = null;
  /**
   * The overlay being gathered from the current level's cells: its states (global ids, and level numbers, ascending)
   * and their edges, heads as level numbers until the last cell is taken (a later cell's leftover states are not
   * known before).
   */
  private ov: {
    ids: GrowableUint32;
    lv: GrowableUint32;
    first: GrowableUint32;
    head: GrowableUint32;
    w: GrowableFloat64;
    rec: GrowableInt32;
    hops: GrowableInt32;
  } | null = null;
  private taken = 0;
  /** The current level is contracted in one instance (the top). */
  private whole = false;
  private result: Contraction | null = null;

  /** `coreSize` ≥ 0 forces the core size (ContractOptions), else the core rule. */
  constructor(
    g: BaseGraph,
    private readonly coreSize: number,
    private readonly cellStates: number,
    private readonly topStates: number,
    private readonly cellCore: CellCoreRule,
  ) {
    this.S = g.states;
    this.rank = new Uint32Array(g.states);
    this.level = baseLevel(g);
  }

  /** The instances to run for the current level, or null when the contraction is finished. */
  jobs(): CellJob[] | null {
    if (this.result) return null;
    const L = this.level;
    this.taken = 0;
    if (this.whole) {
      this.cut = null;
      // The overlay's core follows the whole graph's rule (its share of all the states, not of the overlay's).
      return [{ graph: L.g, stop: CORE_RULE.stopRule(this.S, this.coreSize), tuning: PARTITION.tuning }];
    }
    const cut = cutLevel(L.g, this.cellStates);
    this.cut = cut;
    this.ov = {
      ids: new GrowableUint32(),
      lv: new GrowableUint32(),
      first: new GrowableUint32(),
      head: new GrowableUint32(),
      w: new GrowableFloat64(),
      rec: new GrowableInt32(),
      hops: new GrowableInt32(),
    };
    this.ov.first.push(0);
    const jobs: CellJob[] = [];
    for (let c = 0; c + 1 < cut.bounds.length; c++) jobs.push(cellJob(L, cut, c, this.cellCore));
    return jobs;
  }

  /** Merges the result of job `i` of the current round (called in job order). */
  take(i: number, r: Contraction): void {
    if (i !== this.taken++) throw new Error(`partitioned contraction: job ${i} taken out of order`);
    const L = this.level;
    const cut = this.cut;
    if (!cut) {
      this.finish(r);
      return;
    }
    const lo = cut.bounds[i]!,
      hi = cut.bounds[i + 1]!;
    const gid = this.records(r, L, lo);
    const contracted = hi - lo - r.core;
    for (let s = 0; s < hi - lo; s++)
      if (r.rank[s]! < contracted) this.rank[L.ids[lo + s]!] = this.nextRank + r.rank[s]!;
    this.nextRank += contracted;
    const ov = this.ov!;
    const g = L.g;
    // The overlay takes the cell's states left uncontracted: its boundary, and the interior it stopped at.
    for (let s = 0; s < hi - lo; s++) {
      const u = lo + s;
      if (r.rank[s]! < contracted) continue;
      ov.ids.push(L.ids[u]!);
      ov.lv.push(u);
      // The cell's live edges among its uncontracted states: each stands for a record of the cell.
      for (let k = 0, j = r.out.start[s]!; k < r.out.len[s]!; k++, j++) {
        const rec = r.out.rec[j]!;
        this.overlayEdge(lo + r.out.other[j]!, r.out.w[j]!, gid[rec]!, r.hops[rec]!);
      }
      // Edges to other cells: base edges become records now; an overlay's already are records.
      for (let e = g.first[u]!; e < g.first[u + 1]!; e++) {
        const x = g.head[e]!,
          w = g.weight[e]!;
        if (w === Infinity || cut.cellOf[x] === i) continue;
        const rec = L.base ? this.addRecord(L.ids[u]!, L.ids[x]!, -1, g.payload[e]!, 1) : g.payload[e]!;
        this.overlayEdge(x, w, rec, L.base ? 1 : g.hops![e]!);
      }
      ov.first.push(ov.head.length);
    }
    if (this.taken === cut.bounds.length - 1) this.nextLevel();
  }

  /** True once the top instance is taken: `contraction()` is ready and `jobs()` gives null. */
  get finished(): boolean {
    return this.result !== null;
  }

  /** The finished contraction (after `jobs()` returned null). */
  contraction(): Contraction {
    if (!this.result) throw new Error('partitioned contraction: not finished');
    return this.result;
  }

  private overlayEdge(head: number, w: number, rec: number, hops: number): void {
    const ov = this.ov!;
    ov.head.push(head);
    ov.w.push(w);
    ov.rec.push(rec);
    ov.hops.push(hops);
  }

  private addRecord(tail: number, head: number, a: number, b: number, hops: number): number {
    this.tail.push(tail);
    this.head.push(head);
    this.a.push(a);
    this.b.push(b);
    this.hops.push(hops);
    return this.tail.length - 1;
  }

  /**
   * Global numbers of an instance's records, the new ones appended: every record of a level-0 instance is new; in
   * an overlay, a base record (a < 0) is the record its input edge stands for (b), and only shortcuts are new. An
   * overlay edge the instance lowered in place to a shortcut (add_edge) is then a new shortcut, and the record it
   * stood for stays as a heavier parallel edge nothing refers to: kept, since dropping it would renumber every later
   * record, and a real path's weight never makes an answer wrong. Children can have higher numbers than their
   * parent (lowered in place), hence two passes. `lo`: the level number of the instance's state 0.
   */
  private records(r: Contraction, L: Level, lo: number): Int32Array {
    const R = r.records;
    const gid = new Int32Array(R.n);
    const first = this.tail.length;
    for (let k = 0; k < R.n; k++) {
      gid[k] = !L.base && R.a[k]! < 0 ? R.b[k]! : this.addRecord(0, 0, 0, 0, 0);
    }
    for (let k = 0; k < R.n; k++) {
      const id = gid[k]!;
      if (id < first) continue;
      this.tail.set(id, L.ids[lo + R.tail[k]!]!);
      this.head.set(id, L.ids[lo + R.head[k]!]!);
      const sc = R.a[k]! >= 0;
      this.a.set(id, sc ? gid[R.a[k]!]! : -1);
      this.b.set(id, sc ? gid[R.b[k]!]! : R.b[k]!);
      this.hops.set(id, r.hops[k]!);
    }
    return gid;
  }

  /** Makes the gathered overlay the next level; contracts it whole next when cutting no longer shrinks it. */
  private nextLevel(): void {
    const ov = this.ov!;
    const n = ov.ids.length;
    const before = this.level.g.states;
    const num = new Int32Array(before).fill(-1);
    const lv = ov.lv.view();
    for (let o = 0; o < n; o++) num[lv[o]!] = o;
    const head = ov.head.view();
    for (let e = 0; e < head.length; e++) head[e] = num[head[e]!]!;
    this.level = {
      ids: ov.ids.view(),
      g: {
        states: n,
        first: ov.first.view(),
        head,
        weight: ov.w.view(),
        payload: ov.rec.view(),
        hops: ov.hops.view(),
      },
      base: false,
    };
    this.ov = null;
    // A cut that leaves most states on a boundary is no progress: contract the overlay whole.
    this.whole = n <= this.topStates || n > 0.8 * before;
  }

  /**
   * Merges the top instance: its records and ranks, then the core (its uncontracted states) ranked last in state
   * order with its live lists over the global states, as a single instance leaves them.
   */
  private finish(r: Contraction): void {
    const L = this.level;
    const n = L.g.states;
    const gid = this.records(r, L, 0);
    const contracted = n - r.core;
    const core: number[] = [];
    for (let s = 0; s < n; s++) {
      if (r.rank[s]! < contracted) this.rank[L.ids[s]!] = this.nextRank + r.rank[s]!;
      else core.push(s);
    }
    this.nextRank += contracted;
    core.sort((x, y) => L.ids[x]! - L.ids[y]!);
    core.forEach((s, i) => (this.rank[L.ids[s]!] = this.nextRank + i));
    const lists = (l: LiveLists): LiveLists => {
      const start = new Int32Array(this.S),
        len = new Int32Array(this.S);
      let m = 0;
      for (const s of core) m += l.len[s]!;
      const other = new Int32Array(m),
        w = new Float64Array(m),
        rec = new Int32Array(m);
      let at = 0;
      for (const s of core) {
        const v = L.ids[s]!;
        start[v] = at;
        len[v] = l.len[s]!;
        for (let k = 0, j = l.start[s]!; k < l.len[s]!; k++, j++, at++) {
          other[at] = L.ids[l.other[j]!]!;
          w[at] = l.w[j]!;
          rec[at] = gid[l.rec[j]!]!;
        }
      }
      return { start, len, other, w, rec };
    };
    const N = this.tail.length;
    this.result = {
      records: { n: N, tail: this.tail.view(), head: this.head.view(), a: this.a.view(), b: this.b.view() },
      hops: this.hops.view(),
      rank: this.rank,
      core: core.length,
      out: lists(r.out),
      inn: lists(r.inn),
    };
  }
}

/** Level 0: the base graph in key order; its edges become new records. */
function baseLevel(g: BaseGraph): Level {
  return { ...inKeyOrder(g), base: true };
}

/**
 * A graph renumbered in key order (BaseGraph `key`; a stable counting sort: states of equal key keep their order):
 * `ids[i]` is the state numbered i, `g` the graph over the new numbers.
 */
export function inKeyOrder(g: BaseGraph): { ids: Uint32Array; g: BaseGraph } {
  const S = g.states;
  const ids = new Uint32Array(S);
  if (g.key) {
    let max = 0;
    for (let s = 0; s < S; s++) max = Math.max(max, g.key[s]!);
    const at = new Uint32Array(max + 2);
    for (let s = 0; s < S; s++) at[g.key[s]! + 1]!++;
    for (let k = 0; k <= max; k++) at[k + 1]! += at[k]!;
    for (let s = 0; s < S; s++) ids[at[g.key[s]!]!++] = s;
  } else for (let s = 0; s < S; s++) ids[s] = s;
  const pos = new Uint32Array(S);
  for (let i = 0; i < S; i++) pos[ids[i]!] = i;
  const first = new Uint32Array(S + 1);
  for (let i = 0; i < S; i++) first[i + 1] = first[i]! + g.first[ids[i]! + 1]! - g.first[ids[i]!]!;
  const E = first[S]!;
  const head = new Uint32Array(E),
    weight = new Float64Array(E),
    payload = new Int32Array(E);
  for (let i = 0; i < S; i++) {
    const s = ids[i]!;
    for (let e = g.first[s]!, k = first[i]!; e < g.first[s + 1]!; e++, k++) {
      head[k] = pos[g.head[e]!]!;
      weight[k] = g.weight[e]!;
      payload[k] = g.payload[e]!;
    }
  }
  return { ids, g: { states: S, first, head, weight, payload } };
}

/** Cuts a level's states into ranges of at most `cellStates` (equal sizes) and finds the boundary states. */
export function cutLevel(g: BaseGraph, cellStates: number): Cut {
  const n = g.states;
  const cells = Math.max(1, Math.ceil(n / cellStates));
  const bounds = new Uint32Array(cells + 1);
  for (let c = 0; c <= cells; c++) bounds[c] = Math.floor((c * n) / cells);
  const cellOf = new Uint32Array(n);
  for (let c = 0; c < cells; c++) cellOf.fill(c, bounds[c]!, bounds[c + 1]!);
  const boundary = new Uint8Array(n);
  for (let u = 0; u < n; u++)
    for (let e = g.first[u]!; e < g.first[u + 1]!; e++) {
      const x = g.head[e]!;
      if (g.weight[e] !== Infinity && cellOf[x] !== cellOf[u]) boundary[u] = boundary[x] = 1;
    }
  const boundaryOf = new Uint32Array(cells);
  for (let u = 0; u < n; u++) boundaryOf[cellOf[u]!]! += boundary[u]!;
  return { bounds, cellOf, boundary, boundaryOf };
}

/**
 * The instance of cell c: its states and the edges between them, its boundary states kept, contracted until what is
 * left of its interior is at most `rule.fraction` of it and has a mean live degree of `rule.degree` (CellCoreRule).
 */
function cellJob(L: Level, cut: Cut, c: number, rule: CellCoreRule): CellJob {
  const g = L.g;
  const lo = cut.bounds[c]!,
    hi = cut.bounds[c + 1]!;
  const first = new Uint32Array(hi - lo + 1);
  for (let u = lo; u < hi; u++) {
    let k = 0;
    for (let e = g.first[u]!; e < g.first[u + 1]!; e++) if (cut.cellOf[g.head[e]!] === c) k++;
    first[u - lo + 1] = first[u - lo]! + k;
  }
  const E = first[hi - lo]!;
  const head = new Uint32Array(E),
    weight = new Float64Array(E),
    payload = new Int32Array(E),
    hops = g.hops && new Int32Array(E);
  let k = 0;
  for (let u = lo; u < hi; u++)
    for (let e = g.first[u]!; e < g.first[u + 1]!; e++) {
      if (cut.cellOf[g.head[e]!] !== c) continue;
      head[k] = g.head[e]! - lo;
      weight[k] = g.weight[e]!;
      payload[k] = g.payload[e]!;
      if (hops) hops[k] = g.hops![e]!;
      k++;
    }
  const graph: BaseGraph = { states: hi - lo, first, head, weight, payload, keep: cut.boundary.slice(lo, hi) };
  if (hops) graph.hops = hops;
  // The instance's rule counts its kept states as left: allow them on top of the interior's share.
  const kept = cut.boundaryOf[c]!;
  const left = kept + Math.floor(rule.fraction * (hi - lo - kept));
  return { graph, stop: { coreSize: -1, maxLeft: left, minStates: 0, degree: rule.degree }, tuning: PARTITION.tuning };
}
