/**
 * Checking the query parameters of the place endpoints. Every check returns either a value or an error message
 * that names the parameter; nothing here throws.
 */
import { DEFAULT_LIMITS } from '../limits';
import { isParamError, parseBool, parseCoord, DECIMAL } from './coords';

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

/** A coordinate string "lat,lng" by the one coordinate rule (see parseCoord). */
export function latLngParam(name: string, v: unknown): Checked<{ lat: number; lng: number }> {
  if (typeof v !== 'string') return bad(`${name} must be a string "lat,lng"`);
  const c = parseCoord(v, name);
  return isParamError(c) ? bad(c.error) : ok(c);
}

/** An optional number: absent gives `def`; a number or numeric string in [min, ∞) otherwise, else an error. */
export function numberParam(
  name: string,
  v: unknown,
  def: number,
  min: number,
  opts?: { integer?: boolean; exclusiveMin?: boolean },
): Checked<number> {
  if (v === undefined || v === null || v === '') return ok(def);
  const n = typeof v === 'number' ? v : typeof v === 'string' && DECIMAL.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isFinite(n)) return bad(`${name} must be a number`);
  if (opts?.integer && !Number.isInteger(n)) return bad(`${name} must be an integer`);
  if (opts?.exclusiveMin ? n <= min : n < min)
    return bad(`${name} must be ${opts?.exclusiveMin ? 'greater than' : 'at least'} ${min}`);
  return ok(n);
}

/** An optional boolean by the one boolean rule (see parseBool); absent gives false. */
export function boolParam(name: string, v: unknown): Checked<boolean> {
  const b = parseBool(v, name);
  return isParamError(b) ? bad(b.error) : ok(b);
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
