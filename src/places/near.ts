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
 * The forward search on an anchor's words alone: the place they name, or null. `endsQuery`: the words end the query,
 * so while typing their last one may be unfinished.
 */
export type AnchorFinder = (text: string, endsQuery: boolean) => number | null;

/**
 * The anchor of `q` in region `r`, found by `find`, or null when the query has none or its words name nothing of the
 * region.
 */
export function nearAnchor(r: PlacesRegion, q: PlaceQuery, find: AnchorFinder): NearAnchor | null {
  if (q.near === 0) return null;
  const text = q.terms
    .filter((_, j) => ((q.near >> j) & 1) !== 0)
    .map((t) => t.exact)
    .join(' ');
  const place = find(text, ((q.near >>> (q.terms.length - 1)) & 1) !== 0);
  if (place === null) return null;
  const kind = r.places.kind[place]!;
  if (kind >= PlaceKind.ward) return null; // a unit is an area, not something to be near
  const near =
    kind === PlaceKind.street && r.region.graph.edgeCount > 0
      ? nearStreet(r, place, NEAR_M)
      : nearPoint(r, place, NEAR_M);
  // What a place is near is not the place asked for ("Trường Sơn gần sân bay" is no airport).
  return { place, near: (p) => p !== place && near(p) };
}

/**
 * Whether a place lies within `metres` of place `anchor`'s point; a street where its roads pass that close, in the
 * piece of it there ("Nguyễn Du gần Nhà thờ Đức Bà": the stretch by the cathedral, whose own point may lie farther).
 */
function nearPoint(r: PlacesRegion, anchor: number, metres: number): (place: number) => boolean {
  const lat = r.lat(anchor),
    lon = r.lon(anchor);
  const pieces = new Map<number, ReadonlySet<number>>(); // street name id → its pieces near the anchor
  return (p) => {
    if (r.places.kind[p] !== PlaceKind.street || r.region.graph.edgeCount === 0)
      return haversine(lat, lon, r.lat(p), r.lon(p)) <= metres;
    const name = r.places.name[p]!;
    let near = pieces.get(name);
    if (near === undefined) pieces.set(name, (near = piecesNear(r, name, lat, lon, metres)));
    return near.has(p);
  };
}

/**
 * The pieces of the street named `name` (string id; and of the names spelt alike, see streetNamesLike) that pass within
 * `metres` of (lat, lon) degrees (see piecesAt); none when the street's roads pass no nearer.
 */
function piecesNear(r: PlacesRegion, name: number, lat: number, lon: number, metres: number): ReadonlySet<number> {
  const at = StreetLine.of(r, r.streetNamesLike(name)).nearest(lat, lon);
  return at && at[2] <= metres ? piecesAt(r, name, [at[0], at[1]]) : new Set();
}

/**
 * The pieces of the street named `name` (and of the names spelt alike) at a point of its roads (degrees): those in the
 * point's 2025 ward, or without ward polygons the piece whose point is nearest it.
 */
function piecesAt(r: PlacesRegion, name: number, at: readonly [number, number]): ReadonlySet<number> {
  const pieces = [...r.streetNamesLike(name)].flatMap((id) => r.streetPieces.get(id) ?? []);
  const ward = r.wardAt(at[0], at[1]);
  if (ward >= 0) return new Set(pieces.filter((p) => r.ward2025Of(p) === ward));
  const away = (p: number) => haversine(at[0], at[1], r.lat(p), r.lon(p));
  return new Set(pieces.length === 0 ? [] : [pieces.reduce((a, b) => (away(b) < away(a) ? b : a))]);
}

/**
 * The street a query writes with its type word beside other words ("ngân hàng đường Võ Văn Ngân", "chùa đường Nguyễn
 * Trãi"): the place must be on it, within ON_STREET_M of its roads; null when the query has no such street or
 * `find` (the street's own search) finds no street of that name.
 */
export function streetAnchor(r: PlacesRegion, q: PlaceQuery, find: AnchorFinder): NearAnchor | null {
  const street = q.parsed.street;
  if (!q.parsed.types.street || !street || (q.required & ~q.streetMask & ~q.near) === 0) return null;
  // Read whole even while typing: a street begun ("phố C", "ngõ H") is any of many, and the words find the place
  // without it.
  const place = find(street, false);
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
  // A street is near where its roads come that near the anchor's, in its piece there ("Lê Thái Tổ cạnh Phố Hồ Hoàn
  // Kiếm"): its own point may lie farther.
  const pieces = new Map<number, ReadonlySet<number>>();
  return (p) => {
    if (r.places.kind[p] !== PlaceKind.street) return line.near(r.lat(p), r.lon(p), metres);
    const name = r.places.name[p]!;
    let near = pieces.get(name);
    if (near === undefined) {
      const at = StreetLine.of(r, r.streetNamesLike(name)).pointNear(line, metres);
      pieces.set(name, (near = at ? piecesAt(r, name, at) : new Set()));
    }
    return near.has(p);
  };
}
