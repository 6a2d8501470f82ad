/**
 * GET /Place/AutoComplete in-process: as-you-type search (the last word may be unfinished), optionally biased to
 * `location` and limited to `radius` km around it. Predictions come best first with a descending `score`.
 * `limit` defaults to 10; 0, negative, non-integer limits, limits above MAX_AUTOCOMPLETE_LIMIT and a radius that
 * is not positive are BAD_REQUEST naming the parameter. No match gives status OK with no predictions. Never throws.
 */
import { haversine } from '../geo';
import { describePlace, shownPoint } from '../places/describe';
import { PlaceKind } from '../places/kinds';
import { descriptionTerms, matchedSubstrings } from '../places/matches';
import { isParamError, parseBool } from './coords';
import { latLngParam, numberParam, textParam, tokenParam } from './place-params';
import { encodePlaceId } from '../places/place-id';
import { withEnglishReading } from '../places/readings';
import { forwardGeocode } from '../places/forward';
import { rankInRegion, typingQuery, type ForwardHit } from '../places/rank';
import { asksKindOnly, type PlaceQuery } from '../places/search/query';
import { termsOf, type Term } from '../places/search/terms';
import type { PlacesRegion } from '../places/region-places';
import type { PlacesState } from '../places/state';
import type { Region } from '../region';
import { rawParams, type Query, type BoolParam, type NumberParam } from './param-types';
import { withLegacy, type AutocompletePrediction, type AutocompleteResponse } from './place-shapes';
import type { Limits } from '../limits';

/** Default and largest `limit`. */
export const DEFAULT_AUTOCOMPLETE_LIMIT = 10;
export const MAX_AUTOCOMPLETE_LIMIT = 50;
/** Default `radius`, kilometres (applies only with `location`). */
export const DEFAULT_RADIUS_KM = 50;
/**
 * Location bias: a place d km from `location` gains BIAS / (1 + d / BIAS_SCALE_KM) score, enough to order
 * equally good matches by distance (branches of a chain) without burying a clearly better match farther away.
 */
const BIAS = 0.2;
const BIAS_SCALE_KM = 1;
/**
 * The bias when only a kind of place is asked for ("cây xăng", "atm", "chợ"): the nearest places of the kind come
 * first, as their names add nothing. A fuel station named "Cây xăng" (a name the query spells whole) scores ≈ 0.35
 * more than one named "Trạm xăng dầu số 6", an ATM named "ATM" as much more than one named by its bank; this bias
 * outweighs that within about five kilometres. So too for a place tagged as the kind asked with a name
 * ("atm vietcombank", "cây xăng petrolimex"): the places of the kind that the name's words meet are the chain's
 * branches, the nearest wanted, whichever spells the kind in its name; a place of another kind named after one (a
 * bus stop "Bệnh viện Chợ Rẫy") keeps the small bias.
 */
const KIND_BIAS = 2;
/**
 * Kilometres over which the bias of a chain's branches halves: wider than BIAS_SCALE_KM, so that a branch 4 km away
 * still comes before one 11 km away named with the kind's words too ("Cây Xăng Petrolimex" ≈ 0.3 more than
 * "Petrolimex"), while a few hundred metres between two near branches weigh less than that.
 */
const BRANCH_SCALE_KM = 3;

/**
 * The best score of the words as typed below which an unfinished last word that may begin where the place is gets
 * the words before it read alone too, their places' scores times BEFORE_BEGUN_FACTOR (a whole name scores 1.5–2).
 */
const BEFORE_BEGUN_BELOW = 1;
const BEFORE_BEGUN_FACTOR = 0.8;

/** Query parameters of GET /Place/AutoComplete. */
export type AutocompleteParams = {
  /** What the user typed so far (the last word may be unfinished). */
  input: string;
  /** "<lat>,<lng>": bias towards places near it, within `radius`. */
  location?: string;
  /** Most predictions, 1..MAX_AUTOCOMPLETE_LIMIT; default DEFAULT_AUTOCOMPLETE_LIMIT. */
  limit?: NumberParam;
  /** Kilometres around `location`; default DEFAULT_RADIUS_KM. */
  radius?: NumberParam;
  /** Groups the requests of one search session (billing: see Place/Detail). */
  sessiontoken?: string;
  /** Adds the `compound` address parts to each prediction. */
  more_compound?: BoolParam;
  /** Also gives each address in its pre-2025 administrative units. */
  has_deprecated_administrative_unit?: BoolParam;
};

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/** The text before its last word (and what parts them: spaces, a comma), or '' when it has one word only. */
function wordsBeforeBegun(text: string): string {
  const m = /^(.*[\p{L}\p{M}\p{N}])[^\p{L}\p{M}\p{N}]+[\p{L}\p{M}\p{N}]+[^\p{L}\p{M}\p{N}]*$/su.exec(text);
  return m ? m[1]! : '';
}

