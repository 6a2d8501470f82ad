/**
 * Colours for the rasteriser.
 *
 * A colour is a straight (non-premultiplied) RGBA tuple: red, green and blue in 0..255 and alpha in 0..1, the same
 * convention as CSS `rgba()` and maplibre's style colours.
 */

/** Straight-alpha colour: `[red 0..255, green 0..255, blue 0..255, alpha 0..1]`. */
export type RGBA = readonly [number, number, number, number];

/**
 * Parses a CSS-like colour string: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(r, g, b)` or `rgba(r, g, b, a)`.
 * Returns `null` for anything else (named colours and hsl() are not handled here: the style layer resolves those).
 *
 * @param text colour text, surrounding whitespace ignored
 * @returns the colour, or null when the text is not one of the supported forms
 */
export function parseColor(text: string): RGBA | null {
  const s = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(s);
  if (hex) {
    const h = hex[1]!;
    const short = h.length <= 4;
    const digit = (i: number): number =>
      short ? parseInt(h[i]! + h[i]!, 16) : parseInt(h.slice(2 * i, 2 * i + 2), 16);
    const n = short ? h.length : h.length / 2;
    return [digit(0), digit(1), digit(2), n === 4 ? digit(3) / 255 : 1];
  }
  const fn = /^rgba?\(\s*([^)]*)\)$/.exec(s);
  if (!fn) return null;
  const parts = fn[1]!.split(/\s*[,/]\s*|\s+/).filter((p) => p.length > 0);
  if (parts.length !== 3 && parts.length !== 4) return null;
  const channel = (p: string): number =>
    p.endsWith('%') ? (parseFloat(p) * 255) / 100 : parseFloat(p);
  const r = channel(parts[0]!);
  const g = channel(parts[1]!);
  const b = channel(parts[2]!);
  const a = parts.length === 4 ? (parts[3]!.endsWith('%') ? parseFloat(parts[3]!) / 100 : parseFloat(parts[3]!)) : 1;
  if (![r, g, b, a].every(Number.isFinite)) return null;
  const clamp = (v: number, hi: number): number => Math.min(hi, Math.max(0, v));
  return [clamp(r, 255), clamp(g, 255), clamp(b, 255), clamp(a, 1)];
}
