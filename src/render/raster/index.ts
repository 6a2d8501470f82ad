/**
 * Software rasteriser for static map images: anti-aliased fills and strokes, markers, a tiny bitmap font,
 * Web Mercator helpers and PNG output. No `node:` imports, so it runs in Node, browsers and workers.
 */
export { Canvas, type StrokeOptions } from './canvas.js';
export type { RGBA } from '../../style/color.js';
export { Viewport, fitBounds, latToWorldY, lonToWorldX, worldXToLon, worldYToLat } from './mercator.js';
export { measureText } from './text.js';
export { decodeGlyphs, encodeGlyphIndex, GlyphRange } from './sdf-glyphs.js';
export { drawSdfText, shapeText, type GlyphLookup, type ShapedText } from './sdf-text.js';
