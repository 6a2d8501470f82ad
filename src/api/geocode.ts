/**
 * GET /Geocode in-process: exactly one of `address` (forward), `latlng` (reverse) or `place_id` (one place).
 * Forward gives at most MAX_GEOCODE_RESULTS results best first; reverse at most MAX_REVERSE_RESULTS nearest
 * first within REVERSE_RADIUS_M metres (else NOT_FOUND). Bad parameters give BAD_REQUEST naming them; never throws.
 */
import { describePlace } from '../places/describe';
import { forwardGeocode } from '../places/forward';
import { decodePlaceId, encodePlaceId } from '../places/place-id';
import { given, latLngParam, textParam } from '../places/params';
import { reverseGeocode } from '../places/reverse';
import { placesState } from '../places/state';
import type { PlacesRegion } from '../places/region-places';
import type { Region } from '../region';
import { geocodeResult, type GeocodeResponse, type GeocodeResult } from './place-shapes';

export { MAX_GEOCODE_RESULTS } from '../places/forward';
export { REVERSE_RADIUS_M, MAX_REVERSE_RESULTS } from '../places/reverse';

/** Query parameters of GET /Geocode (`placeid` is accepted as an alias of `place_id`). */
export interface GeocodeParams {
  address?: string;
  latlng?: string;
  place_id?: string;
  placeid?: string;
  [other: string]: unknown;
}

const body = (status: GeocodeResponse['status'], results: GeocodeResult[] = [], error_message?: string): GeocodeResponse =>
  error_message === undefined ? { plus_code: {}, results, status } : { plus_code: {}, results, status, error_message };

const resultOf = (r: PlacesRegion, place: number): GeocodeResult => geocodeResult(describePlace(r, place), encodePlaceId(r.tag, r.region, place));

/** Answers GET /Geocode for an engine's regions. */
export function geocode(engine: { readonly regions: readonly Region[] }, params: GeocodeParams): GeocodeResponse {
  try {
    const p = params && typeof params === 'object' ? params : ({} as GeocodeParams);
    const placeId = given(p.place_id) ? p.place_id : p.placeid;
    // An empty parameter counts as given (and is then reported as empty), so "address=&latlng=1,2" is ambiguous.
    const present = (v: unknown): boolean => v !== undefined && v !== null;
    const which = [present(p.address) ? 'address' : '', present(p.latlng) ? 'latlng' : '', present(placeId) ? 'place_id' : ''].filter(Boolean);
    if (which.length === 0) return body('BAD_REQUEST', [], 'one of address, latlng or place_id is required');
    if (which.length > 1) return body('BAD_REQUEST', [], `give only one of address, latlng or place_id (got ${which.join(' and ')})`);
    const state = placesState(engine);
    if (which[0] === 'place_id') {
      const found = decodePlaceId(placeId, state.packs, state.tags);
      if (found.status === 'malformed') return body('BAD_REQUEST', [], 'place_id is not a place_id of this service');
      if (found.status === 'unknown') return body('NOT_FOUND');
      return body('OK', [resultOf(state.regions[found.regionIndex]!, found.place)]);
    }
    if (which[0] === 'latlng') {
      const ll = latLngParam('latlng', p.latlng);
      if (!ll.ok) return body('BAD_REQUEST', [], ll.error);
      const near = reverseGeocode(state.regions, ll.value.lat, ll.value.lng);
      return near.length ? body('OK', near.map((h) => resultOf(h.region, h.place))) : body('NOT_FOUND');
    }
    const address = textParam('address', p.address);
    if (!address.ok) return body('BAD_REQUEST', [], address.error);
    const hits = forwardGeocode(state.regions, address.value);
    return hits.length ? body('OK', hits.map((h) => resultOf(h.region, h.place))) : body('NOT_FOUND');
  } catch (e) {
    return body('ERROR', [], `geocode failed: ${(e as Error)?.message ?? String(e)}`);
  }
}
