/**
 * Vietnamese text folding: the single definition of "same text" shared by indexing and querying.
 * Pure string code, no Node imports (runs in browsers and workers too).
 */
import { stripDiacritics } from '../../text/diacritics.js';

/** Anything that is not a letter, mark or digit separates tokens. */
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/gu;
/** One token of normalised text: letters (with their marks) and digits. */
const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Folds text for matching: Unicode NFD, combining diacritics removed, `đ/Đ → d`, lower case, and every run of
 * whitespace or punctuation collapsed to one space (trimmed). Input in NFC or NFD gives the same result.
 * Non-string input folds to the empty string.
 * @example fold('Đường  Láng, Q.Đống Đa') === 'duong lang q dong da'
 */
export function fold(s: string): string {
  if (typeof s !== 'string') return '';
  return stripDiacritics(s).toLowerCase().replace(SEPARATORS, ' ').trim();
}

/**
 * Normalises text but keeps diacritics: Unicode NFC, lower case, whitespace runs collapsed to one space, trimmed.
 * Punctuation is kept. Non-string input gives the empty string.
 */
export function normalize(s: string): string {
  if (typeof s !== 'string') return '';
  return s.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** One word of text in two forms: `folded` for matching, `exact` (NFC, lower case, diacritics kept) for ranking. */
export interface TextToken {
  folded: string;
  exact: string;
}

/**
 * Splits text into word tokens (letters/digits; punctuation separates), each in folded and exact form.
 * Invariant: `tokens(s).map(t => t.folded).join(' ') === fold(s)`.
 */
export function tokens(s: string): TextToken[] {
  const out: TextToken[] = [];
  for (const m of normalize(s).matchAll(TOKEN)) {
    const folded = fold(m[0]);
    // A token made of marks only (a stray combining character) folds to nothing: fold() drops it too.
    if (folded !== '') out.push({ folded, exact: m[0] });
  }
  return out;
}

/** True when the text carries any Vietnamese diacritic (tone, vowel mark or đ). */
export function hasDiacritics(s: string): boolean {
  const n = normalize(s);
  return stripDiacritics(n) !== n.normalize('NFD');
}

/** Tone marks: grave, acute, tilde, hook above, dot below. One per syllable in Vietnamese. */
const TONES = new Set(['\u0300', '\u0301', '\u0303', '\u0309', '\u0323']);

/**
 * Splits one syllable into its tone and its per-letter vowel/consonant marks (circumflex, breve, horn, đ).
 * The tone is taken per syllable, not per letter, so the old and new tone placements ("hoà" / "hòa") agree.
 */
function syllableFeatures(exact: string): { tone: string; marks: string[] } {
  let tone = '';
  const marks: string[] = [];
  for (const ch of exact.normalize('NFC')) {
    let mark = ch === 'đ' || ch === 'ð' ? 'đ' : ''; // ð: OSM's look-alike of đ (see stripDiacritics)
    for (const c of ch.normalize('NFD').slice(1)) {
      if (TONES.has(c)) tone = c;
      else mark += c;
    }
    marks.push(mark);
  }
  return { tone, marks };
}

/** The tone mark of one syllable (a combining character), '' for none. */
export function toneOf(syllable: string): string {
  return syllableFeatures(syllable).tone;
}

/**
 * How well the diacritics of a query token agree with a candidate token, in 0..1.
 * - 0 when the folded forms differ (not the same word at all);
 * - 1 when the query carries no diacritics ("duong" fits "dương", "đường", "đương" equally) or agrees exactly;
 * - otherwise 0.5 + 0.5 × (agreeing marks / marks present on either side), so "đường" fits "đường" (1) better
 *   than "đương" (0.875) or "dương" (0.75). Several-word inputs are compared word by word.
 */
export function diacriticAgreement(queryToken: string, candidateToken: string): number {
  const q = tokens(queryToken);
  const c = tokens(candidateToken);
  if (q.length !== c.length) return 0;
  for (let i = 0; i < q.length; i++) if (q[i]!.folded !== c[i]!.folded) return 0;
  if (!q.some((t) => t.exact !== t.folded)) return 1;
  let agree = 0;
  let total = 0;
  for (let i = 0; i < q.length; i++) {
    const a = syllableFeatures(q[i]!.exact);
    const b = syllableFeatures(c[i]!.exact);
    if (a.marks.length !== b.marks.length) {
      // Same folded text but a different letter count (unusual scripts): judge the token as a whole.
      total++;
      if (q[i]!.exact === c[i]!.exact) agree++;
      continue;
    }
    for (let k = 0; k < a.marks.length; k++) {
      if (a.marks[k] === '' && b.marks[k] === '') continue;
      total++;
      if (a.marks[k] === b.marks[k]) agree++;
    }
    if (a.tone !== '' || b.tone !== '') {
      total++;
      if (a.tone === b.tone) agree++;
    }
  }
  return total === 0 ? 1 : 0.5 + (0.5 * agree) / total;
}

/**
 * How many marks two spellings of one word disagree in: the tone (one per syllable, wherever it is placed) counts
 * once, and each letter whose vowel mark or stroke differs (a/â/ă, o/ô/ơ, u/ư, e/ê, d/đ) once. 0 for the same
 * spelling; "đúc"/"đức", "rấy"/"rẫy", "chùa"/"chua" differ in 1; "đục"/"dúc" in 2. Words whose letters differ once
 * folded are not two spellings of one word: 2 or more is returned for them.
 * @param a one word (any case, NFC or NFD)
 * @param b another word
 */
export function markDifferences(a: string, b: string): number {
  const x = syllableFeatures(a.toLowerCase());
  const y = syllableFeatures(b.toLowerCase());
  if (x.marks.length !== y.marks.length || fold(a) !== fold(b)) return 2;
  let n = x.tone === y.tone ? 0 : 1;
  for (let k = 0; k < x.marks.length; k++) if (x.marks[k] !== y.marks[k]) n++;
  return n;
}

/**
 * Folded key for an administrative or street name: `fold(s)` with leading zeros of numbers dropped, so
 * "Phường 09" and "Phường 9" share the key "phuong 9".
 */
export function nameKey(s: string): string {
  return fold(s).replace(/(^| )0+(?=\d)/g, '$1');
}
