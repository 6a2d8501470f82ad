/** Layer types whose layout and paint properties style-layers.md shows, in its order. */
export const DOCUMENTED_LAYER_TYPES = ['background', 'fill', 'line', 'symbol'] as const;

/**
 * Layer types style-layers.md names without showing their properties: accepted, not checked. MapLibre's reference has
 * more (color-relief); the spec does not name them, so they are unknown layer types here.
 */
export const UNDOCUMENTED_LAYER_TYPES = ['circle', 'heatmap', 'fill-extrusion', 'raster', 'hillshade'] as const;
