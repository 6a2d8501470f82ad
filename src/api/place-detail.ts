/**
 * GET /Place/Detail in-process: the place a place_id names (from any endpoint of this engine). A malformed id is
 * BAD_REQUEST, a well-formed id this engine does not know NOT_FOUND. `sessiontoken` is checked
 * (sessions are billed by the serving layer: adapters/http/sessions.ts). Never throws.
 */
import { describePlace, pointOptions } from '../places/describe';
import { decodePlaceId, encodePlaceId } from '../places/place-id';
import { given, isParamError, parseBool } from './coords';
import { placeIdParam, tokenParam } from './place-params';
import type { PlacesState } from '../places/state';
import { rawParams, type Query, type BoolParam } from './param-types';
import { withLegacy, type PlaceDetailResponse } from './place-shapes';

/** Query parameters of GET /Place/Detail (`placeid` is accepted as an alias of `place_id`). */
export type PlaceDetailParams = ({ place_id: string; placeid?: never } | { placeid: string; place_id?: never }) & {
  /** Ends the autocomplete session it started. */
  sessiontoken?: string;
  /** Also gives the address in its pre-2025 administrative units. */
  has_deprecated_administrative_unit?: BoolParam;
};

/** Answers GET /Place/Detail for an engine's regions. */
export function placeDetail(
  engine: { readonly places: PlacesState },
  params: Query<PlaceDetailParams>,
): PlaceDetailResponse {
  try {
    const p = rawParams(params);
    const id = placeIdParam(p);
    if (!given(id)) return { result: {}, status: 'BAD_REQUEST', error_message: 'place_id is required' };
    const token = tokenParam('sessiontoken', p.sessiontoken);
    if (isParamError(token)) return { result: {}, status: 'BAD_REQUEST', error_message: token.error };
    const deprecated = parseBool(p.has_deprecated_administrative_unit, 'has_deprecated_administrative_unit');
    if (isParamError(deprecated)) return { result: {}, status: 'BAD_REQUEST', error_message: deprecated.error };
    const state = engine.places;
    const found = decodePlaceId(id, state.packs, state.tags);
    if (found.status === 'malformed')
      return { result: {}, status: 'BAD_REQUEST', error_message: 'place_id is not a place_id of this service' };
    if (found.status === 'unknown') return { result: {}, status: 'NOT_FOUND' };
    const r = state.regions[found.regionIndex]!;
    const v = describePlace(r, found.place, found.point ? pointOptions(r, found.point) : {});
    const result = {
      place_id: encodePlaceId(r.tag, r.region, found.place, found.point),
      formatted_address: v.formattedAddress,
      geometry: { location: v.location },
      name: v.name,
    };
    return { result: deprecated ? withLegacy(result, v) : result, status: 'OK' };
  } catch (e) {
    return { result: {}, status: 'ERROR', error_message: `place detail failed: ${(e as Error)?.message ?? String(e)}` };
  }
}
