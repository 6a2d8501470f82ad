/**
 * The one colour parser of bando, used by the style code (the style spec's colour rules) and by the static map's
 * `color` parameter (those rules plus the forms Google Static Maps users write). A hand-written scanner: every
 * input costs one pass over its characters, whatever it holds.
 *
 * The colour convention, everywhere in bando: {@link RGBA}.
 */
import type { Color } from '@maplibre/maplibre-gl-style-spec';
import { NAMED_COLORS } from './color-names.js';

/**
 * A colour: `[red, green, blue, alpha]`; red, green and blue are integers 0–255, alpha is 0–1 (1 opaque), straight
 * (not premultiplied by alpha): the numbers of CSS `rgba()`.
 */
export type RGBA = readonly [number, number, number, number];

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);
/** A 0–1 channel as an integer 0–255. */
const byte = (x: number): number => Math.round(clamp01(x) * 255);

/** Converts the style-spec library's colour (an expression's result) to {@link RGBA}. */
export function colorToRgba(color: Color): RGBA {
  const [r, g, b, a] = color.rgb; // un-premultiplied 0–1
  return [byte(r), byte(g), byte(b), clamp01(a)];
}

/**
 * Parses a colour as the style spec reads it (CSS Color 4 as MapLibre implements it): a CSS colour name,
 * `transparent`, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` (three numbers 0–255 or three
 * percentages, separated by commas or by spaces, then an alpha after `,` or `/` respectively, as a number 0–1 or a
 * percentage) and `hsl()`/`hsla()` (hue in degrees, with an optional `deg`; saturation and lightness percentages;
 * alpha as for rgb). Case and surrounding whitespace are ignored; out-of-range values are clamped as CSS does.
 * Deviation: a hue that is not finite (`1e999`) is refused (MapLibre would give a colour of NaN channels).
 * @returns the colour, or `undefined` when the text is not a colour (never throws)
 */
export function parseColor(text: unknown): RGBA | undefined {
  if (typeof text !== 'string') return undefined;
  const s = text.trim().toLowerCase();
  if (s === 'transparent') return [0, 0, 0, 0];
  if (Object.hasOwn(NAMED_COLORS, s)) {
    const n = NAMED_COLORS[s]!;
    return [n >>> 16, (n >>> 8) & 255, n & 255, 1];
  }
  if (s.startsWith('#')) return hexColor(s, 1, true);
  return functionColor(s);
}

/**
 * Parses the static map's `color` parameter: everything {@link parseColor} takes, plus what Google Static Maps users
 * write: `0xRRGGBB` and `0xRRGGBBAA`, hex digits without the `#` (`253494`, `f0a`), and a `#` still percent-encoded
 * (`%23253494`).
 * @returns the colour, or `undefined`
 */
export function parseMapColor(text: string): RGBA | undefined {
  let s = text.trim().toLowerCase();
  if (s.startsWith('%23')) s = `#${s.slice(3)}`;
  if (s.startsWith('0x')) return hexColor(s, 2, false);
  return hexColor(s, 0, true) ?? parseColor(s);
}

/** `s` from `start` on as 3, 4 (when `short`), 6 or 8 hex digits: RGB[A] or RRGGBB[AA]. */
function hexColor(s: string, start: number, short: boolean): RGBA | undefined {
  const n = s.length - start;
  if (!(n === 6 || n === 8 || (short && (n === 3 || n === 4)))) return undefined;
  const digits: number[] = [];
  for (let i = start; i < s.length; i++) {
    const d = hexDigit(s.charCodeAt(i));
    if (d < 0) return undefined;
    digits.push(d);
  }
  const pair = n <= 4 ? (i: number) => digits[i]! * 17 : (i: number) => digits[2 * i]! * 16 + digits[2 * i + 1]!;
  const channels = n <= 4 ? n : n / 2;
  return [pair(0), pair(1), pair(2), channels === 4 ? pair(3) / 255 : 1];
}

/** Value of a lowercase hex digit's character code, or -1. */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** One argument of a colour function: its number (NaN when malformed) and whether a `%` followed. */
interface Arg {
  value: number;
  percent: boolean;
}

/**
 * A left-to-right reader of a colour function's arguments, the text between the parentheses. Each method reads at
 * most what it recognises and never looks back, so a parse is one pass.
 */
class ArgReader {
  constructor(
    private readonly s: string,
    public pos: number,
    private readonly end: number,
  ) {}

