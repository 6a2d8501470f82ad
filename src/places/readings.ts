/**
 * Other readings of a query's text, searched again when the text as typed finds no whole answer:
 * - text typed in English ("National Burn Hospital", "Military Hospital 103") or with the initialisms of names ("KCN
 *   Tân Tạo"): those words read as the Vietnamese words of the names (text/english-words.ts; forward geocoding and
 *   autocomplete, where the last word may be unfinished);
 * - words spelt as their writer says them ("chần hưng đạo" for Trần Hưng Đạo): read as others of their sound
 *   (withHeardSpelling; forward geocoding).
 */
import type { ForwardHit } from './rank';
import type { PlacesRegion } from './region-places';
import { readEnglish } from './text/english-words';

type Hits = readonly Pick<ForwardHit, 'partial' | 'score'>[];

/** The best whole hit (the first of the best score); undefined when every hit is partial. */
export function bestWhole<H extends Hits[number]>(hits: readonly H[]): H | undefined {
  let best: H | undefined;
  for (const h of hits) if (!h.partial && (!best || h.score > best.score)) best = h;
  return best;
}

/** The score of the best whole hit; -Infinity when every hit is partial. */
const bestScore = (hits: Hits): number => bestWhole(hits)?.score ?? -Infinity;

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
  const whole = bestScore(asTyped.hits);
  const initialismsOnly = whole > -Infinity;
  const read = regions.map((r) => readEnglish(text, (w) => r.index.has(w, false), lastIsPrefix, initialismsOnly));
  if (!read.some((t) => t !== text)) return asTyped;
  const again = search(read);
  return bestScore(again.hits) > whole ? again : asTyped;
}

/**
 * The outcome of `search` over the words as written, or, when that finds no whole answer, with the words met spelt as
 * others of their sound too ("chần hưng đạo", "trợ bến thành": SearchOptions.heard) when that finds a better whole
 * one. Only then: a word heard otherwise is another word as often as a misspelt one ("Dân" and "Văn").
 * @param search searches with words heard otherwise (`heard`) or not
 */
export function withHeardSpelling<T extends { hits: Hits }>(search: (heard: boolean) => T): T {
  const asWritten = search(false);
  const whole = bestScore(asWritten.hits);
  if (whole > -Infinity) return asWritten;
  const heard = search(true);
  return bestScore(heard.hits) > whole ? heard : asWritten;
}
