/**
 * GET /Geocode in-process: exactly one of `address` (forward), `latlng` (reverse) or `place_id` (one place).
 * Forward gives at most MAX_GEOCODE_RESULTS results best first (partial answers marked `partial_match`); reverse at
 * most MAX_REVERSE_RESULTS: the place at the point or else the nearest street, in the ward holding the point, then
 * the others nearest first, then that ward (else NOT_FOUND; places/reverse.ts). No two results carry the same formatted address. `has_deprecated_administrative_unit=true` adds the
 * pre-2025 address to each result (see place-shapes.ts). Bad parameters give BAD_REQUEST naming them; never throws.
 */
import { describePlace, pointOptions, shownPoint, type DescribeOptions } from '../places/describe';
import { forwardGeocode, MAX_GEOCODE_RESULTS } from '../places/forward';
import { decodePlaceId, encodePlaceId } from '../places/place-id';
import { isParamError, parseBool } from './coords';
import { latLngParam, placeIdParam, textParam } from './place-params';
import { MAX_REVERSE_RESULTS, reverseGeocode } from '../places/reverse';
import type { PlacesState } from '../places/state';
import type { PlacesRegion } from '../places/region-places';
import type { Region } from '../region';
import { rawParams, type Query, type BoolParam } from './param-types';
import { geocodeResult, uniqueBy, type GeocodeResponse, type GeocodeResult } from './place-shapes';
import type { Limits } from '../limits';

/** Exactly one of the keys of GET /Geocode. */
type OneOf<K extends string> = { [P in K]: { [Q in P]: string } & { [Q in Exclude<K, P>]?: never } }[K];

/**
 * Query parameters of GET /Geocode: exactly one of `address` (forward), `latlng` ("<lat>,<lng>", reverse) or
 * `place_id` (one place; `placeid` is accepted as an alias).
 */
export type GeocodeParams = OneOf<'address' | 'latlng' | 'place_id' | 'placeid'> & {
  /** Also gives each address in its pre-2025 administrative units. */
  has_deprecated_administrative_unit?: BoolParam;
};

const body = (
  status: GeocodeResponse['status'],
  results: GeocodeResult[] = [],
  error_message?: string,
): GeocodeResponse =>
  error_message === undefined ? { plus_code: {}, results, status } : { plus_code: {}, results, status, error_message };

/** The geocode result of a place, as `opts` says to show it. */
function resultOf(
  r: PlacesRegion,
  place: number,
  opts: DescribeOptions & { partial?: boolean; legacy: boolean },
): GeocodeResult {
  const id = encodePlaceId(r.tag, r.region, place, shownPoint(opts));
  return geocodeResult(describePlace(r, place, opts), id, opts);
}

/** The body of a search's results: OK with the first `limit` (repeats of one formatted address dropped), or NOT_FOUND. */
const found = (results: GeocodeResult[], limit: number): GeocodeResponse =>
  results.length > 0 ? body('OK', uniqueBy(results, (x) => x.formatted_address).slice(0, limit)) : body('NOT_FOUND');

/** Answers GET /Geocode for an engine's regions. */
export function geocode(
  engine: { readonly regions: readonly Region[]; readonly places: PlacesState; readonly limits?: Limits },
  params: Query<GeocodeParams>,
): GeocodeResponse {
  try {
    const p = rawParams(params);
    const placeId = placeIdParam(p);
    // An empty parameter counts as given (and is then reported as empty), so "address=&latlng=1,2" is ambiguous.
    const present = (v: unknown): boolean => v !== undefined && v !== null;
    const which = [
      present(p.address) ? 'address' : '',
      present(p.latlng) ? 'latlng' : '',
      present(placeId) ? 'place_id' : '',
    ].filter(Boolean);
    if (which.length === 0) return body('BAD_REQUEST', [], 'one of address, latlng or place_id is required');
    if (which.length > 1)
      return body('BAD_REQUEST', [], `give only one of address, latlng or place_id (got ${which.join(' and ')})`);
    const deprecated = parseBool(p.has_deprecated_administrative_unit, 'has_deprecated_administrative_unit');
    if (isParamError(deprecated)) return body('BAD_REQUEST', [], deprecated.error);
    const legacy = deprecated;
    const state = engine.places;
    if (which[0] === 'place_id') {
      const id = decodePlaceId(placeId, state.packs, state.tags);
      if (id.status === 'malformed') return body('BAD_REQUEST', [], 'place_id is not a place_id of this service');
      if (id.status === 'unknown') return body('NOT_FOUND');
      const r = state.regions[id.regionIndex]!;
      const shown = id.point ? pointOptions(r, id.point) : {};
      return body('OK', [resultOf(r, id.place, { ...shown, legacy })]);
    }
    if (which[0] === 'latlng') {
      const ll = latLngParam('latlng', p.latlng);
      if (isParamError(ll)) return body('BAD_REQUEST', [], ll.error);
      return found(
        reverseGeocode(state.regions, ll.lat, ll.lng).map((h) => resultOf(h.region, h.place, { at: h.at, legacy })),
        MAX_REVERSE_RESULTS,
      );
    }
    const address = textParam('address', p.address, engine.limits?.textLength);
    if (isParamError(address)) return body('BAD_REQUEST', [], address.error);
    const hits = forwardGeocode(state.regions, address, MAX_GEOCODE_RESULTS * 2);
    return found(
      hits.map((h) =>
        resultOf(h.region, h.place, {
          system: h.system,
          partial: h.partial,
          legacy,
          at: h.at,
          house: h.house,
          crossing: h.crossing,
        }),
      ),
      MAX_GEOCODE_RESULTS,
    );
  } catch (e) {
    return body('ERROR', [], `geocode failed: ${(e as Error)?.message ?? String(e)}`);
  }
}
