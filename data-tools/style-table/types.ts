/**
 * Shapes of the style table's sources, MapLibre's style reference (the v8 reference of the style-spec package) and
 * the spec overlay (overlay.json), and of the table generated from them.
 */
import type {
  DefaultValue,
  DocumentedLayerType,
  LayerFieldDefinition,
  LayerType,
  PropertyDefinition,
} from '../../src/style/types.js';

/** Client versions as MapLibre's reference writes them: `js`, `android`, `ios` (a version, or a link to an issue). */
export type ReferenceSupport = Readonly<Record<string, string>>;

/**
 * A requirement as MapLibre's reference writes it: a property name (must be set), `{ '!': name }` (disabled while
 * that is set), `{ name: value | values }` (that property's value must be one of them), or a source requirement
 * `{ source: 'geojson', has: { lineMetrics: true } }`.
 */
type ReferenceRequirement =
  string | Readonly<Record<string, string | boolean | readonly string[] | Readonly<Record<string, boolean>>>>;

/** One layout or paint property of MapLibre's style reference (`v8.json`): the fields the derivation reads. */
export interface ReferenceProperty {
  readonly type: string;
  /** Element type of an `array`. */
  readonly value?: string;
  /** Fixed length of an `array`. */
  readonly length?: number;
  /** Enum values, each with its description. */
  readonly values?: Readonly<Record<string, unknown>>;
  readonly default?: DefaultValue;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly units?: string;
  readonly requires?: readonly ReferenceRequirement[];
  readonly transition?: boolean;
  readonly expression?: { readonly interpolated: boolean; readonly parameters: readonly string[] };
  /** `data-driven`, `data-constant`, `cross-faded`, `cross-faded-data-driven`, `color-ramp`, `constant`. */
  readonly 'property-type': string;
  /** `basic functionality`, `data-driven styling`, notes on particular values or features, expression support. */
  readonly 'sdk-support': Readonly<Record<string, ReferenceSupport>>;
}

/** A field of the layer object in MapLibre's reference. */
export interface ReferenceLayerField {
  /** `string`, `enum`, `number`, `filter`, `layout`, `paint` or `*` (anything). */
  readonly type: string;
  readonly required?: boolean;
  readonly values?: Readonly<Record<string, unknown>>;
  readonly minimum?: number;
  readonly maximum?: number;
}

/** The sections of MapLibre's style reference the table reads. */
export interface StyleReference {
  readonly layer: Readonly<Record<string, ReferenceLayerField>>;
  /** `layout_<type>` and `paint_<type>`: property name → row. */
  readonly [section: string]: Readonly<Record<string, ReferenceProperty | ReferenceLayerField>>;
}

/** Fields where style-layers.md differs from the reference's row; they replace the derived ones. */
export type SpecDifference = Partial<
  Pick<
    PropertyDefinition,
    'type' | 'default' | 'defaultFrom' | 'min' | 'units' | 'values' | 'disabledBy' | 'dataDriven'
  >
>;

/** The spec overlay (overlay.json). */
export interface SpecOverlay {
  /** Fields of the layer object in the spec's order: description, and the spec's "required unless background". */
  readonly layerFields: Readonly<Record<string, { readonly doc: string; readonly required?: 'unless-background' }>>;
  /** Description of `visibility`. */
  readonly visibility: string;
  /** Per documented layer type, its properties in the spec's order: name → description. */
  readonly properties: Readonly<Record<DocumentedLayerType, Readonly<Record<string, string>>>>;
  /** Where the spec differs from the reference, with why. */
  readonly differences: readonly {
    readonly properties: readonly string[];
    readonly spec: SpecDifference;
    readonly why: string;
  }[];
  /** macOS SDK version of an iOS SDK version, and the exceptions keyed `web/ios`. */
  readonly macosByIos: Readonly<Record<string, string>>;
  readonly macosByWebIos: Readonly<Record<string, string>>;
}

/** The table as generated into src/style/table.generated.json. */
export interface StyleTable {
  /** Every value of the layer `type` field, in the spec's order. */
  readonly layerTypes: readonly LayerType[];
  readonly layerFields: readonly LayerFieldDefinition[];
  /** `visibility` (every documented layer type) first, then each documented type's properties in the spec's order. */
  readonly properties: readonly PropertyDefinition[];
}
