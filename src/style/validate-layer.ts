import { checkProperties } from './check-properties.js';
import { compileFilter } from './compile.js';
import { LAYER_FIELDS, LAYER_TYPES, UNDOCUMENTED_LAYER_TYPES, isDocumentedLayerType } from './definitions.js';
import { IssueCollector, joinPath, show, type StyleValidationResult } from './issues.js';

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Source descriptions of a style, or undefined when no style (or no valid `sources`) is known. */
function sourcesOf(style: unknown): Json | undefined {
  return isObject(style) && isObject(style.sources) ? style.sources : undefined;
}

function checkFieldTypes(layer: Json, prefix: string, out: IssueCollector): void {
  for (const key of Object.keys(layer)) {
    if (!LAYER_FIELDS.some((f) => f.name === key)) {
      out.error(joinPath(prefix, key), `unknown layer field "${key}"`);
    }
  }
  for (const field of LAYER_FIELDS) {
    const value = layer[field.name];
    const path = joinPath(prefix, field.name);
    if (value === undefined) {
      if (field.required === true) out.error(path, `missing required field "${field.name}"`);
      continue;
    }
    switch (field.type) {
      case 'string':
        if (typeof value !== 'string' || value === '') {
          out.error(path, `"${field.name}" must be a non-empty string; found ${show(value)}`);
        }
        break;
      case 'object':
        if (!isObject(value)) out.error(path, `"${field.name}" must be an object; found ${show(value)}`);
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) {
          out.error(path, `"${field.name}" must be a number; found ${show(value)}`);
        } else if ((field.min !== undefined && value < field.min) || (field.max !== undefined && value > field.max)) {
          out.error(path, `"${field.name}" must be between ${field.min} and ${field.max}; found ${value}`);
        }
        break;
      case 'enum':
        if (typeof value !== 'string' || !field.values?.includes(value)) {
          out.error(path, `unknown layer ${field.name} ${show(value)}; expected one of ${field.values?.join(', ')}`);
        }
        break;
      case 'expression':
      case 'any':
        break; // filter is compiled below; metadata is free-form
    }
  }
}

function checkSource(layer: Json, style: unknown, prefix: string, out: IssueCollector): Json | undefined {
  const type = layer.type;
  const source = layer.source;
  if (type === 'background') {
    if (source !== undefined) out.warn(joinPath(prefix, 'source'), 'background layers do not use a source');
    return undefined;
  }
  if (typeof type === 'string' && LAYER_TYPES.includes(type as never) && source === undefined) {
    out.error(joinPath(prefix, 'source'), `"source" is required for ${type} layers`);
  }
  const sources = sourcesOf(style);
  if (!sources || typeof source !== 'string' || source === '') return undefined;
  const description = sources[source];
  if (!isObject(description)) {
    out.error(joinPath(prefix, 'source'), `source "${source}" is not defined in style.sources`);
    return undefined;
  }
  const sourceLayerPath = joinPath(prefix, 'source-layer');
  if (description.type === 'vector') {
    if (layer['source-layer'] === undefined) {
      out.error(sourceLayerPath, `"source-layer" is required for layers of vector source "${source}"`);
    }
  } else if (layer['source-layer'] !== undefined) {
    out.error(
      sourceLayerPath,
      `"source-layer" is not allowed for ${show(description.type)} source "${source}" (vector sources only)`,
    );
  }
  return description;
}

function checkZooms(layer: Json, prefix: string, out: IssueCollector): void {
  const { minzoom, maxzoom } = layer;
  if (typeof minzoom === 'number' && typeof maxzoom === 'number' && minzoom > maxzoom) {
    out.error(joinPath(prefix, 'minzoom'), `minzoom (${minzoom}) is greater than maxzoom (${maxzoom})`);
  }
}

function checkFilter(layer: Json, prefix: string, out: IssueCollector): void {
  if (layer.filter === undefined) return;
  const path = joinPath(prefix, 'filter');
  const compiled = compileFilter(layer.filter, path);
  if (!compiled.ok) for (const p of compiled.problems) out.error(path + p.key, p.message);
}

/**
 * Validates one layer into `out` (shared by {@link validateStyleLayer} and validateStyle).
 * @param prefix path of the layer, e.g. `layers[2]`, or '' for a lone layer
 */
export function checkLayer(layer: unknown, style: unknown, prefix: string, out: IssueCollector): void {
  if (!isObject(layer)) {
    out.error(prefix || '', `a layer must be an object; found ${show(layer)}`);
    return;
  }
  checkFieldTypes(layer, prefix, out);
  const type = layer.type;
  if (typeof type === 'string' && UNDOCUMENTED_LAYER_TYPES.includes(type as never)) {
    out.warn(
      joinPath(prefix, 'type'),
      `properties of ${type} layers are not covered by the style layer definitions; only visibility was checked`,
    );
  }
  const source = checkSource(layer, style, prefix, out);
  checkZooms(layer, prefix, out);
  checkFilter(layer, prefix, out);
  if (typeof type !== 'string' || !LAYER_TYPES.includes(type as never)) return;
  checkProperties(
    {
      layerType: type,
      documented: isDocumentedLayerType(type),
      source,
      layout: isObject(layer.layout) ? layer.layout : {},
      paint: isObject(layer.paint) ? layer.paint : {},
      prefix,
    },
    out,
  );
}

/**
 * Validates a style layer against style-layers.md. Never throws.
 *
 * Paths are relative to the layer (`paint.line-width`), unless the layer object is an element of
 * `style.layers`, in which case they start with its index (`layers[2].paint.line-width`).
 * With `style`, the layer's `source` is resolved against `style.sources` (existence, source-layer
 * rules, line-gradient's lineMetrics) and its `id` is checked for duplicates in `style.layers`.
 * @param layer a layer object (any JSON; non-objects are reported)
 * @param style the style the layer belongs to
 */
export function validateStyleLayer(layer: unknown, style?: unknown): StyleValidationResult {
  const out = new IssueCollector();
  const layers = isObject(style) && Array.isArray(style.layers) ? (style.layers as unknown[]) : [];
  const index = layers.indexOf(layer);
  const prefix = index >= 0 ? `layers[${index}]` : '';
  checkLayer(layer, style, prefix, out);
  if (isObject(layer) && typeof layer.id === 'string') {
    const other = layers.findIndex((l) => l !== layer && isObject(l) && l.id === layer.id);
    if (other >= 0) {
      out.error(joinPath(prefix, 'id'), `duplicate layer id "${layer.id}" (also used by layers[${other}])`);
    }
  }
  return out;
}
