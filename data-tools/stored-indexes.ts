/**
 * Indexes the engine would otherwise build at first use, built once here and stored in the pack (opened zero-copy):
 * the connected components of every vehicle (src/route/stored-components.ts), the snapping grid
 * (src/route/stored-snap.ts), the place search index (src/places/search/stored-index.ts), the places' categories
 * (src/places/search/stored-categories.ts), the order of the reverse-geocoding point tree
 * (src/places/stored-points.ts) and the nested-dissection order of the customizable hierarchy
 * (src/route/cch/stored-order.ts).
 */
import type { TypedArray } from '../src/pack/format.js';
import type { Pack } from '../src/pack/reader.js';
import { strongComponents, type ComponentArrays } from '../src/route/components.js';
import { RoadGraph } from '../src/route/graph.js';
import { PROFILE_COUNT } from '../src/route/profiles.js';
import { Router } from '../src/route/router.js';
import { cchOrder, type CchOrder } from '../src/route/cch/build.js';
import { orderSections } from '../src/route/cch/stored-order.js';
import { AdminNames } from '../src/places/admin-names.js';
import { PlaceIndex, PlaceTerms } from '../src/places/search/index.js';
import { placeIndexSections, probeHash } from '../src/places/search/stored-index.js';
import { PlaceCategories } from '../src/places/search/place-categories.js';
import { categorySections } from '../src/places/search/stored-categories.js';
import { pointSections } from '../src/places/stored-points.js';
import { Region } from '../src/region.js';
import { SNAP_LAYOUT, SNAP_SECTIONS } from '../src/route/stored-snap.js';
import { offsetArrays } from '../src/pack/offsets.js';
import {
  COMPONENTS_INDEX,
  COMPONENTS_LAYOUT,
  componentRuns,
  componentSections,
  componentsCheck,
  type ComponentsIndex,
} from '../src/route/stored-components.js';

/** Stored index sections: JSON sections and typed arrays, by section name, in writing order. */
export interface IndexSections {
  json: [string, unknown][];
  arrays: [string, TypedArray][];
}

/**
 * The stored indexes of a pack written without them (its graph and places as the engine reads them).
 * @param order gives the nested-dissection order of the pack's road graph (default: cchOrder, made here); called
 *   last, so that an order made in a worker thread meanwhile (build-pack.ts) is joined as late as can be
 */
export function buildStoredIndexes(pack: Pack, order?: () => CchOrder): IndexSections {
  const places = placeIndex(pack);
  const graph = new RoadGraph(pack);
  const router = new Router(graph, null, { wasm: false });
  const index: ComponentsIndex = { version: COMPONENTS_LAYOUT, profiles: [] };
  const sets: ComponentArrays[] = [];
  const arrays: [string, TypedArray][] = [];
  for (let profile = 0; profile < PROFILE_COUNT; profile++) {
    const { costs, turns } = router.context(profile);
    const comps = strongComponents(costs, turns);
    let set = sets.findIndex((s) => same(s.edgeComp, comps.edgeComp) && same(s.size, comps.size));
    if (set < 0) {
      set = sets.push(comps) - 1;
      const names = componentSections(set);
      const { run, of } = componentRuns(comps.edgeComp);
      arrays.push([names.run, run], [names.of, of], [names.size, comps.size]);
    }
    index.profiles.push({ set, check: componentsCheck(costs, turns) });
  }
  const snap = router.segments();
  arrays.push(...offsetArrays(SNAP_SECTIONS.first, snap.grid.first), [SNAP_SECTIONS.seg, snap.grid.seg]);
  const { rank, topology } = order ? order() : cchOrder(graph);
  const cch = orderSections(rank, topology);
  arrays.push(cch.array);
  return {
    json: [
      [COMPONENTS_INDEX, index],
      [SNAP_SECTIONS.index, { version: SNAP_LAYOUT, ...snap.layout }],
      cch.json,
      ...(places?.json ?? []),
    ],
    arrays: [...arrays, ...(places?.arrays ?? [])],
  };
}

/** The sections of the place search index, the places' categories and point tree; null for a pack without places. */
function placeIndex(pack: Pack): IndexSections | null {
  const region = new Region(pack);
  const places = region.places;
  if (!places || places.count === 0) return null;
  const admin = new AdminNames(region.admin);
  const ix = new PlaceIndex(places, region.strings, admin);
  const parts = [
    placeIndexSections(ix, probeHash(new PlaceTerms(places, region.strings, admin), places.count)),
    categorySections(new PlaceCategories(places, region.strings)),
    pointSections(places) ?? { json: [], arrays: [] },
  ];
  return { json: parts.flatMap((p) => p.json), arrays: parts.flatMap((p) => p.arrays) };
}

function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
