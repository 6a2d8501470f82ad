import { parseColor } from './color.js';
import { show } from './issues.js';
import type { PropertyDefinition } from './types.js';

/** Human description of a property's type for messages, e.g. "an array of 2 numbers". */
function describeType(def: PropertyDefinition): string {
  switch (def.type) {
    case 'color':
      return 'a color';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'enum':
      return `one of ${(def.values ?? []).join(', ')}`;
    case 'number[]':
      return def.length ? `an array of ${def.length} numbers` : 'an array of numbers';
    case 'string[]':
      return 'an array of strings';
    case 'enum[]':
      return `an array of ${(def.values ?? []).join(', ')}`;
    case 'resolvedImage':
      return 'an image name (string)';
    case 'formatted':
      return 'text (string or format expression)';
    case 'string':
      return 'a string';
  }
}

function rangeText(def: PropertyDefinition): string {
  if (def.min !== undefined && def.max !== undefined) return `between ${def.min} and ${def.max}`;
  if (def.min !== undefined) return `>= ${def.min}`;
  return `<= ${def.max}`;
}

function inRange(def: PropertyDefinition, x: number): boolean {
  return (def.min === undefined || x >= def.min) && (def.max === undefined || x <= def.max);
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Checks a constant (non-expression, non-function) value against its table row: type, colour
 * syntax, enum membership, array length and element type, numeric range.
 * @returns an error message naming the property, or `undefined` when the value is valid
 */
export function checkConstant(def: PropertyDefinition, value: unknown): string | undefined {
  const bad = `"${def.name}" expects ${describeType(def)}; found ${show(value)}`;
  switch (def.type) {
    case 'color':
      return parseColor(value) ? undefined : bad;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : bad;
    case 'resolvedImage':
    case 'formatted':
    case 'string':
      return typeof value === 'string' ? undefined : bad;
    case 'enum':
      return typeof value === 'string' && def.values?.includes(value) ? undefined : bad;
    case 'number':
      if (!isNumber(value)) return bad;
      return inRange(def, value) ? undefined : `"${def.name}" must be ${rangeText(def)}; found ${value}`;
    case 'number[]': {
      if (!Array.isArray(value) || !value.every(isNumber)) return bad;
      if (def.length !== undefined && value.length !== def.length) return bad;
      const out = value.find((x) => !inRange(def, x));
      return out === undefined ? undefined : `every element of "${def.name}" must be ${rangeText(def)}; found ${out}`;
    }
    case 'string[]':
      return Array.isArray(value) && value.every((x) => typeof x === 'string') ? undefined : bad;
    case 'enum[]':
      return Array.isArray(value) && value.every((x) => typeof x === 'string' && def.values?.includes(x))
        ? undefined
        : bad;
  }
}
