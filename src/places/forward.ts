/**
 * Forward geocoding: address text to places. The query is parsed (house number, street, ward, district, province in
 * any order, old or new admin names, category words) into a PlaceQuery (see search/query.ts) and ranked in each
 * region (rank.ts); a house number the data lacks is estimated from its neighbours (interpolate.ts).
 *
 * Precision over recall: when no place accounts for the query, the answer is the most specific thing the query
 * named that the pack holds — the street, else the admin unit — marked partial; a house number the data does not hold
 * leaves the street on top, also partial; when nothing specific matched there is no answer (NOT_FOUND).
 */
import { inArea, queryArea, Within } from './area';
import { pointOptions } from './describe';
import { bestWhole, withEnglishReading, withHeardSpelling } from './readings';
import { fallback } from './fallback';
import { withRegionCity } from './home-city';
import { interpolateHouse, shownPiece } from './interpolate';
import { PlaceKind } from './kinds';
import { localityReading } from './locality';
import { rankInRegion, regionQuery, typingQuery, type ForwardHit } from './rank';
import type { PlacesRegion } from './region-places';
import type { PlaceQuery } from './search/query';
import { houseKey } from './text/house-path';

/** Text that ends in a letter or digit: its last word may be unfinished. */
const UNFINISHED = /[\p{L}\p{N}]$/u;

/**
 * Text that ends in a word of one or two letters: whole answers that took it as a whole word ("Chợ Hòa B" as Chợ Phú
 * Hòa on Hẻm B, "Văn Mi" as a shop called My Van) may be worse readings than its completion.
 */
const STUB_END = /(?:^|[^\p{L}\p{N}])\p{L}{1,2}$/u;

/** Most words of a query whose partial answers the fallback may replace by where two streets it names meet. */
const CROSSING_TERMS_MAX = 12;

/** Most results a forward geocode returns. */
export const MAX_GEOCODE_RESULTS = 5;

/** Ranked places for an address over all regions, best first. */
export function forwardGeocode(
  regions: readonly PlacesRegion[],
  address: string,
  limit = MAX_GEOCODE_RESULTS,
): ForwardHit[] {
  // Typed in English ("National Burn Hospital"): the Vietnamese words of the names, when the words as typed find no
  // whole answer.
  const english = withEnglishReading(
    regions,
    address,
    (texts) =>
      withHeardSpelling((heard) => {
        const queries = regions.map((r, k) => regionQuery(r, texts[k]!, heard));
        return {
          queries,
          hits: regions.flatMap((r, k) => rankInRegion(r, queries[k]!, { prefix: false, limit, heard })),
        };
      }),
    false,
  );
  let queries = english.queries;
  let found = english.hits;
  // Ending in a locality the admin table does not hold ("Crescent Mall Phú Mỹ Hưng"): the words before it, there.
  if (!found.some((h) => !h.partial)) {
    const near = regions.flatMap((r, k) => localityReading(r, address, queries[k]!, limit));
    if (near.length > 0) found = near;
  }
  // "Thành phố" last without a name ("bệnh viện mắt thành phố"): the region's city, when nothing whole answers the
  // words as typed (the Opera House is named "Nhà hát Thành phố").
  const texts = found.some((h) => !h.partial) ? [] : regions.map((r) => withRegionCity(r, address));
  if (texts.some((t) => t !== null)) {
    const city = regions.map((r, k) => (texts[k] ? regionQuery(r, texts[k]) : queries[k]!));
    const hits = regions.flatMap((r, k) => (texts[k] ? rankInRegion(r, city[k]!, { prefix: false, limit }) : []));
    if (hits.some((h) => !h.partial) || (found.length === 0 && hits.length > 0)) [queries, found] = [city, hits];
  }
  // Typed unfinished ("chợ bến th", "thao cam v"): the text read as autocomplete reads it, the last word as the start
  // of a word, when the text ends in the middle of a word and no whole answer took it as a whole word — or, for a stub
  // of one or two letters, when the completion's best place is another and scores higher than the whole answers'
  // best. What it finds is only partly what was written: the text names no whole place.
  const whole = found.some((h) => !h.partial);
  if (whole ? STUB_END.test(address) : UNFINISHED.test(address)) {
    const typed = regions.map((r) => typingQuery(r, address));
    const hits = regions.flatMap((r, k) => rankInRegion(r, typed[k]!, { prefix: true, limit }));
    const [asTyped, completed] = [bestWhole(found), bestWhole(hits)];
    if (completed && (!asTyped || (completed.score > asTyped.score && completed.place !== asTyped.place)))
      [queries, found] = [typed, hits.map((h) => ({ ...h, partial: true }))];
  }
  // Only partial answers to a unit asked alone with its type word: the unit the fallback finds when it is one the
  // written units resolve to and the answers are not ("thị trấn Củ Chi" is the town that went into Xã Tân An Hội, not
  // Xã Củ Chi, the 2025 commune of its name; "phường An Phú quận 2" went into Bình Trưng, not Phường An Phú of Thuận
  // An), else the partial answers. The fallback runs only where its answer may be taken: it tries every run of the
  // name words (quadratic in their count), ~0.3 s of CPU on 500 characters of name words the partial answers stand for.
  // Two streets where they meet ("Tôn Đức Thắng giao Cát Linh") are the fallback's too, whole, before partial answers
  // on one of them: tried when the query is short enough for the fallback's cost.
  let all = found;
  const short = queries.some((q) => q.terms.length <= CROSSING_TERMS_MAX);
  if (!found.some((h) => !h.partial) && (found.length === 0 || short || queries.some(unitAlone))) {
    const named = regions.flatMap((r, k) => fallback(r, queries[k]!));
    const written = (h: ForwardHit) => writtenUnit(h, queries[regions.indexOf(h.region)]!);
    if (found.length === 0 || named.some((h) => h.crossing) || (named.some(written) && !found.some(written)))
      all = named;
  }
  all.sort((a, b) => b.score - a.score);
  const top = all[0];
  if (top?.partial) {
    const estimate = estimatedHouse(top.region, queries[regions.indexOf(top.region)]!, all);
    if (estimate) all.unshift(estimate);
  }
  return all.slice(0, limit);
}

