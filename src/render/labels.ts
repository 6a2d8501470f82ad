/**
 * Point labels of symbol layers in the built-in 5x7 bitmap font. The font has Latin basics only, so Vietnamese
 * names are drawn without their diacritics ("Hàng Bài" as "Hang Bai"); labels that would overlap an earlier one
 * are skipped (text-allow-overlap is not read: the static map never lets labels collide).
 */
import type { SymbolStyle } from './feature-styles.js';
import { measureText, type Canvas } from './raster/index.js';

/** A label to place: its style and anchor (pixels). */
export interface PointLabel {
  style: SymbolStyle;
  x: number;
  y: number;
}

/** Font pixels per bitmap-font row: a 7-row glyph at scale 1 stands for text-size 10. */
const SIZE_PER_SCALE = 10;

/**
 * Latin letters without diacritics: NFD and drop the combining marks, then the Vietnamese đ/Đ (a letter of its own,
 * not a d with a mark).
 */
export function foldDiacritics(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/g, 'd').replace(/Đ/g, 'D');
}

/**
 * Draws the labels of `features` centred on their anchors, in order, skipping any whose box meets one already
 * drawn or leaves the canvas.
 * @param label the label of a feature, or null when it has none
 */
export function drawPointLabels(
  canvas: Canvas,
  features: ArrayLike<number>,
  label: (feature: number) => PointLabel | null,
): void {
  const boxes: number[] = [];
  for (let i = 0; i < features.length; i++) {
    const l = label(features[i]!);
    if (!l || !Number.isFinite(l.x + l.y)) continue;
    const s = l.style;
    let text = foldDiacritics(s.text);
    if (s.transform === 'uppercase') text = text.toUpperCase();
    else if (s.transform === 'lowercase') text = text.toLowerCase();
    const scale = Math.max(1, Math.round(s.size / SIZE_PER_SCALE));
    const { width, height } = measureText(text, scale);
    const halo = s.haloColor ? Math.ceil(s.haloWidth) : 0;
    const x0 = Math.round(l.x - width / 2) - halo, y0 = Math.round(l.y - height / 2) - halo;
    const x1 = x0 + width + 2 * halo, y1 = y0 + height + 2 * halo;
    if (x0 < 0 || y0 < 0 || x1 > canvas.width || y1 > canvas.height) continue;
    let free = true;
    for (let b = 0; b < boxes.length && free; b += 4) {
      free = x1 <= boxes[b]! || x0 >= boxes[b + 2]! || y1 <= boxes[b + 1]! || y0 >= boxes[b + 3]!;
    }
    if (!free) continue;
    boxes.push(x0, y0, x1, y1);
    const alpha = (c: readonly number[]) => [c[0]!, c[1]!, c[2]!, c[3]! * s.opacity] as const;
    canvas.drawText(text, x0 + halo, y0 + halo, {
      color: alpha(s.color),
      scale,
      haloColor: s.haloColor ? alpha(s.haloColor) : undefined,
      haloWidth: halo,
    });
  }
}
