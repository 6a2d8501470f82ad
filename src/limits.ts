/**
 * Every request limit of the engine, in one place: the defaults the REST API documents, the most each may be raised
 * to, and the check of limits given through `EngineOptions.limits` (and `bando serve --limit name=value`). A request
 * over a limit is refused with an error naming its parameter; the limits themselves never change an answer within
 * them.
 */
import { TRIP_LIMITS } from './trip/constants.js';

/** Request limits. */
export interface Limits {
  /** Most destinations one Direction request may list (one leg each). */
  destinations: number;
  /** Most origins, and most destinations, of one DistanceMatrix request. */
  matrixSide: number;
  /** Most coordinates (origin, waypoints and destination together) of one trip. */
  tripStops: number;
  /** Farthest a request point may lie from a road open to the vehicle to be routed from it, metres. */
  snapRadius: number;
  /** Longest `address` or `input` text of the place endpoints, characters. */
  textLength: number;
  /** Largest width or height of a static map image, pixels. */
  imageSize: number;
}

/** The limits of the online service, used when none are given. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  destinations: 25,
  matrixSide: 100,
  tripStops: TRIP_LIMITS.N_MAX,
  snapRadius: 10_000,
  textLength: 500,
  imageSize: 2048,
});

/**
 * The most each limit may be set to: what one request may cost in memory and time on one thread (a 500 × 500
 * matrix is 250,000 routes; a 4096-pixel square image is 64 MB of canvas), or what the code holds (trip solver).
 */
export const LIMIT_CAPS: Readonly<Limits> = Object.freeze({
  destinations: 100,
  matrixSide: 500,
  tripStops: TRIP_LIMITS.N_MAX,
  snapRadius: 100_000,
  textLength: 2000,
  imageSize: 4096,
});

/**
 * The defaults with the given limits applied.
 * @throws RangeError naming the limit when a value is not an integer from 1 to its cap, or the name is unknown
 */
export function resolveLimits(given: Partial<Limits> = {}): Limits {
  const out: Limits = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(given ?? {})) {
    if (value === undefined) continue;
    if (!Object.hasOwn(DEFAULT_LIMITS, name))
      throw new RangeError(`unknown limit "${name}"; the limits are ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    const cap = LIMIT_CAPS[name as keyof Limits];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > cap) {
      throw new RangeError(`limit ${name} must be an integer from 1 to ${cap}; got ${String(value)}`);
    }
    out[name as keyof Limits] = value;
  }
  return out;
}
