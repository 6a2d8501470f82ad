/**
 * The place machinery of an engine: one PlacesRegion per loaded region that has places.
 * Built on the first place request and kept beside the engine (a WeakMap, so the engine class stays small).
 */
import type { Region } from '../region';
import { PlacesRegion } from './region-places';

/** Place state of one engine. */
export class PlacesState {
  /** Regions with places, in the engine's order. */
  readonly regions: PlacesRegion[];
  /** regions[k].region for each k, and their tags, for place_id lookups. */
  readonly packs: Region[];
  readonly tags: string[];

  constructor(regions: readonly Region[]) {
    this.regions = regions.filter((r) => r.places && r.places.count > 0).map((r) => new PlacesRegion(r));
    this.packs = this.regions.map((r) => r.region);
    this.tags = this.regions.map((r) => r.tag);
  }
}

const states = new WeakMap<object, PlacesState>();

/** The place state of an engine, built on first use (a few milliseconds per thousand places). */
export function placesState(engine: { readonly regions: readonly Region[] }): PlacesState {
  let s = states.get(engine);
  if (!s) states.set(engine, (s = new PlacesState(engine.regions)));
  return s;
}
