/**
 * Labels of symbol layers: point labels centred on their feature, and line labels (street names) set straight
 * along the longest straight-enough stretch of their road, upright. Text is drawn from the shipped SDF fonts with
 * real diacritics ("Hàng Bài"); where no glyphs can be read (no assets folder), from the built-in 5x7 bitmap font
 * without diacritics ("Hang Bai"). Labels never overlap: each is placed only where its box (plus text-padding)
 * meets no earlier one and lies inside the image (text-allow-overlap is not read).
 */
import type { SymbolStyle } from './feature-styles.js';
import type { GlyphFonts } from './glyph-font.js';
import { CollisionIndex, type LabelBox } from './label-collision.js';
import { drawSdfText, measureText, shapeText, type Canvas, type ShapedText } from './raster/index.js';
import { stripDiacritics } from '../text/diacritics.js';

/** Font pixels per bitmap-font row: a 7-row glyph at scale 1 stands for text-size 10. */
const SIZE_PER_SCALE = 10;
/** Half the height of a label's box per pixel of text-size (capitals with stacked Vietnamese marks, descenders). */
const HALF_HEIGHT_PER_SIZE = 0.65;
/** Most line labels tried per layer: the names with the longest straight stretches in view. */
export const MAX_LINE_LABELS = 60;
/** A line label's stretch may stray this far (pixels) from the straight text. */
const STRAIGHT_TOLERANCE = 1.5;

/** The text of a label after text-transform. */
function transformed(s: SymbolStyle, text: string): string {
  return s.transform === 'uppercase' ? text.toUpperCase() : s.transform === 'lowercase' ? text.toLowerCase() : text;
}

/** A straight stretch of a line in view, pixels: its ends (clipped to the image) and length. */
export interface Stretch {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  length: number;
}

/** Places and draws the labels of one render, sharing one collision index across symbol layers. */
export class Labeler {
  /** The placed labels' boxes (padding included). */
  readonly collisions: CollisionIndex;

  /** @param fonts the glyphs labels are set in */
  constructor(
    readonly canvas: Canvas,
    private readonly fonts: GlyphFonts,
  ) {
    this.collisions = new CollisionIndex(canvas.width, canvas.height);
  }

  /**
   * Draws a label centred on (x, y), pixels, unless it collides or leaves the image.
   * @returns whether it was drawn
   */
  point(s: SymbolStyle, x: number, y: number): boolean {
    if (!Number.isFinite(x + y)) return false;
    const font = this.fonts.font(s.font);
    if (!font) return this.bitmapPoint(s, x, y);
    const shaped = shapeText(transformed(s, s.text), font);
    return this.place(s, shaped, x, y, 1, 0);
  }

  /**
   * Draws one label per distinct name of `candidates` (the longest stretches first, at most MAX_LINE_LABELS
   * tried) along its stretch, where the text fits in the stretch and meets no other label.
   * @returns the number of labels drawn
   */
  lines(candidates: Iterable<{ style: SymbolStyle; stretch: Stretch }>): number {
    const sorted = [...candidates].sort((a, b) => b.stretch.length - a.stretch.length).slice(0, MAX_LINE_LABELS);
    let drawn = 0;
    for (const { style: s, stretch: st } of sorted) {
      const font = this.fonts.font(s.font);
      if (!font) continue; // the bitmap font is too coarse to set along roads
      const shaped = shapeText(transformed(s, s.text), font);
      const textLength = (shaped.width * s.size) / 24 + 2 * s.padding;
      if (textLength > st.length) continue;
      // Upright: the text runs left to right (top to bottom on a vertical road).
      let ux = (st.x1 - st.x0) / st.length,
        uy = (st.y1 - st.y0) / st.length;
      if (ux < 0 || (ux === 0 && uy < 0)) ((ux = -ux), (uy = -uy));
      const mx = (st.x0 + st.x1) / 2,
        my = (st.y0 + st.y1) / 2;
      // The middle first, then either side while the text still fits in the stretch.
      const slack = (st.length - textLength) / 2;
      for (const t of [0, -0.5, 0.5]) {
        if (this.place(s, shaped, mx + ux * t * slack, my + uy * t * slack, ux, uy)) {
          drawn++;
          break;
        }
      }
    }
    return drawn;
  }

  /** Places shaped text centred on (x, y) along direction (ux, uy) when its box fits, and draws it. */
  private place(s: SymbolStyle, shaped: ShapedText, x: number, y: number, ux: number, uy: number): boolean {
    if (shaped.glyphs.length === 0) return false;
    const halo = s.haloColor ? s.haloWidth : 0;
    const box: LabelBox = {
      cx: x,
      cy: y,
      ux,
      uy,
      halfLength: (shaped.width * s.size) / 48 + halo + s.padding,
      halfHeight: HALF_HEIGHT_PER_SIZE * s.size + halo + s.padding,
    };
    if (!this.collisions.insert(box)) return false;
    drawSdfText(this.canvas, shaped, x, y, {
      size: s.size,
      color: s.color,
      opacity: s.opacity,
      haloColor: s.haloColor,
      haloWidth: s.haloWidth,
      angle: Math.atan2(uy, ux),
    });
    return true;
  }

