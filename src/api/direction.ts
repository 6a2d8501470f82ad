import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { Region } from '../region.js';
import { alternatives } from '../route/alternatives.js';
import { appendLine, encodePolyline, legLine, type PathLine } from '../route/geometry.js';
import { vehicleIndex, type Vehicle } from '../route/profiles.js';
import { isLocateFailure, loadedAreas, locate } from '../route/locate.js';
import { legWithEnds, routerOf, type SnapLeg } from '../route/router.js';
import { buildManeuvers } from '../route/maneuvers.js';
import { formatSteps, type Step } from './guidance.js';
import {
  isParamError,
  parseAvoid,
  parseBool,
  parseCoord,
  parseCoordList,
  parseVehicle,
  type LatLng,
} from './coords.js';
import { rawParams, type Query, type BoolParam, type RawParams } from './param-types.js';
import { distanceText, durationText, type TextValue } from '../text/text-value.js';
import type { Statuses } from './statuses.js';

/** Query parameters of GET /Direction. */
export type DirectionParams = {
  /** "<lat>,<lng>" in decimal degrees. */
  origin: string;
  /** One or more "<lat>,<lng>" separated by ";" (at most `limits.destinations`, default 25): one leg each, in order. */
  destination: string;
  /** Up to two alternative routes (only with a single destination). Default false. */
  alternatives?: BoolParam;
  /** Default car. */
  vehicle?: Vehicle;
  /**
   * Road kinds to keep away from, separated by `|`: tolls, highways (motorways and trunks), ferries (an extension of
   * the seed's API, as Google's `avoid`: a preference, see route/avoid.ts). Default none.
   */
  avoid?: string;
};

interface DirectionLeg {
  distance: TextValue;
  duration: TextValue;
  steps: Step[];
  start_location: LatLng;
  end_location: LatLng;
}

interface DirectionRoute {
  bounds: Record<string, never>;
  legs: DirectionLeg[];
  overview_polyline: { points: string };
  summary: string;
  warnings: string[];
  waypoint_order: number[];
}

export interface DirectionResponse {
  geocoded_waypoints: never[];
  routes: DirectionRoute[];
  status: Statuses<'OK' | 'BAD_REQUEST' | 'NOT_FOUND' | 'ERROR'>;
  error_message?: string;
}

/** Google travel mode of a vehicle. */
function travelMode(vehicle: string): string {
  return vehicle === 'bike' ? 'TWO_WHEELER' : 'DRIVING';
}

/**
 * GET /Direction: the best route from `origin` through each `;`-separated destination in order (one leg per pair),
 * plus up to two alternatives when `alternatives` is true and there is a single destination. Bad input gives
 * BAD_REQUEST naming the parameter; a point off the road network or no route gives NOT_FOUND. Never throws.
 */
export function direction(
  regions: readonly Region[],
  params: Query<DirectionParams>,
  limits: Limits = DEFAULT_LIMITS,
): DirectionResponse {
  try {
    return plan(regions, rawParams(params), limits);
  } catch (err) {
    return fail('ERROR', `routing failed: ${(err as Error).message}`);
  }
}

