/**
 * Derives the style table from MapLibre's style reference and the spec overlay: each row's types, ranges, defaults,
 * flags, requirements and client versions come from the reference (derive-property.ts); the spec's property set,
 * order and wording, and its differences from the reference, come from the overlay (overlay.json).
 */
import { DOCUMENTED_LAYER_TYPES, UNDOCUMENTED_LAYER_TYPES } from '../../src/style/layer-types.js';
import type {
  DocumentedLayerType,
  LayerFieldDefinition,
  LayerFieldType,
  LayerType,
  PropertyKind,
} from '../../src/style/types.js';
import { deriveProperty, type RowContext } from './derive-property.js';
import type {
  ReferenceLayerField,
  ReferenceProperty,
  SpecDifference,
  SpecOverlay,
  StyleReference,
  StyleTable,
} from './types.js';

/** Table field types of the reference's layer-field types. */
const FIELD_TYPES: Readonly<Record<string, LayerFieldType>> = {
  string: 'string',
  enum: 'enum',
  number: 'number',
  filter: 'expression',
  layout: 'object',
  paint: 'object',
  '*': 'any',
};

/** The layer object's fields, in the overlay's (the spec's) order. */
function layerFields(
  reference: Readonly<Record<string, ReferenceLayerField>>,
  overlay: SpecOverlay,
  layerTypes: readonly LayerType[],
): LayerFieldDefinition[] {
  return Object.entries(overlay.layerFields).map(([name, field]) => {
    const ref = reference[name];
    const type = ref && FIELD_TYPES[ref.type];
    if (!type) throw new Error(`style table: layer field ${name} is not in the reference or has an unknown type`);
    return {
      name,
      required: field.required ?? ref.required === true,
      type,
      ...(ref.values && { values: layerTypes }),
      ...(ref.minimum !== undefined && { min: ref.minimum }),
      ...(ref.maximum !== undefined && { max: ref.maximum }),
      doc: field.doc,
    };
  });
}

/** Where the spec differs from the reference, by property name (a name is in at most one entry). */
function differencesByName(overlay: SpecOverlay): Map<string, SpecDifference> {
  const out = new Map<string, SpecDifference>();
  for (const d of overlay.differences) {
    for (const name of d.properties) {
      if (out.has(name)) throw new Error(`style table: ${name} is in two differences of overlay.json`);
      out.set(name, d.spec);
    }
  }
  return out;
}

/**
 * The whole table.
 * @param reference MapLibre's v8 style reference (the style-spec package's `dist/latest.json`)
 * @param overlay the spec overlay
 * @throws Error when a property or field of the overlay is not in the reference, or a rule above cannot place a row
 */
export function deriveTable(reference: StyleReference, overlay: SpecOverlay): StyleTable {
  const spec = new Set<string>([...DOCUMENTED_LAYER_TYPES, ...UNDOCUMENTED_LAYER_TYPES]);
  const layerTypes = Object.keys(reference.layer.type?.values ?? {}).filter((t) => spec.has(t)) as LayerType[];
  const names = new Set(Object.values(overlay.properties).flatMap((rows) => Object.keys(rows)));
  const differences = differencesByName(overlay);
  for (const name of differences.keys()) {
    if (!names.has(name)) throw new Error(`style table: overlay.json differs on ${name}, which is not a property`);
  }
  const ctx: RowContext = { overlay, known: (p) => names.has(p) };
  const row = (type: DocumentedLayerType, name: string): [ReferenceProperty, PropertyKind] => {
    for (const kind of ['layout', 'paint'] as const) {
      const ref = reference[`${kind}_${type}`]?.[name] as ReferenceProperty | undefined;
      if (ref) return [ref, kind];
    }
    throw new Error(`style table: ${type} property ${name} is not in the reference`);
  };
  const visibility = deriveProperty(
    ...row('background', 'visibility'),
    DOCUMENTED_LAYER_TYPES,
    'visibility',
    overlay.visibility,
    undefined,
    ctx,
  );
  const properties = DOCUMENTED_LAYER_TYPES.flatMap((type) =>
    Object.entries(overlay.properties[type]).map(([name, doc]) =>
      deriveProperty(...row(type, name), [type], name, doc, differences.get(name), ctx),
    ),
  );
  return {
    layerTypes,
    layerFields: layerFields(reference.layer, overlay, layerTypes),
    properties: [visibility, ...properties],
  };
}
