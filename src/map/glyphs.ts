import { readAsset } from './assets.js';

/** Font stacks shipped with the package (assets/fonts/<name>/), the first being the default style's. */
export const GLYPH_FONTSTACKS = ['Noto Sans Regular', 'Noto Sans Bold'] as const;

/** Outcome of {@link glyphs}: the PBF bytes, or an error naming the parameter (for a 400). */
export type GlyphResult = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/**
 * The SDF glyph PBF of `range` ("start-end", 256 code points from a multiple of 256, up to 65535) for `fontstack`
 * (the URL's comma-separated font names, URL-decoded): the first shipped font named in the stack answers; a stack
 * naming none of them gets the default font. A valid range the package has no glyphs for (CJK, emoji…) answers
 * a valid empty range, so the map draws what it can without errors. Never throws.
 */
export function glyphs(fontstack: string, range: string): GlyphResult {
  const file = glyphFile(fontstack, range);
  if (!file.ok) return file;
  return { ok: true, bytes: readAsset(file.path) ?? emptyGlyphRange(file.font, file.range) };
}

/**
 * The index shipped beside the glyph PBF that {@link glyphs} reads (`fonts/<font>/<start>-<end>.idx`: where each glyph's
 * message lies in the file, see `encodeGlyphIndex` in src/render/raster), so the renderer need not read every glyph
 * to find the few a label draws; null where it cannot be read (no assets folder, a range the package has no glyphs
 * for, a bad range). Never throws.
 */
export function glyphIndex(fontstack: string, range: string): Uint8Array | null {
  const file = glyphFile(fontstack, range);
  return file.ok ? readAsset(`fonts/${file.font}/${file.range}.idx`) : null;
}

/**
 * Where the glyph PBF of {@link glyphs} lives under the assets folder (`fonts/<font>/<start>-<end>.pbf`), for readers
 * without node:fs (a Service Worker fetching the package's assets), or an error naming the parameter. Never throws.
 */
export function glyphFile(
  fontstack: string,
  range: string,
): { ok: true; path: string; font: string; range: string } | { ok: false; error: string } {
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(range.replace(/\.pbf$/, ''));
  const start = m ? Number(m[1]) : NaN,
    end = m ? Number(m[2]) : NaN;
  if (!(start % 256 === 0 && end === start + 255 && end <= 65535)) {
    return {
      ok: false,
      error: `range must be "start-end" covering 256 code points from a multiple of 256 (like 0-255); found "${range}"`,
    };
  }
  if (typeof fontstack !== 'string' || fontstack.length === 0 || fontstack.length > 500) {
    return { ok: false, error: 'fontstack must name one or more fonts, comma-separated' };
  }
  const names = fontstack.split(',').map((s) => s.trim());
  const font = names.find((n) => (GLYPH_FONTSTACKS as readonly string[]).includes(n)) ?? GLYPH_FONTSTACKS[0];
  const rangeName = `${start}-${end}`;
  return { ok: true, path: `fonts/${font}/${rangeName}.pbf`, font, range: rangeName };
}

/** A glyph PBF with a font stack and range (like `0-255`) but no glyphs: `stacks { name, range }`. */
export function emptyGlyphRange(name: string, range: string): Uint8Array {
  const enc = new TextEncoder();
  const field = (tag: number, bytes: Uint8Array) => [(tag << 3) | 2, ...varint(bytes.length), ...bytes];
  const stack = Uint8Array.from([...field(1, enc.encode(name)), ...field(2, enc.encode(range))]);
  return Uint8Array.from(field(1, stack));
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}
