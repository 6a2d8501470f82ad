/**
 * Software rasteriser for static map images: anti-aliased fills and strokes, markers, a tiny bitmap font,
 * Web Mercator helpers and PNG output. No `node:` imports, so it runs in Node, browsers and workers.
 */
export { Canvas, type FillOptions, type StrokeOptions } from './canvas.js';
export type { RGBA } from '../../style/color.js';
export { drawMarker, type MarkerOptions } from './marker.js';
export {
  DEFAULT_TILE_SIZE,
  MAX_LATITUDE,
  Viewport,
  fitBounds,
  latToWorldY,
  lonToWorldX,
  worldXToLon,
  worldYToLat,
  type FitBoundsOptions,
  type Padding,
} from './mercator.js';
export { Path } from './path.js';
export { encodePNG, encodePNGFast } from './png.js';
export type { FillRule } from './scanline.js';
export type { LineCap, LineJoin } from './stroke-outline.js';
export { drawText, measureText, type TextOptions } from './text.js';
export { decodeGlyphs, GLYPH_EM, type SdfGlyph } from './sdf-glyphs.js';
export { drawSdfText, shapeText, type GlyphLookup, type SdfTextOptions, type ShapedText } from './sdf-text.js';
