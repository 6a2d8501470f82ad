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
    // Integral channels let span() blend opaque pixels in integer arithmetic.
    this.r = Math.round(color[0]);
    this.g = Math.round(color[1]);
    this.b = Math.round(color[2]);
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
        // dst + (src - dst) * a in 8.8 fixed point, rounded: within one level of the exact blend.
        const w = (a * 256 + 0.5) | 0;
        const dr = data[i]!, dg = data[i + 1]!, db = data[i + 2]!;
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
  }
}

/** log2 of the block width (pixels) in which the mask tracks touched columns. */
const BLOCK_SHIFT = 4;

/**
 * Accumulates weighted coverage into a full-canvas Float32 mask (used to sum the nested strokes of a blurred line,
 * or to max-accumulate a layer's strokes), remembering which 16-pixel blocks of each row were touched so that
 * flushing and clearing cost only what was drawn: a layer of thin roads touches a small fraction of each row.
 */
export class MaskSink implements CoverageSink {
  /** Coverage per pixel, row-major. */
  readonly mask: Float32Array;
  /** Weight applied to incoming coverage. */
  weight = 1;
  /** Whether coverage was summed since the last flush (and may exceed 1); max-accumulated coverage never does. */
  private summed = false;
  private minY: number;
  private maxY = -1;
  /** Blocks per row. */
  private readonly blocksPerRow: number;
  /** Per row and block: 1 when touched since the last flush. */
  private readonly blocks: Uint8Array;
  /** Per row: first touched block and one past the last (rowMin >= rowMax when none). */
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
    this.minY = height; // an integer sentinel (not Infinity) keeps the row loop in integer arithmetic
    this.blocksPerRow = (width + (1 << BLOCK_SHIFT) - 1) >> BLOCK_SHIFT;
    this.blocks = new Uint8Array(this.blocksPerRow * height);
    this.rowMin = new Int32Array(height).fill(this.blocksPerRow);
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
    if (x1 <= x0) return;
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
    const b0 = x0 >> BLOCK_SHIFT, b1 = ((x1 - 1) >> BLOCK_SHIFT) + 1;
    if (b0 < this.rowMin[y]!) this.rowMin[y] = b0;
    if (b1 > this.rowMax[y]!) this.rowMax[y] = b1;
    const at = y * this.blocksPerRow;
    // Loops rather than fill(): nearly every call marks one or two blocks, where a builtin call costs more.
    for (let b = at + b0; b < at + b1; b++) this.blocks[b] = 1;
  }

  /** Sends the accumulated runs of touched blocks (coverage clamped to 1) to `sink` and clears the mask. */
  flush(sink: CoverageSink): void {
    const { mask, width, blocks, blocksPerRow } = this;
    for (let y = this.minY; y <= this.maxY; y++) {
      const bMin = this.rowMin[y]!, bMax = this.rowMax[y]!;
      if (bMax <= bMin) continue;
      const base = y * width;
      const at = y * blocksPerRow;
      for (let b = bMin; b < bMax; ) {
        if (blocks[at + b] === 0) {
          b++;
          continue;
        }
        let e = b + 1;
        while (e < bMax && blocks[at + e] === 1) e++;
        const x0 = b << BLOCK_SHIFT, x1 = Math.min(width, e << BLOCK_SHIFT);
        if (this.summed) for (let x = base + x0; x < base + x1; x++) if (mask[x]! > 1) mask[x] = 1;
        sink.span(y, x0, x1, mask, base);
        for (let x = base + x0; x < base + x1; x++) mask[x] = 0;
        for (let k = at + b; k < at + e; k++) blocks[k] = 0;
        b = e;
      }
      this.rowMin[y] = blocksPerRow;
      this.rowMax[y] = 0;
    }
    this.minY = this.height;
    this.maxY = -1;
    this.summed = false;
  }
}
