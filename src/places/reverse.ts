/**
 * Reverse geocoding: the addressed places, POIs and streets nearest to a point, by great-circle distance
 * (geokdbush), nearest first, within REVERSE_RADIUS_M.
 */
import { around } from 'geokdbush';
import { haversine } from '../geo';
import type { PlacesRegion } from './region-places';

/** Places farther than this from the point are not returned; with none nearer the answer is NOT_FOUND. Metres. */
export const REVERSE_RADIUS_M = 1000;
/** Most results a reverse geocode returns. */
export const MAX_REVERSE_RESULTS = 5;

/** A place near the point. */
export interface NearHit {
  region: PlacesRegion;
  place: number;
  /** Great-circle distance from the point, metres. */
  distance: number;
}

/** The places nearest to (lat, lng) degrees over all regions, nearest first. */
export function reverseGeocode(regions: readonly PlacesRegion[], lat: number, lng: number, limit = MAX_REVERSE_RESULTS): NearHit[] {
  const out: NearHit[] = [];
  for (const r of regions) {
    if (r.pointPlace.length === 0 || !r.region.contains(lat, lng, REVERSE_RADIUS_M / 100_000)) continue;
    for (const k of around(r.points, lng, lat, limit, REVERSE_RADIUS_M / 1000)) {
      const place = r.pointPlace[k]!;
      out.push({ region: r, place, distance: haversine(lat, lng, r.lat(place), r.lon(place)) });
    }
  }
  return out.sort((a, b) => a.distance - b.distance).slice(0, limit);
}
