/**
 * Coverage sinks that composite onto a straight-alpha RGBA buffer (source-over), or accumulate coverage in a mask.
 */
import type { RGBA } from '../../style/color.js';
import type { CoverageSink } from './scanline.js';

/**
 * Source-over compositing of one solid colour, weighted by coverage, onto straight (non-premultiplied) RGBA bytes.
 * For an opaque destination this is `dst + (src - dst) * a`; otherwise the general straight-alpha formula
 * `outA = a + dstA (1 - a)`, `outC = (src a + dst dstA (1 - a)) / outA`.
 */
export class SolidSink implements CoverageSink {
  private r = 0;
  private g = 0;
  private b = 0;
  private alpha = 0;
  /**
   * The pixels as 32-bit words, and the colour as one opaque pixel in them (bytes r, g, b, 255 in memory order,
   * whatever the platform's byte order): a fully covered pixel of an opaque colour becomes exactly that pixel (see
   * blend), so it is written whole without reading it. Null words when `data` is not 4-byte aligned.
   */
  private readonly words: Uint32Array | null;
  private readonly opaque = new Uint32Array(1);
  private readonly opaqueBytes = new Uint8Array(this.opaque.buffer);

  /**
   * @param data straight RGBA bytes, row-major, `width * 4` bytes per row
   * @param width pixels per row
   */
  constructor(
    private readonly data: Uint8ClampedArray,
    private readonly width: number,
  ) {
    this.words = data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, data.length >> 2) : null;
  }

  /**
   * Sets the colour for following spans.
   * @param color straight RGBA (0..255, alpha 0..1)
   * @param opacity extra multiplier 0..1
   * @returns false when the colour is fully transparent (nothing to draw)
   */
  setColor(color: RGBA, opacity: number): boolean {
    // Integral channels let span() blend opaque pixels in integer arithmetic.
    this.r = Math.round(color[0]);
    this.g = Math.round(color[1]);
    this.b = Math.round(color[2]);
    const a = color[3] * opacity;
    this.alpha = a > 1 ? 1 : a > 0 ? a : 0;
    const bytes = this.opaqueBytes;
    bytes[0] = this.r;
    bytes[1] = this.g;
    bytes[2] = this.b;
    bytes[3] = 255;
    return this.alpha > 0 && Number.isFinite(this.r + this.g + this.b);
  }

  /**
   * Composites pixels `indices[0 .. count)` (y * width + x) with coverage `cov[index]` and sets their coverage
   * to 0 (the mask flush).
   * @param clamp whether coverage may exceed 1 and must be clamped
   */
  blendList(indices: Int32Array, count: number, cov: Float32Array, clamp: boolean): void {
    const { data, r, g, b, alpha } = this;
    const words = alpha === 1 ? this.words : null;
    const word = this.opaque[0]!;
    for (let k = 0; k < count; k++) {
      const p = indices[k]!;
      let c = cov[p]!;
      cov[p] = 0;
      if (clamp && c > 1) c = 1;
      if (c === 1 && words) words[p] = word;
      else this.blend(data, 4 * p, c * alpha, r, g, b);
    }
  }

  /** Source-over of (r, g, b) with alpha `a` (0..1) onto the pixel at byte `i`. */
  private blend(data: Uint8ClampedArray, i: number, a: number, r: number, g: number, b: number): void {
    if (a <= 0) return;
    const da = data[i + 3]!;
    if (da === 255) {
      // dst + (src - dst) * a in 8.8 fixed point, rounded: within one level of the exact blend.
      const w = (a * 256 + 0.5) | 0;
      const dr = data[i]!,
        dg = data[i + 1]!,
        db = data[i + 2]!;
      data[i] = dr + (((r - dr) * w + 128) >> 8);
      data[i + 1] = dg + (((g - dg) * w + 128) >> 8);
      data[i + 2] = db + (((b - db) * w + 128) >> 8);
    } else {
      const keep = (da / 255) * (1 - a);
      const outA = a + keep;
      data[i] = (r * a + data[i]! * keep) / outA;
      data[i + 1] = (g * a + data[i + 1]! * keep) / outA;
      data[i + 2] = (b * a + data[i + 2]! * keep) / outA;
      data[i + 3] = outA * 255;
    }
  }

  span(y: number, x0: number, x1: number, cov: Float32Array, base = 0): void {
    const { data, r, g, b, alpha } = this;
    const words = alpha === 1 ? this.words : null;
    const word = this.opaque[0]!;
    const row = y * this.width;
    for (let x = x0; x < x1; x++) {
      const c = cov[base + x]!;
      if (c !== 1 || !words) {
        this.blend(data, 4 * (row + x), c * alpha, r, g, b);
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
   */
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.mask = new Float32Array(width * height);
    this.touched = new Int32Array(width * height);
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
