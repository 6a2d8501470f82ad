/**
 * The places around a point for reverse geocoding, by their own points: the nearest ones (a kd-tree walk), and the
 * place that stands for the building holding the point.
 */
import { haversine } from '../geo';
import { PlaceKind } from './kinds';
import type { PlacesRegion } from './region-places';

/** A place near the point. */
export interface NearHit {
  region: PlacesRegion;
  place: number;
  /** Great-circle distance from the point, metres (the ward holding the point: 0). */
  distance: number;
  /** For a street: the point of the street nearest to the query and the 2025 ward (unit id) it is shown in. */
  at?: { lat: number; lng: number; ward2025: number };
}

/** True for the places reverse geocoding answers with at their own point: POIs and addresses (not streets). */
export const isPoiOrAddress = (r: PlacesRegion, p: number): boolean =>
  r.places.kind[p] === PlaceKind.poi || r.places.kind[p] === PlaceKind.address;

/** Metres per degree of latitude, rounded down so that a box of `radius / M_PER_DEGREE` holds the whole circle. */
const M_PER_DEGREE = 110_000;
/** The first box pointsNear looks in, metres (then four times wider until it holds enough or reaches the radius). */
const FIRST_BOX_M = 64;

/**
 * The `limit` places of a region nearest to (lat, lng) degrees by their own points (POIs, addresses, street places),
 * within `radius` metres, that `keep` accepts; nearest first, ties in place order. Box queries widening from
 * FIRST_BOX_M, each cut to its circle: once a circle holds `limit` places they are the nearest. (A nearest-first walk,
 * geokdbush, stops at the radius only on reaching a point `keep` accepts, so with few accepted points around, as for
 * the places of one ward, it walked most of the tree: 9 ms at p99 on the whole-HCMC pack.)
 */
export function pointsNear(
  r: PlacesRegion,
  lat: number,
  lng: number,
  limit: number,
  radius: number,
  keep: (place: number) => boolean,
): NearHit[] {
  if (r.pointPlace.length === 0) return [];
  const perLng = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  let out: NearHit[] = [];
  for (let box = Math.min(radius, FIRST_BOX_M); ; box = Math.min(radius, 4 * box)) {
    const dLat = box / M_PER_DEGREE;
    const dLng = dLat / perLng;
    out = [];
    for (const k of r.points.range(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
      const place = r.pointPlace[k]!;
      if (!keep(place)) continue;
      const distance = haversine(lat, lng, r.lat(place), r.lon(place));
      if (distance <= box) out.push({ region: r, place, distance });
    }
    if (out.length >= limit || box >= radius) break;
  }
  return out.sort((a, b) => a.distance - b.distance || a.place - b.place).slice(0, limit);
}

/**
 * The POI or address standing for the smallest building of the region's basemap that holds the point and has one
 * that `keep` accepts, or null. Outlines carry no OSM id or house number, so a place stands for a building when its
 * point lies inside the outline, or when it has the building's name and its point lies in the outline's bounding box
 * (a concave outline can leave the mean of its vertices, the place's point, outside). A place of the building's name
 * is preferred (the building itself, not a shop inside it), then the place nearest to the query point.
 */
export function placeInBuilding(
  r: PlacesRegion,
  lat: number,
  lng: number,
  keep: (place: number) => boolean,
): NearHit | null {
  const b = r.buildings;
  if (!b || r.pointPlace.length === 0) return null;
  for (const f of b.holding(lat, lng)) {
    const [x0, y0, x1, y1] = b.box(f);
    const name = b.map.name[f]!;
    let best: NearHit | null = null;
    let bestNamed = false;
    for (const k of r.points.range(x0, y0, x1, y1)) {
      const p = r.pointPlace[k]!;
      if (!isPoiOrAddress(r, p) || !keep(p)) continue;
      const named = name !== 0 && r.places.name[p] === name;
      if (!named && !b.contains(f, r.lat(p), r.lon(p))) continue;
      const distance = haversine(lat, lng, r.lat(p), r.lon(p));
      if (!best || (named && !bestNamed) || (named === bestNamed && distance < best.distance)) {
        best = { region: r, place: p, distance };
        bestNamed = named;
      }
    }
    if (best) return best;
  }
  return null;
}
