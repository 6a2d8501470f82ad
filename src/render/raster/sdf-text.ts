/**
 * Text from SDF glyphs (see sdf-glyphs.ts): shaping a string into pen positions, and drawing it centred on a point
 * along any baseline direction with a halo. Each destination pixel samples the glyph's distance field bilinearly,
 * so text is anti-aliased at any size and angle; a label's halo and its text are each accumulated into one coverage
 * mask (maximum over glyphs) and composited once, so overlapping glyph halos never double-blend.
 */
import type { Canvas } from './canvas.js';
import type { RGBA } from './color.js';
import type { MaskSink } from './composite.js';
import { GLYPH_BORDER, GLYPH_EM, SDF_CUTOFF, SDF_RADIUS, type SdfGlyph } from './sdf-glyphs.js';

/** A string laid out on one line, in pixels at GLYPH_EM. */
export interface ShapedText {
  readonly glyphs: readonly SdfGlyph[];
  /** Pen x of each glyph from the line's start. */
  readonly pens: Float64Array;
  /** Advance of the whole line. */
  readonly width: number;
  /** The line's vertical centre (middle of the capital height) below the ascender line. */
  readonly middle: number;
}

/** Finds a font's glyph for a code point. */
export type GlyphLookup = (code: number) => SdfGlyph | undefined;

/** Options of {@link drawSdfText}. */
export interface SdfTextOptions {
  /** Font size, pixels. */
  size: number;
  color: RGBA;
  /** Multiplies both colours' alpha. Default 1. */
  opacity?: number;
  /** Halo colour; none when null or undefined. */
  haloColor?: RGBA | null;
  /** Halo width beyond the glyph outline, pixels. Default 0. */
  haloWidth?: number;
  /** Direction of the baseline, radians clockwise from +x (y down). Default 0. */
  angle?: number;
}

/** Distance-field value of the outline. */
const EDGE = 255 * (1 - SDF_CUTOFF);
/** Glyph pixels of distance per value step. */
const DIST_PER_STEP = SDF_RADIUS / 255;

/**
 * Lays out `text` (NFC-normalised) with a font's glyphs. A character the font lacks is replaced by its letter
 * without diacritics when the font has that (so a rare precomposed letter still reads), else skipped.
 */
export function shapeText(text: string, glyph: GlyphLookup): ShapedText {
  const glyphs: SdfGlyph[] = [];
  const pens: number[] = [];
  let pen = 0;
  for (const ch of text.normalize('NFC')) {
    let g = glyph(ch.codePointAt(0)!);
    if (!g) {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace('đ', 'd').replace('Đ', 'D');
      g = base.length === 1 ? glyph(base.codePointAt(0)!) : undefined;
    }
    if (!g) continue;
    glyphs.push(g);
    pens.push(pen);
    pen += g.advance;
  }
  const h = glyph(72); // 'H': its box spans the capital height
  const middle = h && h.height > 0 ? -h.top + h.height / 2 : GLYPH_EM * 0.7;
  return { glyphs, pens: Float64Array.from(pens), width: pen, middle };
}

/**
 * Draws shaped text centred (horizontally and on its capital height) on (cx, cy), pixels, along the baseline
 * direction `angle`: the halo first (when set), then the glyphs.
 */
export function drawSdfText(canvas: Canvas, shaped: ShapedText, cx: number, cy: number, options: SdfTextOptions): void {
  const scale = options.size / GLYPH_EM;
  if (!(scale > 0) || !Number.isFinite(cx + cy) || shaped.glyphs.length === 0) return;
  const opacity = options.opacity ?? 1;
  const halo = Math.max(0, options.haloWidth ?? 0);
  if (options.haloColor && halo > 0) {
    canvas.drawCoverage(options.haloColor, opacity, (mask) => accumulate(mask, shaped, cx, cy, scale, options.angle ?? 0, halo));
  }
  canvas.drawCoverage(options.color, opacity, (mask) => accumulate(mask, shaped, cx, cy, scale, options.angle ?? 0, 0));
}

/**
 * Max-accumulates into `mask` the coverage of the glyph outlines grown by `grow` pixels (0 for the glyphs
 * themselves): coverage = clamp(0.5 - (d - grow)), d the pixel centre's distance to the outline in pixels.
 */
function accumulate(mask: MaskSink, shaped: ShapedText, cx: number, cy: number, scale: number, angle: number, grow: number): void {
  const ux = Math.cos(angle), uy = Math.sin(angle);
  // Text space: u along the baseline, v down across it, both in glyph pixels, origin at the label's centre.
  const { width: W, height: H, mask: cov, touched } = mask;
  let count = mask.count;
  const inv = 1 / scale;
  const distScale = DIST_PER_STEP * scale; // destination pixels per value step
  const half = shaped.width / 2;
  for (let k = 0; k < shaped.glyphs.length; k++) {
    const g = shaped.glyphs[k]!;
    if (g.width === 0) continue;
    const bw = g.width + 2 * GLYPH_BORDER, bh = g.height + 2 * GLYPH_BORDER;
    // The bitmap's top-left in text space.
    const u0 = shaped.pens[k]! - half + g.left - GLYPH_BORDER;
    const v0 = -g.top - GLYPH_BORDER - shaped.middle;
    // Destination bounding box of the bitmap's corners.
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [u, v] of [[u0, v0], [u0 + bw, v0], [u0, v0 + bh], [u0 + bw, v0 + bh]] as const) {
      const x = cx + scale * (u * ux - v * uy), y = cy + scale * (u * uy + v * ux);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    const x0 = Math.max(0, Math.floor(minX)), x1 = Math.min(W - 1, Math.ceil(maxX));
    const y0 = Math.max(0, Math.floor(minY)), y1 = Math.min(H - 1, Math.ceil(maxY));
    const bmp = g.bitmap;
    for (let y = y0; y <= y1; y++) {
      const dy = y + 0.5 - cy;
      for (let x = x0; x <= x1; x++) {
        const dx = x + 0.5 - cx;
        // Bitmap coordinates of the pixel centre, shifted so that integer values are bitmap pixel centres.
        const bx = (dx * ux + dy * uy) * inv - u0 - 0.5;
        const by = (-dx * uy + dy * ux) * inv - v0 - 0.5;
        if (bx < 0 || by < 0 || bx > bw - 1 || by > bh - 1) continue;
        const ix = Math.floor(bx), iy = Math.floor(by);
        const fx = bx - ix, fy = by - iy;
        const i = iy * bw + ix;
        const ix1 = ix + 1 < bw ? 1 : 0, iy1 = iy + 1 < bh ? bw : 0;
        const top = bmp[i]! + (bmp[i + ix1]! - bmp[i]!) * fx;
        const bottom = bmp[i + iy1]! + (bmp[i + iy1 + ix1]! - bmp[i + iy1]!) * fx;
        const value = top + (bottom - top) * fy;
        let c = 0.5 - ((EDGE - value) * distScale - grow);
        if (c < 1 / 512) continue;
        if (c > 1) c = 1;
        const p = y * W + x;
        const old = cov[p]!;
        if (c > old) {
          if (old === 0) touched[count++] = p;
          cov[p] = c;
        }
      }
    }
  }
  mask.count = count;
}