  /** A point label in the bitmap font (no glyphs available), on whole pixels. */
  private bitmapPoint(s: SymbolStyle, x: number, y: number): boolean {
    const text = transformed(s, stripDiacritics(s.text));
    const scale = Math.max(1, Math.round(s.size / SIZE_PER_SCALE));
    const { width, height } = measureText(text, scale);
    const halo = s.haloColor ? Math.ceil(s.haloWidth) : 0;
    const x0 = Math.round(x - width / 2),
      y0 = Math.round(y - height / 2);
    const box: LabelBox = {
      cx: x0 + width / 2,
      cy: y0 + height / 2,
      ux: 1,
      uy: 0,
      halfLength: width / 2 + halo,
      halfHeight: height / 2 + halo,
    };
    if (!this.collisions.insert(box)) return false;
    const alpha = (c: readonly number[]) => [c[0]!, c[1]!, c[2]!, c[3]! * s.opacity] as const;
    this.canvas.drawText(text, x0, y0, {
      color: alpha(s.color),
      scale,
      haloColor: s.haloColor ? alpha(s.haloColor) : undefined,
      haloWidth: halo,
    });
    return true;
  }
}

/**
 * The longest stretch of the polyline `xy[start .. end)` (flat x, y pairs, pixels) that is straight enough for
 * text: consecutive segments turn by at most `maxBend` degrees and every vertex lies within STRAIGHT_TOLERANCE of
 * the chord's line. The chord is clipped to [0, width] x [0, height]; null when no stretch shows in the image.
 *
 * From each start vertex the stretch grows while the chord's direction stays inside the cone of directions that
 * pass within the tolerance of every vertex so far (one angle interval, narrowed per vertex), so a start costs
 * time linear in its stretch; starts whose remaining path is no longer than the best chord are skipped.
 */
export function longestStretch(
  xy: ArrayLike<number>,
  start: number,
  end: number,
  maxBend: number,
  width: number,
  height: number,
): Stretch | null {
  const n = (end - start) >> 1;
  const cosMax = Math.cos((Math.min(180, Math.max(0, maxBend)) * Math.PI) / 180);
  // Vertex v is at xy[start + 2 v], xy[start + 2 v + 1]. (No helper closures: this runs for every road in view.)
  // Path length from each vertex to the end: an upper bound of any chord starting there.
  const rest = new Float64Array(n);
  for (let v = n - 2, o = start + 2 * v; v >= 0; v--, o -= 2)
    rest[v] = rest[v + 1]! + Math.hypot(xy[o + 2]! - xy[o]!, xy[o + 3]! - xy[o + 1]!);
  let best: Stretch | null = null;
  for (let i = 0; i + 1 < n; i++) {
    if (best && rest[i]! <= best.length) break; // rest only shrinks with i
    const oi = start + 2 * i;
    const x0 = xy[oi]!,
      y0 = xy[oi + 1]!;
    // Chord directions are measured from the first segment's, so the cone never wraps around +-pi.
    const ref = Math.atan2(xy[oi + 3]! - y0, xy[oi + 2]! - x0);
    let lo = -Math.PI,
      hi = Math.PI;
    for (let j = i + 1; j < n; j++) {
      const oj = start + 2 * j;
      const xj = xy[oj]!,
        yj = xy[oj + 1]!;
      if (j >= i + 2) {
        // Turn at vertex j - 1.
        const ax = xy[oj - 2]! - xy[oj - 4]!,
          ay = xy[oj - 1]! - xy[oj - 3]!,
          bx = xj - xy[oj - 2]!,
          by = yj - xy[oj - 1]!;
        const la = Math.hypot(ax, ay),
          lb = Math.hypot(bx, by);
        if (la > 0 && lb > 0 && (ax * bx + ay * by) / (la * lb) < cosMax) break;
      }
      const cx = xj - x0,
        cy = yj - y0,
        len = Math.hypot(cx, cy);
      if (!(len > 0)) continue;
      let a = Math.atan2(cy, cx) - ref;
      if (a > Math.PI) a -= 2 * Math.PI;
      else if (a < -Math.PI) a += 2 * Math.PI;
      // The chord to j must pass within the tolerance of every earlier vertex...
      if (a < lo || a > hi) break;
      // ...and later chords within the tolerance of j.
      if (len > STRAIGHT_TOLERANCE) {
        const w = Math.asin(STRAIGHT_TOLERANCE / len);
        lo = Math.max(lo, a - w);
        hi = Math.min(hi, a + w);
      }
      // Clipping only shortens a chord: one no longer than the best cannot win.
      if (best && len <= best.length) continue;
      const clipped = clipSegment(x0, y0, xj, yj, width, height);
      if (clipped && (!best || clipped.length > best.length)) best = clipped;
    }
  }
  return best;
}

/** The part of segment (x0, y0)-(x1, y1) inside [0, width] x [0, height] (Liang-Barsky), or null. */
function clipSegment(x0: number, y0: number, x1: number, y1: number, width: number, height: number): Stretch | null {
  const dx = x1 - x0,
    dy = y1 - y0;
  let t0 = 0,
    t1 = 1;
  // Each edge keeps p t <= q (p = 0: parallel, inside when q >= 0): x >= 0, x <= width, y >= 0, y <= height.
  for (let e = 0; e < 4; e++) {
    const p = e === 0 ? -dx : e === 1 ? dx : e === 2 ? -dy : dy;
    const q = e === 0 ? x0 : e === 1 ? width - x0 : e === 2 ? y0 : height - y0;
    if (p === 0) {
      if (q < 0) return null;
    } else if (p < 0) t0 = Math.max(t0, q / p);
    else t1 = Math.min(t1, q / p);
  }
  if (!(t1 > t0)) return null;
  return {
    x0: x0 + t0 * dx,
    y0: y0 + t0 * dy,
    x1: x0 + t1 * dx,
    y1: y0 + t1 * dy,
    length: (t1 - t0) * Math.hypot(dx, dy),
  };
}
