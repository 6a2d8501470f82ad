import { VEHICLES, type Vehicle } from '../route/profiles.js';
import { AVOID_KINDS } from '../route/avoid.js';

export type { LatLng } from '../geo.js';
import type { LatLng } from '../geo.js';

/**
 * A parse failure naming the parameter. Every parameter check of the request layer returns `T | ParamError` (the one
 * result shape; {@link isParamError} tells them apart), so checks compose the same way in every endpoint.
 */
export interface ParamError {
  error: string;
}

/** True when a parse result is an error. */
export function isParamError<T>(v: T | ParamError): v is ParamError {
  return typeof v === 'object' && v !== null && 'error' in v;
}

/**
 * Whether a parameter was given: present and not the empty string. The one rule of every endpoint for an empty
 * value: it is an absent one (optional parameters take their default, required ones are refused as missing); a value
 * of spaces is given, and each parameter's own check refuses it or reads it.
 */
export function given(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/** A decimal number as the REST parameters write them: optional sign, digits, optional fraction; no exponent. */
export const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Parses one "<lat>,<lng>" coordinate: two decimal numbers (no exponent), spaces allowed around each, latitude
 * -90..90, longitude -180..180. The one coordinate rule of every endpoint; an error names `param`.
 */
export function parseCoord(text: string, param: string): LatLng | ParamError {
  const parts = text.split(',');
  if (parts.length !== 2) return { error: `${param}: expected "<lat>,<lng>", got "${clip(text)}"` };
  const [a, b] = parts.map((p) => p.trim()) as [string, string];
  if (!DECIMAL.test(a) || !DECIMAL.test(b)) return { error: `${param}: "${clip(text)}" is not a pair of numbers` };
  const lat = Number(a);
  const lng = Number(b);
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180))
    return { error: `${param}: "${clip(text)}" is out of range (latitude -90..90, longitude -180..180)` };
  return { lat, lng };
}

/**
 * Parses a list of coordinates separated by any of `separators` (e.g. ";" or "|"). Refuses a missing or empty value,
 * empty parts, and more than `max` points; an error names `param`.
 */
export function parseCoordList(value: unknown, param: string, separators: RegExp, max: number): LatLng[] | ParamError {
  if (!given(value)) return { error: `${param} is required` };
  if (typeof value !== 'string') return { error: `${param} must be a string of "<lat>,<lng>" coordinates` };
  const parts = value.split(separators);
  if (parts.length > max) return { error: `${param}: at most ${max} points allowed, got ${parts.length}` };
  const out: LatLng[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!.trim();
    if (!p) return { error: `${param}: point ${i + 1} is empty` };
    const c = parseCoord(p, param);
    if (isParamError(c)) return c;
    out.push(c);
  }
  return out;
}

/** Parses `vehicle` (default car; car, bike, taxi, truck, hd, case-insensitive). */
export function parseVehicle(value: unknown, param = 'vehicle'): Vehicle | ParamError {
  if (!given(value)) return 'car';
  const v = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (typeof v === 'string' && (VEHICLES as readonly string[]).includes(v)) return v as Vehicle;
  return { error: `${param}: unknown vehicle "${shown(value)}" (expected one of ${VEHICLES.join(', ')})` };
}

/**
 * Parses `avoid`: road kinds to keep away from (avoid.ts AVOID_KINDS: tolls, highways, ferries) separated by `|` or
 * `,`, case-insensitive, spaces trimmed, as an avoid mask; absent or empty gives 0 (none). An error names the first
 * unknown kind.
 */
export function parseAvoid(value: unknown, param = 'avoid'): number | ParamError {
  if (!given(value)) return 0;
  if (typeof value !== 'string') return { error: `${param} must be text such as "tolls|highways"` };
  let mask = 0;
  for (const part of value.split(/[|,]/)) {
    const name = part.trim().toLowerCase();
    const kind = AVOID_KINDS.find((k) => k.name === name);
    if (!kind)
      return {
        error: `${param}: unknown road kind "${clip(part.trim())}" (expected ${AVOID_KINDS.map((k) => k.name).join(', ')}, separated by |)`,
      };
    mask |= kind.bit;
  }
  return mask;
}

/**
 * Parses an optional boolean: true/false or 1/0, as booleans, numbers or strings (case-insensitive, spaces
 * trimmed); absent or empty gives `dflt`. The one boolean rule of every endpoint; an error names `param`.
 */
export function parseBool(value: unknown, param: string, dflt = false): boolean | ParamError {
  if (!given(value)) return dflt;
  if (typeof value === 'boolean') return value;
  const v = typeof value === 'string' ? value.trim().toLowerCase() : typeof value === 'number' ? String(value) : '';
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return { error: `${param}: expected true or false, got "${shown(value)}"` };
}

/** Text for an error message: up to 60 characters of it, so a huge parameter does not make a huge answer. */
export function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/**
 * Any parameter value as text for an error message, clipped (see {@link clip}): what `String` makes of it, or its
 * type when it has no string form (an object without a prototype, a `toString` that throws), so that describing a
 * refused value can never itself throw.
 */
export function shown(value: unknown): string {
  try {
    return clip(String(value));
  } catch {
    return `(a value of type ${typeof value})`;
  }
}
