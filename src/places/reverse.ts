/**
 * Reverse geocoding: what is at a point. The answer, nearest first within REVERSE_RADIUS_M:
 * - addressed places and POIs, by great-circle distance (geokdbush);
 * - the streets: the nearest point of the nearest named roads (their geometry in the pack, not a point per street),
 *   shown at that point and in the 2025 ward whose official polygon holds it;
 * - last, the 2025 ward whose polygon holds the point itself, so any point of the region has an answer.
 */
import { around } from 'geokdbush';
import { haversine } from '../geo';
import { routerOf } from '../route/router';
import { PlaceKind } from './kinds';
import type { PlacesRegion } from './region-places';

/** Places farther than this from the point are not returned; with none nearer the answer is NOT_FOUND. Metres. */
export const REVERSE_RADIUS_M = 1000;
/** Most results a reverse geocode returns. */
export const MAX_REVERSE_RESULTS = 5;
/** Distinct streets looked for around the point. */
const STREETS = 2;

/** A place near the point. */
export interface NearHit {
  region: PlacesRegion;
  place: number;
  /** Great-circle distance from the point, metres (the ward holding the point: 0). */
  distance: number;
  /** For a street: the point of the street nearest to the query and the 2025 ward (unit id) holding it. */
  at?: { lat: number; lng: number; ward2025: number };
}

/**
 * The places nearest to (lat, lng) degrees over all regions, nearest first, and the point's own ward last when there
 * is room for it (or nothing else).
 */
export function reverseGeocode(
  regions: readonly PlacesRegion[],
  lat: number,
  lng: number,
  limit = MAX_REVERSE_RESULTS,
): NearHit[] {
  const near: NearHit[] = [];
  let ward: NearHit | null = null;
  for (const r of regions) {
    if (!r.near(lat, lng, REVERSE_RADIUS_M / 100_000)) continue;
    near.push(...pointsNear(r, lat, lng, limit, (p) => !r.streetsOnGraph || r.places.kind[p] !== PlaceKind.street));
    near.push(...streetsNear(r, lat, lng));
    const w = r.wardAt(lat, lng);
    const wardPlace = w >= 0 ? r.unitPlace.get(w) : undefined;
    if (!ward && wardPlace !== undefined) ward = { region: r, place: wardPlace, distance: 0 };
  }
  near.sort((a, b) => a.distance - b.distance);
  const out = near.slice(0, ward && limit > 1 ? limit - 1 : limit);
  if (ward && out.length < limit) out.push(ward);
  return out;
}

/**
 * The place (POI, address or street, by its own point) nearest to (lat, lng) degrees within REVERSE_RADIUS_M over
 * all regions, or null: a place_id for a point whose place detail lies near it.
 */
export function nearestPlace(regions: readonly PlacesRegion[], lat: number, lng: number): NearHit | null {
  let best: NearHit | null = null;
  for (const r of regions) {
    const hit = pointsNear(r, lat, lng, 1, () => true)[0];
    if (hit && (!best || hit.distance < best.distance)) best = hit;
  }
  return best;
}

/** The `limit` places of a region nearest to the point by their own points, within the radius, that `keep` accepts. */
function pointsNear(
  r: PlacesRegion,
  lat: number,
  lng: number,
  limit: number,
  keep: (place: number) => boolean,
): NearHit[] {
  if (r.pointPlace.length === 0) return [];
  return (
    around(r.points, lng, lat, limit, REVERSE_RADIUS_M / 1000, (k: number) => keep(r.pointPlace[k]!)) as number[]
  ).map((k) => {
    const place = r.pointPlace[k]!;
    return { region: r, place, distance: haversine(lat, lng, r.lat(place), r.lon(place)) };
  });
}

/** The nearest points of the STREETS nearest named roads within the radius, each as a hit on its street piece. */
function streetsNear(r: PlacesRegion, lat: number, lng: number): NearHit[] {
  const graph = r.region.graph;
  if (graph.edgeCount === 0 || r.streetPieces.size === 0) return [];
  const segments = routerOf(r.region).segments();
  const names = graph.edgeName;
  const seen: number[] = [];
  const out: NearHit[] = [];
  for (let k = 0; k < STREETS; k++) {
    const snap = segments.nearest(
      lat,
      lng,
      (e) => names[e] !== 0 && r.streetPieces.has(names[e]!) && !seen.includes(names[e]!),
      REVERSE_RADIUS_M,
    );
    if (!snap) break;
    const name = names[snap.edge]!;
    seen.push(name);
    const ward2025 = r.wardAt(snap.lat, snap.lon);
    // The piece of the street in the ward of that point (else the nearest piece) gives the result its place_id.
    const pieces = r.streetPieces.get(name)!;
    const inWard = pieces.filter((p) => r.admin.of(r.places, p).ward2025?.id === ward2025);
    const from = inWard.length > 0 ? inWard : pieces;
    let place = from[0]!;
    for (const p of from)
      if (haversine(snap.lat, snap.lon, r.lat(p), r.lon(p)) < haversine(snap.lat, snap.lon, r.lat(place), r.lon(place)))
        place = p;
    out.push({ region: r, place, distance: snap.dist, at: { lat: snap.lat, lng: snap.lon, ward2025 } });
  }
  return out;
}
