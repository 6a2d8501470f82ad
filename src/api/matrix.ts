import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { Region } from '../region.js';
import { regionFor } from '../route/locate.js';
import { vehicleIndex, type Vehicle } from '../route/profiles.js';
import { routerOf } from '../route/router.js';
import type { Snap } from '../route/snap.js';
import { isParamError, parseAvoid, parseCoordList, parseVehicle, type LatLng } from './coords.js';
import { rawParams, type Query } from './param-types.js';
import { distanceText, durationText, type TextValue } from '../text/text-value.js';
import type { Statuses } from './statuses.js';

/** Query parameters of GET /DistanceMatrix. */
export type MatrixParams = {
  /** "<lat>,<lng>" points separated by "|" (or ";"), at most `limits.matrixSide` (default 100). */
  origins: string;
  /** "<lat>,<lng>" points separated by "|" (or ";"), at most `limits.matrixSide` (default 100). */
  destinations: string;
  /** Default car. */
  vehicle?: Vehicle;
  /**
   * Road kinds to keep away from, separated by `|`: tolls, highways (motorways and trunks), ferries (an extension of
   * the seed's API, as Google's `avoid`: a preference, see route/avoid.ts). Default none.
   */
  avoid?: string;
};

export type MatrixElement =
  | { status: Statuses<'OK'>; distance: TextValue; duration: TextValue }
  | { status: Statuses<'ZERO_RESULTS' | 'NOT_FOUND'> };

export interface MatrixResponse {
  rows: { elements: MatrixElement[] }[];
  status: Statuses<'OK' | 'BAD_REQUEST' | 'ERROR'>;
  error_message?: string;
}

/** Durations (s), distances (m) and routability weights between points, row-major; Infinity where unreachable. */
interface DurationTable {
  durations: Float64Array;
  distances: Float64Array;
  weights: Float64Array;
  /** Snapped points (null: off the road network; its row and column are Infinity). */
  snaps: (Snap | null)[];
}

/**
 * Every pair of `origins` × `destinations` in one region for a vehicle (one search per origin), the same values
 * `direction` gives for each pair. Used by DistanceMatrix and by trip (with the same list on both sides).
 */
function durationTable(
  region: Region,
  origins: readonly LatLng[],
  destinations: readonly LatLng[],
  vehicle: Vehicle,
  avoid: number,
  snapRadius = DEFAULT_LIMITS.snapRadius,
): DurationTable {
  const profile = vehicleIndex(vehicle);
  const router = routerOf(region);
  const so = origins.map((p) => router.snap(p.lat, p.lng, profile, snapRadius));
  const sd = destinations.map((p) => router.snap(p.lat, p.lng, profile, snapRadius));
  const n = origins.length * destinations.length;
  const out = {
    durations: new Float64Array(n).fill(Infinity),
    distances: new Float64Array(n).fill(Infinity),
    weights: new Float64Array(n).fill(Infinity),
    snaps: [...so, ...sd],
  };
  const okO = so.flatMap((s, i) => (s ? [i] : []));
  const okD = sd.flatMap((s, j) => (s ? [j] : []));
  // The pair rule of Direction (Router.ends): a pair nearest to one small component is routed within it.
  const t = router.snapTable(
    okO.map((i) => so[i]!),
    okD.map((j) => sd[j]!),
    profile,
    'fastest',
    avoid,
  );
  okO.forEach((i, a) => {
    okD.forEach((j, b) => {
      const k = a * okD.length + b;
      out.durations[i * destinations.length + j] = t.dur[k]!;
      out.distances[i * destinations.length + j] = t.dist[k]!;
      out.weights[i * destinations.length + j] = t.weight[k]!;
    });
  });
  return out;
}

/**
 * GET /DistanceMatrix: `origins` (separated by `|` or `;`) × `destinations` (`|`, `;` also accepted), at most
 * `limits.matrixSide` (default 100) of each. Element status OK, ZERO_RESULTS (no route) or NOT_FOUND (point off the
 * road network or outside the loaded region). Bad input gives BAD_REQUEST naming the parameter. Never throws.
 */
export function distanceMatrix(
  regions: readonly Region[],
  params: Query<MatrixParams>,
  limits: Limits = DEFAULT_LIMITS,
): MatrixResponse {
  try {
    const p = rawParams(params);
    const origins = parseCoordList(p.origins, 'origins', /[|;]/, limits.matrixSide);
    if (isParamError(origins)) return fail(origins.error);
    const dests = parseCoordList(p.destinations, 'destinations', /[|;]/, limits.matrixSide);
    if (isParamError(dests)) return fail(dests.error);
    const vehicle = parseVehicle(p.vehicle);
    if (isParamError(vehicle)) return fail(vehicle.error);
    const avoid = parseAvoid(p.avoid);
    if (isParamError(avoid)) return fail(avoid.error);
    // The region of the first origin, else of the first destination, else of the first other point inside a loaded
    // region: pairs in it are answered even when the first points lie outside every region.
    const region = [origins[0]!, dests[0]!, ...origins, ...dests].reduce<Region | null>(
      (found, p) => found ?? regionFor(regions, [p]),
      null,
    );
    const inside = (q: LatLng) => !!region && region.contains(q.lat, q.lng);
    const table = region ? durationTable(region, origins, dests, vehicle, avoid, limits.snapRadius) : null;
    const rows = origins.map((o, i) => ({
      elements: dests.map((d, j): MatrixElement => {
        if (!table || !inside(o) || !inside(d) || !table.snaps[i] || !table.snaps[origins.length + j])
          return { status: 'NOT_FOUND' };
        const k = i * dests.length + j;
        if (table.weights[k] === Infinity) return { status: 'ZERO_RESULTS' };
        return {
          status: 'OK',
          distance: distanceText(table.distances[k]!),
          duration: durationText(table.durations[k]!),
        };
      }),
    }));
    return { rows, status: 'OK' };
  } catch (err) {
    return { rows: [], status: 'ERROR', error_message: `distance matrix failed: ${(err as Error).message}` };
  }
}

function fail(message: string): MatrixResponse {
  return { rows: [], status: 'BAD_REQUEST', error_message: message };
}
