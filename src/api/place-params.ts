/**
 * Checking the query parameters of the place endpoints. Every check returns the value or a `ParamError` naming the
 * parameter (the one result shape of every parameter check, see coords.ts); nothing here throws.
 */
import { DEFAULT_LIMITS } from '../limits';
import { parseCoord, DECIMAL, given, type ParamError } from './coords';
import type { RawParams } from './param-types';

const bad = (error: string): ParamError => ({ error });

/** C0/C1 control characters other than tab, newline and carriage return (which count as spaces). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
/** Emoji and other pictographs, and their joiners/selectors: no place name holds them. */
const PICTOGRAPH = /[\p{Extended_Pictographic}\u200d\ufe0f\u{1f1e6}-\u{1f1ff}]/u;
/** Lone UTF-16 surrogates (broken text). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A required free-text parameter: a non-empty string of at most `maxLength` characters, no emoji or controls.
 * @param maxLength longest accepted text, characters (`limits.textLength`)
 */
export function textParam(name: string, v: unknown, maxLength = DEFAULT_LIMITS.textLength): string | ParamError {
  if (v === undefined || v === null) return bad(`${name} is required`);
  if (typeof v !== 'string' && typeof v !== 'number') return bad(`${name} must be a string`);
  const s = String(v);
  if (s.trim() === '') return bad(`${name} must not be empty`);
  if (s.length > maxLength) return bad(`${name} is too long (${s.length} characters; at most ${maxLength})`);
  if (CONTROL.test(s)) return bad(`${name} must not contain control characters`);
  if (LONE_SURROGATE.test(s)) return bad(`${name} is not valid Unicode text`);
  if (PICTOGRAPH.test(s)) return bad(`${name} must not contain emoji or pictographs`);
  return s;
}

/** A coordinate string "lat,lng" by the one coordinate rule (see parseCoord). */
export function latLngParam(name: string, v: unknown): { lat: number; lng: number } | ParamError {
  if (typeof v !== 'string') return bad(`${name} must be a string "lat,lng"`);
  return parseCoord(v, name);
}

/**
 * An optional number: absent gives `def`; a number or numeric string in [min, max] otherwise (min excluded with
 * `exclusiveMin`, max Infinity when not given), else an error naming the parameter and the bound.
 */
export function numberParam(
  name: string,
  v: unknown,
  def: number,
  min: number,
  opts?: { integer?: boolean; exclusiveMin?: boolean; max?: number },
): number | ParamError {
  if (!given(v)) return def;
  const n = typeof v === 'number' ? v : typeof v === 'string' && DECIMAL.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isFinite(n)) return bad(`${name} must be a number`);
  if (opts?.integer && !Number.isInteger(n)) return bad(`${name} must be an integer`);
  if (opts?.exclusiveMin ? n <= min : n < min)
    return bad(`${name} must be ${opts?.exclusiveMin ? 'greater than' : 'at least'} ${min}`);
  if (opts?.max !== undefined && n > opts.max) return bad(`${name} must be at most ${opts.max}`);
  return n;
}

/** Longest accepted session token, characters. */
export const MAX_TOKEN_LENGTH = 256;

/** An optional session token: a string of printable characters; absent or empty gives undefined. */
export function tokenParam(name: string, v: unknown): string | undefined | ParamError {
  if (!given(v)) return undefined;
  if (typeof v !== 'string') return bad(`${name} must be a string`);
  if (v.length > MAX_TOKEN_LENGTH) return bad(`${name} is too long (at most ${MAX_TOKEN_LENGTH} characters)`);
  if (CONTROL.test(v) || /[\t\n\r]/.test(v)) return bad(`${name} must not contain control characters`);
  return v;
}

/**
 * The place id of a query: `place_id`, or its alias `placeid` when `place_id` is not given (absent or empty, the one
 * rule for an empty value: see `given`). The one reading of the alias, for Geocode and Place/Detail on every surface.
 */
export function placeIdParam(p: RawParams): unknown {
  return given(p.place_id) ? p.place_id : p.placeid;
}
