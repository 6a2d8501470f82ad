/**
 * Forward geocoding: address text to places. The query is parsed (house number, street, ward, district, province in
 * any order, old or new admin names, category words) into a PlaceQuery (see search/query.ts); the searcher keeps the
 * places that account for every name and category word, and ranks them with the admin units the text named: places
 * in those units rank up, places in other units down.
 *
 * Precision over recall: when no place accounts for the query, the answer is the most specific thing the query
 * named that the pack holds — the street, else the admin unit — marked partial; a house number the data does not hold
 * leaves the street on top, also partial; when nothing specific matched there is no answer (NOT_FOUND).
 */
import type { AdminResolution } from '../admin/resolve';
import { haversine } from '../geo';
import { indexKey } from '../admin/table';
import type { AdminTable } from '../admin/types';
import type { AddressSystem } from './describe';
import { routerOf } from '../route/router';
import { inArea, queryArea, Within, type QueryArea } from './area';
import { houseStreetKey, interpolateHouse } from './interpolate';
import { nearAnchor, streetAnchor } from './near';
import { ADMIN_SLOTS, AdminSlot, PlaceKind } from './kinds';
import { streetKey, type PlacesRegion } from './region-places';
import { buildQuery, type PlaceQuery, type QueryTerm } from './search/query';
import { numeralsAsDigits } from './search/terms';
import { isSubsequence, keepsWrittenOrder, orderedWords, type NamedPlace } from './search/written-order';
import { adminNameKeys } from './text/admin-names';
import { categoryRowsOf } from './text/category-match';
import { withinOneEdit } from './text/edits';
import { fold, nameKey } from './text/fold';
import { houseKey } from './text/house-path';
import { readAsTyped } from './search/as-typed';

/** Most results a forward geocode returns. */
export const MAX_GEOCODE_RESULTS = 5;

/** Score added per admin level that agrees, and subtracted twice over per level that contradicts. */
const WARD_BOOST = 0.1;
const DISTRICT_BOOST = 0.08;
const PROVINCE_BOOST = 0.04;
/** Score added to a place whose house number is the one written (and half of it taken from other numbers). */
const HOUSE_BOOST = 0.3;
/** Score taken from admin units when the address names a house or street. */
const UNIT_PENALTY = 0.2;
/** Score added to a place of the kind the query's type word asks for (a street for "Phố X", a ward for "Phường X"). */
const KIND_BOOST = 0.1;
/** Farthest a place may lie from a street's road to be "on" it (metres): a deep building still faces it. */
const ON_STREET_M = 80;
/** Score added to a place whose name holds the query's name words in the written order ("Sơn Tây", not "Tây Sơn"). */
const ORDER_BOOST = 0.05;
/** Score added to a place one of whose names is the whole query ("Saigon Square" over Saigon Square 2, "SHTP"). */
const EXACT_NAME_BOOST = 0.1;
/** Score taken from a place beside the area the query names, not in it (see area.ts). */
const BESIDE_PENALTY = 0.2;
/** Hits searched per hit returned, for the written order to choose among. */
const ORDER_POOL = 4;

/** A ranked forward result. */
export interface ForwardHit {
  region: PlacesRegion;
  place: number;
  score: number;
  /** The answer is only part of what was asked (a street or unit for a place the pack lacks, another house). */
  partial: boolean;
  /** The system the query wrote its admin names in: results are shown in it. */
  system: AddressSystem;
  /** A house the data lacks, estimated on this street: where, and its number as written (see estimatedHouse). */
  at?: { lat: number; lng: number; ward2025: number };
  house?: string;
}

/** One admin check: the place slot, the weight of agreeing, the accepted unit ids, its group and its query terms. */
interface Check {
  slot: number;
  weight: number;
  ids: number[];
  group: 'legacy' | '2025' | 'province';
  terms: number;
}

