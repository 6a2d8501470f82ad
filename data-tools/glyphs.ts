/**
 * Generates the SDF glyph PBFs of the default style's fonts into assets/fonts/<font name>/<start>-<end>.pbf, from
 * the Noto Sans WOFF files of @fontsource/noto-sans (its latin, latin-ext and vietnamese subsets merged), for the
 * ranges Vietnamese text needs, each with its index beside it (<start>-<end>.idx, see encodeGlyphIndex: where each
 * glyph lies in the file, which the renderer reads instead of finding them). Deterministic: the same font files give
 * the same bytes.
 * Run: npx tsx data-tools/glyphs.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, type Font } from 'opentype.js/dist/opentype.mjs';
import { encodeGlyphIndex } from '../src/render/raster/index.js';
import { encodeGlyphRange, type SdfGlyph } from './glyphs-pbf.js';
import { flatten, GLYPH_BUFFER, GLYPH_SIZE, rasterize, sdf } from './glyphs-sdf.js';

/**
 * Glyph ranges (first code point of each 256-block): Basic Latin + Latin-1 (à á â ã è é ê ì í ò ó ô õ ù ú ý),
 * Latin Extended-A/B (ă đ ĩ ũ ơ ư), combining diacritics (decomposed text), Latin Extended Additional
 * (ạ ả ấ … ỹ), general punctuation and currency (– — ‘ ’ “ ” … ₫).
 */
export const GLYPH_RANGES = [0, 256, 768, 7680, 8192] as const;

/** The fonts generated: fontstack name → WOFF subset files of @fontsource/noto-sans (earlier files win). */
export const GLYPH_FONTS: Record<string, string[]> = {
  'Noto Sans Regular': ['latin', 'latin-ext', 'vietnamese'].map((s) => `noto-sans-${s}-400-normal.woff`),
  'Noto Sans Bold': ['latin', 'latin-ext', 'vietnamese'].map((s) => `noto-sans-${s}-700-normal.woff`),
};

/** Renders one code point of the first font that has it, or null when none does. */
export function renderGlyph(fonts: readonly Font[], code: number): SdfGlyph | null {
  const ch = String.fromCodePoint(code);
  for (const font of fonts) {
    const index = font.charToGlyphIndex(ch);
    if (!index) continue;
    const glyph = font.glyphs.get(index);
    const scale = GLYPH_SIZE / font.unitsPerEm;
    const advance = Math.round((glyph.advanceWidth ?? 0) * scale);
    // fontnik's convention: `top` is the glyph's top above the baseline minus the font's ascender (pixels).
    const ascender = Math.round(font.ascender * scale);
    const box = glyph.getPath(0, 0, GLYPH_SIZE).getBoundingBox();
    if (!(box.x2 > box.x1 && box.y2 > box.y1))
      return { id: code, bitmap: new Uint8Array(0), width: 0, height: 0, left: 0, top: -ascender, advance };
    const left = Math.floor(box.x1),
      right = Math.ceil(box.x2);
    const top = Math.floor(box.y1),
      bottom = Math.ceil(box.y2); // y down: top is minus the height above the baseline
    const width = right - left,
      height = bottom - top;
    const w = width + 2 * GLYPH_BUFFER,
      h = height + 2 * GLYPH_BUFFER;
    const path = glyph.getPath(GLYPH_BUFFER - left, GLYPH_BUFFER - top, GLYPH_SIZE);
    const bitmap = sdf(rasterize(flatten(path.commands), w, h), w, h);
    return { id: code, bitmap, width, height, left, top: -top - ascender, advance };
  }
  return null;
}

/** Encodes one 256-code-point range of a font stack. */
export function glyphRange(name: string, fonts: readonly Font[], start: number): Uint8Array {
  const glyphs: SdfGlyph[] = [];
  for (let code = start; code < start + 256; code++) {
    if (code < 32) continue; // control characters have no glyph
    const g = renderGlyph(fonts, code);
    if (g) glyphs.push(g);
  }
  return encodeGlyphRange(name, `${start}-${start + 255}`, glyphs);
}

/** Loads the WOFF files of one font stack. */
export function loadFonts(files: readonly string[]): Font[] {
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('@fontsource/noto-sans/package.json')), 'files');
  return files.map((f) => {
    const b = readFileSync(join(dir, f));
    return parse(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
  });
}

function main(): void {
  const out = fileURLToPath(new URL('../assets/fonts/', import.meta.url));
  for (const [name, files] of Object.entries(GLYPH_FONTS)) {
    const fonts = loadFonts(files);
    mkdirSync(join(out, name), { recursive: true });
    for (const start of GLYPH_RANGES) {
      const bytes = glyphRange(name, fonts, start);
      writeFileSync(join(out, name, `${start}-${start + 255}.pbf`), bytes);
      writeFileSync(join(out, name, `${start}-${start + 255}.idx`), encodeGlyphIndex(bytes));
      console.log(`${name} ${start}-${start + 255}: ${bytes.length} bytes`);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
