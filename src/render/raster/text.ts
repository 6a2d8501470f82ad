/**
 * Drawing short Latin strings (such as "© OpenStreetMap contributors") with the built-in 5x7 bitmap font.
 * Each set font pixel becomes a `scale` x `scale` square of whole pixels; the squares of a string are covered as one
 * shape (their union, composited once), so the text is pixel-crisp. The squares are written straight into a
 * coverage mask: as a polygon fill their many overlapping edges (a halo's grown squares) cost far more.
 */
import type { Canvas } from './canvas.js';
import type { MaskSink } from './composite.js';
import type { RGBA } from '../../style/color.js';
import { GLYPH_HEIGHT, glyphColumns } from './font5x7.js';

/** Options of {@link drawText}. */
export interface TextOptions {
  /** Text colour (straight RGBA). */
  color: RGBA;
  /** Integer pixel size of one font pixel. Default 1. */
  scale?: number;
  /** Colour of a halo drawn behind the glyphs to keep them legible on any background. Default none. */
  haloColor?: RGBA;
  /** Halo width in pixels, rounded up to whole pixels. Default 1 when haloColor is set. */
  haloWidth?: number;
}

/** Blank columns between glyphs, font pixels. */
const LETTER_SPACING = 1;

/**
 * Size of a string in pixels, without halo.
 * @param scale integer font pixel size
 * @returns width and height, pixels
 */
export function measureText(text: string, scale = 1): { width: number; height: number } {
  let columns = 0;
  for (let i = 0; i < text.length; i++) columns += glyphColumns(text.charCodeAt(i)).length + LETTER_SPACING;
  return { width: Math.max(0, columns - LETTER_SPACING) * scale, height: GLYPH_HEIGHT * scale };
}

/**
 * Draws `text` with its top-left corner at (x, y), pixels, rounded to whole pixels.
 */
export function drawText(canvas: Canvas, text: string, x: number, y: number, options: TextOptions): void {
  const scale = Math.max(1, Math.round(options.scale ?? 1));
  if (!Number.isFinite(x + y)) return;
  const left = Math.round(x),
    top = Math.round(y);
  /** Covers the squares grown by `grow` into `mask`; in the kernel, through a mask of the rows they can reach. */
  const cover = (color: RGBA, grow: number): void => {
    const row0 = Math.min(canvas.height, Math.max(0, top - grow));
    const end = Math.min(canvas.height, Math.max(row0, top + GLYPH_HEIGHT * scale + grow));
    canvas.drawCoverage(
      color,
      1,
      (mask) => coverGlyphSquares(mask, text, left, top, scale, grow),
      (kernel) =>
        kernel.coverRows(row0, end - row0, (mask) => coverGlyphSquares(mask, text, left, top - row0, scale, grow)),
    );
  };
  if (options.haloColor) cover(options.haloColor, Math.max(0, Math.ceil(options.haloWidth ?? 1)));
  cover(options.color, 0);
}

/** Covers one square per set font pixel, grown by `grow` pixels on every side (for halos); all values integers. */
function coverGlyphSquares(mask: MaskSink, text: string, x: number, y: number, scale: number, grow: number): void {
  let penX = x;
  for (let i = 0; i < text.length; i++) {
    const columns = glyphColumns(text.charCodeAt(i));
    for (let c = 0; c < columns.length; c++) {
      const bits = columns[c]!;
      for (let row = 0; row < GLYPH_HEIGHT; row++) {
        if ((bits & (1 << row)) === 0) continue;
        const x0 = penX + c * scale - grow,
          y0 = y + row * scale - grow;
        const x1 = penX + (c + 1) * scale + grow,
          y1 = y + (row + 1) * scale + grow;
        mask.coverRect(x0, y0, x1, y1);
      }
    }
    penX += (columns.length + LETTER_SPACING) * scale;
  }
}
