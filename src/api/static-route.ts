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
 * - `color` takes what Google Static Maps users write and CSS colours as the style spec reads them
 *   (`parseMapColor`): `0xRRGGBB`, `0xRRGGBBAA`, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (the `#` optional, or
 *   still URL-encoded as `%23`), CSS colour names (`red`, `blue`, …), `rgb()`/`rgba()`/`hsl()`/`hsla()`; channels
 *   out of range are clamped as CSS does. Default `#253494`.
 * - `scale` is 1 or 2 (Google Static Maps' parameter, default 1): the image has `scale` times the pixels of
 *   `width` x `height` for the same map area, lines and labels (a retina image); `width * scale` and
 *   `height * scale` must stay within `limits.imageSize`.
 * - `avoid` takes the road kinds Direction does (tolls|highways|ferries, coords.ts parseAvoid), default none.
 * - Empty strings count as absent (the one rule of every endpoint, coords.ts `given`); a value of spaces is refused
 *   naming the parameter, as Direction refuses `vehicle=%20`.
 */

import type { LatLng } from '../geo.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { parseMapColor, type RGBA } from '../style/color.js';
import { clip, given, isParamError, parseAvoid, parseCoord, shown, type ParamError } from './coords.js';
import { rawParams, type NumberParam, type Query } from './param-types.js';
import { parseScale, parseSide, type StaticScale } from './static-size.js';
import type { Statuses } from './statuses.js';

/** Vehicles the static map accepts, in pack profile order. */
export const STATIC_VEHICLES = ['car', 'bike', 'taxi', 'truck', 'hd'] as const;
/** Route preferences. */
export const STATIC_TYPES = ['fastest', 'shortest'] as const;
/** Default route colour. */
export const DEFAULT_ROUTE_COLOR = '#253494';
/** Image size when `width` / `height` are absent, pixels (rest-api.md). */
export const DEFAULT_IMAGE_SIZE = { width: 600, height: 400 } as const;

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
  /** The route's colour. */
  color: RGBA;
  /** Image pixels per map pixel, 1 or 2. */
  scale: StaticScale;
  /** Road kinds the route keeps away from (route/avoid.ts mask; 0 for none). */
  avoid: number;
}

/** The error body of a request the engine refuses or cannot answer. */
export interface StaticRouteError {
  status: Statuses<'BAD_REQUEST' | 'NOT_FOUND' | 'ERROR'>;
  error_message: string;
}

/** Query parameters of GET /staticmap/route (`engine.staticRoute`). */
export type StaticRouteQuery = {
  /** "<lat>,<lng>" in decimal degrees. */
  origin: string;
  /** "<lat>,<lng>" in decimal degrees. */
  destination: string;
  /** Pixels, 1 to `limits.imageSize` (default 2048); default 600. */
  width?: NumberParam;
  /** Pixels, 1 to `limits.imageSize` (default 2048); default 400. */
  height?: NumberParam;
  /** Default car. */
  vehicle?: (typeof STATIC_VEHICLES)[number];
  /** Default fastest. */
  type?: (typeof STATIC_TYPES)[number];
  /** Route colour: `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb(…)`, `rgba(…)`; default `#253494`. */
  color?: string;
  /** 1 or 2: image pixels per map pixel (2 for retina screens); default 1. */
  scale?: 1 | 2 | '1' | '2';
  /** Road kinds to keep away from, separated by `|`: tolls, highways, ferries (as Direction's); default none. */
  avoid?: string;
};

const bad = (error: string): ParamError => ({ error });

const show = (v: unknown): string => (typeof v === 'string' ? `"${clip(v)}"` : shown(v));

/**
 * Parses and validates the query.
 * @param maxSize largest width or height, pixels
 * @returns the parameters, or an error naming the first offending parameter
 */
export function parseStaticRouteParams(
  params: Query<StaticRouteQuery>,
  maxSize = DEFAULT_LIMITS.imageSize,
): StaticRouteParams | ParamError {
  if (params === null || typeof params !== 'object') return bad('the parameters must be an object');
  const query = rawParams(params);
  const origin = parseLatLng(query.origin, 'origin');
  if (isParamError(origin)) return origin;
  const destination = parseLatLng(query.destination, 'destination');
  if (isParamError(destination)) return destination;
  const sizes: number[] = [];
  for (const [name, fallback] of Object.entries(DEFAULT_IMAGE_SIZE) as ['width' | 'height', number][]) {
    const raw = query[name];
    const n = parseSide(raw, fallback);
    if (!Number.isInteger(n) || n < 1 || n > maxSize) {
      return bad(`invalid ${name}: expected an integer from 1 to ${maxSize} pixels, got ${show(raw)}`);
    }
    sizes.push(n);
  }
  const vehicle = parseEnum(query.vehicle, STATIC_VEHICLES, 'car');
  if (!vehicle)
    return bad(`invalid vehicle: expected one of ${STATIC_VEHICLES.join(', ')}, got ${show(query.vehicle)}`);
  const type = parseEnum(query.type, STATIC_TYPES, 'fastest');
  if (!type) return bad(`invalid type: expected fastest or shortest, got ${show(query.type)}`);
  const color = parseMapColor(
    !given(query.color) ? DEFAULT_ROUTE_COLOR : typeof query.color === 'string' ? query.color : '',
  );
  if (!color) {
    return bad(
      `invalid color: expected 0xRRGGBB, 0xRRGGBBAA, #RRGGBB, #RGB, a CSS colour name, rgb(), rgba(), hsl() or hsla(), got ${show(query.color)}`,
    );
  }
  const scale = parseScale(query.scale);
  if (scale === null) return bad(`invalid scale: expected 1 or 2, got ${show(query.scale)}`);
  const over = sizes.find((n) => n * scale > maxSize);
  if (over !== undefined) {
    return bad(
      `invalid scale: ${scale} makes the image ${over * scale} pixels across, over the limit of ${maxSize} (use a smaller width or height)`,
    );
  }
  const avoid = parseAvoid(query.avoid);
  if (isParamError(avoid)) return avoid;
  return { origin, destination, width: sizes[0]!, height: sizes[1]!, vehicle, type, color, scale, avoid };
}

/**
 * Parses a `<lat>,<lng>` coordinate by the one coordinate rule (see parseCoord).
 * @returns the point, or an error saying what is wrong
 */
function parseLatLng(raw: unknown, param: string): LatLng | ParamError {
  if (!given(raw)) return bad(`invalid ${param}: missing (expected "<lat>,<lng>" in decimal degrees)`);
  if (typeof raw !== 'string')
    return bad(`invalid ${param}: expected "<lat>,<lng>" in decimal degrees, got ${show(raw)}`);
  const c = parseCoord(raw.trim(), param);
  return isParamError(c) ? bad(`invalid ${c.error}`) : c;
}

function parseEnum<T extends string>(raw: unknown, values: readonly T[], fallback: T): T | null {
  if (!given(raw)) return fallback;
  if (typeof raw !== 'string') return null;
  const v = raw.trim().toLowerCase();
  return (values as readonly string[]).includes(v) ? (v as T) : null;
}
