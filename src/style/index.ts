/**
 * Style layer definitions (style-layers.md): the property table, validation, defaults and
 * evaluation of background, fill, line and symbol layers.
 */
export type {
  ClientVersions,
  DataDrivenSupport,
  DefaultValue,
  DocumentedLayerType,
  LayerFieldDefinition,
  LayerFieldType,
  LayerType,
  PropertyDefinition,
  PropertyKind,
  PropertyRequirement,
  PropertyValueType,
  SourceRequirement,
  UndocumentedLayerType,
  VersionNote,
} from './types.js';
export { BASIC_A, formatVersions, versions } from './versions.js';
export { ANCHOR_VALUES } from './definitions-symbol-common.js';
export {
  DOCUMENTED_LAYER_TYPES,
  LAYER_FIELDS,
  LAYER_TYPES,
  PROPERTY_DEFINITIONS,
  UNDOCUMENTED_LAYER_TYPES,
  getPropertyDefinition,
  isDocumentedLayerType,
  layerTypesWithProperty,
  propertiesOf,
} from './definitions.js';
export type { StyleIssue, StyleValidationResult } from './issues.js';
export { validateStyleLayer } from './validate-layer.js';
export { validateStyle } from './validate-style.js';
export { parseColor, parseMapColor, type RGBA } from './color.js';
export type { EvaluatedValue } from './normalize.js';
export { defaultValue, definitionFor } from './defaults.js';
export {
  createLayerEvaluator,
  type EvaluateOptions,
  type LayerEvaluator,
  type LayerEvaluatorOptions,
  type StyleFeature,
} from './evaluator.js';
export { describeProperties } from './describe.js';
