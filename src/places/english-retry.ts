/**
 * Text typed in English ("National Burn Hospital", "Military Hospital 103") or with the initialisms of names ("KCN
 * Tân Tạo"): the search again with those words read as the Vietnamese words of the names (text/english-words.ts).
 * One rule for forward geocoding and autocomplete (where the last word may be unfinished).
 */
import type { ForwardHit } from './rank';
import type { PlacesRegion } from './region-places';
import { readEnglish } from './text/english-words';

type Hits = readonly Pick<ForwardHit, 'partial' | 'score'>[];

/** The score of the best whole hit; -Infinity when every hit is partial. */
function bestWhole(hits: Hits): number {
  let best = -Infinity;
  for (const h of hits) if (!h.partial && h.score > best) best = h.score;
  return best;
}

/**
 * The outcome of `search` over the text as typed, or over its reading (per region: the words its places hold) when
 * that finds a better whole answer. The English words are read only when the text as typed finds no whole answer
 * (an English word is often a word of a name too: "Saigon Centre"). An initialism is read even when it does: a place
 * named by the words it stands for ("Khu công nghiệp Tân Tạo") is meant more surely than one holding the initialism
 * among other words ("Trạm xăng dầu KCN Tân Tạo"), and the scores of the two searches say which fits the text better.
 * @param search searches the regions, with the text given for each region
 * @param lastIsPrefix the last word may be unfinished (autocomplete)
 */
export function withEnglishReading<T extends { hits: Hits }>(
  regions: readonly PlacesRegion[],
  text: string,
  search: (texts: readonly string[]) => T,
  lastIsPrefix: boolean,
): T {
  const asTyped = search(regions.map(() => text));
  const whole = bestWhole(asTyped.hits);
  const initialismsOnly = whole > -Infinity;
  const read = regions.map((r) => readEnglish(text, (w) => r.index.has(w, false), lastIsPrefix, initialismsOnly));
  if (!read.some((t) => t !== text)) return asTyped;
  const again = search(read);
  return bestWhole(again.hits) > whole ? again : asTyped;
}
