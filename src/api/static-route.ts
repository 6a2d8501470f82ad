/**
 * Parameters of GET /staticmap/route (`engine.staticRoute`): parsing and validation. Every problem is reported as a
 * BAD_REQUEST body naming the parameter; nothing here throws.
 *
 * Documented choices where rest-api.md is silent:
 * - `width` and `height` are integers from 1 to `limits.imageSize` (2048) pixels (default 600 x 400); numbers and
 *   numeric strings are accepted, anything else (0, 2049, -5, 1.5, 'abc') is refused.
 * - `vehicle` accepts car, bike and taxi (the endpoint's documented values) and also truck and hd, which every
 *   other routing endpoint accepts and every pack can route; default car.
 * - `type` is fastest or shortest, default fastest. Enum values are matched case-insensitively.
 * - `color` accepts `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (the `#` optional, or URL-encoded as `%23`) and
 *   `rgb(r, g, b)` / `rgba(r, g, b, a)` with channels 0-255 (or percentages) and alpha 0-1; default `#253494`.
 * - Empty strings count as absent.
 */

import type { LatLng } from '../geo.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { isParamError, parseCoord } from './coords.js';
import type { Statuses } from './statuses.js';

/** Vehicles the static map accepts, in pack profile order. */
export const STATIC_VEHICLES = ['car', 'bike', 'taxi', 'truck', 'hd'] as const;
/** Route preferences. */
export const STATIC_TYPES = ['fastest', 'shortest'] as const;
/** Default route colour. */
export const DEFAULT_ROUTE_COLOR = '#253494';

/** Validated static route parameters. */
export interface StaticRouteParams {
  origin: LatLng;
  destination: LatLng;
  /** Pixels, 1..limits.imageSize. */
  width: number;
  /** Pixels, 1..limits.imageSize. */
  height: number;
  vehicle: (typeof STATIC_VEHICLES)[number];
  type: (typeof STATIC_TYPES)[number];
  /** Straight RGBA: red, green, blue 0..255, alpha 0..1. */
  color: readonly [number, number, number, number];
}

/** The error body of a request the engine refuses or cannot answer. */
export interface StaticRouteError {
  status: Statuses<'BAD_REQUEST' | 'NOT_FOUND' | 'ERROR'>;
  error_message: string;
}

/** The query of `staticRoute`: REST strings, or numbers for the sizes. */
export interface StaticRouteQuery {
  origin?: unknown;
  destination?: unknown;
  width?: unknown;
  height?: unknown;
  vehicle?: unknown;
  type?: unknown;
  color?: unknown;
  [other: string]: unknown;
}

const bad = (error_message: string): { ok: false; error: StaticRouteError } => ({
  ok: false,
  error: { status: 'BAD_REQUEST', error_message },
});

const absent = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const show = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : String(v));

/**
 * Parses and validates the query.
 * @param maxSize largest width or height, pixels
 * @returns the parameters, or a BAD_REQUEST body whose message names the first offending parameter
 */
export function parseStaticRouteParams(
  query: StaticRouteQuery,
  maxSize = DEFAULT_LIMITS.imageSize,
): { ok: true; params: StaticRouteParams } | { ok: false; error: StaticRouteError } {
  if (query === null || typeof query !== 'object') return bad('the parameters must be an object');
  const origin = parseLatLng(query.origin, 'origin');
  if (typeof origin === 'string') return bad(origin);
  const destination = parseLatLng(query.destination, 'destination');
  if (typeof destination === 'string') return bad(destination);
  const sizes: number[] = [];
  for (const [name, fallback] of [['width', 600], ['height', 400]] as const) {
    const raw = query[name];
    const n = absent(raw) ? fallback : typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[+]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > maxSize) {
      return bad(`invalid ${name}: expected an integer from 1 to ${maxSize} pixels, got ${show(raw)}`);
    }
    sizes.push(n);
  }
  const vehicle = parseEnum(query.vehicle, STATIC_VEHICLES, 'car');
  if (!vehicle) return bad(`invalid vehicle: expected one of ${STATIC_VEHICLES.join(', ')}, got ${show(query.vehicle)}`);
  const type = parseEnum(query.type, STATIC_TYPES, 'fastest');
  if (!type) return bad(`invalid type: expected fastest or shortest, got ${show(query.type)}`);
  const color = absent(query.color) ? parseRouteColor(DEFAULT_ROUTE_COLOR) : typeof query.color === 'string' ? parseRouteColor(query.color) : null;
  if (!color) {
    return bad(`invalid color: expected #rgb, #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a), got ${show(query.color)}`);
  }
  return { ok: true, params: { origin, destination, width: sizes[0]!, height: sizes[1]!, vehicle, type, color } };
}

/**
 * Parses a `<lat>,<lng>` coordinate by the one coordinate rule (see parseCoord).
 * @returns the point, or a message saying what is wrong
 */
function parseLatLng(raw: unknown, param: string): LatLng | string {
  if (absent(raw)) return `invalid ${param}: missing (expected "<lat>,<lng>" in decimal degrees)`;
  if (typeof raw !== 'string') return `invalid ${param}: expected "<lat>,<lng>" in decimal degrees, got ${show(raw)}`;
  const c = parseCoord(raw.trim(), param);
  return isParamError(c) ? `invalid ${c.error}` : c;
}

function parseEnum<T extends string>(raw: unknown, values: readonly T[], fallback: T): T | null {
  if (absent(raw)) return fallback;
  if (typeof raw !== 'string') return null;
  const v = raw.trim().toLowerCase();
  return (values as readonly string[]).includes(v) ? (v as T) : null;
}

/**
 * Parses a route colour strictly (see the module notes): out-of-range channels are refused, not clamped.
 * @returns straight RGBA (alpha 0..1), or null
 */
export function parseRouteColor(raw: string): [number, number, number, number] | null {
  let s = raw.trim().toLowerCase();
  if (s.startsWith('%23')) s = `#${s.slice(3)}`;
  const hex = /^#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(s);
  if (hex) {
    const h = hex[1]!;
    const digits = h.length <= 4 ? [...h].map((c) => c + c) : h.match(/../g)!;
    const v = digits.map((d) => parseInt(d, 16));
    return [v[0]!, v[1]!, v[2]!, (v[3] ?? 255) / 255];
  }
  const fn = /^rgba?\(\s*([^)]*?)\s*\)$/.exec(s);
  if (!fn) return null;
  const parts = fn[1]!.split(/\s*,\s*/);
  if (parts.length !== 3 && parts.length !== 4) return null;
  const out: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const m = /^(\d+\.?\d*|\.\d+)(%?)$/.exec(p);
    if (!m) return null;
    const v = Number(m[1]);
    const alpha = i === 3;
    const value = m[2] ? (v / 100) * (alpha ? 1 : 255) : v;
    if (value > (alpha ? 1 : 255)) return null;
    out.push(value);
  }
  return [out[0]!, out[1]!, out[2]!, out[3] ?? 1];
}
