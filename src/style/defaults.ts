import { VISIBILITY, getPropertyDefinition, isDocumentedLayerType } from './definitions.js';
import { normalizeValue, type EvaluatedValue } from './normalize.js';
import type { PropertyDefinition } from './types.js';

/**
 * Table row of a property for any layer type: documented types have their whole table; the
 * undocumented ones (circle, raster, ...) only `visibility`.
 */
export function definitionFor(layerType: string, property: string): PropertyDefinition | undefined {
  if (isDocumentedLayerType(layerType)) return getPropertyDefinition(layerType, property);
  return property === VISIBILITY.name ? VISIBILITY : undefined;
}

/**
 * The default value of a property, evaluated (colours as RGBA 0–255).
 * A derived default (fill-outline-color = fill-color) resolves to the other property's default.
 * @returns `undefined` for an unknown property or when the default is "none"
 */
export function defaultValue(layerType: string, property: string): EvaluatedValue | undefined {
  const def = definitionFor(layerType, property);
  if (!def) return undefined;
  if (def.defaultFrom) return defaultValue(layerType, def.defaultFrom);
  return def.default === undefined ? undefined : normalizeValue(def, def.default);
}