/** Ranked places for an address over all regions, best first. */
export function forwardGeocode(
  regions: readonly PlacesRegion[],
  address: string,
  limit = MAX_GEOCODE_RESULTS,
): ForwardHit[] {
  const queries = regions.map((r) => regionQuery(r, address));
  const found = regions.flatMap((r, k) => rankInRegion(r, queries[k]!, { prefix: false, limit }));
  const all = found.length > 0 ? found : regions.flatMap((r, k) => fallback(r, queries[k]!));
  all.sort((a, b) => b.score - a.score);
  const top = all[0];
  if (top?.partial) {
    const estimate = estimatedHouse(top.region, queries[regions.indexOf(top.region)]!, all);
    if (estimate) all.unshift(estimate);
  }
  return all.slice(0, limit);
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
  // The house itself, on the street written by another name ("294 NKKN" is 294 Nam Kỳ Khởi Nghĩa).
  if (at.house !== undefined) return { ...street, place: at.house, partial: false };
  // Shown on the piece of the street nearest to it (its place_id).
  let piece = street.place;
  for (const name of r.streetNamesLike(r.places.name[street.place]!))
    for (const p of r.streetPieces.get(name) ?? [])
      if (haversine(at.lat, at.lng, r.lat(p), r.lon(p)) < haversine(at.lat, at.lng, r.lat(piece), r.lon(piece)))
        piece = p;
  return {
    ...street,
    place: piece,
    at: { lat: at.lat, lng: at.lng, ward2025: r.wardAt(at.lat, at.lng) },
    house: key.toUpperCase(),
    partial: true,
  };
}

/** The forward-geocoding query of `text` in region `r` (house and alley numbers rank but are not required). */
function regionQuery(r: PlacesRegion, text: string): PlaceQuery {
  return buildQuery(text, {
    gazetteer: r.gazetteer,
    isStreet: r.isStreet,
    table: r.admin.table,
    area: r.areaUnits,
    numbersOptional: true,
    readTyped: (written) => readAsTyped(written, r.index),
  });
}

/** How rankInRegion searches. */
export interface RankOptions {
  /** The last word may be unfinished (autocomplete). */
  prefix: boolean;
  limit: number;
  /** False excludes a place (a radius around the caller's location). */
  keep?: (place: number) => boolean;
  /** Added to a place's score (a location bias). */
  bias?: (place: number) => number;
}

/**
 * The places of one region that account for a query, best first: the search with the admin units, house number and
 * address level the query wrote. Forward geocoding and autocomplete rank by this same evidence.
 */
