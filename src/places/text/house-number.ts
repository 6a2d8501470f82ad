/**
 * The extent of a house or alley number as written in Vietnamese addresses: digits, an optional letter (or "bis",
 * "ter"), and more such groups joined by `/` or `-` (12, 12A, 12/3A, 43/91, 12B-14, 236Bis). A hand-written scan, one pass: the pattern it
 * replaces, `\d+\p{L}?(?:[/-]\d+\p{L}?)*(?![\p{L}\p{N}])|\d+`, restarted its backtracking at every digit of
 * "1/1/1/…1a" and took quadratic time.
 */

const LETTER = /\p{L}/u;
/** The suffix of a house split in two, in place of a letter ("45bis", "45 Bis", "2 Ter"; houseKey joins the space). */
const SPLIT_SUFFIX = /^ ?(?:bis|ter)(?![\p{L}\p{N}])/iu;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

const isDigit = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
};

/** The code point at `i` as a string ('' past the end). */
const codePointAt = (text: string, i: number): string =>
  i < text.length ? String.fromCodePoint(text.codePointAt(i)!) : '';

/**
 * End offset (exclusive) of the number starting at `start` (an ASCII digit): the longest run of groups that is not
 * followed by a letter or number; when every run is ("12ab"), just the leading digits. `text` is NFC.
 */
export function houseNumberEnd(text: string, start: number): number {
  const digitsEnd = (i: number): number => {
    while (isDigit(text, i)) i++;
    return i;
  };
  let i = digitsEnd(start);
  let best = -1;
  for (;;) {
    const suffix = SPLIT_SUFFIX.exec(text.slice(i, i + 5));
    const letter = codePointAt(text, i);
    if (suffix) i += suffix[0].length;
    else if (letter !== '' && LETTER.test(letter)) i += letter.length;
    // An end counts when no letter or number follows it; a later group can only make the number longer.
    const next = codePointAt(text, i);
    if (next === '' || !LETTER_OR_NUMBER.test(next)) best = i;
    if ((next === '/' || next === '-') && isDigit(text, i + 1)) i = digitsEnd(i + 1);
    else break;
  }
  return best >= 0 ? best : digitsEnd(start);
}
