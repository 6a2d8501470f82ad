/**
 * Connected components stored built in a pack (written by the builder, data-tools/stored-indexes.ts), so that the
 * first route on a big pack does not run the Tarjan pass of strongComponents over millions of arcs. Sections:
 * - `route.comp` (JSON): `{ version, profiles: [{ set, check }] }`, per vehicle profile (pack order) the array set
 *   holding its components and the componentsCheck of the costs they were computed from;
 * - `route.comp.<set>.run` (u32) and `route.comp.<set>.of` (i32): each edge's component, as runs of edges in a row
 *   with the same one (the first edge of each run and its component, -1 for edges closed to the vehicle), laid out
 *   as an array per edge at load; and `route.comp.<set>.size` (u32, per component): ComponentArrays. Nearly every
 *   edge lies in one component and the edges are in the graph's spatial order, so the runs are few: 2 % of a car's
 *   edges on whole HCMC, 18 % for a truck (whose closed roads break more of them), against 4 bytes for every edge
 *   (layout 1).
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

/** Layout version of the stored components (1: a component per edge; 2: runs of edges). */
export const COMPONENTS_LAYOUT = 2;
/** Name of the index section. */
export const COMPONENTS_INDEX = 'route.comp';

/** The `route.comp` section. */
export interface ComponentsIndex {
  version: number;
  profiles: { set: number; check: number }[];
}

/** Section names of array set `set`. */
export function componentSections(set: number): { run: string; of: string; size: string } {
  return { run: `route.comp.${set}.run`, of: `route.comp.${set}.of`, size: `route.comp.${set}.size` };
}

/** The runs of `edgeComp` (a component per edge): the first edge of each run of equal components, and that component. */
export function componentRuns(edgeComp: Int32Array): { run: Uint32Array; of: Int32Array } {
  let count = 0;
  for (let e = 0; e < edgeComp.length; e++) if (e === 0 || edgeComp[e] !== edgeComp[e - 1]) count++;
  const run = new Uint32Array(count);
  const of = new Int32Array(count);
  for (let e = 0, r = 0; e < edgeComp.length; e++)
    if (e === 0 || edgeComp[e] !== edgeComp[e - 1]) {
      run[r] = e;
      of[r++] = edgeComp[e]!;
    }
  return { run, of };
}

/**
 * The component of each of `edges` edges from its runs (componentRuns), or null when they are not runs of that many
 * edges (the first not at edge 0, starts not ascending, or arrays of unequal lengths).
 */
function edgesOfRuns(run: Uint32Array, of: Int32Array, edges: number): Int32Array | null {
  if (run.length !== of.length || (edges > 0 && run[0] !== 0)) return null;
  const edgeComp = new Int32Array(edges);
  for (let r = 0; r < run.length; r++) {
    const end = r + 1 < run.length ? run[r + 1]! : edges;
    if (end <= run[r]! || end > edges) return null;
    edgeComp.fill(of[r]!, run[r]!, end);
  }
  return edgeComp;
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
  const run = pack.array<Uint32Array>(names.run);
  const of = pack.array<Int32Array>(names.of);
  const size = pack.array<Uint32Array>(names.size);
  const edgeComp =
    run instanceof Uint32Array && of instanceof Int32Array ? edgesOfRuns(run, of, costs.graph.edgeCount) : null;
  if (!edgeComp) throw new PackError(pack.source, `corrupt: section "${names.run}" does not fit the road graph`);
  if (!(size instanceof Uint32Array) || !fits(edgeComp, size))
    throw new PackError(pack.source, `corrupt: section "${names.of}" does not fit the road graph`);
  return { edgeComp, size };
}

/** True when every edge's component is -1 or a component, and each component's size is its count of edges. */
function fits(edgeComp: Int32Array, size: Uint32Array): boolean {
  const count = new Uint32Array(size.length);
  for (let e = 0; e < edgeComp.length; e++) {
    const c = edgeComp[e]!;
    if (c < -1 || c >= size.length) return false;
    if (c >= 0) count[c]!++;
  }
  for (let c = 0; c < size.length; c++) if (count[c] !== size[c]) return false;
  return true;
}
