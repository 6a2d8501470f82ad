/**
 * GET /trip in-process: the shortest round trip through `origin`, the `;`-separated `waypoints` and `destination`
 * (OSRM-shaped answer, see ../shared/spec/engine-api.md).
 *
 * Readings of the spec fixed here:
 * - A failure's `code` is the seed's status word (BAD_REQUEST, NOT_FOUND, ERROR, as every other endpoint's
 *   `status`) and `osrm_code` OSRM's error code for it (trip-codes.ts), chosen as OSRM does: `InvalidQuery` when the
 *   query is malformed (a coordinate that is not a pair of numbers, an empty part between `;`, origin equal to
 *   destination, fewer than 2 distinct coordinates), `InvalidValue` when a parsed value is not acceptable
 *   (latitude/longitude out of range, a non-string coordinate parameter, an unknown vehicle), `TooBig` above
 *   `limits.tripStops` coordinates in total (counted before anything is parsed), `NoSegment` for a coordinate
 *   outside the loaded map or farther than `limits.snapRadius` from a road the vehicle may use, `NoTrips` when some
 *   stop cannot reach another. Every message names the coordinate
 *   (`origin`, `waypoints[i]` with i from 0, `destination`) or the parameter.
 * - "At least 10 coordinates for a best trip" (rest-api rule 2) is advice, not a rule: OSRM answers any trip of 2 or
 *   more coordinates, and so do we. Up to TRIP_LIMITS.N_EXACT stops the answer is the exact optimum, so a small
 *   trip is "best" too.
 * - Numbers are rounded like OSRM's JSON: distances to 0.1 m, durations and weights to 0.1 s; totals are rounded
 *   from the unrounded sums; `location` to 6 decimals.
 * - The tour minimises the routability weight (the router's `fastest` weighting) over the same table DistanceMatrix
 *   uses; each leg's numbers are the router's measures of the path drawn in `geometry`, i.e. what Direction gives
 *   from one stop to the next.
 */
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { Region } from '../region.js';
import { appendLine, encodePolyline, legLine } from '../route/geometry.js';
import { vehicleIndex, type Vehicle } from '../route/profiles.js';
import { isLocateFailure, loadedAreas, locate, type LocateFailure } from '../route/locate.js';
import { routerOf, type SnapLeg } from '../route/router.js';
import type { Snap } from '../route/snap.js';
import { findUnreachableStop } from '../trip/reachability.js';
import { solveTrip } from '../trip/solve.js';
import { waypointPlaceId } from '../trip/waypoint-id.js';
import { encodePlaceId } from '../places/place-id.js';
import { nearestPlace } from '../places/reverse.js';
import type { PlacesState } from '../places/state.js';
import { DECIMAL, given, isParamError, parseAvoid, parseCoord, parseVehicle, type LatLng } from './coords.js';
import { rawParams, type Query, type RawParams } from './param-types.js';
import type { Statuses } from './statuses.js';
import { TRIP_FAILURES, type OsrmCode } from './trip-codes.js';
import { checkpoint } from '../checkpoint.js';

/** Query parameters of GET /trip (at least two distinct coordinates in all). */
export type TripParams = {
  /** "<lat>,<lng>": the first stop. Default: the solver's order starts at the first coordinate given. */
  origin?: string;
  /** "<lat>,<lng>" points separated by ";". */
  waypoints?: string;
  /** "<lat>,<lng>": the last stop before the return to the first. */
  destination?: string;
  /** Default car. */
  vehicle?: Vehicle;
  /**
   * Road kinds to keep away from, separated by `|`: tolls, highways (motorways and trunks), ferries (an extension of
   * the seed's API, as Google's `avoid`: a preference, see route/avoid.ts). Default none.
   */
  avoid?: string;
};

/** One leg between consecutive stops: metres, seconds, routability weight. */
interface TripLeg {
  distance: number;
  duration: number;
  weight: number;
  steps: never[];
  summary: '';
}

interface TripRoute {
  /** Metres, 0.1 m. */
  distance: number;
  /** Seconds, 0.1 s. */
  duration: number;
  /** Routability weight of the whole loop, 0.1. */
  weight: number;
  weight_name: 'routability';
  /** Google encoded polyline (precision 5) of the whole loop, from the first stop back to it. */
  geometry: string;
  /** One per consecutive pair of stops, the return leg last. */
  legs: TripLeg[];
}

interface TripWaypoint {
  /**
   * The point the trip leaves this stop from, [latitude, longitude] in degrees: the snapped point, or the nearest
   * point of a small component when that leg runs within it (Direction's pair rule, see Router.ends).
   */
  location: [number, number];
  /** Metres from the given coordinate to `location`, 0.1 m. */
  distance: number;
  /** The nearest place's id (resolves through geocode/placeDetail); a road-position id in packs without places. */
  place_id: string;
  trips_index: number;
  /** Position of this coordinate in the trip (0 = first stop). */
  waypoint_index: number;
}

