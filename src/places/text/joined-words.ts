/**
 * Words typed run together without marks ("lethanhton", "nguyenhuuhuan", "19 nguyenhue"): read as the syllables they
 * are made of, when the region's places hold those syllables and not the run as one word. No Node imports.
 */
import { fold } from './fold';
import { isBareSyllable } from './syllable';
import { isCategoryWord } from './category-match';

/** Shortest run read apart, letters. */
const MIN_RUN = 5;
/** Most syllables a run is read as. */
const MAX_PIECES = 4;
/** Longest syllable read, letters ("nghieng" has 7). */
const MAX_PIECE = 7;

/** What the places hold: folded words, and whether a word is one edit from another they hold (a typo of it). */
export interface JoinedWords {
  has(folded: string): boolean;
  hasNear(folded: string): boolean;
}

/**
 * The run split into the fewest syllables the places hold, each a syllable of the language, at least two letters
 * each; null when it has no such reading, or is a word of the places itself or one typo from one ("Bitexo" is
 * Bitexco mistyped, not "bi te xo"), or a word of a kind's name ("laptop", "community": category-match.ts).
 * @param run a word of plain letters, lower case
 */
export function splitJoined(run: string, held: JoinedWords): string[] | null {
  // A run longer than MAX_PIECES syllables of MAX_PIECE letters has no reading: left before the lookups.
  if (run.length < MIN_RUN || run.length > MAX_PIECES * MAX_PIECE || !/^[a-z]+$/.test(run)) return null;
  if (held.has(run) || held.hasNear(run) || isCategoryWord(run)) return null;
  // best[i]: the fewest pieces covering run[0, i), and where its last piece starts.
  const n = run.length;
  const best = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(-1);
  best[0] = 0;
  for (let i = 0; i < n; i++) {
    if (best[i] === Infinity || best[i]! >= MAX_PIECES) continue;
    for (let j = i + 2; j <= Math.min(n, i + MAX_PIECE); j++) {
      const piece = run.slice(i, j);
      if (best[i]! + 1 < best[j]! && isBareSyllable(piece) && held.has(piece)) {
        best[j] = best[i]! + 1;
        from[j] = i;
      }
    }
  }
  if (best[n] === Infinity || best[n]! < 2) return null;
  const pieces: string[] = [];
  for (let j = n; j > 0; j = from[j]!) pieces.unshift(run.slice(from[j]!, j));
  return pieces;
}

/**
 * The text with its runs of joined words read apart (see splitJoined); the last word is left as typed when it may be
 * unfinished (`prefixLast`).
 */
export function readJoined(text: string, held: JoinedWords, prefixLast = false): string {
  const runs = [...text.matchAll(/\p{L}+/gu)];
  let out = '';
  let from = 0;
  runs.forEach((m, k) => {
    if (prefixLast && k === runs.length - 1 && m.index + m[0].length === text.length) return;
    const word = m[0];
    if (fold(word) !== word.toLowerCase()) return; // written with marks: typed as meant
    const pieces = splitJoined(word.toLowerCase(), held);
    if (!pieces) return;
    out += text.slice(from, m.index) + pieces.join(' ');
    from = m.index + word.length;
  });
  return out + text.slice(from);
}
