/**
 * The web map resources: vector tiles cut from packs, the default style, glyph PBFs and the sprite
 * (paths in engine-api.md: /tiles/{z}/{x}/{y}.pbf, /styles/default/style.json, /fonts/{fontstack}/{range}.pbf,
 * /sprites/default{,@2x}.{json,png}; the demo page's files are in assets/demo).
 */
export { createTileSource, type TileSource, type TileSourceOptions } from './tiles/source.js';
export {
  parseTileCoords,
  tileBounds,
  TILE_EXTENT,
  TILE_MAX_ZOOM,
  TILE_MIN_ZOOM,
  type ParsedTileCoords,
  type TileCoords,
} from './tiles/coords.js';
export { TILE_LAYERS, type TileLayerName } from './tiles/features.js';
export {
  defaultStyle,
  DEFAULT_FONT,
  DEFAULT_FONT_BOLD,
  DEFAULT_SOURCE,
  type DefaultStyleOptions,
} from './style/default-style.js';
export { glyphs, GLYPH_FONTSTACKS, type GlyphResult } from './glyphs.js';
export { sprite, type SpriteResult } from './sprites.js';
export { assetsDir, readAsset } from './assets.js';
