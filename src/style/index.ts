/**
 * Style layer definitions (style-layers.md): the property table, validation, defaults and
 * evaluation of background, fill, line and symbol layers.
 */
export type { ClientVersions, PropertyDefinition } from './types.js';
export { BASIC_A } from './versions.js';
export { LAYER_FIELDS, PROPERTY_DEFINITIONS, getPropertyDefinition, propertiesOf } from './definitions.js';
export { validateStyleLayer } from './validate-layer.js';
export { validateStyle } from './validate-style.js';
export { parseColor } from './color.js';
export type { EvaluatedValue } from './normalize.js';
export { defaultValue } from './defaults.js';
export { createLayerEvaluator, type LayerEvaluator, type StyleFeature } from './evaluator.js';
export { describeProperties } from './describe.js';
