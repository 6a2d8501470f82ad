/**
 * The shapes and terms every part of the contraction shares (the graph to contract, the loop's tuning, stop rule and
 * results), in one module that imports none of the others: ch-build, ch-core, ch-layout, ch-partition, ch-wasm,
 * ch-threads and ch-worker import from here and in one direction among themselves (ch-build → ch-core, ch-layout,
 * ch-wasm; ch-partition → ch-core; ch-threads → ch-build, ch-partition, ch-wasm).
 */

/**
 * A directed graph to contract, as CSR: states 0..states-1 (road nodes for a node-based hierarchy, arcs for an
 * edge-based one), edge i from a state to `head[i]` with `weight[i]` (> 0 or Infinity to drop) and a `payload`
 * (the road arc the edge stands for: the arc itself node-based, the arc turned into edge-based). Optional:
 * - `key`: per state, a number that is near for states near on the map (the road node node-based, the arc, or a
 *   copy's original arc, edge-based: the builder numbers nodes in Hilbert order); partitioned contraction
 *   (ch-partition.ts) cuts cells as ranges of it. Without it, the state itself.
 * - `hops`: per edge, the base edges it stands for (default 1; a partition's overlay edge stands for a record).
 * - `keep`: per state, nonzero to leave it uncontracted (a partition cell's boundary states).
 */
export interface BaseGraph {
  states: number;
  first: Uint32Array;
  head: Uint32Array;
  weight: Float64Array;
  payload: Int32Array;
  key?: Uint32Array;
  hops?: Int32Array;
  keep?: Uint8Array;
}

/**
 * How the contraction orders and searches (the loop runs in WebAssembly, wasm/contract/lib.rs, with these terms;
 * test/helpers/ch-reference.ts is the same loop in TypeScript).
 * - `realSettles`: witness searches stop after this many settled states while contracting.
 * - `simMin`, `simMax`: priority estimates run for the neighbours of every contracted state, so their limit adapts:
 *   about twice the recent mean degree of contracted states, within [simMin, simMax] — tiny while the graph is
 *   sparse and witnesses are near, larger as it densifies and a missed witness (which only makes a priority
 *   pessimistic) costs more.
 * - `eager`: above this many neighbours a contracted state's neighbours are re-estimated lazily (when popped), not
 *   at once: on NY (666k edge-based states) estimates were two thirds of the contraction's time, most of it for the
 *   neighbours of dense states; 8 rather than 16 cut it without a sparser order costing more later.
 * - `prioEdges`, `prioHops`, `prioDepth`: priority terms (as OSRM's contractor weighs them): shortcuts added per
 *   edge removed, base edges the shortcuts stand for per base edge removed, and the depth. Quotients rather than the
 *   edge difference: a state whose few edges become as many shortcuts is not cheap, and the ordering keeps the dense
 *   tail sparser (NY: the time to contract 90 % of the states fell by about a third against 2 × shortcuts − removed
 *   + depth).
 */
export const TUNING: Tuning = {
  realSettles: 400,
  simMin: 5,
  simMax: 40,
  eager: 8,
  prioEdges: 2,
  prioHops: 4,
  prioDepth: 1,
};

/** The terms of TUNING (the instances of a partitioned contraction take their own values: ch-partition.ts PARTITION). */
export interface Tuning {
  readonly realSettles: number;
  readonly simMin: number;
  readonly simMax: number;
  readonly eager: number;
  readonly prioEdges: number;
  readonly prioHops: number;
  readonly prioDepth: number;
}

/** Edge records of a contraction: record r goes from tail[r] to head[r]; a shortcut's children are a[r] and b[r], a base edge has a[r] = -1 and its payload in b[r]. */
export interface RecordArrays {
  n: number;
  tail: Uint32Array;
  head: Uint32Array;
  a: Int32Array;
  b: Int32Array;
}

/**
 * Live adjacency lists left at the end (the core's edges): per state its first slot and length, then the entries
 * (the other state, the weight and the record the edge stands for).
 */
export interface LiveLists {
  start: Int32Array;
  len: Int32Array;
  other: Int32Array;
  w: Float64Array;
  rec: Int32Array;
}

/**
 * What the loop leaves: the records and the base edges each stands for (`hops`), every state's rank (core states
 * above, in state order), the core size, the live lists.
 */
export interface Contraction {
  records: RecordArrays;
  hops: Int32Array;
  rank: Uint32Array;
  core: number;
  out: LiveLists;
  inn: LiveLists;
}

/**
 * Stops the loop: a forced core size (≥ 0), or the core rule's terms (ch-core.ts CORE_RULE): at most `maxLeft`
 * states left, at least `minStates`, at a mean live degree of at least `degree`.
 */
export interface StopRule {
  coreSize: number;
  maxLeft: number;
  minStates: number;
  degree: number;
}

/**
 * When a cell's instance stops: once at most `fraction` of its interior (states not on its boundary) is left and the
 * states left (with the boundary) have a mean live degree of `degree`. Its leftover interior then joins the overlay
 * with the boundary. A cell contracted to its last interior state spends its longest witness searches and most
 * shortcuts on its densest states, which one instance leaves in its core: stopping at the whole graph's core rule
 * leaves that work to the overlay, where those states meet the rest of their neighbourhood.
 */
export interface CellCoreRule {
  fraction: number;
  degree: number;
}
