import type { RoadGraph } from '../graph.js';
import { PROFILE_COUNT } from '../profiles.js';
import { TurnTable } from '../turns.js';
import { dissectionOrder, partOrder, type Aside, type Part } from './order.js';
import { stateTopology, type StateTopology } from './state-graph.js';
import { SharedStates } from './states.js';
import { CchTopology } from './topology.js';
import type { CchArena } from '../wasm/cch-arena.js';

/** The metric-independent part of a CCH: the states every vehicle shares and their shortcut topology. */
export interface Cch {
  states: SharedStates;
  topo: CchTopology;
}

/**
 * Builds a road graph's CCH: every vehicle's turn table (for its copy states), the shared state graph, its
 * nested-dissection order and the topology that order makes. Customize it per vehicle and weighting with
 * `new CchMetric(cch.topo, cch.states, costs)`.
 * @param tables the vehicles' turn tables when the caller has them (default: made here), indexed by profile
 * @param stored the order stored for a state topology (stored-order.ts storedOrder), null when there is none: then
 *   the order is made here (the slow part: seconds on a city)
 * @param offered the topology another engine made for these states when there is one that fits them (exchange.ts),
 *   else undefined: then it is made here
 * @param where `shared`: a topology made here in shared memory (CchTopology.shared), to be offered to other engines;
 *   `arena`: what the WebAssembly search reads of it in a router's arena (CchTopology.build)
 */
export function buildCch(
  g: RoadGraph,
  tables: readonly TurnTable[] = turnTables(g),
  stored: (t: StateTopology) => Uint32Array | null = () => null,
  offered: (states: SharedStates) => CchTopology | undefined = () => undefined,
  where: { shared?: boolean; arena?: CchArena | null } = {},
): Cch {
  const states = new SharedStates(tables);
  const adopted = offered(states);
  if (adopted) return { states, topo: adopted };
  const t = stateTopology(g, states);
  const topo = CchTopology.build(t.first, t.adj, stored(t) ?? dissectionOrder(g, states, t), where);
  t.release();
  return { states, topo };
}

/** Every vehicle's turn table of a graph, indexed by profile. */
function turnTables(g: RoadGraph): TurnTable[] {
  return Array.from({ length: PROFILE_COUNT }, (_, p) => new TurnTable(g, p));
}

/** A graph's nested-dissection order: each shared state's rank, and the state topology it orders. */
export interface CchOrder {
  rank: Uint32Array;
  topology: StateTopology;
}

/**
 * A graph's nested-dissection order and the state topology it orders (what a pack stores: stored-order.ts).
 * @param aside hands the high side of the first cut to another thread (order.ts dissectionOrder; partOrderer there)
 */
export function cchOrder(g: RoadGraph, aside?: Aside): CchOrder {
  const states = new SharedStates(turnTables(g));
  const { first, adj } = stateTopology(g, states);
  // Arrays only (a worker posts the order; its block goes with them, or to a collection).
  const topology = { first, adj };
  return { rank: dissectionOrder(g, states, topology, aside), topology };
}

/**
 * Orders the part of a graph's dissection that cchOrder hands aside, in the thread that makes this: the states and
 * their topology are made at once (while the other thread makes its first cut), the part's order when it is given.
 * @returns a function giving the part's states in order, lowest rank first
 */
export function partOrderer(g: RoadGraph): (part: Part) => Uint32Array {
  const states = new SharedStates(turnTables(g));
  const t = stateTopology(g, states);
  return (part) => {
    const order = partOrder(g, states, t, part);
    t.release();
    return order;
  };
}