/** A trip failure: the seed's status word, the message naming the parameter, and OSRM's code for the same failure. */
interface Failure {
  code: Statuses<(typeof TRIP_FAILURES)[OsrmCode]>;
  message: string;
  /** OSRM's error code (trip-codes.ts); `InternalError` only reports a bug caught at the boundary. */
  osrm_code: OsrmCode;
}

export type TripResponse = { code: Statuses<'Ok'>; trips: TripRoute[]; waypoints: TripWaypoint[] } | Failure;

/** A coordinate with the name messages use for it. */
interface Stop extends LatLng {
  name: string;
}

/**
 * GET /trip. `origin` (when given) is the first stop, `destination` (when given) the last stop before the return to
 * the first; without them the solver's order starts at the first coordinate given. Never throws, never hangs: the
 * coordinate count is checked before any parsing or routing.
 *
 * @param regions the engine's loaded regions; the trip runs in the first one holding every coordinate.
 */
export function trip(
  engine: { readonly regions: readonly Region[]; readonly places: PlacesState; readonly limits?: Limits },
  params: Query<TripParams>,
): TripResponse {
  const regions = engine.regions;
  try {
    return plan(engine, regions, rawParams(params));
  } catch (err) {
    return fail('InternalError', `trip failed: ${(err as Error).message}`);
  }
}

function plan(
  engine: { readonly regions: readonly Region[]; readonly places: PlacesState; readonly limits?: Limits },
  regions: readonly Region[],
  params: RawParams,
): TripResponse {
  const limits = engine.limits ?? DEFAULT_LIMITS;
  const stops = parseStops(params, limits.tripStops);
  if ('code' in stops) return stops;
  const { list, hasOrigin, hasDestination } = stops;
  const vehicle = parseVehicle(params.vehicle);
  if (isParamError(vehicle)) return fail('InvalidValue', vehicle.error);
  const avoid = parseAvoid(params.avoid);
  if (isParamError(avoid)) return fail('InvalidValue', avoid.error);

  const origin = hasOrigin ? list[0]! : null;
  const dest = hasDestination ? list[list.length - 1]! : null;
  if (origin && dest && origin.lat === dest.lat && origin.lng === dest.lng) {
    return fail('InvalidQuery', 'origin and destination must differ: the trip already returns to the origin');
  }
  const distinct = new Set(list.map((p) => `${p.lat},${p.lng}`)).size;
  if (distinct < 2) {
    return fail(
      'InvalidQuery',
      `a trip needs at least 2 distinct coordinates in origin, waypoints and destination; got ${distinct}`,
    );
  }

  const profile = vehicleIndex(vehicle);
  const located = locate(regions, list, profile, limits.snapRadius);
  if (isLocateFailure(located)) return locateFailure(located, list, vehicle, limits.snapRadius, regions);
  const { region, snaps } = located;
  const router = routerOf(region);
  const n = list.length;
  // Checkpoints (src/checkpoint.ts) between the steps, each of tens of milliseconds for hundreds of stops.
  checkpoint();
  // Direction's pair rule (Router.ends), as DistanceMatrix: each leg below equals its entry here.
  const stopTable = router.stopTable(snaps, profile, 'fastest', avoid);
  const table = stopTable.table;
  checkpoint();
  const solved = solveTrip(table.weight, n, {
    start: hasOrigin ? 0 : undefined,
    end: hasDestination ? n - 1 : undefined,
  });
  if (solved.code !== 'Ok') {
    if (solved.code !== 'NoTrips') return fail(solved.code, solved.message);
    return fail('NoTrips', noTripsMessage(table.weight, list, vehicle));
  }

  const order = solved.order;
  const legs: SnapLeg<Snap>[] = [];
  for (let p = 0; p < n; p++) {
    checkpoint();
    const a = order[p]!;
    const b = order[(p + 1) % n]!;
    const leg = stopTable.leg(a, b);
    if (!leg) return fail('NoTrips', `no route from ${list[a]!.name} to ${list[b]!.name} for ${vehicle}`);
    legs.push(leg);
  }
  return {
    code: 'Ok',
    trips: [formatTrip(region, legs)],
    waypoints: formatWaypoints(engine, region, legs, order),
  };
}

