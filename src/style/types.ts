/**
 * Types of the style layer definition table (style-layers.md). The table (`table.generated.json`, loaded by
 * `definitions.ts`) is plain data of these shapes; validation, defaults, evaluation and docs are all driven by it.
 */
import type { DOCUMENTED_LAYER_TYPES, UNDOCUMENTED_LAYER_TYPES } from './layer-types.js';

/** Layer types whose layout and paint properties the table covers. */
export type DocumentedLayerType = (typeof DOCUMENTED_LAYER_TYPES)[number];

/** Layer types the spec names but whose properties it does not show. */
type UndocumentedLayerType = (typeof UNDOCUMENTED_LAYER_TYPES)[number];

/** Every value of the layer object's `type` field. */
export type LayerType = DocumentedLayerType | UndocumentedLayerType;

/** Where a property lives: the layer's `layout` or `paint` object. */
export type PropertyKind = 'layout' | 'paint';

/**
 * Value type of a property. `number[]`, `string[]` and `enum[]` are the spec's
 * "array of numbers / strings / enums"; `resolvedImage` is a sprite image name;
 * `formatted` is text (a plain string is formatted text with default formatting).
 */
export type PropertyValueType =
  | 'color'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'number[]'
  | 'string[]'
  | 'enum[]'
  | 'resolvedImage'
  | 'formatted'
  | 'string';

/** A JSON value usable as a default (colours stay CSS strings here). */
export type DefaultValue = number | boolean | string | readonly number[] | readonly string[];

/** Minimum client versions, one per client (semver strings). */
export interface ClientVersions {
  readonly web: string;
  readonly android: string;
  readonly ios: string;
  readonly macos: string;
}

/** A minimum-version note attached to a value or feature, e.g. `{ label: 'auto value', ... }`. */
export interface VersionNote {
  /** Text of the note as the spec writes it, e.g. "auto value" or "stretchable icons". */
  readonly label: string;
  readonly versions: ClientVersions;
}

/**
 * A condition under which a property is used. `values` absent: the other property must be set
 * in the layer. `values` present: the other property's value (explicit, else its default) must be
 * one of them.
 */
export interface PropertyRequirement {
  readonly property: string;
  readonly values?: readonly (string | boolean)[];
}

/** A requirement on the layer's source (line-gradient needs a GeoJSON source with lineMetrics true). */
export interface SourceRequirement {
  /** Required `type` of the source description. */
  readonly type: string;
  /** Option of the source description that must be `true`. */
  readonly option: string;
}

/** Data-driven styling support: minimum versions, `'unsupported'`, or `'-'` when the spec gives none. */
export type DataDrivenSupport = ClientVersions | 'unsupported' | '-';

/** One row of the property table. */
export interface PropertyDefinition {
  /** Property name, e.g. `line-width`. */
  readonly name: string;
  /** Layer types that accept the property (`visibility` lists all documented ones). */
  readonly layerTypes: readonly DocumentedLayerType[];
  readonly kind: PropertyKind;
  readonly type: PropertyValueType;
  /** Default value; absent when the spec's default is "none" or derived ({@link defaultFrom}). */
  readonly default?: DefaultValue;
  /** The property whose value is the default (fill-outline-color defaults to fill-color). */
  readonly defaultFrom?: string;
  /** Inclusive minimum (for arrays: of every element). */
  readonly min?: number;
  /** Inclusive maximum. */
  readonly max?: number;
  /** Fixed array length ([x, y] = 2; top, right, bottom, left = 4). */
  readonly length?: number;
  /** Allowed values of an `enum` or elements of an `enum[]`. */
  readonly values?: readonly string[];
  /** Units of numeric values, e.g. `pixels`, `ems`, `degrees`. */
  readonly units?: string;
  /** All must hold for the property to be used. */
  readonly requires?: readonly PropertyRequirement[];
  readonly requiresSource?: SourceRequirement;
  /** The property is ignored while any of these is set. */
  readonly disabledBy?: readonly string[];
  /** fs: supports feature-state expressions. */
  readonly featureState: boolean;
  /** interp: supports interpolate expressions. */
  readonly interpolate: boolean;
  /** trans: transitionable. */
  readonly transition: boolean;
  /** Zoom-dependent values are evaluated only at integer zoom levels (pattern and dash properties). */
  readonly integerZoom?: boolean;
  /** Expressions of this property take this input instead of zoom/feature (line-gradient: line-progress). */
  readonly rampInput?: 'line-progress';
  /** Minimum client versions of basic support. */
  readonly basic: ClientVersions;
  /** Version notes for particular values or features. */
  readonly basicNotes?: readonly VersionNote[];
  readonly dataDriven: DataDrivenSupport;
  /** Description (the spec's Rules prose, without the flags). */
  readonly doc: string;
}

/** Value type of a field of the layer object. */
export type LayerFieldType = 'string' | 'enum' | 'expression' | 'object' | 'number' | 'any';

/** One row of the layer object table. */
export interface LayerFieldDefinition {
  readonly name: string;
  /** `true` = always required; `'unless-background'` = required for every type except background. */
  readonly required: boolean | 'unless-background';
  readonly type: LayerFieldType;
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly doc: string;
}
