/**
 * A style prepared for drawing the pack basemap: the layers the renderer can draw (background, fill, line, symbol
 * over a vector source), each with its compiled evaluator. Built once per style object.
 */
import { createLayerEvaluator, type LayerEvaluator } from '../style/index.js';

/** Layer types the basemap renderer draws; other types (raster, circle, ...) are skipped. */
export type DrawnLayerType = 'background' | 'fill' | 'line' | 'symbol';

/** One drawable layer of a style. */
export interface PlannedLayer {
  readonly id: string;
  readonly type: DrawnLayerType;
  /** Vector source layer the features come from (null for background). */
  readonly sourceLayer: string | null;
  readonly evaluator: LayerEvaluator;
  /** Whether `fill-outline-color` is written in the layer (see map-layers.ts for why that matters). */
  readonly outlineSet: boolean;
}

/** A style ready for the basemap renderer. */
export interface StylePlan {
  readonly layers: readonly PlannedLayer[];
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => x !== null && typeof x === 'object' && !Array.isArray(x);
const DRAWN = new Set<string>(['background', 'fill', 'line', 'symbol']);

/**
 * Plans a style JSON. Never throws: a style that is not an object, or has no `layers` array, plans to no layers;
 * layers over sources other than `vector` ones (GeoJSON, raster) and layers of types the renderer does not draw are
 * skipped, as are layers without a `source-layer`. Invalid values inside a layer fall back to defaults (the
 * evaluator's rule); `validateStyle` reports them.
 */
export function planStyle(style: unknown): StylePlan {
  if (!isObject(style) || !Array.isArray(style.layers)) return { layers: [] };
  const sources = isObject(style.sources) ? style.sources : {};
  const layers: PlannedLayer[] = [];
  style.layers.forEach((layer: unknown, i) => {
    if (!isObject(layer) || typeof layer.type !== 'string' || !DRAWN.has(layer.type)) return;
    const type = layer.type as DrawnLayerType;
    let sourceLayer: string | null = null;
    if (type !== 'background') {
      const source = typeof layer.source === 'string' ? sources[layer.source] : undefined;
      if (!isObject(source) || source.type !== 'vector' || typeof layer['source-layer'] !== 'string') return;
      sourceLayer = layer['source-layer'];
    }
    const paint = isObject(layer.paint) ? layer.paint : {};
    layers.push({
      id: typeof layer.id === 'string' ? layer.id : `#${i}`,
      type,
      sourceLayer,
      evaluator: createLayerEvaluator(layer),
      outlineSet: paint['fill-outline-color'] !== undefined,
    });
  });
  return { layers };
}