/** The coordinates in input order (origin, waypoints, destination), or the first failure. */
function parseStops(
  params: RawParams,
  maxStops: number,
): { list: Stop[]; hasOrigin: boolean; hasDestination: boolean } | Failure {
  const hasOrigin = given(params.origin);
  const hasDestination = given(params.destination);
  const w = params.waypoints;
  if (given(w) && typeof w !== 'string')
    return fail('InvalidValue', 'waypoints must be a string of "<lat>,<lng>" coordinates separated by ";"');
  const parts = typeof w === 'string' && w !== '' ? w.split(';') : [];
  // Counted before any parsing, so a huge request costs one split; origin and destination count too, with or without
  // waypoints.
  const total = parts.length + (hasOrigin ? 1 : 0) + (hasDestination ? 1 : 0);
  if (total > maxStops) {
    return fail(
      'TooBig',
      `a trip takes at most ${maxStops} coordinates in origin, waypoints and destination; got ${total}`,
    );
  }
  const texts: { name: string; value: unknown }[] = [];
  if (hasOrigin) texts.push({ name: 'origin', value: params.origin });
  parts.forEach((p, i) => texts.push({ name: `waypoints[${i}]`, value: p }));
  if (hasDestination) texts.push({ name: 'destination', value: params.destination });

  const list: Stop[] = [];
  for (const { name, value } of texts) {
    if (typeof value !== 'string') return fail('InvalidValue', `${name} must be a "<lat>,<lng>" string`);
    const text = value.trim();
    if (!text) {
      const why =
        name.startsWith('waypoints') && parts.length > 1
          ? 'two ";" in a row, or a ";" at an end of waypoints'
          : 'spaces';
      return fail('InvalidQuery', `${name} is empty (${why})`);
    }
    const c = parseCoord(text, name);
    if (isParamError(c)) return fail(outOfRange(text) ? 'InvalidValue' : 'InvalidQuery', c.error);
    list.push({ ...c, name });
  }
  return { list, hasOrigin, hasDestination };
}

/**
 * True when a coordinate text is two numbers as parseCoord reads them (DECIMAL: no exponent, no hexadecimal), at least
 * one of them outside latitude/longitude range.
 */
function outOfRange(text: string): boolean {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length !== 2 || parts.some((s) => !DECIMAL.test(s))) return false;
  return !(Math.abs(Number(parts[0])) <= 90 && Math.abs(Number(parts[1])) <= 180);
}

/** NoSegment naming the stop that could not be located and why. */
function locateFailure(
  { reason, index }: LocateFailure,
  list: readonly Stop[],
  vehicle: Vehicle,
  snapRadius: number,
  regions: readonly Region[],
): Failure {
  const p = list[index]!;
  if (reason === 'off-road')
    return fail(
      'NoSegment',
      `${p.name} (${p.lat},${p.lng}) is not within ${snapRadius} m of a road open to ${vehicle}`,
    );
  const where = index > 0 ? `the map region of ${list[0]!.name}` : 'any loaded map region';
  return fail('NoSegment', `${p.name} (${p.lat},${p.lng}) is outside ${where}; ${loadedAreas(regions)}`);
}

function noTripsMessage(weight: Float64Array, list: readonly Stop[], vehicle: Vehicle): string {
  const cut = findUnreachableStop(weight, list.length);
  if (!cut) return `no round trip through every coordinate exists for ${vehicle}`;
  const stop = list[cut.stop]!.name;
  const first = list[0]!.name;
  return cut.direction === 'from'
    ? `${stop} cannot be reached from ${first} by ${vehicle}`
    : `${first} cannot be reached from ${stop} by ${vehicle}`;
}

function formatTrip(region: Region, legs: readonly SnapLeg[]): TripRoute {
  const line: number[] = [];
  let distance = 0;
  let duration = 0;
  let weight = 0;
  const out = legs.map((leg): TripLeg => {
    checkpoint();
    const pts = legLine(region.graph, leg).coords;
    appendLine(line, pts);
    distance += leg.distance;
    duration += leg.duration;
    weight += leg.weight;
    return {
      distance: round1(leg.distance),
      duration: round1(leg.duration),
      weight: round1(leg.weight),
      steps: [],
      summary: '',
    };
  });
  return {
    distance: round1(distance),
    duration: round1(duration),
    weight: round1(weight),
    weight_name: 'routability',
    geometry: encodePolyline(line),
    legs: out,
  };
}

/**
 * The place_id of a waypoint: the pack place nearest to the snapped point (so it resolves through geocode and
 * placeDetail like every place_id), or, in a routing-only pack without places, the id of the road position.
 */
function waypointId(places: PlacesState['regions'], region: Region, s: Snap): string {
  const near = nearestPlace(places, s.lat, s.lon);
  return near
    ? encodePlaceId(near.region.tag, region, near.place)
    : waypointPlaceId(region.meta.name, region.graph.edgeCount, s.edge, s.t);
}

/**
 * The waypoints in input order. A stop's location (and distance, place_id) is the point the trip leaves it from:
 * its snap, or the snap's `local` point when that leg runs within a small component (see Router.ends).
 */
function formatWaypoints(
  engine: { readonly places: PlacesState },
  region: Region,
  legs: readonly SnapLeg<Snap>[],
  order: readonly number[],
): TripWaypoint[] {
  // The places of the trip's region, found once for every waypoint.
  const places = engine.places.regions.filter((r) => r.region === region);
  const position = new Int32Array(order.length);
  order.forEach((stop, p) => (position[stop] = p));
  return [...position].map((p) => {
    checkpoint();
    const s = legs[p]!.from;
    return {
      location: [round6(s.lat), round6(s.lon)],
      distance: round1(s.dist),
      place_id: waypointId(places, region, s),
      trips_index: 0,
      waypoint_index: p,
    };
  });
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** The failure OSRM reports as `osrm`, in the seed's status word. */
function fail(osrm: OsrmCode, message: string): Failure {
  return { code: TRIP_FAILURES[osrm], message, osrm_code: osrm };
}
