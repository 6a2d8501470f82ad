/**
 * GET /staticmap/route as a pipeline: parse the query (api/static-route.ts) → locate both points (route/locate.ts)
 * → the best route's line (the Router's pair rule, as Direction) → draw it over the styled basemap
 * (render/static-route.ts) → PNG. Loaded lazily by the engine: the renderer and the style code cost ~0.2 s
 * of import that an engine that never draws should not pay at start.
 */
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { isParamError } from './coords.js';
import { defaultStyle } from '../map/style/default-style.js';
import type { Region } from '../region.js';
import type { RenderCache } from '../render/render-cache.js';
import { drawStaticRoute, type RouteGeometry } from '../render/static-route.js';
import { loadRasterKernel } from '../render/raster/wasm-raster.js';
import { legLine } from '../route/geometry.js';
import { isLocateFailure, loadedAreas, locate } from '../route/locate.js';
import { vehicleIndex } from '../route/profiles.js';
import { routerOf } from '../route/router.js';
import type { Query } from './param-types.js';
import {
  parseStaticRouteParams,
  type StaticRouteError,
  type StaticRouteParams,
  type StaticRouteQuery,
} from './static-route.js';

let fallbackStyle: unknown;

/** The default style for the static renderer (its resource URLs are never fetched, so any base works). */
export function defaultStaticStyle(): unknown {
  return (fallbackStyle ??= defaultStyle('https://localhost'));
}

/**
 * The best route's line between the request's two points: both located and snapped as Direction does, then
 * Router.snapLeg's pair rule for small components, so the image draws the route Direction gives. NOT_FOUND when a
 * point is outside the loaded regions or off the network, or nothing connects them; ERROR if routing fails
 * unexpectedly (never throws).
 */
export function findRouteLine(
  regions: readonly Region[],
  p: Pick<StaticRouteParams, 'origin' | 'destination' | 'vehicle' | 'type'> & Partial<Pick<StaticRouteParams, 'avoid'>>,
  snapRadius = DEFAULT_LIMITS.snapRadius,
): { region: Region; line: RouteGeometry } | StaticRouteError {
  try {
    const profile = vehicleIndex(p.vehicle);
    const located = locate(regions, [p.origin, p.destination], profile, snapRadius);
    if (isLocateFailure(located)) {
      if (located.reason === 'outside')
        return {
          status: 'NOT_FOUND',
          error_message: `origin and destination are not inside one loaded region; ${loadedAreas(regions)}`,
        };
      return {
        status: 'NOT_FOUND',
        error_message: `${located.index === 0 ? 'origin' : 'destination'} is not near a road for ${p.vehicle}`,
      };
    }
    const { region, snaps } = located;
    const leg = routerOf(region).snapLeg(snaps[0]!, snaps[1]!, profile, p.type, p.avoid ?? 0);
    if (!leg) return { status: 'NOT_FOUND', error_message: `no route from origin to destination for ${p.vehicle}` };
    const c = legLine(region.graph, leg).coords;
    return {
      region,
      line: { coordinates: Array.from({ length: c.length / 2 }, (_, i) => [c[2 * i + 1]!, c[2 * i]!] as const) },
    };
  } catch (err) {
    return { status: 'ERROR', error_message: `routing failed: ${(err as Error).message}` };
  }
}

/**
 * GET /staticmap/route over loaded regions: PNG bytes, or an error body (BAD_REQUEST naming the parameter,
 * NOT_FOUND without a route). Never throws for bad input.
 * @param style style JSON of the basemap; undefined for the package's default style
 * @param cache the engine's render cache
 */
export async function staticRouteImage(
  regions: readonly Region[],
  style: unknown,
  cache: RenderCache,
  query: Query<StaticRouteQuery>,
  limits: Limits = DEFAULT_LIMITS,
): Promise<Uint8Array | StaticRouteError> {
  const parsed = parseStaticRouteParams(query, limits.imageSize);
  if (isParamError(parsed)) return { status: 'BAD_REQUEST', error_message: parsed.error };
  // The raster kernel is compiled once per process (canvases draw in TypeScript where it cannot load). Where it and
  // the glyphs are fetched (browsers, workers) that goes on while the route is searched: on a fresh engine's first
  // image the search sets up the router (hundreds of milliseconds). In Node both are read at once.
  const ready = Promise.all([cache.fonts.preload(), loadRasterKernel()]);
  const route = findRouteLine(regions, parsed, limits.snapRadius);
  if ('status' in route) return route;
  await ready;
  let image: ReturnType<typeof drawStaticRoute>;
  try {
    // The basemap is opened on first use: a corrupt one (in a pack loaded without verify) is reported, not thrown.
    image = drawStaticRoute(route.region, style ?? defaultStaticStyle(), route.line, parsed, cache);
  } catch (err) {
    return { status: 'ERROR', error_message: `drawing failed: ${(err as Error).message}` };
  }
  return image.toPNGAsync(); // which releases the canvas: its memory goes to the next image of this size
}
