import { BACKGROUND_PROPERTIES, FILL_PROPERTIES } from './definitions-fill.js';
import { ICON_PROPERTIES } from './definitions-icon.js';
import {
  DOCUMENTED_LAYER_TYPES,
  LAYER_FIELDS,
  LAYER_TYPES,
  UNDOCUMENTED_LAYER_TYPES,
  VISIBILITY,
} from './definitions-layer.js';
import { LINE_PROPERTIES } from './definitions-line.js';
import { TEXT_PROPERTIES } from './definitions-text.js';
import type { DocumentedLayerType, PropertyDefinition } from './types.js';

export { DOCUMENTED_LAYER_TYPES, LAYER_FIELDS, LAYER_TYPES, UNDOCUMENTED_LAYER_TYPES };

/**
 * The property table: every layout and paint property of style-layers.md, `visibility` first.
 * This is the single source of truth for validation, defaults, evaluation and docs.
 */
export const PROPERTY_DEFINITIONS: readonly PropertyDefinition[] = [
  VISIBILITY,
  ...BACKGROUND_PROPERTIES,
  ...FILL_PROPERTIES,
  ...LINE_PROPERTIES,
  ...ICON_PROPERTIES,
  ...TEXT_PROPERTIES,
];

const BY_TYPE = new Map<string, Map<string, PropertyDefinition>>(
  DOCUMENTED_LAYER_TYPES.map((type) => [
    type,
    new Map(
      PROPERTY_DEFINITIONS.filter((d) => d.layerTypes.includes(type)).map((d) => [d.name, d]),
    ),
  ]),
);

/** Whether `type` is a layer type with documented layout and paint properties. */
export function isDocumentedLayerType(type: unknown): type is DocumentedLayerType {
  return typeof type === 'string' && BY_TYPE.has(type);
}

/**
 * Looks up a property of a layer type.
 * @returns the table row, or `undefined` when the layer type does not have that property
 */
export function getPropertyDefinition(
  layerType: string,
  property: string,
): PropertyDefinition | undefined {
  return BY_TYPE.get(layerType)?.get(property);
}

/** All properties of a documented layer type (empty for other types), `visibility` first. */
export function propertiesOf(layerType: string): readonly PropertyDefinition[] {
  return [...(BY_TYPE.get(layerType)?.values() ?? [])];
}

/** Layer types (documented ones) that have a property of this name, for "did you mean" messages. */
export function layerTypesWithProperty(property: string): DocumentedLayerType[] {
  return PROPERTY_DEFINITIONS.filter((d) => d.name === property).flatMap((d) => d.layerTypes);
}
