import type { CchArcs } from '../cch/arcs.js';
import type { CchMetric } from '../cch/customize.js';
import type { QueryLabels } from '../cch/query.js';
import type { CchTopology } from '../cch/topology.js';
import type { CchArena } from './cch-arena.js';

/**
 * The 4-byte words of the query the WebAssembly search reads (wasm/cch/lib.rs `Query`, whose layout this mirrors):
 * addresses of the topology's arrays and the vertex count, each direction's kept arcs (ARCS: row starts in two
 * levels and their width, slots and their width, weights), the labels and marks, the lists and their room, the seeds
 * each way, then the direct route's weight in (BEST, a float) and the best weight, meeting vertex and visited
 * vertices out; last, for a metric kept over a base, which rows are its own each way and the base's arcs.
 */
const Q = {
  parent: 0,
  upFirst: 1,
  upHead: 2,
  n: 3,
  up: 4,
  down: 10,
  df: 16,
  db: 17,
  pf: 18,
  pb: 19,
  mark: 20,
  stamp: 21,
  fList: 22,
  bList: 23,
  run: 24,
  cap: 25,
  fSeed: 26,
  bSeed: 30,
  best: 34,
  meet: 36,
  visited: 37,
  upOwn: 38,
  downOwn: 39,
  hasOwn: 40,
  baseUp: 41,
  baseDown: 47,
} as const;
/** Words of the query (216 bytes: lib.rs rounds it to 8). */
const QUERY_WORDS = 54;
/** Words of one direction's arcs (`Arcs` in lib.rs): rowBase, rowOff, its bytes, slot, its bytes, weight. */
const ARCS_WORDS = 6;
/** Each side's vertices the lists first have room for (grown when a search needs more: `run`). */
const FIRST_CAP = 4096;
/** The widths (row offsets' bytes, slots' bytes) the search reads. */
const WIDTHS = new Set(['2,1', '2,2', '4,1', '4,2', '4,4']);

/**
 * A router's customizable-hierarchy search in WebAssembly (bando-cch.wasm): the elimination-tree search of
 * CchQuery.route on the arrays its arena holds (cch-arena.ts), the same labels, order and ties, so the same routes.
 * The caller lays the seeds (`seed`), runs it (`run`) and unpacks the route from the labels' parents in TypeScript.
 * Its query, seeds and lists are blocks of the arena; a run allocates nothing.
 */
export class CchCoreSearch {
  /** The last run's meeting vertex (-1: the direct route) and vertices on both walks. */
  meet = -1;
  visited = 0;
  private readonly q: number;
  private readonly words: Int32Array;
  private readonly f64: Float64Array;
  /** Seeds each way (vertex, weight, where from) in the arena, and their count. */
  private readonly seeds: [Seeds, Seeds];
  /** The lists' block (three of `cap` words) and room. */
  private lists = 0;
  private cap = 0;
  /** The metric whose arcs the query points at. */
  private metric: CchMetric | null = null;

  private constructor(
    private readonly arena: CchArena,
    readonly topo: CchTopology,
    query: { buffer: SharedArrayBuffer; at: number },
    cap: number,
  ) {
    this.q = query.at;
    this.words = new Int32Array(query.buffer, query.at, QUERY_WORDS);
    this.f64 = new Float64Array(query.buffer, query.at, QUERY_WORDS / 2);
    this.words[Q.parent] = topo.parent.byteOffset;
    this.words[Q.upFirst] = topo.upFirst.byteOffset;
    this.words[Q.upHead] = topo.upHead.byteOffset;
    this.words[Q.n] = topo.size;
    this.seeds = [new Seeds(arena), new Seeds(arena)];
    this.room(cap);
  }

  /**
   * The search over `topo` in `arena`, or null when the topology's rows, heads or parents are not in the arena (it
   * had no room: the router's CCH searches stay in TypeScript).
   * @param cap each side's vertices the lists first have room for (tests set it small)
   */
  static over(arena: CchArena, topo: CchTopology, cap = FIRST_CAP): CchCoreSearch | null {
    if (![topo.parent, topo.upFirst, topo.upHead].every((a) => arena.holds(a))) return null;
    const query = arena.alloc(4 * QUERY_WORDS);
    const search = query && new CchCoreSearch(arena, topo, query, cap);
    return search && search.cap > 0 ? search : null;
  }

  /**
   * True when this search reads `metric`: of its topology, its arcs each way (and its base's, and which rows are its
   * own, when it is kept over one) in the arena, in widths the search reads. The router lays there the metrics of
   * every vehicle and weighting that avoid nothing (kept for as long as it lives), not those that avoid road kinds.
   */
  reads(metric: CchMetric): boolean {
    const all = [metric.up, metric.down, ...(metric.base ? [metric.base.up, metric.base.down] : [])];
    const width = (a: CchArcs) => `${a.rowOff.BYTES_PER_ELEMENT},${a.slot.BYTES_PER_ELEMENT}`;
    return (
      metric.topo === this.topo &&
      all.every(
        (a) =>
          [a.rowBase, a.rowOff, a.slot, a.weight, a.own].every((x) => this.arena.holds(x)) && width(a) === width(all[0]!),
      ) &&
      WIDTHS.has(width(all[0]!))
    );
  }

  /** Forgets the seeds of the last run. */
  clear(): void {
    for (const s of this.seeds) ((s.count = 0), (s.lost = false));
  }

