/**
 * What a query's place is near ("nhà thuốc gần phố Huế", "ATM near Bui Vien", "quán cà phê cạnh chợ Bến Thành"): the
 * anchor the words after the near word name — a street (all of its road geometry), else a place — and the test of
 * whether a candidate lies within NEAR_M of it.
 */
import { haversine } from '../geo';
import { PlaceKind } from './kinds';
import type { PlacesRegion } from './region-places';
import type { PlaceQuery } from './search/query';
import { StreetLine } from './street-line';

/** How far from its anchor a place is "near" it, metres: a few minutes' walk. */
const NEAR_M = 300;
/** How far from a street's roads a place is "on" it, metres: a deep plot or an alley's first houses still are. */
const ON_STREET_M = 150;

/** The anchor found for a query: the place it is, and the test of nearness. */
export interface NearAnchor {
  place: number;
  near: (place: number) => boolean;
}

/**
 * The anchor of `q` in region `r`, found by `find` (the forward search run on the anchor's words alone), or null when
 * the query has none or its words name nothing of the region.
 */
export function nearAnchor(r: PlacesRegion, q: PlaceQuery, find: (text: string) => number | null): NearAnchor | null {
  if (q.near === 0) return null;
  const text = q.terms
    .filter((_, j) => ((q.near >> j) & 1) !== 0)
    .map((t) => t.exact)
    .join(' ');
  const place = find(text);
  if (place === null) return null;
  const kind = r.places.kind[place]!;
  if (kind === PlaceKind.street && r.region.graph.edgeCount > 0) return { place, near: nearStreet(r, place, NEAR_M) };
  if (kind >= PlaceKind.ward) return null; // a unit is an area, not something to be near
  return { place, near: nearPoint(r, place, NEAR_M) };
}

/** Whether a place lies within `metres` of place `anchor`'s point. */
function nearPoint(r: PlacesRegion, anchor: number, metres: number): (place: number) => boolean {
  const lat = r.lat(anchor),
    lon = r.lon(anchor);
  return (p) => haversine(lat, lon, r.lat(p), r.lon(p)) <= metres;
}

/**
 * The street a query writes with its type word beside other words ("ngân hàng đường Võ Văn Ngân", "chùa đường Nguyễn
 * Trãi"): the place must be on it, within ON_STREET_M of its roads; null when the query has no such street or
 * `find` (the street's own search) finds no street of that name.
 */
export function streetAnchor(r: PlacesRegion, q: PlaceQuery, find: (text: string) => number | null): NearAnchor | null {
  const street = q.parsed.street;
  if (!q.parsed.types.street || !street || (q.required & ~q.streetMask & ~q.near) === 0) return null;
  const place = find(street);
  if (place === null || r.places.kind[place] !== PlaceKind.street) return null;
  return { place, near: nearStreet(r, place, ON_STREET_M) };
}

/**
 * Whether a place lies within `metres` of a road carrying the street place's name, in any of its spellings (every
 * piece of the street).
 */
function nearStreet(r: PlacesRegion, street: number, metres: number): (place: number) => boolean {
  const line = StreetLine.of(r, r.streetNamesLike(r.places.name[street]!));
  // A street the road graph does not carry (a footway, a square) is near where its place stands.
  if (line.empty) return nearPoint(r, street, metres);
  return (p) => line.near(r.lat(p), r.lon(p), metres);
}
