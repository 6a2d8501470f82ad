/** Vector-tile layer names, in drawing order (area layers first). */
export const TILE_LAYERS = [
  'water',
  'landuse',
  'park',
  'waterway',
  'building',
  'railway',
  'road',
  'place',
  'poi',
] as const;
export type TileLayerName = (typeof TILE_LAYERS)[number];
