/**
 * The locate stage shared by Direction, trip and the static map: which loaded region holds the request's points,
 * and where each point meets the road network for a vehicle. Failures are typed (which point, and why) so each
 * endpoint words them in its own response shape.
 */
import type { LatLng } from '../geo.js';
import { DEFAULT_LIMITS } from '../limits.js';
import type { Region } from '../region.js';
import { routerOf } from './router.js';
import type { Snap } from './snap.js';

/**
 * Why locating failed: `outside` — point `index` is outside the region holding the first point (index 0: no loaded
 * region holds the first point); `off-road` — point `index` is farther than the snap radius from a road open to the
 * vehicle.
 */
export interface LocateFailure {
  reason: 'outside' | 'off-road';
  index: number;
}

/** The points' region and their snaps, in input order. */
export interface Located {
  region: Region;
  snaps: Snap[];
}

/** The region holding every point (the first region, in pack order, whose area contains them all), or null. */
export function regionFor(regions: readonly Region[], points: readonly LatLng[]): Region | null {
  return regions.find((r) => points.every((p) => r.contains(p.lat, p.lng))) ?? null;
}

/**
 * Finds the region holding every point, then snaps each point for the vehicle profile.
 * @param profile vehicle profile index (route/profiles.ts)
 * @param snapRadius farthest a point may lie from a road open to the vehicle, metres
 */
export function locate(
  regions: readonly Region[],
  points: readonly LatLng[],
  profile: number,
  snapRadius = DEFAULT_LIMITS.snapRadius,
): Located | LocateFailure {
  const region = regionFor(regions, points);
  if (!region) {
    const first = regionFor(regions, points.slice(0, 1));
    return { reason: 'outside', index: first ? points.findIndex((p) => !first.contains(p.lat, p.lng)) : 0 };
  }
  const router = routerOf(region);
  const snaps: Snap[] = [];
  for (let i = 0; i < points.length; i++) {
    const s = router.snap(points[i]!.lat, points[i]!.lng, profile, snapRadius);
    if (!s) return { reason: 'off-road', index: i };
    snaps.push(s);
  }
  return { region, snaps };
}

/**
 * The loaded regions as a NOT_FOUND message names them: each pack's name and area ("hanoi (20.99–21.06 N,
 * 105.78–105.88 E)"), so a caller sees where the engine can answer.
 */
export function loadedAreas(regions: readonly Region[]): string {
  if (regions.length === 0) return 'no pack is loaded';
  const area = (b: readonly number[] | null) =>
    b ? ` (${b[1]!.toFixed(2)}–${b[3]!.toFixed(2)} N, ${b[0]!.toFixed(2)}–${b[2]!.toFixed(2)} E)` : '';
  return `loaded: ${regions.map((r) => `${r.meta.name}${area(r.meta.bbox)}`).join(', ')}`;
}

/** True when locating failed. */
export function isLocateFailure(x: Located | LocateFailure): x is LocateFailure {
  return 'reason' in x;
}
