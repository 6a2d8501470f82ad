import type { ChArrays } from '../src/route/ch.js';
import { coreLandmarks, CORE_RULE } from './ch-core.js';
import { layoutRecords } from './ch-layout.js';
import { contractInWasm } from './ch-wasm.js';
import { TUNING, type BaseGraph, type CellCoreRule, type Contraction } from './ch-graph.js';

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
