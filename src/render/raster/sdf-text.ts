/**
 * Text from SDF glyphs (see sdf-glyphs.ts): shaping a string into pen positions, and drawing it centred on a point
 * along any baseline direction with a halo. Each destination pixel samples the glyph's distance field bilinearly,
 * so text is anti-aliased at any size and angle; a label's halo and its text are each accumulated into one coverage
 * mask (maximum over glyphs) and composited once, so overlapping glyph halos never double-blend.
 *
 * Canvases draw with this file's WebAssembly port (wasm/raster/sdf.rs, see wasm-raster.ts) where it loads and
 * with this one where it does not; the two give the same bytes (test/raster-wasm.test.ts), so a change to one is made
 * to the other.
 */
import type { Canvas } from './canvas.js';
import type { RGBA } from '../../style/color.js';
import type { MaskSink } from './composite.js';
import type { SdfPlacement, WasmRaster } from './wasm-raster.js';
import { GLYPH_BORDER, GLYPH_EM, SDF_CUTOFF, SDF_RADIUS, type SdfGlyph } from './sdf-glyphs.js';
import { stripDiacritics } from '../../text/diacritics.js';

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
      const base = stripDiacritics(ch);
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
 * direction `angle`: the halo first (when set), then the glyphs. The distance field is sampled once per pixel:
 * the halo's coverage goes to the canvas mask, the text's to a scratch buffer composited after the halo.
 */
export function drawSdfText(canvas: Canvas, shaped: ShapedText, cx: number, cy: number, options: SdfTextOptions): void {
  const scale = options.size / GLYPH_EM;
  if (!(scale > 0) || !Number.isFinite(cx + cy) || shaped.glyphs.length === 0) return;
  const opacity = options.opacity ?? 1;
  const halo = Math.max(0, options.haloWidth ?? 0);
  const angle = options.angle ?? 0;
  const withHalo = !!options.haloColor && halo > 0;
  const at: SdfPlacement = {
    cx,
    cy,
    scale,
    ux: Math.cos(angle),
    uy: Math.sin(angle),
    grow: withHalo ? halo : 0,
    edge: EDGE,
    distScale: DIST_PER_STEP * scale,
  };
  /** The glyphs for the WebAssembly kernel (see WasmRaster.sdfText). */
  const inKernel = (kernel: WasmRaster, keep: boolean): void => {
    const drawn = shaped.glyphs.filter((g) => g.width > 0);
    const glyphs = new Float64Array(4 * drawn.length);
    const half = shaped.width / 2;
    let k = 0;
    shaped.glyphs.forEach((g, i) => {
      if (g.width === 0) return;
      glyphs[k++] = shaped.pens[i]! - half + g.left - GLYPH_BORDER;
      glyphs[k++] = -g.top - GLYPH_BORDER - shaped.middle;
      glyphs[k++] = g.width + 2 * GLYPH_BORDER;
      glyphs[k++] = g.height + 2 * GLYPH_BORDER;
    });
    kernel.sdfText(
      glyphs,
      drawn.map((g) => g.bitmap),
      at,
      keep,
    );
  };
  if (!withHalo) {
    canvas.drawCoverage(
      options.color,
      opacity,
      (mask) => accumulate(mask, null, shaped, at),
      (kernel) => inKernel(kernel, false),
    );
    return;
  }
  const text = (textScratch ??= new TextCoverage());
  text.count = 0;
  canvas.drawCoverage(
    options.haloColor!,
    opacity,
    (mask) => accumulate(mask, text, shaped, at),
    (kernel) => inKernel(kernel, true),
  );
  canvas.drawCoverage(
    options.color,
    opacity,
    (mask) => text.moveTo(mask),
    (kernel) => kernel.sdfTextMove(),
  );
}

/** Text coverage kept while the halo is composited: pixel indices and their coverage (max over glyphs). */
class TextCoverage {
  pixels = new Int32Array(4096);
  values = new Float32Array(4096);
  count = 0;

  /** Records coverage `c` of pixel `p` (later records of a pixel are merged by maximum when moved). */
  add(p: number, c: number): void {
    if (this.count === this.pixels.length) {
      const pixels = new Int32Array(2 * this.count),
        values = new Float32Array(2 * this.count);
      pixels.set(this.pixels);
      values.set(this.values);
      ((this.pixels = pixels), (this.values = values));
    }
    this.pixels[this.count] = p;
    this.values[this.count++] = c;
  }

  /** Max-accumulates the records into a clear mask and empties the list. */
  moveTo(mask: MaskSink): void {
    const { mask: cov, touched } = mask;
    let n = mask.count;
    for (let k = 0; k < this.count; k++) {
      const p = this.pixels[k]!,
        c = this.values[k]!;
      const old = cov[p]!;
      if (c > old) {
        if (old === 0) touched[n++] = p;
        cov[p] = c;
      }
    }
    mask.count = n;
    this.count = 0;
  }
}

let textScratch: TextCoverage | undefined;

