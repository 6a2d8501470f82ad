/**
 * Text typed in English ("National Burn Hospital", "Military Hospital 103"): when the words as typed find no whole
 * answer, the search again with the English words of institutions read as the Vietnamese words of their names
 * (text/english-words.ts). One rule for forward geocoding and autocomplete (where the last word may be unfinished).
 */
import type { ForwardHit } from './rank';
import type { PlacesRegion } from './region-places';
import { readEnglish } from './text/english-words';

/**
 * The outcome of `search` over the text as typed, unless none of its hits is whole and the English reading of the
 * text (per region: the words its places hold) has a whole one; then that reading's outcome.
 * @param search searches the regions, with the text given for each region
 * @param lastIsPrefix the last word may be unfinished (autocomplete)
 */
export function withEnglishReading<T extends { hits: readonly Pick<ForwardHit, 'partial'>[] }>(
  regions: readonly PlacesRegion[],
  text: string,
  search: (texts: readonly string[]) => T,
  lastIsPrefix: boolean,
): T {
  const asTyped = search(regions.map(() => text));
  if (asTyped.hits.some((h) => !h.partial)) return asTyped;
  const read = regions.map((r) => readEnglish(text, (w) => r.index.has(w, false), lastIsPrefix));
  if (!read.some((t) => t !== text)) return asTyped;
  const again = search(read);
  return again.hits.some((h) => !h.partial) ? again : asTyped;
}
