import type { RoadGraph } from './graph.js';
import { EdgeFlag, ROAD_CLASSES } from './profiles.js';

/**
 * What a route may be asked to avoid (Google's `avoid=tolls|highways|ferries`, an extension of the seed's API), one
 * row per kind: its bit in an avoid mask and which edges it covers. As in Google's API, avoiding is a preference,
 * not a ban: an edge of an avoided kind weighs AVOID_FACTOR times its usual weight, so a route takes one only where
 * every way round costs more than that (in a city: where there is no way round at all, such as a ferry to an island).
 */
export const AVOID_KINDS = [
  { name: 'tolls', bit: 1, about: 'roads tagged toll=*', edge: (g: RoadGraph, e: number) => has(g, e, EdgeFlag.toll) },
  {
    name: 'highways',
    bit: 2,
    about: 'motorways and trunk roads, and their links',
    edge: (g: RoadGraph, e: number) => HIGHWAY_CLASSES.has(g.edgeClass[e]!),
  },
  {
    name: 'ferries',
    bit: 4,
    about: 'ferry routes (route=ferry)',
    edge: (g: RoadGraph, e: number) => has(g, e, EdgeFlag.ferry),
  },
] as const;

/** How many times its usual weight an edge of an avoided kind weighs. */
export const AVOID_FACTOR = 1000;

/** Road classes (profiles.ts ROAD_CLASSES) that `highways` covers. */
const HIGHWAY_CLASSES = new Set(
  (['motorway', 'motorway_link', 'trunk', 'trunk_link'] as const).map((c) => ROAD_CLASSES.indexOf(c)),
);

function has(g: RoadGraph, e: number, flag: number): boolean {
  return (g.edgeFlags[e]! & flag) !== 0;
}

/** Per edge: 1 when it is of a kind in avoid mask `avoid` (AVOID_KINDS bits), else 0. */
export function avoidedEdges(g: RoadGraph, avoid: number): Uint8Array {
  const kinds = AVOID_KINDS.filter((k) => avoid & k.bit);
  const out = new Uint8Array(g.edgeCount);
  for (let e = 0; e < g.edgeCount; e++) if (kinds.some((k) => k.edge(g, e))) out[e] = 1;
  return out;
}

/** The avoid mask of the kinds that at least one edge of the graph is of (avoiding any other changes nothing). */
export function avoidKindsIn(g: RoadGraph): number {
  let mask = 0;
  for (const k of AVOID_KINDS)
    for (let e = 0; e < g.edgeCount; e++)
      if (k.edge(g, e)) {
        mask |= k.bit;
        break;
      }
  return mask;
}