/** Reused result of {@link sampleRange}. */
const ranges = [
  { lo: 0, hi: 0 },
  { lo: 0, hi: 0 },
];
let nextRange = 0;

/**
 * The integer x whose coordinate b + x step lies in [0, max] (lo > hi when none). Returns one of two reused
 * objects, alternately: valid until the call after next.
 */
function sampleRange(b: number, step: number, max: number): { lo: number; hi: number } {
  const r = ranges[(nextRange ^= 1)]!;
  if (step > 1e-12) ((r.lo = Math.ceil(-b / step)), (r.hi = Math.floor((max - b) / step)));
  else if (step < -1e-12) ((r.lo = Math.ceil((max - b) / step)), (r.hi = Math.floor(-b / step)));
  else if (b < 0 || b > max) ((r.lo = 0), (r.hi = -1));
  else ((r.lo = -Infinity), (r.hi = Infinity));
  return r;
}

/**
 * Max-accumulates into `mask` the coverage of the glyph outlines grown by `grow` pixels, coverage =
 * clamp(0.5 - (d - grow)) with d the pixel centre's distance to the outline in pixels; with `text`, also records
 * the ungrown outlines' coverage there.
 */
function accumulate(mask: MaskSink, text: TextCoverage | null, shaped: ShapedText, at: SdfPlacement): void {
  const { cx, cy, scale, ux, uy, grow } = at;
  const { width: W, height: H, mask: cov, touched } = mask;
  let count = mask.count;
  const inv = 1 / scale;
  // Bitmap steps per destination column: text space has u along the baseline and v down across it.
  const sx = ux * inv,
    sy = -uy * inv;
  const distScale = at.distScale; // destination pixels per value step
  const half = shaped.width / 2;
  for (let k = 0; k < shaped.glyphs.length; k++) {
    const g = shaped.glyphs[k]!;
    if (g.width === 0) continue;
    const bw = g.width + 2 * GLYPH_BORDER,
      bh = g.height + 2 * GLYPH_BORDER;
    // The bitmap's top-left in text space (glyph pixels, from the label's centre).
    const u0 = shaped.pens[k]! - half + g.left - GLYPH_BORDER;
    const v0 = -g.top - GLYPH_BORDER - shaped.middle;
    // Rows of the bitmap's rotated box: y = cy + scale (u uy + v ux) at its corners.
    const yu0 = u0 * uy,
      yu1 = (u0 + bw) * uy,
      yv0 = v0 * ux,
      yv1 = (v0 + bh) * ux;
    const minY = cy + scale * (Math.min(yu0, yu1) + Math.min(yv0, yv1));
    const maxY = cy + scale * (Math.max(yu0, yu1) + Math.max(yv0, yv1));
    const y0 = Math.max(0, Math.floor(minY)),
      y1 = Math.min(H - 1, Math.ceil(maxY));
    const bmp = g.bitmap;
    for (let y = y0; y <= y1; y++) {
      const dy = y + 0.5 - cy;
      // Bitmap coordinates (integers at bitmap pixel centres) at column x: bx0 + x sx, by0 + x sy.
      const bx0 = ((0.5 - cx) * ux + dy * uy) * inv - u0 - 0.5;
      const by0 = (dy * ux - (0.5 - cx) * uy) * inv - v0 - 0.5;
      // Columns whose samples lie inside the bitmap: both coordinates are linear in x.
      const xr = sampleRange(bx0, sx, bw - 1),
        yr = sampleRange(by0, sy, bh - 1);
      const lo = Math.max(0, xr.lo, yr.lo),
        hi = Math.min(W - 1, xr.hi, yr.hi);
      let bx = bx0 + lo * sx,
        by = by0 + lo * sy;
      for (let x = lo; x <= hi; x++, bx += sx, by += sy) {
        // Rounding at the range ends can step a hair outside.
        const cxs = bx < 0 ? 0 : bx > bw - 1 ? bw - 1 : bx,
          cys = by < 0 ? 0 : by > bh - 1 ? bh - 1 : by;
        const ix = Math.floor(cxs),
          iy = Math.floor(cys);
        const fx = cxs - ix,
          fy = cys - iy;
        const i = iy * bw + ix;
        const ix1 = ix + 1 < bw ? 1 : 0,
          iy1 = iy + 1 < bh ? bw : 0;
        const top = bmp[i]! + (bmp[i + ix1]! - bmp[i]!) * fx;
        const bottom = bmp[i + iy1]! + (bmp[i + iy1 + ix1]! - bmp[i + iy1]!) * fx;
        const d = (EDGE - (top + (bottom - top) * fy)) * distScale; // distance to the outline, pixels
        const p = y * W + x;
        if (text) {
          const t = 0.5 - d;
          if (t >= 1 / 512) text.add(p, t > 1 ? 1 : t);
        }
        let c = 0.5 - (d - grow);
        if (c < 1 / 512) continue;
        if (c > 1) c = 1;
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
