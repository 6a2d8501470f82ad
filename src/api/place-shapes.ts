/** Response bodies of the place endpoints (GET /Geocode, /Place/AutoComplete, /Place/Detail), as in rest-api.md. */
import type { AddressComponent, PlaceView } from '../places/describe';

/** Status values of a place response body. */
export type PlaceStatus = 'OK' | 'NOT_FOUND' | 'BAD_REQUEST' | 'ERROR';

/** One element of a geocode response's `results`. */
export interface GeocodeResult {
  address_components: AddressComponent[];
  formatted_address: string;
  geometry: { location: { lat: number; lng: number } };
  place_id: string;
  reference: string;
  plus_code: { compound_code: string; global_code: string };
  types: string[];
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
  compound?: { commune: string; district: string; province: string };
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
  result: { place_id?: string; formatted_address?: string; geometry?: { location: { lat: number; lng: number } }; name?: string };
  status: PlaceStatus;
  error_message?: string;
}

/** A geocode result for a described place. */
export function geocodeResult(view: PlaceView, placeId: string): GeocodeResult {
  return {
    address_components: view.components,
    formatted_address: view.formattedAddress,
    geometry: { location: view.location },
    place_id: placeId,
    reference: placeId,
    plus_code: view.plusCode,
    types: [],
  };
}
