/**
 * The place machinery of an engine: one PlacesRegion per loaded region that has places. Each engine builds its own
 * on the first place request and holds it (Engine.places), so engines never share search state and dropping an
 * engine frees it.
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
