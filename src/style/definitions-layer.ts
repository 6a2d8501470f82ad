import type { LayerFieldDefinition, LayerType, PropertyDefinition } from './types.js';
import { BASIC_A, flags } from './versions.js';

/** Layer types with documented layout and paint properties. */
export const DOCUMENTED_LAYER_TYPES = ['background', 'fill', 'line', 'symbol'] as const;

/** Layer types the spec names without showing their properties: accepted, not checked. */
export const UNDOCUMENTED_LAYER_TYPES = [
  'circle',
  'heatmap',
  'fill-extrusion',
  'raster',
  'hillshade',
] as const;

/** Every value of the layer `type` field, in the spec's order. */
export const LAYER_TYPES: readonly LayerType[] = [
  'fill',
  'line',
  'symbol',
  'circle',
  'heatmap',
  'fill-extrusion',
  'raster',
  'hillshade',
  'background',
];

/** Fields of the layer object (an element of the style's `layers` array). */
export const LAYER_FIELDS: readonly LayerFieldDefinition[] = [
  { name: 'id', required: true, type: 'string', doc: 'Unique layer name.' },
  { name: 'type', required: true, type: 'enum', values: LAYER_TYPES, doc: 'Rendering type.' },
  {
    name: 'source',
    required: 'unless-background',
    type: 'string',
    doc: 'Name of a source description. Required for every type except background.',
  },
  {
    name: 'source-layer',
    required: false,
    type: 'string',
    doc: 'Layer of a vector tile source. Required for vector tile sources; prohibited for all other source types, including GeoJSON.',
  },
  {
    name: 'filter',
    required: false,
    type: 'expression',
    doc: 'Only features that match are displayed. Zoom expressions are evaluated only at integer zoom levels. The feature-state expression is not supported.',
  },
  { name: 'layout', required: false, type: 'object', doc: 'Layout properties of the layer.' },
  { name: 'paint', required: false, type: 'object', doc: 'Default paint properties of the layer.' },
  {
    name: 'minzoom',
    required: false,
    type: 'number',
    min: 0,
    max: 24,
    doc: 'The layer is hidden at zoom levels below minzoom.',
  },
  {
    name: 'maxzoom',
    required: false,
    type: 'number',
    min: 0,
    max: 24,
    doc: 'The layer is hidden at zoom levels equal to or above maxzoom.',
  },
  {
    name: 'metadata',
    required: false,
    type: 'any',
    doc: 'Arbitrary properties that do not influence rendering. Keys should carry a prefix to avoid collisions.',
  },
];

/** `visibility`: the one layout property of every layer type. */
export const VISIBILITY: PropertyDefinition = {
  name: 'visibility',
  layerTypes: DOCUMENTED_LAYER_TYPES,
  kind: 'layout',
  type: 'enum',
  default: 'visible',
  values: ['visible', 'none'],
  ...flags(),
  basic: BASIC_A,
  dataDriven: '-',
  doc: 'visible = the layer is shown; none = not shown.',
};
