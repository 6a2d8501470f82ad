import { PREF_AT, SPEED_ROW, type EdgeSpeeds, type RoadGraph } from './graph.js';
import { PROFILE_COUNT } from './profiles.js';

/**
 * Per vehicle profile (pack order), the lowest profile that routes exactly like it on graph `g`: the same speed
 * each way and preference on every edge, the same local-access restrictions, barriers and turn restrictions —
 * everything ArcCosts and TurnTable read per profile — so its costs, turn table, components and hierarchy or
 * customized metric are identical and one copy serves both (OSM packs: `hd` routes as `car`, data-tools/profiles.ts).
 * Linear in the graph's edges, nodes and restrictions.
 */
export function alikeProfiles(g: RoadGraph): number[] {
  return Array.from({ length: PROFILE_COUNT }, (_, p) => alikeProfile(g, p));
}

/**
 * The lowest profile that routes exactly like profile `p` (alikeProfiles' entry for it), comparing only the profiles
 * below it: nothing for profile 0, so a first route by car reads none of the graph for it.
 */
export function alikeProfile(g: RoadGraph, p: number): number {
  if (p === 0) return 0;
  const speeds = g.speeds();
  let q = 0;
  while (q < p && !routesAlike(g, speeds, q, p)) q++;
  return q;
}

/** True when profiles p and q read the same per-profile data of the graph (see alikeProfiles). */
function routesAlike(g: RoadGraph, { row, rows }: EdgeSpeeds, p: number, q: number): boolean {
  // The rows edges use (a few hundred), each compared once.
  const compared = new Uint8Array(rows.length / SPEED_ROW);
  const restricted = g.edgeRestricted;
  for (let e = 0; e < g.edgeCount; e++) {
    const r = row[e]!;
    if (compared[r] === 0) {
      const s = r * SPEED_ROW;
      if (rows[s + 2 * p] !== rows[s + 2 * q] || rows[s + 2 * p + 1] !== rows[s + 2 * q + 1]) return false;
      if (rows[s + PREF_AT + p] !== rows[s + PREF_AT + q]) return false;
      compared[r] = 1;
    }
    if (((restricted[e]! >> p) & 1) !== ((restricted[e]! >> q) & 1)) return false;
  }
  const sameBit = (a: Uint8Array) => a.every((x) => ((x >> p) & 1) === ((x >> q) & 1));
  return sameBit(g.nodeBlock) && sameBit(g.turnMask);
}
