/**
 * Labels of symbol layers: point labels centred on their feature, and line labels (street names) set straight
 * along the longest straight-enough stretch of their road, upright. Text is drawn from the shipped SDF fonts with
 * real diacritics ("Hàng Bài"); where no glyphs can be read (no assets folder), from the built-in 5x7 bitmap font
 * without diacritics ("Hang Bai"). Labels never overlap: each is placed only where its box (plus text-padding)
 * meets no earlier one and lies inside the image (text-allow-overlap is not read).
 */
import type { SymbolStyle } from './feature-styles.js';
import { glyphFont } from './glyph-font.js';
import { CollisionIndex, type LabelBox } from './label-collision.js';
import { drawSdfText, measureText, shapeText, type Canvas, type ShapedText } from './raster/index.js';

/** Font pixels per bitmap-font row: a 7-row glyph at scale 1 stands for text-size 10. */
const SIZE_PER_SCALE = 10;
/** Half the height of a label's box per pixel of text-size (capitals with stacked Vietnamese marks, descenders). */
const HALF_HEIGHT_PER_SIZE = 0.65;
/** Most line labels tried per layer: the names with the longest straight stretches in view. */
export const MAX_LINE_LABELS = 60;
/** A line label's stretch may stray this far (pixels) from the straight text. */
const STRAIGHT_TOLERANCE = 1.5;

/**
 * Latin letters without diacritics: NFD and drop the combining marks, then the Vietnamese đ/Đ (a letter of its own,
 * not a d with a mark).
 */
export function foldDiacritics(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/g, 'd').replace(/Đ/g, 'D');
}

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

  constructor(readonly canvas: Canvas) {
    this.collisions = new CollisionIndex(canvas.width, canvas.height);
  }

  /**
   * Draws a label centred on (x, y), pixels, unless it collides or leaves the image.
   * @returns whether it was drawn
   */
  point(s: SymbolStyle, x: number, y: number): boolean {
    if (!Number.isFinite(x + y)) return false;
    const font = glyphFont(s.font);
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
      const font = glyphFont(s.font);
      if (!font) continue; // the bitmap font is too coarse to set along roads
      const shaped = shapeText(transformed(s, s.text), font);
      const textLength = (shaped.width * s.size) / 24 + 2 * s.padding;
      if (textLength > st.length) continue;
      // Upright: the text runs left to right (top to bottom on a vertical road).
      let ux = (st.x1 - st.x0) / st.length, uy = (st.y1 - st.y0) / st.length;
      if (ux < 0 || (ux === 0 && uy < 0)) (ux = -ux), (uy = -uy);
      const mx = (st.x0 + st.x1) / 2, my = (st.y0 + st.y1) / 2;
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
    const text = transformed(s, foldDiacritics(s.text));
    const scale = Math.max(1, Math.round(s.size / SIZE_PER_SCALE));
    const { width, height } = measureText(text, scale);
    const halo = s.haloColor ? Math.ceil(s.haloWidth) : 0;
    const x0 = Math.round(x - width / 2), y0 = Math.round(y - height / 2);
    const box: LabelBox = { cx: x0 + width / 2, cy: y0 + height / 2, ux: 1, uy: 0, halfLength: width / 2 + halo, halfHeight: height / 2 + halo };
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
 * the chord. The chord is clipped to [0, width] x [0, height]; null when no stretch shows in the image.
 */
export function longestStretch(xy: ArrayLike<number>, start: number, end: number, maxBend: number, width: number, height: number): Stretch | null {
  const n = (end - start) >> 1;
  const cosMax = Math.cos((Math.min(180, Math.max(0, maxBend)) * Math.PI) / 180);
  const X = (i: number) => xy[start + 2 * i]!, Y = (i: number) => xy[start + 2 * i + 1]!;
  let best: Stretch | null = null;
  for (let i = 0; i + 1 < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j >= i + 2) {
        // Turn at vertex j - 1.
        const ax = X(j - 1) - X(j - 2), ay = Y(j - 1) - Y(j - 2), bx = X(j) - X(j - 1), by = Y(j) - Y(j - 1);
        const la = Math.hypot(ax, ay), lb = Math.hypot(bx, by);
        if (la > 0 && lb > 0 && (ax * bx + ay * by) / (la * lb) < cosMax) break;
      }
      const cx = X(j) - X(i), cy = Y(j) - Y(i), len = Math.hypot(cx, cy);
      if (!(len > 0)) continue;
      let straight = true;
      for (let k = i + 1; k < j && straight; k++) straight = Math.abs((X(k) - X(i)) * cy - (Y(k) - Y(i)) * cx) / len <= STRAIGHT_TOLERANCE;
      if (!straight) break;
      const clipped = clipSegment(X(i), Y(i), X(j), Y(j), width, height);
      if (clipped && (!best || clipped.length > best.length)) best = clipped;
    }
  }
  return best;
}

/** The part of segment (x0, y0)-(x1, y1) inside [0, width] x [0, height] (Liang-Barsky), or null. */
function clipSegment(x0: number, y0: number, x1: number, y1: number, width: number, height: number): Stretch | null {
  const dx = x1 - x0, dy = y1 - y0;
  let t0 = 0, t1 = 1;
  for (const [p, q] of [[-dx, x0], [dx, width - x0], [-dy, y0], [dy, height - y0]] as const) {
    if (p === 0) {
      if (q < 0) return null;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
    }
  }
  if (!(t1 > t0)) return null;
  const a = { x: x0 + t0 * dx, y: y0 + t0 * dy }, b = { x: x0 + t1 * dx, y: y0 + t1 * dy };
  return { x0: a.x, y0: a.y, x1: b.x, y1: b.y, length: Math.hypot(b.x - a.x, b.y - a.y) };
}
