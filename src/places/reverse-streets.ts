/**
 * The streets around a point for reverse geocoding: the nearest points of the nearest named roads (on the road
 * graph's geometry when the pack has one, else the street places by their own points), and the street piece (the
 * street place of one ward) a result on such a point stands for.
 */
import { routerOf } from '../route/router';
import { haversine } from '../geo';
import { PlaceKind } from './kinds';
import { pointsNear, type NearHit } from './reverse-points';
import type { PlacesRegion } from './region-places';

/** Distinct streets looked for around the point. */
const STREETS = 2;

/** The nearest point of one named street. */
export interface StreetSnap {
  region: PlacesRegion;
  /** String id of the street's name. */
  name: number;
  /** The street's point nearest to the query, degrees. */
  lat: number;
  lng: number;
  /** Great-circle distance from the query point, metres. */
  distance: number;
}

/**
 * The nearest points of the STREETS nearest named streets within `radius` metres, nearest first: on the road graph
 * (roads whose name is that of a street place; unnamed roads, ferries and roads named only by a `ref` with no
 * street place are not streets); in a pack without a graph, the street places' own points.
 */
export function streetSnaps(r: PlacesRegion, lat: number, lng: number, radius: number): StreetSnap[] {
  if (!r.streetsOnGraph)
    return pointsNear(r, lat, lng, STREETS, radius, (p) => r.places.kind[p] === PlaceKind.street).map((h) => ({
      region: r,
      name: r.places.name[h.place]!,
      lat: r.lat(h.place),
      lng: r.lon(h.place),
      distance: h.distance,
    }));
  if (r.streetPieces.size === 0) return [];
  const segments = routerOf(r.region).segments();
  const names = r.region.graph.edgeName;
  const seen: number[] = [];
  const out: StreetSnap[] = [];
  for (let k = 0; k < STREETS; k++) {
    const snap = segments.nearest(
      lat,
      lng,
      (e) => names.at(e) !== 0 && r.streetPieces.has(names.at(e)) && !seen.includes(names.at(e)),
      radius,
    );
    if (!snap) break;
    const name = names.at(snap.edge);
    seen.push(name);
    out.push({ region: r, name, lat: snap.lat, lng: snap.lon, distance: snap.dist });
  }
  return out;
}

/**
 * The hit of a street snap shown in 2025 ward `ward2025` (admin unit id; -1: the ward holding the snapped point):
 * the street's piece in that ward, else its piece nearest to the snapped point, shown at the snapped point.
 */
export function streetHit(s: StreetSnap, ward2025: number): NearHit {
  const r = s.region;
  const ward = ward2025 >= 0 ? ward2025 : r.wardAt(s.lat, s.lng);
  const pieces = r.streetPieces.get(s.name) ?? [];
  const inWard = pieces.filter((p) => r.ward2025Of(p) === ward);
  const from = inWard.length > 0 ? inWard : pieces;
  const far = (p: number) => haversine(s.lat, s.lng, r.lat(p), r.lon(p));
  let place = from[0]!;
  for (const p of from) if (far(p) < far(place)) place = p;
  return { region: r, place, distance: s.distance, at: { lat: s.lat, lng: s.lng, ward2025: ward } };
}
