/**
 * The shipped SDF fonts (assets/fonts, read through src/map's glyph accessor) as glyph lookups for the renderer,
 * indexed range by range and decoded glyph by glyph on first use, and kept by their owner (an engine's RenderCache)
 * for its life.
 */
import { readAssetAsync, readsAssetsSync } from '../map/assets.js';
import { GLYPH_FONTSTACKS, glyphFile, glyphIndex, glyphs } from '../map/glyphs.js';
import { GlyphRange, type GlyphLookup } from './raster/index.js';

/** The ranges labels draw from: Latin, Latin-1, Latin Extended-A/B, combining marks, Vietnamese, punctuation. */
const LABEL_RANGES = ['0-255', '256-511', '768-1023', '7680-7935', '8192-8447'];

/** Glyph lookups of the shipped fonts, decoded on first use. */
export class GlyphFonts {
  /** Lookup of each font stack (null: no glyphs here). */
  private readonly fonts = new Map<string, GlyphLookup | null>();
  /** Glyph PBFs fetched by {@link preload} where the assets cannot be read synchronously, by asset path. */
  private readonly fetched = new Map<string, Uint8Array>();
  private preloading: Promise<void> | null = null;

  /**
   * Makes the shipped fonts' label glyphs available to {@link font} where they cannot be read synchronously
   * (browsers, workers: fetched once from the package's assets), so every surface draws the same labels. Resolves
   * at once in Node. Never rejects.
   */
  preload(): Promise<void> {
    // Where the assets are read synchronously a font's ranges are read when a label first needs them. (Checking a font
    // here read and indexed a whole range, 83 KB, for a first image that may draw no label in it: whole Ho Chi Minh
    // City's first image at zoom 12.8 draws only bold ward names.)
    if (readsAssetsSync()) return Promise.resolve();
    return (this.preloading ??= (async () => {
      for (const font of GLYPH_FONTSTACKS) {
        for (const range of LABEL_RANGES) {
          const file = glyphFile(font, range);
          const bytes = file.ok ? await readAssetAsync(file.path) : null;
          if (file.ok && bytes) this.fetched.set(file.path, bytes);
        }
      }
      this.fonts.clear();
    })());
  }

  /**
   * The glyph lookup of a font stack (text-font: the first shipped font it names, else the default font), or null
   * when no glyphs can be read here (no assets folder, as in a browser): callers then fall back to the bitmap font.
   */
  font(fontstack: readonly string[]): GlyphLookup | null {
    const name = fontstack.join(',');
    const known = this.fonts.get(name);
    if (known !== undefined) return known;
    // 256-code-point ranges by first code point (null when the font has no such range), each glyph decoded on first use.
    const cache = new Map<number, GlyphRange | null>();
    const lookup: GlyphLookup = (code) => {
      const start = code - (code % 256);
      let range = cache.get(start);
      if (range === undefined)
        cache.set(start, (range = code >= 0 && code <= 65535 ? this.range(name, `${start}-${start + 255}`) : null));
      return range?.get(code);
    };
    const font = lookup(72) ? lookup : null; // 'H' is in every shipped font
    this.fonts.set(name, font);
    return font;
  }

  /**
   * The glyphs of a range: the PBF fetched by preload, else the one read from the assets (empty where there are none)
   * with the index shipped beside it, which spares reading every glyph to find the few a label draws.
   */
  private range(name: string, range: string): GlyphRange | null {
    const file = glyphFile(name, range);
    const pre = file.ok ? this.fetched.get(file.path) : undefined;
    if (pre) return new GlyphRange(pre);
    const r = glyphs(name, range);
    return r.ok ? new GlyphRange(r.bytes, glyphIndex(name, range) ?? undefined) : null;
  }
}
