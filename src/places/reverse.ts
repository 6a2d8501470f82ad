/**
 * Reverse geocoding: what is at a point. The answer:
 * 1. the top result: the POI or address standing for the building that holds the point, else the POI or address
 *    nearest to the point within TOP_RADIUS_M, else the nearest point of the nearest named street within
 *    REVERSE_RADIUS_M, else (far from the named roads) the POI or address nearest within REST_RADIUS_M. Its 2025
 *    ward is the ward whose official polygon holds the query point: a POI or address qualifies only when its own
 *    ward is that ward (a place across a ward boundary follows the top, in its own ward), and a street is shown in
 *    that ward, as its piece in that ward when it has one;
 * 2. the other POIs, addresses and streets (the nearest points of the nearest named roads) nearest first, each in
 *    the ward holding its own point, within REST_RADIUS_M (or twice the top's distance, when farther);
 * 3. last, the 2025 ward whose polygon holds the point, so any point of the region has an answer.
 */
import { isPoiOrAddress, placeInBuilding, pointsNear, type NearHit } from './reverse-points';
import { streetHit, streetSnaps, type StreetSnap } from './reverse-streets';
import type { PlacesRegion } from './region-places';

/** Places farther than this from the point are not returned; with none nearer the answer is NOT_FOUND. Metres. */
const REVERSE_RADIUS_M = 1000;
/** A POI or address this near the point is the top result (when no building holding the point has one), metres. */
const TOP_RADIUS_M = 50;
/**
 * The results after the top lie this near the point, or within twice the top's distance when that is farther
 * (never beyond REVERSE_RADIUS_M): metres. Farther places say less about the point than the top already does.
 */
const REST_RADIUS_M = 250;
/** Most results a reverse geocode returns. */
export const MAX_REVERSE_RESULTS = 5;

/** The nearest of some hits, or null. */
function nearest(hits: readonly (NearHit | null | undefined)[]): NearHit | null {
  let best: NearHit | null = null;
  for (const h of hits) if (h && (!best || h.distance < best.distance)) best = h;
  return best;
}

/**
 * The results for (lat, lng) degrees over all regions, as the module describes: the top result, the others nearest
 * first, and the point's own ward last when there is room for it (or nothing else).
 */
export function reverseGeocode(
  regions: readonly PlacesRegion[],
  lat: number,
  lng: number,
  limit = MAX_REVERSE_RESULTS,
): NearHit[] {
  const near = regions.filter((r) => r.near(lat, lng, REVERSE_RADIUS_M / 100_000));
  const wards = near.map((r) => r.wardAt(lat, lng));
  // The POIs and addresses that may be the top: those of the point's ward (any, outside every polygon).
  const mayTop = near.map(
    (r, k) => (p: number) => isPoiOrAddress(r, p) && (wards[k]! < 0 || r.ward2025Of(p) === wards[k]),
  );
  const snaps = near.flatMap((r) => streetSnaps(r, lat, lng, REVERSE_RADIUS_M));
  const street = snaps.reduce<StreetSnap | null>((a, s) => (!a || s.distance < a.distance ? s : a), null);
  // The top, by the first rule that gives one; a street is shown in the query point's ward. With no street within
  // the radius (a point far from the named roads), the nearest place of the ward within REST_RADIUS_M, if any.
  const first =
    nearest(near.map((r, k) => placeInBuilding(r, lat, lng, mayTop[k]!))) ??
    nearest(near.map((r, k) => pointsNear(r, lat, lng, 1, TOP_RADIUS_M, mayTop[k]!)[0])) ??
    (street && streetHit(street, wards[near.indexOf(street.region)]!)) ??
    nearest(near.map((r, k) => pointsNear(r, lat, lng, 1, REST_RADIUS_M, mayTop[k]!)[0]));
  // The rest, each in the ward holding its own point.
  const reach = Math.min(REVERSE_RADIUS_M, Math.max(REST_RADIUS_M, 2 * (first?.distance ?? 0)));
  const rest = [
    ...near.flatMap((r) => pointsNear(r, lat, lng, limit, reach, (p) => isPoiOrAddress(r, p))),
    ...snaps.filter((s) => s.distance <= reach && !(first?.at && s === street)).map((s) => streetHit(s, -1)),
  ]
    .filter((h) => h.region !== first?.region || h.place !== first.place || h.at)
    .sort((a, b) => a.distance - b.distance);
  const out = first ? [first, ...rest] : rest;
  const k = near.findIndex((r, i) => wards[i]! >= 0 && r.unitPlace.has(wards[i]!));
  const ward: NearHit | null =
    k >= 0 ? { region: near[k]!, place: near[k]!.unitPlace.get(wards[k]!)!, distance: 0 } : null;
  out.length = Math.min(out.length, ward && limit > 1 ? limit - 1 : limit);
  if (ward && out.length < limit) out.push(ward);
  return out;
}

/**
 * The place (POI, address or street, by its own point) nearest to (lat, lng) degrees within REVERSE_RADIUS_M over
 * all regions, or null: a place_id for a point whose place detail lies near it.
 */
export function nearestPlace(regions: readonly PlacesRegion[], lat: number, lng: number): NearHit | null {
  return nearest(regions.map((r) => pointsNear(r, lat, lng, 1, REVERSE_RADIUS_M, () => true)[0]));
}