function plan(regions: readonly Region[], params: RawParams, limits: Limits): DirectionResponse {
  const o = params.origin;
  if (o === undefined || o === null || o === '') return fail('BAD_REQUEST', 'origin is required');
  if (typeof o !== 'string') return fail('BAD_REQUEST', 'origin must be a "<lat>,<lng>" string');
  const origin = parseCoord(o.trim(), 'origin');
  if (isParamError(origin)) return fail('BAD_REQUEST', origin.error);
  const dests = parseCoordList(params.destination, 'destination', /;/, limits.destinations);
  if (isParamError(dests)) return fail('BAD_REQUEST', dests.error);
  const alt = parseBool(params.alternatives, 'alternatives');
  if (isParamError(alt)) return fail('BAD_REQUEST', alt.error);
  const vehicle = parseVehicle(params.vehicle);
  if (isParamError(vehicle)) return fail('BAD_REQUEST', vehicle.error);
  const avoid = parseAvoid(params.avoid);
  if (isParamError(avoid)) return fail('BAD_REQUEST', avoid.error);
  const profile = vehicleIndex(vehicle);

  const located = locate(regions, [origin, ...dests], profile, limits.snapRadius);
  if (isLocateFailure(located)) {
    if (located.reason === 'outside')
      return fail('NOT_FOUND', `origin and destination are not inside one loaded region; ${loadedAreas(regions)}`);
    return fail(
      'NOT_FOUND',
      `${located.index === 0 ? 'origin' : `destination ${located.index}`} is not near a road for ${vehicle}`,
    );
  }
  const { region, snaps } = located;
  const router = routerOf(region);
  const ctx = router.context(profile, 'fastest', avoid);
  // Each leg runs between the points the pair rule picks (Router.ends: within a small component when both points
  // are nearest to the same one), as DistanceMatrix and trip do, so their values agree for every pair.
  const legs: SnapLeg[] = [];
  for (let i = 0; i + 1 < snaps.length; i++) {
    // No U-turn at an intermediate destination: leave along the arc of arrival, unless that leads nowhere.
    const leg = router.snapLeg(snaps[i]!, snaps[i + 1]!, profile, 'fastest', avoid, legs[i - 1]?.path.arcs.at(-1));
    if (!leg)
      return fail(
        'NOT_FOUND',
        `no route from ${i === 0 ? 'origin' : `destination ${i}`} to destination ${i + 1} for ${vehicle}`,
      );
    legs.push(leg);
  }
  const routes = [legs];
  if (alt && legs.length === 1) {
    // Alternatives run between the same two points as the best route.
    const { from, to } = legs[0]!;
    for (const a of alternatives(router, ctx, from, to, legs[0]!)) routes.push([legWithEnds(a, from, to)]);
  }
  const name = (e: number) => region.strings.get(region.graph.edgeName.at(e));
  const mode = travelMode(vehicle);
  return {
    geocoded_waypoints: [],
    routes: routes.map((r) =>
      formatRoute(r, (leg, line) => formatSteps(buildManeuvers(ctx.costs, name, leg.path, line), mode), region),
    ),
    status: 'OK',
  };
}

function formatRoute(legs: SnapLeg[], steps: (leg: SnapLeg, line: PathLine) => Step[], region: Region): DirectionRoute {
  let line: number[] | null = null;
  // Metres per street name, by string id (the pack's string table holds each name once).
  const byName = new Map<number, number>();
  const out = legs.map((leg) => {
    // Each leg's line is cut once, for the overview line and the steps. The first leg's line is where the overview
    // line starts, as it is (legLine repeats no point, so appending it to nothing would copy it unchanged): one
    // array fewer per answer. Later legs are appended to it after that leg's steps were made from it.
    const cut = legLine(region.graph, leg);
    if (line) appendLine(line, cut.coords);
    else line = cut.coords;
    for (const a of leg.path.arcs) {
      const n = region.graph.edgeName.at(a >> 1);
      byName.set(n, (byName.get(n) ?? 0) + region.graph.edgeLen[a >> 1]!);
    }
    return {
      distance: distanceText(leg.distance),
      duration: durationText(leg.duration),
      steps: steps(leg, cut),
      start_location: { lat: leg.from.lat, lng: leg.from.lon },
      end_location: { lat: leg.to.lat, lng: leg.to.lon },
    };
  });
  let summary = '';
  let most = -1;
  for (const [n, d] of byName) {
    const text = region.strings.get(n);
    if (text && d > most) [summary, most] = [text, d];
  }
  return {
    bounds: {},
    legs: out,
    overview_polyline: { points: encodePolyline(line ?? []) },
    summary,
    warnings: [],
    waypoint_order: [],
  };
}

function fail(status: 'BAD_REQUEST' | 'NOT_FOUND' | 'ERROR', message: string): DirectionResponse {
  return { geocoded_waypoints: [], routes: [], status, error_message: message };
}
