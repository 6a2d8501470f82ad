import type { StylePropertySpecification } from '@maplibre/maplibre-gl-style-spec';
import type { PropertyDefinition } from './types.js';

/** Whether the table says the property accepts data-driven (feature) expressions. */
function supportsDataDriven(def: PropertyDefinition): boolean {
  return typeof def.dataDriven === 'object';
}

const cache = new WeakMap<PropertyDefinition, StylePropertySpecification>();

/**
 * Translates a table row into the property specification the style-spec library's expression
 * parser takes. Only parsing/type information is carried; our table stays the source of truth for
 * defaults (the library's fallback default is left out so a failed evaluation is visible to us).
 */
export function libraryPropertySpec(def: PropertyDefinition): StylePropertySpecification {
  const cached = cache.get(def);
  if (cached) return cached;
  const parameters: ('zoom' | 'feature' | 'feature-state' | 'line-progress')[] = def.rampInput
    ? [def.rampInput]
    : ['zoom'];
  if (!def.rampInput && supportsDataDriven(def)) parameters.push('feature');
  if (def.featureState) parameters.push('feature-state');
  const propertyType = def.rampInput ? 'color-ramp' : supportsDataDriven(def) ? 'data-driven' : 'data-constant';
  const common = {
    'property-type': propertyType,
    expression: { interpolated: def.interpolate, parameters },
    transition: def.transition,
  };
  let spec: Record<string, unknown>;
  switch (def.type) {
    case 'number[]':
      spec = { ...common, type: 'array', value: 'number', length: def.length };
      break;
    case 'string[]':
      spec = { ...common, type: 'array', value: 'string' };
      break;
    case 'enum[]':
      // The parser has no array-of-enum type: it checks an array of values; we check members.
      spec = { ...common, type: 'array', value: 'enum' };
      break;
    case 'enum':
      spec = {
        ...common,
        type: 'enum',
        values: Object.fromEntries((def.values ?? []).map((v) => [v, {}])),
      };
      break;
    default:
      spec = { ...common, type: def.type };
  }
  const result = spec as unknown as StylePropertySpecification;
  cache.set(def, result);
  return result;
}

/** Property specification of a layer filter (boolean, zoom + feature, no feature-state). */
export const FILTER_SPEC = {
  type: 'boolean',
  'property-type': 'data-driven',
  expression: { interpolated: false, parameters: ['zoom', 'feature'] },
  transition: false,
  default: false,
} as unknown as StylePropertySpecification;
