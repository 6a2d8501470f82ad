/**
 * matched_substrings and terms of an autocomplete description: where the query's words occur (at word starts,
 * compared folded) and the comma-separated parts, as UTF-16 offsets into the description.
 */
import type { Term } from './search/terms';

/** One UTF-16 unit folded: lower case, first letter of its NFD form (diacritics dropped), đ → d. */
function foldUnit(ch: string): string {
  const c = ch.toLowerCase().normalize('NFD')[0] ?? ch;
  return c === 'đ' ? 'd' : c;
}

/** The description folded unit by unit, so offsets in the result are offsets in the description. */
function foldInPlace(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const u = s[i]!;
    out += u.charCodeAt(0) < 128 ? u.toLowerCase() : foldUnit(u);
  }
  return out;
}

const isWordUnit = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Offsets and lengths of the first word-start occurrence of each non-type query word, by offset. */
export function matchedSubstrings(description: string, terms: Term[]): Array<{ offset: number; length: number }> {
  const folded = foldInPlace(description);
  const out: Array<{ offset: number; length: number }> = [];
  for (const t of terms) {
    if (t.optional) continue;
    let at = folded.indexOf(t.folded);
    while (at >= 0 && isWordUnit(folded[at - 1])) at = folded.indexOf(t.folded, at + 1);
    if (at >= 0 && !out.some((m) => m.offset === at)) out.push({ offset: at, length: t.folded.length });
  }
  return out.sort((a, b) => a.offset - b.offset);
}

/** The comma-separated parts of a description with their offsets. */
export function descriptionTerms(description: string): Array<{ offset: number; value: string }> {
  const out: Array<{ offset: number; value: string }> = [];
  let offset = 0;
  for (const part of description.split(', ')) {
    out.push({ offset, value: part });
    offset += part.length + 2;
  }
  return out;
}