  /**
   * Adds a seed of the forward (`forward`) or backward side: vertex r, its label `weight`, and where it came from
   * (-1 - arc of the graph).
   */
  seed(forward: boolean, r: number, weight: number, from: number): void {
    this.seeds[forward ? 0 : 1].add(r, weight, from);
  }

  /**
   * Runs the search of `metric` (one `reads` accepts) from the seeds given since `clear`, in `labels` (laid in the
   * arena: QueryLabels.inArena), the direct route weighing `direct` (Infinity for none). Returns the best weight
   * (`meet` says where; the labels' parents then hold both sides' trees), or null when the arena had no room for
   * the seeds or the lists (the caller searches in TypeScript).
   */
  run(metric: CchMetric, labels: QueryLabels, direct: number): number | null {
    if (this.seeds[0].lost || this.seeds[1].lost) return null;
    const w = this.words;
    if (this.metric !== metric) {
      const base = metric.base ?? metric;
      arcsInto(w, Q.up, metric.up);
      arcsInto(w, Q.down, metric.down);
      arcsInto(w, Q.baseUp, base.up);
      arcsInto(w, Q.baseDown, base.down);
      w[Q.upOwn] = metric.up.own.byteOffset;
      w[Q.downOwn] = metric.down.own.byteOffset;
      w[Q.hasOwn] = metric.base ? 1 : 0;
      this.metric = metric;
    }
    w[Q.df] = labels.df.byteOffset;
    w[Q.db] = labels.db.byteOffset;
    w[Q.pf] = labels.pf.byteOffset;
    w[Q.pb] = labels.pb.byteOffset;
    w[Q.mark] = labels.walk.marks.byteOffset;
    this.seeds[0].into(w, Q.fSeed);
    this.seeds[1].into(w, Q.bSeed);
    for (;;) {
      // Fresh stamps for each try: a try cut short has marked vertices with its own.
      w[Q.stamp] = labels.walk.stamps(2);
      this.f64[Q.best / 2] = direct;
      const status = this.arena.search(this.q);
      if (status === 0) break;
      if (status !== 1) throw new Error(`the WebAssembly search of the customizable hierarchy answered ${status}`);
      if (!this.room(2 * this.cap)) return null;
    }
    this.meet = w[Q.meet]!;
    this.visited = w[Q.visited]!;
    return this.f64[Q.best / 2]!;
  }

  /** Lays lists of room `cap` each (the old ones given back); false when the arena has no room for them. */
  private room(cap: number): boolean {
    const block = this.arena.alloc(12 * cap);
    if (!block) return false;
    if (this.cap > 0) this.arena.free(this.lists, 12 * this.cap);
    this.lists = block.at;
    this.cap = cap;
    const w = this.words;
    w[Q.fList] = block.at;
    w[Q.bList] = block.at + 4 * cap;
    w[Q.run] = block.at + 8 * cap;
    w[Q.cap] = cap;
    return true;
  }
}

/** Writes where one direction's kept arcs lie (lib.rs `Arcs`) into the query's words from word `at`. */
function arcsInto(w: Int32Array, at: number, a: CchArcs): void {
  const fields = [
    a.rowBase.byteOffset,
    a.rowOff.byteOffset,
    a.rowOff.BYTES_PER_ELEMENT,
    a.slot.byteOffset,
    a.slot.BYTES_PER_ELEMENT,
    a.weight.byteOffset,
  ];
  for (let k = 0; k < ARCS_WORDS; k++) w[at + k] = fields[k]!;
}

/** One side's seeds in an arena: vertex, label and where from, grown as needed. */
class Seeds {
  count = 0;
  /** True when a seed found no room in the arena (since `clear`). */
  lost = false;
  private vertex: Uint32Array = new Uint32Array(0);
  private weight: Float64Array = new Float64Array(0);
  private from: Int32Array = new Int32Array(0);
  /** The block holding the three (0: none yet). */
  private at = 0;

  constructor(private readonly arena: CchArena) {}

  add(r: number, weight: number, from: number): void {
    if (this.count === this.vertex.length && !this.grow(Math.max(16, 2 * this.count))) return void (this.lost = true);
    this.vertex[this.count] = r;
    this.weight[this.count] = weight;
    this.from[this.count++] = from;
  }

  /** Writes where the seeds lie and their count into the query's words from word `at` (lib.rs: seed, w, from, n). */
  into(w: Int32Array, at: number): void {
    w[at] = this.vertex.byteOffset;
    w[at + 1] = this.weight.byteOffset;
    w[at + 2] = this.from.byteOffset;
    w[at + 3] = this.count;
  }

  /** Gives the seeds room for `cap`; false when the arena has none. */
  private grow(cap: number): boolean {
    const block = this.arena.alloc(16 * cap);
    if (!block) return false;
    const vertex = new Uint32Array(block.buffer, block.at + 8 * cap, cap),
      weight = new Float64Array(block.buffer, block.at, cap),
      from = new Int32Array(block.buffer, block.at + 12 * cap, cap);
    vertex.set(this.vertex);
    weight.set(this.weight);
    from.set(this.from);
    if (this.at > 0) this.arena.free(this.at, 16 * this.vertex.length);
    this.vertex = vertex;
    this.weight = weight;
    this.from = from;
    this.at = block.at;
    return true;
  }
}
