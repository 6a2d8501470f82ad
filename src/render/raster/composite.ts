/**
 * Coverage sinks that composite onto a straight-alpha RGBA buffer (source-over), or accumulate coverage in a mask.
 *
 * Canvases draw with this file's WebAssembly port (wasm/raster/composite.rs, see wasm-raster.ts) where it loads and
 * with this one where it does not; the two give the same bytes (test/raster-wasm.test.ts), so a change to one is made
 * to the other.
 */
import type { RGBA } from '../../style/color.js';
import type { CoverageSink } from './scanline.js';

/** Whether this platform stores the low byte of a 32-bit word first (every common one does). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** Bit shifts of the red, green, blue and alpha bytes within a pixel read as a 32-bit word (memory order r, g, b, a). */
const SHIFT_R = LITTLE_ENDIAN ? 0 : 24;
const SHIFT_G = LITTLE_ENDIAN ? 8 : 16;
const SHIFT_B = LITTLE_ENDIAN ? 16 : 8;
const SHIFT_A = LITTLE_ENDIAN ? 24 : 0;

/** A channel rounded and clamped to an integer 0..255, so that it stays within its byte of a pixel word. */
const channel = (v: number): number => {
  const c = Math.round(v);
  return c > 255 ? 255 : c > 0 ? c : 0;
};

/** A drawing colour as the compositors use it: integral channels 0..255 and alpha (colour alpha times opacity). */
export interface ResolvedColor {
  r: number;
  g: number;
  b: number;
  /** 0..1. */
  alpha: number;
}

/**
 * Resolves `color` at `opacity` (0..1 multiplier of its alpha) into `out`: channels rounded and clamped (so that
 * opaque pixels blend in integer arithmetic), alpha clamped to 0..1.
 * @returns false when the colour is fully transparent or not finite (nothing to draw)
 */
export function resolveColor(color: RGBA, opacity: number, out: ResolvedColor): boolean {
  const a = color[3] * opacity;
  out.alpha = a > 1 ? 1 : a > 0 ? a : 0;
  if (!(out.alpha > 0 && Number.isFinite(color[0] + color[1] + color[2]))) return false;
  out.r = channel(color[0]);
  out.g = channel(color[1]);
  out.b = channel(color[2]);
  return true;
}

/**
 * Source-over compositing of one solid colour, weighted by coverage, onto straight (non-premultiplied) RGBA bytes.
 * For an opaque destination this is `dst + (src - dst) * a`; otherwise the general straight-alpha formula
 * `outA = a + dstA (1 - a)`, `outC = (src a + dst dstA (1 - a)) / outA`.
 */
export class SolidSink implements CoverageSink, ResolvedColor {
  r = 0;
  g = 0;
  b = 0;
  alpha = 0;
  /**
   * The pixels as 32-bit words: an opaque destination pixel is read, blended and written as one word (one load and
   * one store instead of four of each; the memory traffic of a flush is what costs). The colour as one opaque pixel
   * word: a fully covered pixel of an opaque colour becomes exactly that pixel (see blend), so it is written whole
   * without reading it.
   */
  private readonly words: Int32Array;
  private opaque = 0;

  /**
   * @param data straight RGBA bytes, row-major, `width * 4` bytes per row, starting 4-byte aligned (a whole buffer
   *   or a view at a multiple of 4, as Canvas makes)
   * @param width pixels per row
   */
  constructor(
    private readonly data: Uint8ClampedArray,
    private readonly width: number,
  ) {
    this.words = new Int32Array(data.buffer, data.byteOffset, data.length >> 2);
  }

  /**
   * Sets the colour for following spans.
   * @param color straight RGBA (0..255, alpha 0..1)
   * @param opacity extra multiplier 0..1
   * @returns false when the colour is fully transparent (nothing to draw)
   */
  setColor(color: RGBA, opacity: number): boolean {
    if (!resolveColor(color, opacity, this)) return false;
    this.opaque = (this.r << SHIFT_R) | (this.g << SHIFT_G) | (this.b << SHIFT_B) | (255 << SHIFT_A);
    return true;
  }

  /**
   * Composites pixels `indices[0 .. count)` (y * width + x) with coverage `cov[index]` and sets their coverage
   * to 0 (the mask flush).
   * @param clamp whether coverage may exceed 1 and must be clamped
   */
  blendList(indices: Int32Array, count: number, cov: Float32Array, clamp: boolean): void {
    const { words, alpha } = this;
    const solid = alpha === 1;
    const word = this.opaque;
    for (let k = 0; k < count; k++) {
      const p = indices[k]!;
      let c = cov[p]!;
      cov[p] = 0;
      if (clamp && c > 1) c = 1;
      if (c === 1 && solid) words[p] = word;
      else this.blend(p, c * alpha);
    }
  }

