/**
 * Checking the query parameters of the place endpoints. Every check returns either a value or an error message
 * that names the parameter; nothing here throws.
 */
import { DEFAULT_LIMITS } from '../limits';

/** A checked value or an error message naming the parameter. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const bad = <T>(error: string): Checked<T> => ({ ok: false, error });

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
export function textParam(name: string, v: unknown, maxLength = DEFAULT_LIMITS.textLength): Checked<string> {
  if (v === undefined || v === null) return bad(`${name} is required`);
  if (typeof v !== 'string' && typeof v !== 'number') return bad(`${name} must be a string`);
  const s = String(v);
  if (s.trim() === '') return bad(`${name} must not be empty`);
  if (s.length > maxLength) return bad(`${name} is too long (${s.length} characters; at most ${maxLength})`);
  if (CONTROL.test(s)) return bad(`${name} must not contain control characters`);
  if (LONE_SURROGATE.test(s)) return bad(`${name} is not valid Unicode text`);
  if (PICTOGRAPH.test(s)) return bad(`${name} must not contain emoji or pictographs`);
  return ok(s);
}

/** A coordinate string "lat,lng" (decimal degrees; a space after the comma is fine), in range. */
export function latLngParam(name: string, v: unknown): Checked<{ lat: number; lng: number }> {
  if (typeof v !== 'string') return bad(`${name} must be a string "lat,lng"`);
  const parts = v.split(',');
  if (parts.length !== 2) return bad(`${name} must be two numbers "lat,lng" (got ${parts.length} part${parts.length === 1 ? '' : 's'})`);
  const num = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
  if (!num.test(parts[0]!) || !num.test(parts[1]!)) return bad(`${name} must be two decimal numbers "lat,lng"`);
  const lat = Number(parts[0]);
  const lng = Number(parts[1]);
  if (lat < -90 || lat > 90) return bad(`${name}: latitude ${lat} is out of range [-90, 90]`);
  if (lng < -180 || lng > 180) return bad(`${name}: longitude ${lng} is out of range [-180, 180]`);
  return ok({ lat, lng });
}

/** An optional number: absent gives `def`; a number or numeric string in [min, ∞) otherwise, else an error. */
export function numberParam(name: string, v: unknown, def: number, min: number, opts?: { integer?: boolean; exclusiveMin?: boolean }): Checked<number> {
  if (v === undefined || v === null || v === '') return ok(def);
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) return bad(`${name} must be a number`);
  if (opts?.integer && !Number.isInteger(n)) return bad(`${name} must be an integer`);
  if (opts?.exclusiveMin ? n <= min : n < min) return bad(`${name} must be ${opts?.exclusiveMin ? 'greater than' : 'at least'} ${min}`);
  return ok(n);
}

/** An optional boolean: true/false, "true"/"false", "1"/"0"; absent gives false. */
export function boolParam(name: string, v: unknown): Checked<boolean> {
  if (v === undefined || v === null || v === '') return ok(false);
  if (v === true || v === 'true' || v === '1' || v === 1) return ok(true);
  if (v === false || v === 'false' || v === '0' || v === 0) return ok(false);
  return bad(`${name} must be true or false`);
}

/** Longest accepted session token, characters. */
export const MAX_TOKEN_LENGTH = 256;

/** An optional session token: a string of printable characters; absent or empty gives undefined. */
export function tokenParam(name: string, v: unknown): Checked<string | undefined> {
  if (v === undefined || v === null || v === '') return ok(undefined);
  if (typeof v !== 'string') return bad(`${name} must be a string`);
  if (v.length > MAX_TOKEN_LENGTH) return bad(`${name} is too long (at most ${MAX_TOKEN_LENGTH} characters)`);
  if (CONTROL.test(v) || /[\t\n\r]/.test(v)) return bad(`${name} must not contain control characters`);
  return ok(v);
}

/** Whether a parameter was given (present and not the empty string). */
export function given(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}
