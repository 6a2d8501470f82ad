import type { ChArrays } from '../src/route/ch.js';
import { coreLandmarks, CORE_RULE } from './ch-core.js';
import { layoutRecords } from './ch-layout.js';
import type { CellCoreRule } from './ch-partition.js';
import { contractInWasm, type Contraction } from './ch-wasm.js';

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

/** How far to contract (see CORE_RULE in ch-core.ts for the automatic rule). */
export interface ContractOptions {
  /**
   * Stop when this many states remain uncontracted, whatever the rule (tests force a core with it); 0 contracts
   * fully. Default: the automatic rule.
   */
  coreSize?: number;
  /**
   * Contract cell-wise (ch-partition.ts) with cells of at most this many states, whatever the graph's size (tests
   * and benches; the overlay is cut again while bigger). Default: PARTITION decides. Read by contractAll
   * (ch-threads.ts); `contract` always contracts in one instance.
   */
  cellStates?: number;
  /** When a cell's instance stops (ch-partition.ts CellCoreRule; tests and benches). Default: PARTITION.cellCore. */
  cellCore?: CellCoreRule;
}

/** A contracted hierarchy: its arrays, the states left uncontracted at the top (the core) and its landmarks. */
export interface Contracted {
  ch: ChArrays;
  core: number;
  landmarks: number;
}

/**
 * Contracts a graph into a hierarchy (layout in src/route/ch.ts). Order: priority queue on shortcuts per removed
 * edge, base edges per removed base edge and hierarchy depth (TUNING), the neighbours of each contracted state
 * re-estimated (at once when few, lazily when many); witness searches bounded by weight and settled states
 * (adaptive while estimating). The live edges sit in per-state adjacency pools that drop a state's edges when it is
 * contracted. Exactness does not depend on the witness bounds: a missed witness only adds a needless shortcut.
 * Parallel edges keep the lighter one; a shortcut lighter than an existing edge between the same states replaces it
 * in place (both ends are then still uncontracted, so no shortcut refers to it yet). The loop runs in WebAssembly
 * (ch-wasm.ts): on NY's car hierarchy (666k edge-based states) it took 85–93 s of CPU where the same loop in
 * TypeScript took 141 s, for the same bytes. `progress` hears states contracted of all, every 1024.
 */
export function contract(
  g: BaseGraph,
  options: ContractOptions = {},
  progress?: (done: number, total: number) => void,
): Contracted {
  const stop = CORE_RULE.stopRule(g.states, options.coreSize);
  return hierarchy(g.states, contractInWasm(g, stop, TUNING, progress && ((done) => progress(done, g.states))));
}

/**
 * The hierarchy of a finished contraction loop: its CSR arrays and, when a core is left, the core's landmarks
 * (ch-core.ts) over the live edges.
 */
export function hierarchy(S: number, c: Contraction): Contracted {
  const { rank, core } = c;
  const ch = layoutRecords(S, c.records, rank, core);
  if (core === 0) return { ch, core, landmarks: 0 };
  // Core states are ranked above the contracted ones, in state order.
  const coreOf = new Int32Array(S).fill(-1);
  for (let v = 0; v < S; v++) if (rank[v]! >= S - core) coreOf[v] = rank[v]! - (S - core);
  const lm = coreLandmarks(core, coreOf, c.out, c.inn);
  return { ch: { ...ch, ...lm }, core, landmarks: lm.lmFrom.length / core };
}