  /** Skips white space (the characters of a regular expression's `\s`); returns how many. */
  space(): number {
    const from = this.pos;
    while (this.pos < this.end && isSpace(this.s.charCodeAt(this.pos))) this.pos++;
    return this.pos - from;
  }

  /** Reads `c` when it is next. */
  take(c: string): boolean {
    if (this.pos < this.end && this.s[this.pos] === c) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** Reads `word` when it comes next. */
  word(word: string): boolean {
    if (this.end - this.pos >= word.length && this.s.startsWith(word, this.pos)) {
      this.pos += word.length;
      return true;
    }
    return false;
  }

  /**
   * A number as MapLibre's pattern takes it: the longest run of digits, `e`, `.`, `+` and `-`, read by `Number`
   * (NaN when the run is empty or not a number), then an optional `%` when `percent` allows it.
   */
  arg(percent: boolean): Arg {
    const from = this.pos;
    while (this.pos < this.end && isNumberChar(this.s.charCodeAt(this.pos))) this.pos++;
    const value = this.pos > from ? Number(this.s.slice(from, this.pos)) : NaN;
    return { value, percent: percent && this.take('%') };
  }

  /** The separator between two channels: `,` (commas, spaces around them allowed), ` ` (spaces only) or '' (none). */
  separator(): string {
    const spaces = this.space();
    if (this.take(',')) {
      this.space();
      return ',';
    }
    return spaces > 0 ? ' ' : '';
  }

  /** True when only white space is left. */
  done(): boolean {
    this.space();
    return this.pos === this.end;
  }
}

/** `rgb()`, `rgba()`, `hsl()` or `hsla()` (see {@link parseColor}); `s` is trimmed and lowercase. */
function functionColor(s: string): RGBA | undefined {
  const open = s.indexOf('(');
  if (open < 0 || !s.endsWith(')')) return undefined;
  const name = s.slice(0, open);
  const hsl = name === 'hsl' || name === 'hsla';
  if (!hsl && name !== 'rgb' && name !== 'rgba') return undefined;
  const r = new ArgReader(s, open + 1, s.length - 1);
  r.space();
  const a1 = r.arg(!hsl);
  if (hsl) r.word('deg');
  const f1 = r.separator();
  const a2 = r.arg(true);
  const f2 = r.separator();
  const a3 = r.arg(true);
  let alpha: Arg | undefined;
  let f3 = '';
  if (!r.done()) {
    f3 = r.take(',') ? ',' : r.take('/') ? '/' : '';
    if (f3 === '') return undefined;
    r.space();
    alpha = r.arg(true);
    if (!r.done()) return undefined;
  }
  // Commas throughout (`rgb(1, 2, 3, 0.5)`) or spaces with a slash before the alpha (`rgb(1 2 3 / 0.5)`).
  const format = f1 + f2 + f3;
  if (format !== '  ' && format !== '  /' && format !== ',,' && format !== ',,,') return undefined;
  const a = alpha ? clamp01(alpha.percent ? alpha.value / 100 : alpha.value) : 1;
  if (Number.isNaN(a) || Number.isNaN(a1.value) || Number.isNaN(a2.value) || Number.isNaN(a3.value)) return undefined;
  if (hsl) {
    if (!a2.percent || !a3.percent || !Number.isFinite(a1.value)) return undefined;
    const [red, green, blue] = hslToRgb(a1.value, clampPercent(a2.value), clampPercent(a3.value));
    return [byte(red), byte(green), byte(blue), a];
  }
  const percents = +a1.percent + +a2.percent + +a3.percent;
  if (percents !== 0 && percents !== 3) return undefined;
  const max = percents === 3 ? 100 : 255;
  return [byte(a1.value / max), byte(a2.value / max), byte(a3.value / max), a];
}

const clampPercent = (x: number): number => (x < 0 ? 0 : x > 100 ? 1 : x / 100);

/** HSL (hue in degrees, saturation and lightness 0–1) to RGB 0–1: the algorithm of CSS Color 4 §7.1. */
function hslToRgb(hue: number, sat: number, light: number): [number, number, number] {
  const h = ((hue % 360) + 360) % 360;
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    const a = sat * Math.min(light, 1 - light);
    return light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

/** Digits, `e`, `.`, `+`, `-`: the characters of a number in a colour function. */
function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 101 || c === 46 || c === 43 || c === 45;
}

/** The white space of a regular expression's `\s` (ECMAScript WhiteSpace and LineTerminator). */
function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
