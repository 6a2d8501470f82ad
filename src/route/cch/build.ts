import type { RoadGraph } from '../graph.js';
import { PROFILE_COUNT } from '../profiles.js';
import { TurnTable } from '../turns.js';
import { dissectionOrder } from './order.js';
import { stateTopology } from './state-graph.js';
import { SharedStates } from './states.js';
import { CchTopology } from './topology.js';

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
 */
export function buildCch(
  g: RoadGraph,
  tables: readonly TurnTable[] = Array.from({ length: PROFILE_COUNT }, (_, p) => new TurnTable(g, p)),
): Cch {
  const states = new SharedStates(tables);
  const { first, adj } = stateTopology(g, states);
  const topo = new CchTopology(first, adj, dissectionOrder(g, states));
  return { states, topo };
}