export function rankInRegion(r: PlacesRegion, q: PlaceQuery, opts: RankOptions): ForwardHit[] {
  const table = r.admin.table;
  const res = q.resolution;
  const checks = res ? wantedUnits(res, q) : [];
  const system = table && res ? systemOf(r, table, q, res) : '2025';
  const places = r.places;
  const streetLevel = q.parsed.house !== undefined || q.parsed.street !== undefined;
  // A street of the region, and nothing else, asked for ("CMT8 quận 3", "đường Lê Lợi"): the street, not a place on it.
  const streetOnly =
    q.parsed.street !== undefined &&
    q.parsed.house === undefined &&
    q.parsed.alley === undefined &&
    (q.parsed.types.street !== undefined || r.isStreet(fold(q.parsed.street)));
  const written = houseKey(q.parsed.house, q.parsed.alley);
  const houseOf = (p: number): boolean | undefined =>
    written === '' || places.house[p] === 0 ? undefined : r.houseKeyOf(p) === written;
  const bias = opts.bias;
  // "Phố X", "Đường X": the writer asks for a street; "Phường X" for the ward.
  const unitOnly = !q.parsed.street && !q.terms.some((t) => t.role === 'name' || t.role === 'category');
  const kindAsked =
    q.parsed.types.street !== undefined
      ? PlaceKind.street
      : unitOnly && q.parsed.types.ward !== undefined
        ? PlaceKind.ward
        : unitOnly && q.parsed.types.district !== undefined && q.parsed.ward === undefined
          ? PlaceKind.district
          : -1;
  // The area the query names (set below, once the near anchor is known): places beside it rank below those in it.
  let area: QueryArea | null = null;
  const beside = (p: number): boolean => area !== null && inArea(r, area, p) === Within.near;
  const isAlley = (p: number): boolean =>
    places.kind[p] === PlaceKind.street && ALLEY_NAME.test(fold(r.region.strings.get(places.name[p]!)));
  const boost = (p: number, own: number): number => {
    let b = streetLevel && places.kind[p]! >= PlaceKind.ward ? -UNIT_PENALTY : 0;
    if (beside(p)) b -= BESIDE_PENALTY;
    if (places.kind[p] === kindAsked) b += KIND_BOOST;
    // A street asked without a house number is the street, not a house or an alley of it ("Đường số 61" is not 61
    // Đường số 9; "CMT8" is not "hẻm 283 CMT8").
    if (streetOnly && (places.kind[p] !== PlaceKind.street || isAlley(p))) b -= HOUSE_BOOST / 2;
    const same = houseOf(p);
    // Asked for a unit ("Phường Xuân Hương"), another kind of place holding its words (Phố Hồ Xuân Hương) is not in it.
    const units = adminAgreement(r, p, kindAsked >= PlaceKind.ward && places.kind[p] !== kindAsked ? 0 : own, checks);
    // The written house on the written street outweighs a wrong district ("175 Hai Bà Trưng, Quận 1" is in Quận 3).
    if (same === true) b += HOUSE_BOOST + Math.max(0, units);
    else b += (same === false ? -HOUSE_BOOST / 2 : 0) + units;
    return b + (bias ? bias(p) : 0);
  };
  const namedPlace: NamedPlace = {
    names: (p) => [places.name[p]!, ...places.alt.subarray(places.altFirst[p]!, places.altFirst[p + 1]!)],
    text: (id) => r.region.strings.get(id),
  };
  // A street or unit stands for a kind of place only by leading its name with it ("Phố Chùa Một Cột" for "chùa"; not
  // "Công Chúa Ngọc Hân").
  const kindWords = q.terms.filter((t) => t.role === 'category').map((t) => t.folded);
  const leadsWithKind = (p: number): boolean =>
    places.kind[p]! < PlaceKind.street ||
    kindWords.length === 0 ||
    leadsWith(fold(namedPlace.text(places.name[p]!)), kindWords);
  // A number in the street's name is the street's ("Đường số 37" is not 37 Đường số 9): held by the street a place is on.
  const streetNumbers = q.numberedStreet
    ? q.terms.filter((t) => t.part === 'street' && t.numeric).map((t) => t.folded)
    : [];
  const onNumberedStreet = (p: number): boolean => {
    if (streetNumbers.length === 0 || places.kind[p]! > PlaceKind.street) return true;
    const street = places.kind[p] === PlaceKind.street ? places.name[p]! : places.street[p]!;
    const words = houseStreetKey(namedPlace.text(street)).split(' '); // its own words, not an alley's number
    return streetNumbers.every((n) => words.includes(n));
  };
  // Asked for a kind of place and nothing else to name it ("bưu điện quận 10"), a place tagged as another kind is none
  // of it, whatever its name says ("Bệnh viện Bưu điện" is a hospital); a place whose tag names no kind is judged by
  // its name. With name words the kind's words may be part of the name ("Turtle Lake", "Dinh Gia Long").
  const kindOnly = q.categories.length > 0 && !q.terms.some((t) => t.role === 'name');
  const ofKind = (p: number): boolean => {
    if (!kindOnly) return true;
    const tagged = categoryRowsOf(namedPlace.text(places.category[p]!));
    if (tagged[0] === 0 && tagged[1] === 0) return true;
    return q.categories.some((c) => (tagged[0] & c.rows[0]) !== 0 || (tagged[1] & c.rows[1]) !== 0);
  };
  const search = (required: number, keep: ((p: number) => boolean) | undefined, exact = false) => {
    const words = orderedWords(q, required);
    const inOrder = (p: number) =>
      leadsWithKind(p) && ofKind(p) && onNumberedStreet(p) && keepsWrittenOrder(q, words, r.categories, namedPlace, p);
    return r.searcher.search(q.terms, {
      prefix: opts.prefix,
      // More than asked: the written order below reorders near ties ("nam phuong" before "Phương Nam").
      limit: opts.limit * ORDER_POOL,
      importance: places.importance,
      required,
      categories: q.categories,
      placeCategories: r.categories,
      keep: (p) => (!keep || keep(p)) && inOrder(p),
      boost,
      adminTerms: q.adminMask.ward | q.adminMask.district | q.adminMask.province,
      exact,
    });
  };
  // "Phường X" alone asks for the unit: a house or a shop in it is no answer (without the unit's own place, the
  // fallback names the 2025 ward it went into).
  // "Phố Huế", "đường Lê Lợi" alone ask for the street: another place holding its words is no answer unless its name
  // carries the type word too ("Phố đi bộ Nguyễn Huệ").
  const asked = opts.keep;
  const streetWord = q.parsed.types.street ? fold(q.parsed.types.street) : '';
  const streetAsked =
    kindAsked === PlaceKind.street &&
    q.parsed.house === undefined &&
    !q.terms.some((t) => (t.role === 'name' || t.role === 'category') && t.part !== 'street');
  // The street's own words, as written (one typo aside), before any of its other words ("Lê Lợi" for Đường Lê Lợi, not
  // Mỹ Huế for "Phố Huế").
  const wanted = q.terms
    .filter((t) => t.part === 'street' && t.role !== 'type')
    .map((t) => t.folded)
    .join(' ');
  const namedStreet = (p: number): boolean => {
    if (places.kind[p] !== PlaceKind.street)
      return ` ${fold(r.region.strings.get(places.name[p]!))} `.includes(` ${streetWord} `);
    // Any of its names (an old name: "Nguyễn Trường Tộ" is Hồ Tùng Mậu), its numerals as digits too ("3 tháng 2").
    return [...namedPlace.names(p)].some((id) => {
      if (id === 0) return false;
      const key = streetKey(namedPlace.text(id));
      return [key, numeralsAsDigits(key)].some(
        (k) => k === wanted || k.startsWith(`${wanted} `) || withinOneEdit(k, wanted),
      );
    });
  };
  const keep =
    kindAsked >= PlaceKind.ward
      ? (p: number) => places.kind[p]! >= PlaceKind.ward && (!asked || asked(p))
      : streetAsked
        ? (p: number) => namedStreet(p) && (!asked || asked(p))
        : asked;
  // "Chợ Bến Thành", "Bệnh viện Thanh Nhàn": a kind of place and admin names are first read as one name, as written
  // (no typos: "chợ Bình Thạnh" is no market on Lãnh Binh Thăng), wherever the place is; else the admin names are
  // where to look ("chợ Bình Thạnh": a market in that district, never one elsewhere).
  // "nhà thuốc gần phố Huế": near what the words after "gần" name; those words say where, not what.
  // A street or a place: a unit of the same name is an area, no anchor ("gần phố Huế" is near the street).
  const find = (text: string): number | null =>
    rankInRegion(r, regionQuery(r, text), { prefix: false, limit: 5 }).find(
      (h) => places.kind[h.place]! < PlaceKind.ward,
    )?.place ?? null;
  const anchor = nearAnchor(r, q, find);
  if (q.near !== 0 && !anchor) return [];
  // "chùa đường Nguyễn Trãi": on that street; its words then say where, not what.
  const onStreet = streetAnchor(r, q, find);
  const required = onStreet ? q.required & ~q.streetMask : q.required;
  const near = [keep, anchor?.near, onStreet?.near].reduce(
    (all, f) => (!f ? all : !all ? f : (p: number) => all(p) && f(p)),
    undefined as ((p: number) => boolean) | undefined,
  );
  // Read as a name, a ward's or district's words stand in it as written, in order ("siêu thị Tân Bình" is no Co.op
  // Bình Tân). (A city's may be a nickname: "Ga Sài Gòn" is read as Hồ Chí Minh's words.)
  // A unit written with its type word ("siêu thị P. Tân Hưng") is read as a name only with that word in it.
  let unitWords = q.adminAsName & (q.adminMask.ward | q.adminMask.district);
  q.terms.forEach((t, j) => {
    const next = q.terms[j + 1];
    if (t.role === 'type' && next && ((unitWords >> (j + 1)) & 1) !== 0 && t.segment === next.segment)
      unitWords |= 1 << j;
  });
  // Whether a name of place `p` holds the words of `mask` as written, in order and together.
  const holdsInOrder = (p: number, mask: number): boolean => {
    const words = ` ${q.terms
      .filter((_, j) => ((mask >> j) & 1) !== 0)
      .map((t) => t.folded)
      .join(' ')} `;
    return [...namedPlace.names(p)].some((id) => id !== 0 && ` ${fold(namedPlace.text(id))} `.includes(words));
  };
  const named = (p: number): boolean => unitWords === 0 || holdsInOrder(p, unitWords);
  let hits = q.adminAsName !== 0 ? search(required | q.adminAsName, (p) => (!near || near(p)) && named(p), true) : [];
  const admin = q.adminMask.ward | q.adminMask.district | q.adminMask.province;
  area = anchor && (admin & ~q.near) === 0 ? null : queryArea(r.admin, q.parsed, res);
  const reading = q.adminAsName === 0 ? 'sure' : (area?.reading ?? 'none');
  // Places found only as "a place of the kind in the area" stand for a landmark the area may be named after: partial.
  let standIn = false;
  if (hits.length === 0 && reading !== 'none') {
    hits = search(required, withinArea(r, area, near));
    standIn = reading === 'partial';
  }
  // Nothing there: the unit's words may be part of a name ("Kem Bạch Đằng", "Hội trường Thống Nhất"), standing in it as
  // written. Only a place called exactly what was written is sure; another holding those words is partial ("ATM
  // Vietcombank Hoàn Kiếm" is not the bank's Hoàn Kiếm branch in Ô Chợ Dừa).
  let unitInName = 0;
  q.terms.forEach((t, j) => t.role === 'admin' && !t.numeric && (unitInName |= 1 << j));
  unitInName &= ~q.near;
  let nameHolds = false;
  if (hits.length === 0 && area && unitInName !== 0) {
    hits = search(required | unitInName, (p) => (!near || near(p)) && holdsInOrder(p, unitInName), true);
    nameHolds = true;
  }
  // Whether a name of place `p` is all the query's words: as written, or without its type words, fillers and the
  // units it names ("CMT8 quận 3" calls Cách Mạng Tháng Tám "CMT8").
  const wordsOf = (skip: ReadonlySet<string>): string =>
    q.terms
      .filter((t) => !skip.has(t.role))
      .map((t) => t.folded)
      .join(' ');
  const whole = [
    withoutLeadingType(q.folded),
    wordsOf(new Set(['type', 'filler'])),
    wordsOf(new Set(['type', 'filler', 'admin'])),
  ].filter((w) => w !== '');
  const calledSo = (p: number): boolean =>
    [...namedPlace.names(p)].some((id) => id !== 0 && whole.includes(withoutLeadingType(fold(namedPlace.text(id)))));
  const phrase = namePhrase(q);
  const inOrder = (p: number): boolean =>
    phrase !== '' && ` ${fold(r.region.strings.get(places.name[p]!))} `.includes(` ${phrase} `);
  return hits
    .map((h) => ({
      region: r,
      place: h.place,
      score: h.score + (inOrder(h.place) ? ORDER_BOOST : 0) + (calledSo(h.place) ? EXACT_NAME_BOOST : 0),
      system,
      // Beside the area named is only partly what was asked; so is a house number written and not held (a street, another house, a place named after the street) is only
      // partly what was asked.
      partial:
        standIn ||
        (nameHolds && !calledSo(h.place)) ||
        beside(h.place) ||
        (written !== '' && houseOf(h.place) !== true),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, opts.limit);
}

/**
 * `keep`, narrowed to the area the query names (see area.ts). A place named after the area is not in it for that
 * ("Vietcombank Hoàn Kiếm" is a branch in Ô Chợ Dừa); a place on a street named like the area ("Highlands Hai Bà
 * Trưng") is found by the fallback's street reading when the area has none.
 */
function withinArea(
  r: PlacesRegion,
  area: QueryArea | null,
  keep: ((p: number) => boolean) | undefined,
): ((p: number) => boolean) | undefined {
  if (!area) return keep;
  return (p) => (!keep || keep(p)) && inArea(r, area, p) !== Within.out;
}

/**
 * How well place `p`'s units agree with the units the query named: legacy and 2025 judged separately and the better
 * system counts (a written name can be both), either province slot agreeing is enough. A place whose legacy unit is
 * unknown agrees, at half weight, when its 2025 ward was made from the named legacy unit. A check whose words the
 * place holds itself (its name or street carries them: "Highlands Hai Bà Trưng" is on Phố Hai Bà Trưng, not in the
 * ward of that name) agrees.
 */
function adminAgreement(r: PlacesRegion, p: number, own: number, checks: readonly Check[]): number {
  if (checks.length === 0) return 0;
  const adm = r.places.adm;
  const o = p * ADMIN_SLOTS;
  const ward2025 = adm[o + AdminSlot.ward2025]!;
  const one = (c: Check): number => {
    const have = adm[o + c.slot]!;
    let v: number;
    if (have >= 0) v = c.ids.includes(have) ? c.weight : -2 * c.weight;
    else if (ward2025 >= 0 && (c.slot === AdminSlot.ward || c.slot === AdminSlot.district)) {
      const via = c.slot === AdminSlot.ward ? r.admin.legacyWardsOf(ward2025) : r.admin.legacyDistrictsOf(ward2025);
      v = c.ids.some((id) => via.includes(id)) ? c.weight / 2 : -2 * c.weight;
    } else v = 0;
    // The words are the place's own (its street or name): as good as being in the unit.
    return c.terms !== 0 && (own & c.terms) === c.terms ? Math.max(v, c.weight) : v;
  };
  let legacy = 0,
    modern = 0,
    hasLegacy = false,
    hasModern = false;
  let province = -Infinity;
  for (const c of checks) {
    if (c.group === 'legacy') ((legacy += one(c)), (hasLegacy = true));
    else if (c.group === '2025') ((modern += one(c)), (hasModern = true));
    else province = Math.max(province, one(c));
  }
  const units = hasLegacy && hasModern ? Math.max(legacy, modern) : legacy + modern;
  return units + (province === -Infinity ? 0 : province);
}

/** The admin units an address named (the levels it wrote, not those they imply), as checks on place slots. */
function wantedUnits(res: AdminResolution, q: PlaceQuery): Check[] {
  const out: Check[] = [];
  const m = q.adminMask;
  const p = q.parsed;
  if (res.legacy.ward !== undefined && p.ward)
    out.push({ slot: AdminSlot.ward, weight: WARD_BOOST, ids: [res.legacy.ward], group: 'legacy', terms: m.ward });
  if (res.legacy.district !== undefined && p.district)
    out.push({
      slot: AdminSlot.district,
      weight: DISTRICT_BOOST,
      ids: [res.legacy.district],
      group: 'legacy',
      terms: m.district,
    });
  if (res.v2025.ward !== undefined && (p.ward || p.district))
    out.push({
      slot: AdminSlot.ward2025,
      weight: WARD_BOOST,
      ids: [res.v2025.ward, ...res.v2025.wards],
      group: '2025',
      terms: m.ward | m.district,
    });
  if (p.province) {
    if (res.legacy.province !== undefined)
      out.push({
        slot: AdminSlot.province,
        weight: PROVINCE_BOOST,
        ids: [res.legacy.province],
        group: 'province',
        terms: m.province,
      });
    if (res.v2025.province !== undefined)
      out.push({
        slot: AdminSlot.province2025,
        weight: PROVINCE_BOOST,
        ids: [res.v2025.province],
        group: 'province',
        terms: m.province,
      });
  }
  return out;
}

/**
 * 'legacy' when the query named a unit only the pre-2025 system has: a district written with its type word, or a
 * district or ward name that neither a 2025 ward nor (written without a type word) a street of the region carries;
 * else '2025'. Names both systems have ("Hoàn Kiếm" is a legacy district and a 2025 ward; "Bà Triệu" a legacy ward
 * and a street) leave the default.
 */
function systemOf(r: PlacesRegion, table: AdminTable, q: PlaceQuery, res: AdminResolution): AddressSystem {
  const p = q.parsed;
  const onlyLegacy = (name: string, typed: boolean): boolean =>
    !adminNameKeys(name).some((k) => table.index.has(indexKey('2025', 'ward', k))) &&
    (typed || !r.streetKeys.has(streetKey(name)));
  if (
    res.legacy.district !== undefined &&
    p.district &&
    (p.types.district !== undefined || onlyLegacy(p.district, false))
  )
    return 'legacy';
  if (res.legacy.ward !== undefined && p.ward && onlyLegacy(p.ward, p.types.ward !== undefined)) return 'legacy';
  return '2025';
}

/** A street named as an alley of another, by its number ("Hẻm 283 CMT8", "Ngõ 8 Cao Bá Quát"). Folded. */
const ALLEY_NAME = /^(hem|ngo|ngach|kiet) \d/;

/** Street type words a street's name may lead with before what names it. Folded. */
const STREET_LEADS = new Set(['pho', 'duong', 'ngo', 'ngach', 'hem', 'kiet', 'dai', 'lo']);

/** Folded `name` without the street type words it leads with ("pho quoc tu giam" → "quoc tu giam"). */
function withoutLeadingType(name: string): string {
  const w = name.split(' ');
  let k = 0;
  while (k < w.length - 1 && STREET_LEADS.has(w[k]!)) k++;
  return w.slice(k).join(' ');
}

/** Whether folded `name` starts with `words`, after any street type words ("Phố Chùa Một Cột" leads with "chùa"). */
function leadsWith(name: string, words: readonly string[]): boolean {
  const w = name.split(' ');
  let k = 0;
  while (k < w.length && STREET_LEADS.has(w[k]!) && w[k] !== words[0]) k++;
  return words.every((x, i) => w[k + i] === x);
}

/** The query's name words in order, folded and space-joined ('' when it has fewer than two). */
function namePhrase(q: PlaceQuery): string {
  const words = q.terms.filter((t) => t.role === 'name' && !t.numeric).map((t) => t.folded);
  return words.length >= 2 ? words.join(' ') : '';
}

/** The run itself, then its suffixes and prefixes of two words or more, longest first. */
function subRuns(run: number[]): number[][] {
  const out = run.length > 0 ? [run] : [];
  for (let n = run.length - 1; n >= 2; n--) out.push(run.slice(run.length - n), run.slice(0, n));
  return out;
}

/**
 * The most specific thing the query named when no place accounts for all of it: a street it names (partial) — its
 * street part, or an admin name that is also a street of the region ("Vincom Bà Triệu": Phố Bà Triệu) — else the
 * ward it names (partial; a legacy ward asked for alone and without a place of its own answers with the one 2025 ward
 * it went into). A district or a province alone is too coarse to stand for a place: no answer. Matching here is exact
 * (no typos): a stand-in must be what the query wrote.
 */
function fallback(r: PlacesRegion, q: PlaceQuery): ForwardHit[] {
  const table = r.admin.table;
  const res = q.resolution;
  const system = table && res ? systemOf(r, table, q, res) : '2025';
  const kinds = r.places.kind;
  const checks = res ? wantedUnits(res, q) : [];
  // A stand-in street is one the query names whole, in its order: every word of its name is written ("Thăng Long" is
  // not "Ngõ 294 Thăng Long Mới"; "Số 3 ngõ 107A Tôn Đức Thắng" names "Ngõ 107A Phố Tôn Đức Thắng"; "Hồ Tây" does not
  // name "Phủ Tây Hồ").
  const written = q.terms.map((t) => t.folded);
  const namedWhole = (p: number): boolean =>
    isSubsequence(
      streetKey(r.region.strings.get(r.places.name[p]!))
        .split(' ')
        .filter((w) => w !== ''),
      written,
    );
  const area = queryArea(r.admin, q.parsed, res);
  // Runs of words that may name a street, and whether the street must lie in the area the query names (not when the
  // run is the area's own words: "Vincom Bà Triệu" is on Phố Bà Triệu, wherever the ward of that name is).
  const streetRuns: Array<{ words: number[]; inArea: boolean }> = [];
  const run = (keep: (t: QueryTerm) => boolean): number[] => q.terms.flatMap((t, j) => (keep(t) ? [j] : []));
  // The street's own name words (not the category words that may lead the run: "Hồ Thiền Quang" names Phố Thiền Quang).
  streetRuns.push({ words: run((t) => t.part === 'street' && t.role === 'name'), inArea: true });
  for (const part of ['ward', 'district'] as const) {
    // Written with its type word ("Phường Võ Thị Sáu"), the name is the unit's, no street's.
    if (q.parsed.types[part] !== undefined) continue;
    const words = run((t) => t.role === 'admin' && t.part === part);
    if (words.length > 0 && r.streetKeys.has(words.map((j) => q.terms[j]!.folded).join(' ')))
      streetRuns.push({ words, inArea: false });
  }
  // Name words the parser could not place, part by comma-separated part ("Hanoi Railway Station, Lê Duẩn").
  for (const segment of new Set(q.terms.map((t) => t.segment))) {
    const words = run((t) => t.segment === segment && t.role === 'name' && t.part === undefined);
    if (words.length > 0) streetRuns.push({ words, inArea: true });
  }
  for (const { words, inArea: areaBound } of streetRuns) {
    const there = (p: number): boolean => !area || !areaBound || inArea(r, area, p) !== Within.out;
    // A run that also carries the place's name ("Phở Thìn Lò Đúc") is tried by its ends, longest first.
    for (const sub of subRuns(words)) {
      let required = 0;
      for (const j of sub) required |= 1 << j;
      const terms = q.terms.map((t, j) => ((required >> j) & 1 ? { ...t, optional: false } : { ...t, optional: true }));
      const hits = r.searcher.search(terms, {
        prefix: false,
        limit: 1,
        importance: r.places.importance,
        required,
        exact: true,
        keep: (p) => kinds[p] === PlaceKind.street && namedWhole(p) && there(p),
        boost: (p, own) => adminAgreement(r, p, own, checks),
      });
      if (hits.length === 0) continue;
      const street = hits[0]!.place;
      // "Popeyes Hai Bà Trưng", "Phở Thìn Lò Đúc": the rest of the query names a place on that street.
      const onIt = placeOnStreet(
        r,
        q,
        q.required & ~required & ~(q.adminMask.ward | q.adminMask.district | q.adminMask.province),
        street,
      );
      if (onIt) return [{ region: r, place: onIt.place, score: onIt.score, partial: false, system }];
      return [{ region: r, place: street, score: hits[0]!.score, partial: true, system }];
    }
  }
  const ward = namedWard(table, q, res);
  let place = ward !== undefined ? r.unitPlace.get(ward) : undefined;
  const alone = !q.terms.some((t) => t.role === 'name' || t.role === 'category');
  if (place === undefined && alone && res?.legacy.ward !== undefined && res.v2025.wards.length === 1) {
    // The 2025 ward a legacy ward went into whole is what was asked for; one it went into in part only partly.
    const successor = r.unitPlace.get(res.v2025.wards[0]!);
    const whole = table?.wardLinks.some((l) => l.legacy === res.legacy.ward && l.full) === true;
    if (successor !== undefined) return [{ region: r, place: successor, score: 0, partial: !whole, system }];
  }
  // A name or a kind of place that the named ward or district lacks ("nhà thuốc Quận 5"): the area itself, partial;
  // so is a district dissolved before 2025 asked alone ("Quận 2": Thành phố Thủ Đức, which it went into).
  if (place === undefined && (!alone || res?.former) && area?.wards) place = r.unitPlace.get(area.unit);
  return place !== undefined ? [{ region: r, place, score: 0, partial: true, system }] : [];
}

/**
 * The best place that accounts for the `rest` words of the query (its name and category words besides the street's)
 * and lies within ON_STREET_M of a road named as `street` is, or null (also when `rest` is empty).
 */
function placeOnStreet(
  r: PlacesRegion,
  q: PlaceQuery,
  rest: number,
  street: number,
): { place: number; score: number } | null {
  const graph = r.region.graph;
  if (rest === 0 || graph.edgeCount === 0) return null;
  const name = r.places.name[street]!;
  const names = graph.edgeName;
  const segments = routerOf(r.region).segments();
  const onStreet = (p: number): boolean =>
    r.places.kind[p] === PlaceKind.poi &&
    segments.nearest(r.lat(p), r.lon(p), (e) => names[e] === name, ON_STREET_M) !== null;
  const terms = q.terms.map((t, j) => ({ ...t, optional: ((rest >> j) & 1) === 0 }));
  const hits = r.searcher.search(terms, {
    prefix: false,
    limit: 1,
    importance: r.places.importance,
    required: rest,
    categories: q.categories,
    placeCategories: r.categories,
    keep: onStreet,
  });
  return hits[0] ?? null;
}

/** The ward the query wrote: the 2025 ward of that name, else the legacy one (not a successor the mapping implies). */
function namedWard(table: AdminTable | null, q: PlaceQuery, res: AdminResolution | null): number | undefined {
  if (!table || !res || !q.parsed.ward) return undefined;
  const written = (id: number | undefined) =>
    id !== undefined && adminNameKeys(q.parsed.ward!).some((k) => nameKey(table.byId.get(id)!.name) === k);
  if (written(res.v2025.ward)) return res.v2025.ward;
  return res.legacy.ward;
}
