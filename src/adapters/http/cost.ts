import { isParamError, parseAvoid, parseBool, parseVehicle } from '../../api/coords.js';
import { parseScale, parseSide } from '../../api/static-size.js';
import type { EngineParams, MethodName } from './routes.js';

/**
 * Estimated engine work of one call, read from its parameters before any of them is parsed: one pass over the
 * list parameters (separators counted, nothing split), so estimating costs next to nothing even for an 8 KB URL.
 */
export interface CallCost {
  /**
   * Cost units: about one millisecond of one core each, calibrated on the 2-core reference machine with the Hanoi
   * pack (direction 2, direction with alternatives ≈ 45, autocomplete of 500 characters ≈ 50, a 400-stop trip
   * ≈ 720–800, a 2048 × 2048 static map ≈ 300). An estimate of the order of magnitude, not a measurement.
   */
  units: number;
  /** The parameter that makes the call cost what it does (named in a refusal). */
  parameter: string;
}

/** Calls of at least this many units are heavy: they are run on a limited share of the engine threads. */
export const HEAVY_UNITS = 100;

/** Time budget of every call before its units are added, milliseconds. */
const BUDGET_BASE_MS = 1000;
/** Budget per unit, milliseconds: 20 × the calibrated time, so a machine several times slower stays well inside it. */
const BUDGET_MS_PER_UNIT = 20;

/**
 * The time a call of `units` may run on an engine thread before it is stopped, milliseconds: 1 s plus 20 ms per
 * unit, at most `ceilingMs` (the server's request time limit). A light call stuck for a second is stopped long
 * before the ceiling; a 400-stop trip gets about 17 s.
 */
export function callBudgetMs(units: number, ceilingMs: number): number {
  return Math.min(ceilingMs, BUDGET_BASE_MS + BUDGET_MS_PER_UNIT * units);
}

/**
 * What a call may build on its first use, as a key: its method, and for routing calls the metric they route by
 * (vehicle, route type and the road kinds they avoid: a metric may be customized at its first request, about a
 * second on a whole city). A call whose key no call answered on a worker has found anything for yet may take the
 * worker's whole time limit (a route refused as NOT_FOUND may not have customized its metric).
 */
export function coldKey(method: MethodName, params: EngineParams): string {
  if (!ROUTING.has(method)) return method;
  // The engine's own parsers: `ferries|tolls` and `Tolls,ferries` are one metric, as the engine reads them. A value
  // they refuse is answered at once (BAD_REQUEST), so its key matters not.
  const vehicle = parseVehicle(params.vehicle);
  const avoid = parseAvoid(params.avoid);
  const type = String(params.type ?? '')
    .trim()
    .toLowerCase();
  return `${method}:${isParamError(vehicle) ? '?' : vehicle}:${type}:${isParamError(avoid) ? '?' : avoid}`;
}

/** The methods that route (and take `avoid`). */
const ROUTING: ReadonlySet<MethodName> = new Set(['direction', 'distanceMatrix', 'trip', 'staticRoute']);

/** Number of items in a list parameter (`sep` characters + 1), 0 when absent or empty. */
function items(value: EngineParams[string] | undefined, seps: string): number {
  if (value === undefined || value === '') return 0;
  if (typeof value !== 'string') return 1;
  let n = 1;
  for (let i = 0; i < value.length; i++) if (seps.includes(value[i]!)) n++;
  return n;
}

/** Text length of a parameter, 0 when absent. */
function length(value: EngineParams[string] | undefined): number {
  return value === undefined ? 0 : String(value).length;
}

/**
 * A pixel size as the static map reads it (its own parser, `parseSide`), clamped to what it accepts; `fallback` when
 * absent or refused.
 */
function side(value: EngineParams[string] | undefined, fallback: number): number {
  const n = parseSide(value, fallback);
  return Number.isFinite(n) ? Math.min(Math.max(n, 1), 2048) : fallback;
}

/** True for a parameter the engine reads as true: its own parser (`parseBool`), so the cost is what is answered. */
function truthy(value: EngineParams[string] | undefined): boolean {
  return parseBool(value, '') === true;
}

/**
 * The estimated cost of a call. Parameters the engine will refuse are estimated like valid ones (the refusal is
 * cheap either way); a list counts as many items as it has separators.
 */
export function callCost(method: MethodName, params: EngineParams): CallCost {
  switch (method) {
    case 'geocode':
      return params.address !== undefined
        ? { units: 5 + length(params.address) / 20, parameter: 'address' }
        : { units: 1, parameter: 'latlng' };
    case 'autocomplete':
      return { units: 3 + length(params.input) / 10, parameter: 'input' };
    case 'placeDetail':
      return { units: 1, parameter: 'place_id' };
    case 'direction': {
      const legs = Math.max(1, items(params.destination, ';'));
      const alternatives = legs === 1 && truthy(params.alternatives) ? 40 : 0;
      return { units: 2 * legs + alternatives, parameter: alternatives > 2 * legs ? 'alternatives' : 'destination' };
    }
    case 'distanceMatrix': {
      const o = items(params.origins, '|;');
      const d = items(params.destinations, '|;');
      return { units: 2 + (o + d) / 30 + (o * d) / 2000, parameter: o >= d ? 'origins' : 'destinations' };
    }
    case 'trip': {
      const n = items(params.origin, '') + items(params.waypoints, ';') + items(params.destination, '');
      return { units: 2 + 1.5 * n + (n * n) / 800, parameter: 'waypoints' };
    }
    case 'staticRoute': {
      const w = side(params.width, 600);
      const h = side(params.height, 400);
      // scale=2 draws four times the pixels; read by the static map's own parser, so `scale=%202` counts as 2.
      const k = parseScale(params.scale) ?? 1;
      return { units: 20 + (w * h * k * k) / 15_000, parameter: w >= h ? 'width' : 'height' };
    }
  }
}
