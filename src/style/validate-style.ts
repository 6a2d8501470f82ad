import { IssueCollector, show, type StyleValidationResult } from './issues.js';
import { checkLayer } from './validate-layer.js';

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/**
 * Validates a whole style: `version` 8, a `sources` object of source descriptions with a `type`,
 * a `layers` array, unique layer ids, and every layer per {@link validateStyleLayer} (paths like
 * `layers[2].paint.line-width`). Never throws.
 * @param style parsed style JSON
 */
export function validateStyle(style: unknown): StyleValidationResult {
  const out = new IssueCollector();
  if (!isObject(style)) {
    out.error('', `a style must be an object; found ${show(style)}`);
    return out;
  }
  if (style.version !== 8) out.error('version', `"version" must be 8; found ${show(style.version)}`);
  if (!isObject(style.sources)) {
    out.error('sources', `"sources" must be an object; found ${show(style.sources)}`);
  } else {
    for (const [name, source] of Object.entries(style.sources)) {
      if (!isObject(source) || typeof source.type !== 'string') {
        out.error(`sources.${name}`, `source "${name}" must be an object with a string "type"`);
      }
    }
  }
  if (!Array.isArray(style.layers)) {
    out.error('layers', `"layers" must be an array; found ${show(style.layers)}`);
    return out;
  }
  const firstIndexOfId = new Map<string, number>();
  style.layers.forEach((layer: unknown, i: number) => {
    const prefix = `layers[${i}]`;
    checkLayer(layer, style, prefix, out);
    if (!isObject(layer) || typeof layer.id !== 'string') return;
    const first = firstIndexOfId.get(layer.id);
    if (first === undefined) firstIndexOfId.set(layer.id, i);
    else out.error(`${prefix}.id`, `duplicate layer id "${layer.id}" (first used by layers[${first}])`);
  });
  return out;
}
