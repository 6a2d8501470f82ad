import type { Region } from '../../region.js';
import { createTileSource } from '../../map/tiles/source.js';
import type { ResourceRoute } from './handler.js';
import { createMapResources } from './map-resources.js';

/**
 * The web-map resources a handler serves when its options name none (engine-api.md lists them under
 * createFetchHandler): style, vector tiles, glyphs and sprite cut from the engine's own packs, under the same key
 * and map-load rules as `bando serve`. Only an engine that holds its regions in this thread (an `Engine`) has them; a
 * worker's engine gets none (pass `resources` built from an engine here). The demo page is left out: it needs
 * the optional maplibre-gl, and `bando serve` adds it. Glyphs and sprites are read from the package in Node;
 * elsewhere pass `resources: createMapResources(…, { assets })`. Tiles are cut on first request, not here.
 */
export function defaultResources(engine: object): ResourceRoute[] {
  const regions = (engine as { regions?: unknown }).regions;
  return Array.isArray(regions) && regions.length > 0
    ? createMapResources(createTileSource(regions as Region[]), { demo: false })
    : [];
}
