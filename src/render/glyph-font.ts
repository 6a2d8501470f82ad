/**
 * The shipped SDF fonts (assets/fonts, read through src/map's glyph accessor) as glyph lookups for the renderer,
 * decoded range by range on first use and kept for the process's life.
 */
import { glyphs } from '../map/glyphs.js';
import { decodeGlyphs, type GlyphLookup, type SdfGlyph } from './raster/index.js';

/** Lookup of each font stack (null: no glyphs here). */
const fonts = new Map<string, GlyphLookup | null>();

/**
 * The glyph lookup of a font stack (text-font: the first shipped font it names, else the default font), or null
 * when no glyphs can be read here (no assets folder, as in a browser): callers then fall back to the bitmap font.
 */
export function glyphFont(fontstack: readonly string[]): GlyphLookup | null {
  const name = fontstack.join(',');
  const known = fonts.get(name);
  if (known !== undefined) return known;
  // Decoded 256-code-point ranges by first code point: a glyph map, empty when the range has none.
  const cache = new Map<number, Map<number, SdfGlyph>>();
  const lookup: GlyphLookup = (code) => {
    const start = code - (code % 256);
    let range = cache.get(start);
    if (!range) {
      const r = code >= 0 && code <= 65535 ? glyphs(name, `${start}-${start + 255}`) : null;
      cache.set(start, (range = r && r.ok ? decodeGlyphs(r.bytes) : new Map()));
    }
    return range.get(code);
  };
  const font = lookup(72) ? lookup : null; // 'H' is in every shipped font
  fonts.set(name, font);
  return font;
}
