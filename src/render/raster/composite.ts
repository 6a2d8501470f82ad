/**
 * Coverage sinks that composite onto a straight-alpha RGBA buffer (source-over), or accumulate coverage in a mask.
 */
import type { RGBA } from './color.js';
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
   * @param data straight RGBA bytes, row-major, `width * 4` bytes per row
   * @param width pixels per row
   */
  constructor(
    private readonly data: Uint8ClampedArray,
    private readonly width: number,
  ) {}

  /**
   * Sets the colour for following spans.
   * @param color straight RGBA (0..255, alpha 0..1)
   * @param opacity extra multiplier 0..1
   * @returns false when the colour is fully transparent (nothing to draw)
   */
  setColor(color: RGBA, opacity: number): boolean {
    this.r = color[0];
    this.g = color[1];
    this.b = color[2];
    const a = color[3] * opacity;
    this.alpha = a > 1 ? 1 : a > 0 ? a : 0;
    return this.alpha > 0 && Number.isFinite(this.r + this.g + this.b);
  }

  span(y: number, x0: number, x1: number, cov: Float32Array, base = 0): void {
    const { data, r, g, b, alpha } = this;
    let i = (y * this.width + x0) * 4;
    for (let x = x0; x < x1; x++, i += 4) {
      const a = cov[base + x]! * alpha;
      if (a <= 0) continue;
      const da = data[i + 3]!;
      if (da === 255) {
        data[i] = data[i]! + (r - data[i]!) * a;
        data[i + 1] = data[i + 1]! + (g - data[i + 1]!) * a;
        data[i + 2] = data[i + 2]! + (b - data[i + 2]!) * a;
      } else {
        const keep = (da / 255) * (1 - a);
        const outA = a + keep;
        data[i] = (r * a + data[i]! * keep) / outA;
        data[i + 1] = (g * a + data[i + 1]! * keep) / outA;
        data[i + 2] = (b * a + data[i + 2]! * keep) / outA;
        data[i + 3] = outA * 255;
      }
    }
  }
}

/**
 * Accumulates weighted coverage into a full-canvas Float32 mask (used to sum the nested strokes of a blurred line),
 * remembering the touched row range so that flushing and clearing cost only what was drawn.
 */
export class MaskSink implements CoverageSink {
  /** Coverage per pixel, row-major. */
  readonly mask: Float32Array;
  /** Weight applied to incoming coverage. */
  weight = 1;
  /** Whether coverage was summed since the last flush (and may exceed 1); max-accumulated coverage never does. */
  private summed = false;
  private minY = Infinity;
  private maxY = -1;
  private readonly rowMin: Int32Array;
  private readonly rowMax: Int32Array;

  /**
   * @param width canvas width (pixels)
   * @param height canvas height (pixels)
   */
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.mask = new Float32Array(width * height);
    this.rowMin = new Int32Array(height).fill(width);
    this.rowMax = new Int32Array(height);
  }

  span(y: number, x0: number, x1: number, cov: Float32Array, base = 0): void {
    const { mask, weight } = this;
    const row = y * this.width;
    for (let x = x0; x < x1; x++) mask[row + x] = mask[row + x]! + cov[base + x]! * weight;
    this.touch(y, x0, x1);
    this.summed = true;
  }

  /**
   * Records that row y was written in columns x0 .. x1 - 1 by someone writing `mask` directly, so that
   * {@link flush} sends and clears them.
   */
  touch(y: number, x0: number, x1: number): void {
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
    if (x0 < this.rowMin[y]!) this.rowMin[y] = x0;
    if (x1 > this.rowMax[y]!) this.rowMax[y] = x1;
  }

  /** Sends the accumulated rows (coverage clamped to 1) to `sink` and clears the mask. */
  flush(sink: CoverageSink): void {
    const { mask, width } = this;
    for (let y = this.minY; y <= this.maxY; y++) {
      const x0 = this.rowMin[y]!, x1 = this.rowMax[y]!;
      if (x1 <= x0) continue;
      const base = y * width;
      if (this.summed) for (let x = base + x0; x < base + x1; x++) if (mask[x]! > 1) mask[x] = 1;
      sink.span(y, x0, x1, mask, base);
      mask.fill(0, base + x0, base + x1);
      this.rowMin[y] = width;
      this.rowMax[y] = 0;
    }
    this.minY = Infinity;
    this.maxY = -1;
    this.summed = false;
  }
}
