/**
 * Diacritics, once for the whole engine: place matching (places/text/fold.ts), label and glyph fallbacks
 * (render). Pure string code, no Node imports.
 */

/** Combining marks: Vietnamese tones, breve, circumflex and horn, and any other script's marks. */
const MARKS = /\p{M}+/gu;

/**
 * The text's letters without diacritics, case kept: Unicode NFD, every combining mark removed, then the Vietnamese
 * `đ/Đ` (a letter of its own, not a d with a mark) as `d/D`, and its look-alike `ð/Ð` too. Input in NFC or NFD gives
 * the same result.
 * @example stripDiacritics('Đường Láng') === 'Duong Lang'
 */
export function stripDiacritics(text: string): string {
  // OSM data often writes Đ as the look-alike Ð (eth, U+00D0): "Ðinh Công Tráng" is Đinh Công Tráng.
  return text.normalize('NFD').replace(MARKS, '').replace(/[đð]/g, 'd').replace(/[ĐÐ]/g, 'D');
}
