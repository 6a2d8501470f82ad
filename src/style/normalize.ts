import { colorToRgba, parseColor, type RGBA } from './color.js';
import { loadedStyleSpec } from './style-spec.js';
import type { PropertyDefinition } from './types.js';

/**
 * An evaluated property value. Colours are {@link RGBA} (channels 0–255, alpha 0–1); enums,
 * image names (resolvedImage) and text (formatted, sections concatenated) are strings; numbers are
 * clamped into the table's range.
 */
export type EvaluatedValue = number | boolean | string | RGBA | readonly number[] | readonly string[];

const clamp = (def: PropertyDefinition, x: number): number =>
  Math.min(def.max ?? Infinity, Math.max(def.min ?? -Infinity, x));

const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Converts a constant or an expression result into the property's evaluated form, clamping
 * numbers (and number-array elements) into the table's range.
 * @returns the value, or `undefined` when `raw` is not a value of the property's type (the caller
 *   then falls back to the default)
 */
export function normalizeValue(def: PropertyDefinition, raw: unknown): EvaluatedValue | undefined {
  // A value of the library's classes exists only once the library is loaded: constants and the small evaluator's
  // results are plain values (small-expression.ts), which must not load it.
  const library = loadedStyleSpec();
  switch (def.type) {
    case 'color':
      if (library && raw instanceof library.Color) return colorToRgba(raw);
      return parseColor(raw);
    case 'number':
      return isFiniteNumber(raw) ? clamp(def, raw) : undefined;
    case 'boolean':
      return typeof raw === 'boolean' ? raw : undefined;
    case 'enum':
      return typeof raw === 'string' && def.values?.includes(raw) ? raw : undefined;
    case 'number[]':
      if (!Array.isArray(raw) || !raw.every(isFiniteNumber)) return undefined;
      if (def.length !== undefined && raw.length !== def.length) return undefined;
      return raw.map((x) => clamp(def, x));
    case 'string[]':
      return Array.isArray(raw) && raw.every((x) => typeof x === 'string') ? [...raw] : undefined;
    case 'enum[]': {
      if (!Array.isArray(raw)) return undefined;
      const kept = raw.filter((x): x is string => typeof x === 'string' && !!def.values?.includes(x));
      return kept.length > 0 ? kept : undefined;
    }
    case 'resolvedImage': {
      const name = library && raw instanceof library.ResolvedImage ? raw.name : raw;
      return typeof name === 'string' && name !== '' ? name : undefined;
    }
    case 'formatted':
      if (library && raw instanceof library.Formatted) return raw.toString();
      return typeof raw === 'string' ? raw : undefined;
    case 'string':
      return typeof raw === 'string' ? raw : undefined;
  }
}