/**
 * Whether hit `h` is a unit that query `q`, a unit asked alone with its type word ("phường An Phú quận 2"), resolves
 * to: the legacy ward written or a 2025 ward it went into.
 */
function writtenUnit(h: ForwardHit, q: PlaceQuery): boolean {
  const res = q.resolution;
  if (!res || !unitAlone(q)) return false;
  const units = h.region.unitPlace;
  return (
    (res.legacy.ward !== undefined && units.get(res.legacy.ward) === h.place) ||
    res.v2025.wards.some((w) => units.get(w) === h.place)
  );
}

/**
 * A house the data lacks, on a street it has: a partial answer at the position its numbered neighbours give (see
 * interpolate.ts), on the best street piece among the hits; null when the query wrote no house number or the data
 * has no neighbour close enough.
 */
function estimatedHouse(r: PlacesRegion, q: PlaceQuery, hits: readonly ForwardHit[]): ForwardHit | null {
  const key = houseKey(q.parsed.house, q.parsed.alley);
  if (key === '') return null;
  const area = queryArea(r.admin, q.parsed, q.resolution);
  const keep = area ? (p: number) => inArea(r, area, p) !== Within.out : undefined;
  // The best street hit whose houses give an estimate (a street's other spellings may carry no house).
  let street: ForwardHit | undefined;
  let at: ReturnType<typeof interpolateHouse> = null;
  for (const h of hits) {
    if (h.region !== r || r.places.kind[h.place] !== PlaceKind.street) continue;
    at = interpolateHouse(r, h.place, key, keep);
    if (at) {
      street = h;
      break;
    }
  }
  if (!at || !street) return null;
  // The house itself, on the street written by another name ("294 NKKN" is 294 Nam Kỳ Khởi Nghĩa); one of its number
  // with another letter ("475" for "475A") is only the house beside it.
  if (at.house !== undefined) return { ...street, place: at.house, partial: r.houseKeyOf(at.house) !== key };
  return {
    ...street,
    place: shownPiece(r, street.place, key, at),
    ...pointOptions(r, { lat: at.lat, lng: at.lng, house: key }),
    partial: true,
  };
}

/** Whether the query is an admin unit alone, written with its type word ("thị trấn Củ Chi"). */
function unitAlone(q: PlaceQuery): boolean {
  return q.terms.some((t) => t.role === 'type') && q.terms.every((t) => t.role === 'admin' || t.role === 'type');
}
