/**
 * The order of a name's words is part of the name in Vietnamese: "Hồ Tây" (the lake) is not "Phủ Tây Hồ" (a temple
 * named after the lake's district), "Sơn Tây" is not "Tây Sơn". The searcher matches words as a set; this check puts
 * the written order back where a kind of place is asked for and met only through a place's name.
 */
import type { PlaceCategories } from './place-categories';
import type { PlaceQuery } from './query';
import { termsOf } from './terms';

/** A place's names: main then alternatives (string ids, 0 for none). */
export interface NamedPlace {
  names(p: number): Iterable<number>;
  text(id: number): string;
}

/**
 * The words a place must hold in the written order (folded): the query's required words, numbers aside, in the
 * order written; empty when the query names no kind of place or has fewer than two such words.
 * @param required the mask of terms the search required
 */
export function orderedWords(q: PlaceQuery, required: number): string[] {
  if (q.categories.length === 0) return [];
  const words = q.terms.filter((t, j) => (required & (1 << j)) !== 0 && !t.numeric).map((t) => t.folded);
  return words.length >= 2 ? words : [];
}

/**
 * False when place `p` is of none of a category the query asks for (so its name stood for the category words), some
 * name of it holds every one of `words`, and none holds them in the written order. True otherwise: a place of the
 * asked kind, or whose words the query spread over its name, address or category, is judged by the searcher alone.
 */
export function keepsWrittenOrder(
  q: PlaceQuery,
  words: readonly string[],
  categories: PlaceCategories,
  place: NamedPlace,
  p: number,
): boolean {
  if (words.length === 0 || q.categories.every((c) => categories.any(p, c.rows))) return true;
  let holdsAll = false;
  for (const id of place.names(p)) {
    if (id === 0) continue;
    const nameWords = termsOf(place.text(id)).map((t) => t.folded);
    if (isSubsequence(words, nameWords)) return true;
    holdsAll ||= words.every((w) => nameWords.includes(w));
  }
  return !holdsAll;
}

/** True when `words` appear in `seq` in their order (not necessarily next to each other). */
export function isSubsequence(words: readonly string[], seq: readonly string[]): boolean {
  let i = 0;
  for (const w of seq) if (i < words.length && w === words[i]) i++;
  return i === words.length;
}
