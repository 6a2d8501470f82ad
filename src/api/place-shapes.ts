/**
 * Response bodies of the place endpoints (GET /Geocode, /Place/AutoComplete, /Place/Detail), as in rest-api.md, plus
 * two additions of the online service's v2 API and Google's geocoder:
 * - with `has_deprecated_administrative_unit=true`, results keep the 2025 address and add the pre-2025 one whole:
 *   `deprecated_description` (the address in the legacy three-level form) and `deprecated_compound` (its legacy
 *   commune, district and province names); both are absent when no legacy unit of the place is known;
 * - `partial_match: true` on a geocode result that answers only part of the query (the street or ward it named, for a
 *   place the pack does not hold; the street, for a house number it does not hold), as Google's geocoder marks them.
 */
import type { AddressComponent, Compound, PlaceView } from '../places/describe';
import type { Statuses } from './statuses';

/** Status values of a place response body. */
type PlaceStatus = Statuses<'OK' | 'NOT_FOUND' | 'BAD_REQUEST' | 'ERROR'>;

/** One element of a geocode response's `results`. */
export interface GeocodeResult {
  address_components: AddressComponent[];
  formatted_address: string;
  geometry: { location: { lat: number; lng: number } };
  place_id: string;
  reference: string;
  plus_code: { compound_code: string; global_code: string };
  types: string[];
  /** Present (true) only when the result answers part of the query. */
  partial_match?: true;
  deprecated_description?: string;
  deprecated_compound?: Compound & { district: string };
}

/** GET /Geocode body. `error_message` only with BAD_REQUEST (and ERROR). */
export interface GeocodeResponse {
  plus_code: Record<string, never>;
  results: GeocodeResult[];
  status: PlaceStatus;
  error_message?: string;
}

/** One autocomplete prediction. `compound` only when more_compound is true. */
export interface AutocompletePrediction {
  description: string;
  matched_substrings: Array<{ offset: number; length: number }>;
  place_id: string;
  reference: string;
  structured_formatting: { main_text: string; secondary_text: string };
  terms: Array<{ offset: number; value: string }>;
  has_children: boolean;
  display_type: string;
  score: number;
  plus_code: { compound_code: string; global_code: string };
  /** With more_compound: the 2025 commune (ward) and province. */
  compound?: Compound;
  deprecated_description?: string;
  deprecated_compound?: Compound & { district: string };
}

/** GET /Place/AutoComplete body; executed_time (the search) and executed_time_all (the whole call) in milliseconds. */
export interface AutocompleteResponse {
  predictions: AutocompletePrediction[];
  executed_time: number;
  executed_time_all: number;
  status: PlaceStatus;
  error_message?: string;
}

/** GET /Place/Detail body. On errors `result` is an empty object. */
export interface PlaceDetailResponse {
  result: {
    place_id?: string;
    formatted_address?: string;
    geometry?: { location: { lat: number; lng: number } };
    name?: string;
    deprecated_description?: string;
    deprecated_compound?: Compound & { district: string };
  };
  status: PlaceStatus;
  error_message?: string;
}

/** A geocode result for a described place; `legacy` adds its pre-2025 form when known. */
export function geocodeResult(
  view: PlaceView,
  placeId: string,
  opts: { partial?: boolean; legacy?: boolean } = {},
): GeocodeResult {
  const out: GeocodeResult = {
    address_components: view.components,
    formatted_address: view.formattedAddress,
    geometry: { location: view.location },
    place_id: placeId,
    reference: placeId,
    plus_code: view.plusCode,
    types: [],
  };
  if (opts.partial) out.partial_match = true;
  return opts.legacy ? withLegacy(out, view) : out;
}

/** `o` with the pre-2025 form of the place (deprecated_description, deprecated_compound) when it is known. */
export function withLegacy<T extends object>(o: T, view: PlaceView): T {
  return view.legacy
    ? { ...o, deprecated_description: view.legacy.description, deprecated_compound: view.legacy.compound }
    : o;
}

/** Items whose key repeats an earlier item's are dropped (one street stored as several pieces, the same address twice). */
export function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
