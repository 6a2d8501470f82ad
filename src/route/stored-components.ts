/**
 * Connected components stored built in a pack (written by the builder, data-tools/stored-indexes.ts), so that the
 * first route on a big pack does not run the Tarjan pass of strongComponents over millions of arcs. Sections:
 * - `route.comp` (JSON): `{ version, profiles: [{ set, check }] }`, per vehicle profile (pack order) the array set
 *   holding its components and the componentsCheck of the costs they were computed from;
 * - `route.comp.<set>.edge` (i32, per edge) and `route.comp.<set>.size` (u32, per component): ComponentArrays.
 * Vehicles whose components are the same share one set. Stored components are used only when their check equals
 * the engine's own costs (a pack built by an older cost model computes them again); packs without the sections
 * compute them at first use.
 */
import { PackError, type Pack } from '../pack/reader.js';
import { bytesHash } from '../pack/bytes-hash.js';
import { costsCheck } from './ch.js';
import type { ComponentArrays } from './components.js';
import type { ArcCosts } from './costs.js';
import type { TurnTable } from './turns.js';

/** Layout version of the stored components. */
export const COMPONENTS_LAYOUT = 1;
/** Name of the index section. */
export const COMPONENTS_INDEX = 'route.comp';

/** The `route.comp` section. */
export interface ComponentsIndex {
  version: number;
  profiles: { set: number; check: number }[];
}

/** Section names of array set `set`. */
export function componentSections(set: number): { edge: string; size: string } {
  return { edge: `route.comp.${set}.edge`, size: `route.comp.${set}.size` };
}

/**
 * A hash of everything strongComponents reads: the costs and turn states (costsCheck), barriers and the nodes where
 * a U-turn is the only way on.
 * @param costsHash costsCheck(costs, turns), when the caller has it already
 */
export function componentsCheck(costs: ArcCosts, turns: TurnTable, costsHash = costsCheck(costs, turns)): number {
  return bytesHash(Float64Array.of(costsHash), costs.blocked, costs.outOpen);
}

/**
 * The pack's stored components of a vehicle profile, or null when the pack has none or they were computed from other
 * costs. Throws PackError naming the section when the arrays do not fit the graph (a pack opened without checksums).
 * @param costsHash costsCheck(costs, turns), when the caller has it already
 */
export function storedComponents(
  pack: Pack,
  profile: number,
  costs: ArcCosts,
  turns: TurnTable,
  costsHash?: number,
): ComponentArrays | null {
  if (!pack.has(COMPONENTS_INDEX)) return null;
  const index = pack.json<ComponentsIndex>(COMPONENTS_INDEX);
  const entry = index.version === COMPONENTS_LAYOUT ? index.profiles?.[profile] : undefined;
  if (!entry || entry.check !== componentsCheck(costs, turns, costsHash)) return null;
  const names = componentSections(entry.set);
  const edgeComp = pack.array<Int32Array>(names.edge);
  const size = pack.array<Uint32Array>(names.size);
  if (!(edgeComp instanceof Int32Array) || !(size instanceof Uint32Array) || !fits(edgeComp, size, costs))
    throw new PackError(pack.source, `corrupt: section "${names.edge}" does not fit the road graph`);
  return { edgeComp, size };
}

/** True when every edge's component is -1 or a component, and each component's size is its count of edges. */
function fits(edgeComp: Int32Array, size: Uint32Array, costs: ArcCosts): boolean {
  if (edgeComp.length !== costs.graph.edgeCount) return false;
  const count = new Uint32Array(size.length);
  for (let e = 0; e < edgeComp.length; e++) {
    const c = edgeComp[e]!;
    if (c < -1 || c >= size.length) return false;
    if (c >= 0) count[c]!++;
  }
  for (let c = 0; c < size.length; c++) if (count[c] !== size[c]) return false;
  return true;
}
