import type { Color } from '@maplibre/maplibre-gl-style-spec';
import { styleSpec } from './style-spec.js';

/**
 * An evaluated colour: `[r, g, b, a]`, each an integer 0–255, NOT premultiplied by alpha
 * (a = 255 is opaque). Ready for an RGBA8 raster such as a PNG.
 */
export type Rgba = readonly [number, number, number, number];

const to255 = (x: number): number => Math.max(0, Math.min(255, Math.round(x * 255)));

/** Converts the style-spec library's premultiplied 0–1 colour to {@link Rgba}. */
export function colorToRgba(color: Color): Rgba {
  const [r, g, b, a] = color.rgb; // un-premultiplied 0–1
  return [to255(r), to255(g), to255(b), to255(a)];
}

/**
 * Parses a CSS colour: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `rgba()`, `hsl()`, `hsla()`
 * or a named CSS colour.
 * @returns the colour, or `undefined` when the text is not a colour (never throws)
 */
export function parseColor(text: unknown): Rgba | undefined {
  if (typeof text !== 'string') return undefined;
  const color = styleSpec().Color.parse(text);
  return color ? colorToRgba(color) : undefined;
}