  /** Source-over of the colour with alpha `a` (0..1) onto pixel `p` (y * width + x). */
  private blend(p: number, a: number): void {
    if (a <= 0) return;
    const words = this.words;
    const px = words[p]!;
    const { r, g, b } = this;
    if (((px >>> SHIFT_A) & 255) === 255) {
      // dst + (src - dst) * a in 8.8 fixed point, rounded: within one level of the exact blend, and within 0..255
      // (w <= 256 and the channels are integers 0..255), so each channel stays in its byte.
      const w = (a * 256 + 0.5) | 0;
      const dr = (px >>> SHIFT_R) & 255,
        dg = (px >>> SHIFT_G) & 255,
        db = (px >>> SHIFT_B) & 255;
      words[p] =
        ((dr + (((r - dr) * w + 128) >> 8)) << SHIFT_R) |
        ((dg + (((g - dg) * w + 128) >> 8)) << SHIFT_G) |
        ((db + (((b - db) * w + 128) >> 8)) << SHIFT_B) |
        (255 << SHIFT_A);
    } else {
      // Fractional results round through the clamped byte array.
      const data = this.data;
      const i = 4 * p;
      const keep = (data[i + 3]! / 255) * (1 - a);
      const outA = a + keep;
      data[i] = (r * a + data[i]! * keep) / outA;
      data[i + 1] = (g * a + data[i + 1]! * keep) / outA;
      data[i + 2] = (b * a + data[i + 2]! * keep) / outA;
      data[i + 3] = outA * 255;
    }
  }

  span(y: number, x0: number, x1: number, cov: Float32Array, base = 0): void {
    const { words, alpha } = this;
    const solid = alpha === 1;
    const word = this.opaque;
    const row = y * this.width;
    for (let x = x0; x < x1; x++) {
      const c = cov[base + x]!;
      if (c !== 1 || !solid) {
        this.blend(row + x, c * alpha);
        continue;
      }
      // A run of fully covered pixels (a polygon's inside) is written in one native fill.
      let end = x + 1;
      while (end < x1 && cov[base + end] === 1) end++;
      words.fill(word, row + x, row + end);
      x = end - 1;
    }
  }
}

/** Masks kept for reuse by {@link MaskSink.shared}, most recent first. */
const spares: MaskSink[] = [];

/**
 * Accumulates coverage into a full-canvas Float32 mask - max-accumulated by the distance stroker, or summed with a
 * weight (the nested strokes of a blurred line) - and lists the pixels it touched, so that flushing and clearing
 * cost only what was drawn: a layer of thin roads covers a small fraction of the canvas.
 *
 * Invariant: `touched[0 .. count)` holds every pixel whose mask value is non-zero, each once. Writers that set a
 * pixel from zero to non-zero append it (see distance-stroke.ts).
 */
export class MaskSink implements CoverageSink {
  /** Coverage per pixel, row-major. */
  readonly mask: Float32Array;
  /** Pixel indices (y * width + x) with non-zero coverage, in the order they were first written. */
  readonly touched: Int32Array;
  /** Number of valid entries of `touched`. */
  count = 0;
  /** Weight applied to incoming coverage. */
  weight = 1;
  /** Whether coverage was summed since the last flush (and may exceed 1); max-accumulated coverage never does. */
  private summed = false;

  /**
   * @param width canvas width (pixels)
   * @param height canvas height (pixels)
   * @param mask clear coverage storage of `width * height` entries (the WebAssembly kernel's, see wasm-raster.ts)
   * @param touched storage of the touched list, as long as `mask`
   */
  constructor(
    readonly width: number,
    readonly height: number,
    mask = new Float32Array(width * height),
    touched = new Int32Array(width * height),
  ) {
    this.mask = mask;
    this.touched = touched;
  }

  span(y: number, x0: number, x1: number, cov: Float32Array, base = 0): void {
    const { mask, weight, touched } = this;
    const row = y * this.width;
    let n = this.count;
    for (let x = x0; x < x1; x++) {
      const add = cov[base + x]! * weight;
      // Under 1/512 (half a colour level) is skipped, which also keeps stored values clear of Float32 underflow.
      if (!(add >= 1 / 512)) continue;
      const i = row + x;
      if (mask[i] === 0) touched[n++] = i;
      mask[i] = mask[i]! + add;
    }
    this.count = n;
    this.summed = true;
  }

  /**
   * A clear mask of the given size shared by all canvases of that size (the last two sizes are kept): every
   * drawing call flushes or clears the mask before it returns, so a canvas never sees another's coverage, and a
   * render does not allocate and zero megabytes of mask each time.
   */
  static shared(width: number, height: number): MaskSink {
    let m = spares.find((s) => s.width === width && s.height === height);
    if (!m) {
      m = new MaskSink(width, height);
      spares.unshift(m);
      spares.length = Math.min(spares.length, 2);
    }
    return m;
  }

  /**
   * Sets the coverage of the whole pixels [x0, x1) x [y0, y1) (integers, clipped to the mask) to 1: exactly what
   * an anti-aliased fill of that pixel-aligned rectangle covers.
   */
  coverRect(x0: number, y0: number, x1: number, y1: number): void {
    const { mask, touched, width } = this;
    const xa = Math.max(0, x0),
      xb = Math.min(width, x1);
    let n = this.count;
    for (let y = Math.max(0, y0); y < Math.min(this.height, y1); y++) {
      for (let i = y * width + xa; i < y * width + xb; i++) {
        if (mask[i] === 0) touched[n++] = i;
        mask[i] = 1;
      }
    }
    this.count = n;
  }

  /** Clears the mask without compositing (after a drawing call failed half-way). */
  clear(): void {
    for (let k = 0; k < this.count; k++) this.mask[this.touched[k]!] = 0;
    this.count = 0;
    this.summed = false;
  }

  /** Composites the touched pixels (coverage clamped to 1) through `sink` and clears the mask. */
  flush(sink: SolidSink): void {
    sink.blendList(this.touched, this.count, this.mask, this.summed);
    this.count = 0;
    this.summed = false;
  }
}
