/**
 * The style table: the layer object's fields and every layout and paint property of style-layers.md, as generated
 * into table.generated.json (data-tools/style-table: derived from MapLibre's style reference and the spec overlay;
 * `npm run build:style-table`). The single source of truth for validation, defaults, evaluation and docs.
 */
import { DOCUMENTED_LAYER_TYPES, UNDOCUMENTED_LAYER_TYPES } from './layer-types.js';
import TABLE from './table.generated.json' with { type: 'json' };
import type { DocumentedLayerType, LayerFieldDefinition, LayerType, PropertyDefinition } from './types.js';

export { DOCUMENTED_LAYER_TYPES, UNDOCUMENTED_LAYER_TYPES };

/** Every value of the layer `type` field, in the spec's order. */
export const LAYER_TYPES = TABLE.layerTypes as readonly LayerType[];

/** Fields of the layer object (an element of the style's `layers` array), in the spec's order. */
export const LAYER_FIELDS = TABLE.layerFields as readonly LayerFieldDefinition[];

/** The property table: every layout and paint property of style-layers.md, `visibility` first. */
export const PROPERTY_DEFINITIONS = TABLE.properties as readonly PropertyDefinition[];

/** `visibility`: the one layout property of every layer type. */
export const VISIBILITY: PropertyDefinition = PROPERTY_DEFINITIONS.find((d) => d.name === 'visibility')!;

const BY_TYPE = new Map<string, Map<string, PropertyDefinition>>(
  DOCUMENTED_LAYER_TYPES.map((type) => [
    type,
    new Map(PROPERTY_DEFINITIONS.filter((d) => d.layerTypes.includes(type)).map((d) => [d.name, d])),
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
export function getPropertyDefinition(layerType: string, property: string): PropertyDefinition | undefined {
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