/** Answers GET /Place/AutoComplete for an engine's regions. */
export function autocomplete(
  engine: { readonly regions: readonly Region[]; readonly places: PlacesState; readonly limits?: Limits },
  params: Query<AutocompleteParams>,
): AutocompleteResponse {
  const t0 = performance.now();
  const fail = (error_message: string, status: 'BAD_REQUEST' | 'ERROR' = 'BAD_REQUEST'): AutocompleteResponse => ({
    predictions: [],
    executed_time: 0,
    executed_time_all: round(performance.now() - t0),
    status,
    error_message,
  });
  try {
    const p = rawParams(params);
    const input = textParam('input', p.input, engine.limits?.textLength);
    if (isParamError(input)) return fail(input.error);
    let location: { lat: number; lng: number } | undefined;
    if (p.location !== undefined && p.location !== null && p.location !== '') {
      const ll = latLngParam('location', p.location);
      if (isParamError(ll)) return fail(ll.error);
      location = ll;
    }
    const limit = numberParam('limit', p.limit, DEFAULT_AUTOCOMPLETE_LIMIT, 0, {
      integer: true,
      exclusiveMin: true,
      max: MAX_AUTOCOMPLETE_LIMIT,
    });
    if (isParamError(limit)) return fail(limit.error);
    const radius = numberParam('radius', p.radius, DEFAULT_RADIUS_KM, 0, { exclusiveMin: true });
    if (isParamError(radius)) return fail(radius.error);
    const token = tokenParam('sessiontoken', p.sessiontoken);
    if (isParamError(token)) return fail(token.error);
    const more = parseBool(p.more_compound, 'more_compound');
    if (isParamError(more)) return fail(more.error);

    const deprecated = parseBool(p.has_deprecated_administrative_unit, 'has_deprecated_administrative_unit');
    if (isParamError(deprecated)) return fail(deprecated.error);

    const state = engine.places;
    const t1 = performance.now();
    // The typing query of each region and text, read once: it marks a last word that may begin where the place is
    // (unrequired), which the words as typed require.
    const queries = new Map<PlacesRegion, Map<string, PlaceQuery>>();
    const queryOf = (r: PlacesRegion, text: string): PlaceQuery => {
      let mine = queries.get(r);
      if (!mine) queries.set(r, (mine = new Map()));
      let q = mine.get(text);
      if (!q) mine.set(text, (q = typingQuery(r, text, true)));
      return q;
    };
    // The places of region `r` for `text`, with the query's terms (the matched substrings are theirs). `where`: the
    // reading of the last word, unfinished, as the start of a unit's name; with `inBegun`, only places in a unit whose
    // name it begins.
    const ranked = (
      r: PlacesRegion,
      text: string,
      where?: 'any' | 'inBegun',
    ): Array<ForwardHit & { terms: Term[] }> => {
      let q = queryOf(r, text);
      const last = q.terms.length - 1;
      if (last < 0 || (where && !q.terms[last]!.unrequired)) return [];
      if (!where && q.terms[last]!.unrequired) q = { ...q, required: q.required | (1 << last) };
      const begun = where === 'inBegun' ? new Set(r.unitsBegun(q.terms[last]!.folded)) : null;
      if (begun?.size === 0) return [];
      let keep: ((i: number) => boolean) | undefined = begun ? (i) => r.liesIn(i, begun) : undefined;
      let bias: ((i: number, tagged: boolean) => number) | undefined;
      if (location) {
        const { lat, lng } = location;
        const maxM = radius * 1000;
        const dist = new Map<number, number>();
        const d = (i: number): number => {
          let m = dist.get(i);
          if (m === undefined) dist.set(i, (m = haversine(lat, lng, r.lat(i), r.lon(i))));
          return m;
        };
        const inUnit = keep;
        keep = (i) => d(i) <= maxM && (!inUnit || inUnit(i));
        const kindOnly = asksKindOnly(q);
        bias = (i, tagged) => {
          const km = d(i) / 1000;
          if (kindOnly) return KIND_BIAS / (1 + km / BIAS_SCALE_KM);
          return tagged ? KIND_BIAS / (1 + km / BRANCH_SCALE_KM) : BIAS / (1 + km / BIAS_SCALE_KM);
        };
      }
      // A few more than asked: repeats of one description are dropped below.
      return rankInRegion(r, q, { prefix: true, limit: limit * 2, keep, bias }).map((h) => ({ ...h, terms: q.terms }));
    };
    const regions = state.regions;
    // Typed in English ("National Burn Hosp"): the Vietnamese words of the names when the words as typed find no
    // whole answer (the last word may be unfinished).
    const { hits } = withEnglishReading(
      regions,
      input,
      (texts) => ({ hits: regions.flatMap((r, k) => ranked(r, texts[k]!)) }),
      true,
    );
    // The last word, unfinished, may begin where the place is rather than its name ("KFC Gò"): the places of that
    // reading whose ward's or district's name it begins (a place of both readings shows once, by the description, at
    // its better score); all of them when the words as typed find nothing ("SC VivoCity Phú": Phú Mỹ Hưng is no unit;
    // "cho binh tay q": the market, not the ward a whole address of those words finds below).
    const asTyped = hits.length;
    for (const r of regions) hits.push(...ranked(r, input, asTyped === 0 ? 'any' : 'inBegun'));
    // Read with that word, the words before it may not parse as they would alone ("cho ben thanh q" whole a street's
    // name, "cho ben thanh" the market's words in Phường Bến Thành): when the words as typed find nothing good, the
    // words before it alone too, a little below; not when it follows a type word ("chợ phường Chán": the ward's name
    // begun) nor when they ask only for a kind, nowhere ("clinic distr": no clinic more than another).
    const best = hits.reduce((m, h) => Math.max(m, h.score), 0);
    const before = best < BEFORE_BEGUN_BELOW ? wordsBeforeBegun(input) : '';
    if (before)
      for (const r of regions) {
        const terms = queryOf(r, input).terms;
        if (!terms.at(-1)?.unrequired || terms.at(-2)?.role === 'type') continue;
        const alone = queryOf(r, before);
        if (asksKindOnly(alone) && !alone.terms.some((t) => t.role === 'admin')) continue;
        for (const h of ranked(r, before)) hits.push({ ...h, score: h.score * BEFORE_BEGUN_FACTOR });
      }
    // What a whole address of those words finds: when a house number is written (below), and when the text as typed
    // so far finds nothing (a place on the street it names, a house written another way: "Chợ Bến Thành Lê Lợi",
    // "227/19 Đình Phong Phú"; words heard otherwise: "trợ bến thành"; where two streets it names meet).
    const houseWritten = regions.some((r) => queryOf(r, input).parsed.house !== undefined);
    const geocoded = asTyped === 0 || houseWritten ? forwardGeocode(regions, input, limit) : [];
    const inRadius = (h: ForwardHit): boolean => {
      if (!location) return true;
      const [lat, lng] = h.at ? [h.at.lat, h.at.lng] : [h.region.lat(h.place), h.region.lon(h.place)];
      return haversine(location.lat, location.lng, lat, lng) <= radius * 1000;
    };
    if (asTyped === 0)
      for (const h of geocoded) if (h.house === undefined && inRadius(h)) hits.push({ ...h, terms: termsOf(input) });
    hits.sort((a, b) => b.score - a.score);
    // A house the data lacks on a street it has ("12 Lê Lợi"): the geocoder's estimate (its first answer then), before
    // the answers that are only part of what was typed, at the score of the first of them.
    const estimate = geocoded[0];
    if (estimate?.house !== undefined && estimate.at && inRadius(estimate)) {
      let k = hits.findIndex((h) => h.partial);
      if (k < 0) k = hits.length;
      const score = hits[k]?.score ?? Math.min(estimate.score, hits[k - 1]?.score ?? Infinity);
      hits.splice(k, 0, { ...estimate, score, terms: termsOf(input) });
    }
    const executed = performance.now() - t1;
    // Described best first until `limit` distinct descriptions (one street stored as several pieces shows once).
    const predictions: AutocompletePrediction[] = [];
    const seen = new Set<string>();
    for (const h of hits) {
      if (predictions.length === limit) break;
      const p = prediction(h, more, deprecated);
      if (!seen.has(p.description)) predictions.push(p);
      seen.add(p.description);
    }
    return {
      predictions,
      executed_time: round(executed),
      executed_time_all: round(performance.now() - t0),
      status: 'OK',
    };
  } catch (e) {
    return fail(`autocomplete failed: ${(e as Error)?.message ?? String(e)}`, 'ERROR');
  }
}

function prediction(h: ForwardHit & { terms: Term[] }, more: boolean, legacy: boolean): AutocompletePrediction {
  const { region: r, place, score, terms } = h;
  const shown = { system: h.system, at: h.at, house: h.house, crossing: h.crossing };
  const v = describePlace(r, place, shown);
  const id = encodePlaceId(r.tag, r.region, place, shownPoint(shown));
  const description = v.secondaryText ? `${v.mainText}, ${v.secondaryText}` : v.mainText;
  const kind = r.places.kind[place];
  const out: AutocompletePrediction = {
    description,
    matched_substrings: matchedSubstrings(description, terms),
    place_id: id,
    reference: id,
    structured_formatting: { main_text: v.mainText, secondary_text: v.secondaryText },
    terms: descriptionTerms(description),
    // Admin units contain other places (a client may search inside them).
    has_children: kind === PlaceKind.ward || kind === PlaceKind.district || kind === PlaceKind.province,
    display_type: v.displayType,
    score: Math.round(score * 10000) / 10000,
    plus_code: v.plusCode,
  };
  if (more) out.compound = v.compound;
  return legacy ? withLegacy(out, v) : out;
}
