/**
 * `engine.staticRoute` wired to the engine's parts: the packs' regions, the routing module's best route, and the
 * engine's style (the package's default style when none was given).
 */
import { regionFor, snapAll } from '../api/direction.js';
import type { LatLng, StaticRouteError, StaticRouteQuery } from '../api/static-route.js';
import { defaultStyle } from '../map/style/default-style.js';
import type { Region } from '../region.js';
import { pathLine } from '../route/geometry.js';
import { vehicleIndex } from '../route/profiles.js';
import { routerOf } from '../route/router.js';
import { preloadGlyphs } from './glyph-font.js';
import { staticRoute, type RouteGeometry, type RouteLineFinder } from './static-route.js';

let fallbackStyle: unknown;

/** The default style for the static renderer (its resource URLs are never fetched, so any base works). */
export function defaultStaticStyle(): unknown {
  return (fallbackStyle ??= defaultStyle('https://localhost'));
}

/**
 * The best route's line between two points for a vehicle and weighting: both points snapped and routed as Direction
 * does (Router.snap, then Router.snapLeg's pair rule for small components). NOT_FOUND when a point is off the
 * network or nothing connects them; ERROR if routing fails unexpectedly (never throws).
 */
export const findRouteLine: RouteLineFinder<Region> = (region, origin, destination, vehicle, weighting) => {
  try {
    const profile = vehicleIndex(vehicle);
    const snaps = snapAll(region, [origin, destination], profile);
    if ('missing' in snaps) {
      return { status: 'NOT_FOUND', error_message: `${snaps.missing === 0 ? 'origin' : 'destination'} is not near a road for ${vehicle}` };
    }
    // The pair rule of Direction (Router.snapLeg), so the image draws the route Direction gives.
    const leg = routerOf(region).snapLeg(snaps[0]!, snaps[1]!, profile, weighting);
    if (!leg) return { status: 'NOT_FOUND', error_message: `no route from origin to destination for ${vehicle}` };
    const c = pathLine(region.graph, leg.path).coords;
    const line: RouteGeometry = { coordinates: Array.from({ length: c.length / 2 }, (_, i) => [c[2 * i + 1]!, c[2 * i]!] as const) };
    // Origin and destination snapped to one spot: a single point still shows both markers.
    return line.coordinates.length > 0 ? line : { coordinates: [[leg.from.lon, leg.from.lat]] };
  } catch (err) {
    return { status: 'ERROR', error_message: `routing failed: ${(err as Error).message}` };
  }
};

/**
 * GET /staticmap/route over loaded regions: PNG bytes, or an error body (see {@link staticRoute}).
 * @param style style JSON of the basemap; undefined for the package's default style
 */
export async function engineStaticRoute(regions: readonly Region[], style: unknown, query: StaticRouteQuery): Promise<Uint8Array | StaticRouteError> {
  await preloadGlyphs();
  return staticRoute(query, {
    regionFor: (a: LatLng, b: LatLng) => regionFor(regions, [a, b]),
    style: style ?? defaultStaticStyle(),
    findRoute: findRouteLine,
  });
}
