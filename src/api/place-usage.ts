/** Usage counts of the place endpoints of an engine (see places/usage.ts for the billing rules). */
import { placesState } from '../places/state';
import type { PlacesUsage } from '../places/usage';
import type { Region } from '../region';

export type { PlacesUsage } from '../places/usage';

/** A snapshot of the engine's place request and session counts since it was created. */
export function placesUsage(engine: { readonly regions: readonly Region[] }): PlacesUsage {
  return placesState(engine).usage.snapshot();
}
