/**
 * Ranking one region's places for a parsed query: the search with everything the query wrote — the admin units it
 * named (an area the answer must lie in or beside), a near anchor or a street it must be on, the house number, the
 * kind of place — and the readings of a kind of place with a unit's name ("Chợ Bến Thành": the market of that name,
 * else a market in that ward). Forward geocoding and autocomplete rank by this same evidence.
 */
import { adminAgreement, systemOf, districtTermsVia2025, wantedUnits } from './admin-agreement';
import { inArea, queryArea, widenedArea, Within, type QueryArea } from './area';
import type { AddressSystem } from './describe';
import { homeUnit } from './home';
import { AdminSlot, AltKind, PlaceKind, unitOfPlace } from './kinds';
import { nearAnchor, streetAnchor, type AnchorFinder } from './near';
import { houseStreetKeyOf } from './interpolate';
import { namedWithNumber, numberAfterName } from './name-number';
import { streetKey, type PlacesRegion } from './region-places';
import { readAsTyped } from './search/as-typed';
import { readDistrictInitials } from './text/district-initials';
import { otherIY, soundsAlike, wordsSoundAlike } from './text/syllable';
import { otherTier, spannedRows, withFamilies } from './search/place-categories';
import { buildQuery, type PlaceQuery, type QueryTerm } from './search/query';
import { numeralsAsDigits, streetInitials, wordsOf as wordsOfText } from './search/terms';
import { keepsWrittenOrder, orderedWords, type NamedPlace } from './search/written-order';
import { categoryRowsOf, categorySpans, leadingKind, rowsOfKeys } from './text/category-match';
import { andRows, NO_ROWS, noRow, orRows, rowsMeet, rowsWithin, type RowMask } from './text/row-mask';
import { withinOneEdit } from './text/edits';
import { fold, nameKey } from './text/fold';
import { junctionWays } from './text/junction-ways';
import { houseKey } from './text/house-path';
import { ALLEY_NAME, ALLEY_WORDS, leadsWith, withoutLeadingType } from './text/street-words';

/** Score added to a place whose house number is the one written (and half of it taken from other numbers). */
const HOUSE_BOOST = 0.3;
/** Score taken from admin units when the address names a house or street. */
const UNIT_PENALTY = 0.2;
/**
 * Score taken from what is not the street the words ask for: a legacy ward written without its type word when a
 * street of the region has its name, an alley whose word is not written.
 */
const NOT_THE_STREET_PENALTY = 0.1;
/** Score added to a place of the kind the query's type word asks for (a street for "Phố X", a ward for "Phường X"). */
const KIND_BOOST = 0.1;
/** Score added to a place whose name holds the query's name words in the written order ("Sơn Tây", not "Tây Sơn"). */
const ORDER_BOOST = 0.05;
/**
 * Score added to a place whose name, past its kind's words, begins with the query's name words: a name is extended by
 * what follows it ("ĐH Luật TP. Hồ Chí Minh" for "Đại học Luật", not "Trường Đại học Kinh tế - Luật").
 */
const LEAD_BOOST = 0.03;
/** Score added to a place one of whose names is the whole query ("Saigon Square" over Saigon Square 2, "SHTP"). */
const EXACT_NAME_BOOST = 0.3;
/**
 * Score added to a place tagged as the kind the query asks for: of two places named alike ("Bệnh viện Nhân Dân 115", a
 * hospital; "Bệnh Viện Cấp Cứu 115", a tourist attraction), the one that is that kind.
 */
const TAGGED_KIND_BOOST = 0.02;
/** Score taken from a place whose name leads with another kind than the query asks for ("Thư viện ĐH X" for "ĐH X"). */
const OTHER_KIND_PENALTY = 0.2;
/**
 * Score taken from a place whose name holds a written name word only among its kind's words (see nameInKindWords in
 * rankInRegion): as much as a whole name called so gives, the word being unmet.
 */
const NAME_IN_KIND_PENALTY = 0.3;
/** Score taken from a place beside the area the query names, not in it (see area.ts). */
const BESIDE_PENALTY = 0.2;
/** Score added to a place in the pack's own province when the query names no unit (see home.ts). */
const HOME_BOOST = 0.03;
/**
 * Score taken from a place known to lie in another province when the query names no unit: with HOME_BOOST above the
 * most that importance gives (IMPORTANCE_WEIGHT in search.ts), so a name met alike is read at home first ("Hùng Vương"
 * is the boulevard of Quận 5 in a pack of Hồ Chí Minh City, not the trunk road of that name in Đồng Nai).
 */
const AWAY_PENALTY = 0.055;
/** Kinds of place that are roads themselves: a street named so is one ("Cầu Sài Gòn", "Ngã tư Hàng Xanh"). */
const ROAD_ROWS = rowsOfKeys(['junction', 'bridge']);
/** Hits searched per hit returned, for the written order to choose among. */
const ORDER_POOL = 4;

/** A ranked forward result. */
export interface ForwardHit {
  region: PlacesRegion;
  place: number;
  score: number;
  /** The answer is only part of what was asked (a street or unit for a place the pack lacks, another house). */
  partial: boolean;
  /** One of the place's names is the whole query (see calledSo in rankInRegion); absent when not ranked so. */
  calledSo?: boolean;
  /** The system the query wrote its admin names in: results are shown in it. */
  system: AddressSystem;
  /** A house the data lacks, estimated on this street: where, and its number as written (see estimatedHouse). */
  at?: { lat: number; lng: number; ward2025: number };
  house?: string;
  /** A street shown at `at`, where it meets the street of this name, a string id (see fallback.ts). */
  crossing?: number;
}

/**
 * The forward-geocoding query of `text` in region `r` (house and alley numbers rank but are not required); with
 * `heard`, its words read as others of their sound where the places do not hold them (readAsTyped).
 */
export function regionQuery(r: PlacesRegion, text: string, heard = false): PlaceQuery {
  return buildQuery(text, {
    gazetteer: r.gazetteer,
    isStreet: r.isStreet,
    table: r.admin.table,
    area: r.areaUnits,
    numbersOptional: true,
    readTyped: (written) =>
      readAsTyped(readDistrictInitials(written, r.districtInitials), r.index, r.isStreet, { heard }),
  });
}

/**
 * The query of text being typed (autocomplete): the last word may be unfinished, so it is read as the start of a word
 * (keyboard-off readings, category words it begins) and numbers count. `whereBegun`: a last word that begins a unit's
 * name may be where the writer is going rather than a word of the name (see markUnfinishedUnitName).
 */
export function typingQuery(r: PlacesRegion, text: string, whereBegun = false): PlaceQuery {
  return buildQuery(text, {
    gazetteer: r.gazetteer,
    isStreet: r.isStreet,
    table: r.admin.table,
    area: r.areaUnits,
    numbersOptional: false,
    readTyped: (written) =>
      readAsTyped(readDistrictInitials(written, r.districtInitials), r.index, r.isStreet, { prefixLast: true }),
    lastIsPrefix: true,
    beginsUnitName: whereBegun ? r.beginsUnitName : undefined,
  });
}

/** How rankInRegion searches. */
export interface RankOptions {
  /** The last word may be unfinished (autocomplete). */
  prefix: boolean;
  limit: number;
  /** False excludes a place (a radius around the caller's location). */
  keep?: (place: number) => boolean;
  /**
   * Added to a place's score (a location bias); `tagged` is true when the query asks for a kind of place and the
   * place is tagged as that kind (a branch of the chain "atm vietcombank" names, not a bus stop named after it).
   */
  bias?: (place: number, tagged: boolean) => number;
  /** Words may be met spelt as others of their sound (SearchOptions.heard). */
  heard?: boolean;
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
  // The words before a near word may name it too ("Nguyễn Du gần Nhà thờ Đức Bà").
  const ownName = q.terms
    .filter((t, j) => t.role === 'name' && ((q.near >> j) & 1) === 0)
    .map((t) => t.folded)
    .join(' ');
  const streetOnly =
    q.parsed.street !== undefined &&
    q.parsed.house === undefined &&
    q.parsed.alley === undefined &&
    (q.parsed.types.street !== undefined ||
      r.namesStreet(fold(q.parsed.street)) ||
      (q.near !== 0 && r.namesStreet(ownName)));
  const alleyOfStreet = q.parsed.alley !== undefined && q.parsed.house === undefined && q.parsed.street !== undefined;
  const namedPlace: NamedPlace = {
    names: (p) => [places.name[p]!, ...places.alt.subarray(places.altFirst.at(p), places.altFirst.at(p + 1))],
    text: (id) => r.region.strings.get(id),
  };
  const written = houseKey(q.parsed.house, q.parsed.alley);
  // "Bệnh viện Quân y 103": the number is the name's in a place so named (see name-number.ts).
  const numberNamed = numberAfterName(q);
  const houseOf = (p: number): boolean | undefined => {
    if (written === '') return undefined;
    if (numberNamed && namedWithNumber(r, p, namedPlace.names(p), numberNamed)) return true;
    return places.house[p] === 0 ? undefined : r.houseKeyOf(p) === written;
  };
  const bias = opts.bias;
  // "Phố X", "Đường X": the writer asks for a street; "Phường X" for the ward, also when the admin table holds no ward
  // so written ("phường tân địn quận 1": a slip; its words are then searched as a name, among the units).
  const naming = (t: QueryTerm) => t.role === 'name' || t.role === 'category';
  const unitOnly = !q.parsed.street && !q.terms.some(naming);
  const wardNamed = !q.parsed.street && q.terms.some(naming) && q.terms.every((t) => !naming(t) || t.part === 'ward');
  const kindAsked =
    q.parsed.types.street !== undefined
      ? PlaceKind.street
      : (unitOnly || wardNamed) && q.parsed.types.ward !== undefined
        ? PlaceKind.ward
        : unitOnly && q.parsed.types.district !== undefined && q.parsed.ward === undefined
          ? PlaceKind.district
          : -1;
  // The area the query names (set below, once the near anchor is known): places beside it rank below those in it.
  let area: QueryArea | null = null;
  // Where each place lies against the area, once per query (the search, its boost and the answers all ask).
  const within = new Map<number, Within>();
  const whereIs = (p: number): Within => {
    let w = within.get(p);
    if (w === undefined) within.set(p, (w = inArea(r, area!, p)));
    return w;
  };
  const beside = (p: number): boolean => area !== null && whereIs(p) === Within.near;
  const isAlley = (p: number): boolean =>
    places.kind[p] === PlaceKind.street && ALLEY_NAME.test(r.folded(places.name[p]!));
  // Asked for a kind of place ("ĐH Nông Lâm"), a place tagged as another kind whose name leads with it ("Thư viện ĐH
  // Nông Lâm", "Bến xe buýt ĐH Nông Lâm") is a part of the one asked for or named after it, not it (-1); a place tagged
  // as the kind asked is a little surer than one only named so (1). Kinds of one family are one kind here ("khách sạn"
  // asks for a "Nhà nghỉ" too), but a place whose name says it is of the family's other tier (tierOff: "University"
  // does not ask for "International School Ho Chi Minh City", tagged a school as universities often are) is not the
  // kind asked (-1), and at most a partial answer.
  // The kinds the words after a near word write are the anchor's ("Nguyễn Du gần Nhà thờ Đức Bà" asks for no church).
  const kinds = q.categories.filter((c) => (c.mask & q.near) === 0);
  const ownRows = kinds.reduce((m, c) => orRows(m, c.rows), NO_ROWS);
  const askedRows = withFamilies(ownRows);
  const isAsked = (rows: RowMask) => rowsMeet(rows, askedRows);
  // A kind of place other than a road's (a junction, a bridge) that a street stands for by its name after a type word
  // ("Phố Chùa Một Cột" for "Chùa Một Cột"): the street is named after the place, it is not the place. (A street whose
  // name leads with the kind's word itself is that word's: "Hồ Tùng Mậu", "Lăng Cha Cả".)
  const askedOffRoad = !rowsWithin(askedRows, ROAD_ROWS);
  const namedAfter = (p: number): boolean => {
    const name = r.folded(places.name[p]!);
    return withoutLeadingType(name) !== name;
  };
  // The kind of place p's name leads with ("Ngã tư", "Thư viện"), once per place; null when it leads with none.
  const leads = new Map<number, RowMask | null>();
  const leadKind = (p: number): RowMask | null => {
    let rows = leads.get(p);
    if (rows === undefined) {
      const lead = leadingKind(wordsOfText(namedPlace.text(places.name[p]!)).slice(0, KIND_WORDS_MAX));
      leads.set(p, (rows = lead?.rows ?? null));
    }
    return rows;
  };
  // Whether place p's name says it is of the other tier of a family than every kind asked (otherTier: "Trường THCS
  // X" or "X School" asked as "Đại học X"): by the kinds its name spells anywhere, with a leading abbreviation
  // ("Trường ĐH X") but not by a word that only leads a name ("Trường X" is any school); its other names may be
  // looser ("… (American Academy)"). Once per place.
  const tiers = new Map<number, boolean>();
  const tierOff = (p: number): boolean => {
    if (kinds.length === 0 || places.kind[p] !== PlaceKind.poi) return false;
    let off = tiers.get(p);
    if (off === undefined)
      tiers.set(
        p,
        (off = otherTier(ownRows, spannedRows(wordsOfText(namedPlace.text(places.name[p]!)), 'leading', true))),
      );
    return off;
  };
  const kindAgreement = new Map<number, -1 | 0 | 1>();
  const askedKind = (p: number): -1 | 0 | 1 => {
    if (kinds.length === 0 || places.kind[p] !== PlaceKind.poi) return 0;
    let agreement = kindAgreement.get(p);
    if (agreement === undefined) {
      const lead = leadKind(p);
      agreement = tierOff(p)
        ? -1
        : isAsked(categoryRowsOf(namedPlace.text(places.category.at(p))))
          ? 1
          : lead && !isAsked(lead)
            ? -1
            : 0;
      kindAgreement.set(p, agreement);
    }
    return agreement;
  };
  // A name written with no unit ("Tôn Đức Thắng") is first read in the pack's own province, not a neighbour's.
  const unqualified = (q.adminMask.ward | q.adminMask.district | q.adminMask.province) === 0 && !opts.bias;
  const home = unqualified ? homeUnit(r, AdminSlot.province) : -1;
  // A legacy ward's words written bare ("hang bac hoan kiem", "kim mã ba đình") name the street the ward was named
  // after: since 2025 a ward of the old system is asked for with its type word ("phường Hàng Bạc").
  const streetNamedWard = (p: number): boolean => {
    if (q.parsed.types.ward !== undefined || places.kind[p] !== PlaceKind.ward) return false;
    const unit = r.admin.unit(unitOfPlace(places.osm.at(p)!));
    return unit?.system === 'legacy' && r.isStreet(unit.foldedName);
  };
  // An alley named after its street ("Hẻm Cô Giang") is not the street asked without the alley's word ("cô giang").
  const alleyWritten = q.terms.some((t) => ALLEY_WORDS.has(t.folded));
  const unaskedAlley = (p: number): boolean =>
    !alleyWritten &&
    places.kind[p] === PlaceKind.street &&
    ALLEY_WORDS.has(r.folded(places.name[p]!).split(' ', 1)[0]!);
  const boost = (p: number, own: number): number => {
    let b = streetLevel && places.kind[p]! >= PlaceKind.ward ? -UNIT_PENALTY : 0;
    if (streetNamedWard(p) || unaskedAlley(p)) b -= NOT_THE_STREET_PENALTY;
    if (beside(p)) b -= BESIDE_PENALTY;
    const agreement = askedKind(p);
    if (agreement < 0) b -= OTHER_KIND_PENALTY;
    else if (agreement > 0) b += TAGGED_KIND_BOOST;
    if (places.kind[p] === kindAsked) b += KIND_BOOST;
    // A street asked without a house number is the street, not a house or an alley of it ("Đường số 61" is not 61
    // Đường số 9; "CMT8" is not "hẻm 283 CMT8").
    if (streetOnly && (places.kind[p] !== PlaceKind.street || isAlley(p))) b -= HOUSE_BOOST / 2;
    // An alley of a street asked for by its number ("ngõ 26 Lý Thường Kiệt"): the street or the alley, not a place
    // named like the street (Trường Tiểu học Lý Thường Kiệt).
    if (alleyOfStreet && places.kind[p] !== PlaceKind.street) b -= HOUSE_BOOST / 2;
    const same = houseOf(p);
    // Asked for a unit ("Phường Xuân Hương"), another kind of place holding its words (Phố Hồ Xuân Hương) is not in it.
    const units = adminAgreement(r, p, kindAsked >= PlaceKind.ward && places.kind[p] !== kindAsked ? 0 : own, checks);
    // The written house on the written street outweighs a wrong district ("175 Hai Bà Trưng, Quận 1" is in Quận 3).
    if (same === true) b += HOUSE_BOOST + Math.max(0, units);
    else b += (same === false ? -HOUSE_BOOST / 2 : 0) + units;
    const province = places.unit(p, AdminSlot.province);
    if (unqualified && province === home) b += HOME_BOOST;
    else if (unqualified && province >= 0) b -= AWAY_PENALTY;
    return b + (bias ? bias(p, agreement > 0) : 0);
  };
  // A street or unit stands for a kind of place only by leading its name with it ("Phố Chùa Một Cột" for "chùa"; not
  // "Công Chúa Ngọc Hân"), in the words asked or others of that kind ("Vòng xoay Ngã Sáu Gò Vấp" for "ngã sáu").
  const kindWords = q.terms.filter((t, j) => t.role === 'category' && ((q.near >> j) & 1) === 0).map((t) => t.folded);
  const leadsWithKind = (p: number): boolean => {
    if (places.kind[p]! < PlaceKind.street || kindWords.length === 0) return true;
    const name = r.folded(places.name[p]!);
    if (leadsWith(name, kindWords)) return true;
    // A kind of two words or more inside the name names it too: a flyover is named after its junction ("Cầu vượt Ngã
    // tư Gò Dưa" for "ngã tư Gò Dưa"); one word inside a name is mostly another word ("Công Chúa Ngọc Hân").
    if (kindWords.length >= 2 && ` ${name} `.includes(` ${kindWords.join(' ')} `)) return true;
    const lead = leadKind(p);
    return lead !== null && isAsked(lead);
  };
  // A junction of the count of ways asked for ("ngã sáu"): one whose names say another count is not it.
  const waysAsked = junctionWays(kindWords);
  const waysAgree = (p: number): boolean => {
    if (waysAsked === 0) return true;
    let ways = 0;
    for (const id of namedPlace.names(p)) if (id !== 0) ways |= junctionWays(r.folded(id).split(' '));
    return ways === 0 || (ways & waysAsked) !== 0;
  };
  // A number in the street's name is the street's ("Đường số 37" is not 37 Đường số 9): held by the street a place is on.
  const streetNumbers = q.numberedStreet
    ? q.terms.filter((t) => t.part === 'street' && t.numeric).map((t) => t.folded)
    : [];
  const onNumberedStreet = (p: number): boolean => {
    if (streetNumbers.length === 0 || places.kind[p]! > PlaceKind.street) return true;
    const street = places.kind[p] === PlaceKind.street ? places.name[p]! : places.street.at(p);
    const words = houseStreetKeyOf(r, street).split(' '); // its own words, not an alley's number
    return streetNumbers.every((n) => words.includes(n));
  };
  // Asked for a kind of place and nothing else to name it ("bưu điện quận 10"), a place tagged as another kind is none
  // of it, whatever its name holds ("Bệnh viện Bưu điện" is a hospital), unless its name leads with the kind asked
  // ("Sửa xe X" tagged as a motorbike shop repairs them too) or its tag's family holds the kind its names say ("Lyn
  // Nail", tagged shop=beauty: PlaceCategories); a place whose tag names no kind is judged by its name. With name
  // words the kind's words may be part of the name ("Turtle Lake", "Dinh Gia Long").
  const kindOnly = kinds.length > 0 && !q.terms.some((t) => t.role === 'name');
  // Whether place p's names hold the query's kind words only as other words: no kind asked begins anywhere in them,
  // spelt out or abbreviated ("chua" written without marks is "Chữa" in "Phòng Cảnh sát PCCC Quận 6", no pagoda;
  // "ủy ban" is the "UBND" of "Đảng ủy - UBND phường Cát Linh"). Once per place.
  const otherwise = new Map<number, boolean>();
  const kindWordsOtherwise = (p: number): boolean => {
    let got = otherwise.get(p);
    if (got === undefined) otherwise.set(p, (got = kindWordsOnlyOtherwise(p)));
    return got;
  };
  const kindWordsOnlyOtherwise = (p: number): boolean => {
    let met = false;
    for (const id of namedPlace.names(p)) {
      if (id === 0) continue;
      const words = wordsOfText(namedPlace.text(id));
      for (let i = 0; i < words.length; i++) {
        met ||= kindWords.includes(words[i]!.folded);
        const spans = categorySpans(words.slice(i, i + KIND_WORDS_MAX), true, false);
        if (spans.some((span) => span.start === 0 && kinds.some((c) => rowsMeet(span.rows, c.rows)))) return false;
      }
    }
    return met;
  };
  const ofKind = (p: number): boolean => {
    if (!kindOnly) return true;
    const tagged = categoryRowsOf(namedPlace.text(places.category.at(p)));
    // Judged by its name, as written.
    if (noRow(tagged)) return !kindWordsOtherwise(p);
    const own = andRows(r.categories.rowsAt(p), withFamilies(tagged));
    const lead = leadKind(p) ?? NO_ROWS;
    return kinds.some((c) => rowsMeet(own, c.rows) || rowsMeet(lead, c.rows));
  };
  const unitTerms = q.adminMask.ward | q.adminMask.district | q.adminMask.province;
  const search = (required: number, keep: ((p: number) => boolean) | undefined, exact = false) => {
    const words = orderedWords(q, required);
    // A unit's words searched as part of the name ("Metro Hiệp Phú" is no metro station in Hiệp Phú): a place called
    // so is it, whatever kind it is tagged.
    const unitsInName = (required & unitTerms) !== 0;
    const inOrder = (p: number) =>
      leadsWithKind(p) &&
      (ofKind(p) || (unitsInName && calledSo(p))) &&
      waysAgree(p) &&
      onNumberedStreet(p) &&
      keepsWrittenOrder(q, words, r.categories, namedPlace, p);
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
      inUnits: checks.length > 0 ? (p) => districtTermsVia2025(r, p, checks) : undefined,
      exact,
      heard: opts.heard,
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
    q.parsed.alley === undefined &&
    !q.terms.some((t) => (t.role === 'name' || t.role === 'category') && t.part !== 'street');
  // The street's own words, as written (one typo aside), before any of its other words ("Lê Lợi" for Đường Lê Lợi, not
  // Mỹ Huế for "Phố Huế").
  const wanted = q.terms
    .filter((t) => t.part === 'street' && t.role !== 'type')
    .map((t) => t.folded)
    .join(' ');
  const namedStreet = (p: number): boolean => {
    if (places.kind[p] !== PlaceKind.street) return ` ${r.folded(places.name[p]!)} `.includes(` ${streetWord} `);
    // Any of its names (an old name: "Nguyễn Trường Tộ" is Hồ Tùng Mậu), its numerals as digits too ("3 tháng 2").
    // While typing, the last word may be unfinished.
    const fits = (k: string): boolean =>
      k === wanted ||
      k.startsWith(opts.prefix ? wanted : `${wanted} `) ||
      withinOneEdit(k, wanted) ||
      (opts.heard === true && wordsSoundAlike(wanted, k));
    return [...namedPlace.names(p)].some((id) => id !== 0 && streetNameKeys(r, id).some(fits));
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
  // A street or a place: a unit of the same name is an area, no anchor ("gần phố Huế" is near the street); a place
  // only partly what the words name is one when its name holds a word of them besides the kind's ("gần hồ Hoàn Kiếm":
  // Phố Hồ Hoàn Kiếm, by the lake the data lacks; "gần hồ Trúc Bạch" is not near a well in Văn Miếu). (The words may
  // hold a unit's other name the query read: "ga sài gòn" is also read "hồ chí minh".)
  // While typing, words that end the query may end unfinished ("ATM near Turtl").
  const find: AnchorFinder = (text, endsQuery) => {
    const begun = opts.prefix && endsQuery;
    const aq = begun ? typingQuery(r, text) : regionQuery(r, text);
    const kind = new Set(aq.terms.filter((t) => t.role === 'category' || t.role === 'type').map((t) => t.folded));
    const all = fold(text)
      .split(' ')
      .filter((w) => w !== '');
    const words = all.filter((w) => !kind.has(w));
    // The unfinished word is held where a word of the name begins with it.
    const unfinished = begun ? all[all.length - 1] : undefined;
    const holds = (p: number): boolean => {
      const name = ` ${r.folded(places.name[p]!)} `;
      return words.some((w) => name.includes(w === unfinished ? ` ${w}` : ` ${w} `));
    };
    return (
      rankInRegion(r, aq, { prefix: begun, limit: 5 }).find(
        (h) => places.kind[h.place]! < PlaceKind.ward && (!h.partial || holds(h.place)),
      )?.place ?? null
    );
  };
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
  /** The terms a name must hold as written when the admin terms `asName` are read as its words. */
  const unitWordsOf = (asName: number): number => {
    let words = asName & (q.adminMask.ward | q.adminMask.district);
    q.terms.forEach((t, j) => {
      const next = q.terms[j + 1];
      if (t.role === 'type' && next && ((words >> (j + 1)) & 1) !== 0 && t.segment === next.segment) words |= 1 << j;
    });
    return words;
  };
  // Whether a name of place `p` holds the words of `mask` as written, in order and together; with `own`, a name of
  // its own (not its brand's or operator's: "Tram Xang Dau Binh Chanh" runs a station in Nhà Bè).
  const holdsInOrder = (p: number, mask: number, own = false): boolean => {
    const words = ` ${q.terms
      .filter((_, j) => ((mask >> j) & 1) !== 0)
      .map((t) => t.folded)
      .join(' ')} `;
    const holds = (id: number) => id !== 0 && ` ${r.folded(id)} `.includes(words);
    if (holds(places.name[p]!)) return true;
    for (let k = places.altFirst.at(p), end = places.altFirst.at(p + 1); k < end; k++)
      if ((!own || places.altKind[k] !== AltKind.brand) && holds(places.alt[k]!)) return true;
    return false;
  };
  // …and in the province of the unit named, when the query's units say which: "chợ Bình Tân" is no Chợ Long Bình Tân
  // in Đồng Nai (wherever else the place is: "Bệnh viện Thống Nhất" is not in a unit called Thống Nhất).
  const province2025 = res?.v2025.province ?? -1,
    provinceLegacy = res?.legacy.province ?? -1;
  const inProvince = (p: number): boolean => {
    const p2025 = places.unit(p, AdminSlot.province2025),
      legacy = places.unit(p, AdminSlot.province);
    if ((province2025 < 0 && provinceLegacy < 0) || (p2025 < 0 && legacy < 0)) return true;
    return (province2025 >= 0 && p2025 === province2025) || (provinceLegacy >= 0 && legacy === provinceLegacy);
  };
  // Whether a name of place `p` is all the query's words: as written, or without its type words, fillers and the
  // units it names ("CMT8 quận 3" calls Cách Mạng Tháng Tám "CMT8").
  // The words after a near word name the anchor, not the place ("Phủ Doãn gần bệnh viện Việt Đức" calls Phố Phủ Doãn so).
  const wordsOf = (skip: ReadonlySet<string>, keep = 0): string =>
    q.terms
      .filter((t, j) => ((q.near >> j) & 1) === 0 && (!skip.has(t.role) || ((keep >> j) & 1) !== 0))
      .map((t) => t.folded)
      .join(' ');
  const whole = [
    withoutLeadingType(q.near === 0 ? q.folded : wordsOf(new Set())),
    wordsOf(new Set()), // abbreviations written out ("Sacombank Q8" calls Sacombank Quận 8 so)
    wordsOf(new Set(['type', 'filler'])),
    wordsOf(new Set(['type', 'filler', 'admin'])),
    // The fillers kept, the units left out ("chung cư Sư Vạn Hạnh Q10" calls Chung Cư Sư Vạn Hạnh so).
    wordsOf(new Set(['type', 'admin'])),
    // A ward's or district's words in the name, the province left out ("cau long bien ha noi": Cầu Long Biên).
    wordsOf(new Set(['type', 'filler', 'admin']), q.adminMask.ward | q.adminMask.district),
  ].filter((w) => w !== '');
  // A unit is called so by the ward's type word and words alone ("phường Bình Hưng Hòa Bình Tân" calls Phường Bình
  // Hưng Hòa so, not Phường Bình Hưng Hoà A; "thị trấn Củ Chi" does not call Xã Củ Chi so).
  const wardType = q.parsed.types.ward;
  const wardName = wardType
    ? `${fold(wardType)} ${wordsOf(new Set(['type', 'filler', 'admin']), q.adminMask.ward)}`
    : '';
  const calledSo = (p: number): boolean =>
    [...namedPlace.names(p)].some(
      (id) =>
        id !== 0 &&
        (whole.includes(withoutLeadingType(r.folded(id))) ||
          (wardName !== '' && places.kind[p]! >= PlaceKind.ward && r.folded(id) === wardName)),
    ) ||
    (places.kind[p] === PlaceKind.street &&
      streetInitials(namedPlace.text(places.name[p]!)).some((initials) => whole.includes(initials)));
  // A place called exactly what was written is it wherever it is ("chùa Bửu Long" in Thủ Đức, not in the ward of
  // that name in Đồng Nai).
  const named = (p: number, unitWords: number): boolean =>
    unitWords === 0 || (holdsInOrder(p, unitWords, true) && (inProvince(p) || calledSo(p)));
  const asName = (mask: number) => {
    const unitWords = unitWordsOf(mask);
    return search(required | mask, (p) => (!near || near(p)) && named(p, unitWords), true);
  };
  let hits = q.adminAsName !== 0 ? asName(q.adminAsName) : [];
  // The admin words after a kind may run on into a unit's longer name ("quảng trường Lâm Viên Đà Lạt": the ward is
  // Lâm Viên - Đà Lạt): when they name nothing together, the words before names of districts and provinces ending
  // them ("Đà Lạt Lâm Đồng"), which then say where. (Any words fewer would find a "Nhà thuốc Bến Nghé" for "nhà thuốc
  // Bến Thành".)
  for (let mask = dropLast(q.adminAsName); hits.length === 0 && mask !== 0; mask = dropLast(mask)) {
    const units = unitsOnly(
      r,
      q.terms.flatMap((t, j) => (((q.adminAsName & ~mask) >> j) & 1 ? [t.folded] : [])),
    );
    if (units) hits = asName(mask).filter((h) => inUnits(r, h.place, units));
  }
  area = anchor && (unitTerms & ~q.near) === 0 ? null : queryArea(r.admin, q.parsed, res);
  const reading = q.adminAsName === 0 ? 'sure' : (area?.reading ?? 'none');
  // Places found only as "a place of the kind in the area" stand for a landmark the area may be named after: partial.
  let standIn = false;
  if (hits.length === 0 && reading !== 'none') {
    // In the area or beside it. A place named after the area is not in it for that ("Vietcombank Hoàn Kiếm" is a
    // branch in Ô Chợ Dừa); one on a street named like the area ("Highlands Hai Bà Trưng") is the fallback's.
    const there = (p: number): boolean => (!near || near(p)) && whereIs(p) !== Within.out;
    hits = search(required, area ? there : near);
    // A name that also reads as a wider unit ("Thủ Đức"): its narrower reading first, the wider where nothing is in it.
    const wider = area && widenedArea(area);
    if (wider && !hits.some((h) => whereIs(h.place) === Within.in)) {
      area = wider;
      within.clear();
      hits = search(required, there);
    }
    standIn = reading === 'partial';
  }
  // Nothing there: the unit's words may be part of a name ("Kem Bạch Đằng", "Hội trường Thống Nhất"), standing in it as
  // written. Only a place called exactly what was written is sure; another holding those words is partial ("ATM
  // Vietcombank Hoàn Kiếm" is not the bank's Hoàn Kiếm branch in Ô Chợ Dừa).
  let unitInName = 0;
  q.terms.forEach((t, j) => t.role === 'admin' && !t.numeric && (unitInName |= 1 << j));
  unitInName &= ~q.near;
  let nameHolds = false;
  // A place called exactly what was written, the unit's words with the rest ("quang truong lam vien": Quảng trường Lâm
  // Viên, by the lake in another ward), is meant before places of the unit that only a slip of the rest names (the
  // street Quang Trung in Lâm Viên ward). A kind of place written with the unit ("nhà thuốc Bến Thành") asks for the
  // places of the kind there, not for this (nor for its search's time).
  const exactFirst = kinds.length === 0 && !hits.some((h) => calledSo(h.place));
  if (area && unitInName !== 0 && (hits.length === 0 || exactFirst)) {
    const inName = search(required | unitInName, (p) => (!near || near(p)) && holdsInOrder(p, unitInName), true);
    const exact = hits.length === 0 ? inName : inName.filter((h) => calledSo(h.place));
    if (exact.length > 0 || hits.length === 0) {
      hits = exact;
      nameHolds = true;
    }
  }
  // Units written bare, in another order than people write them ("Hà Nội, Kim Liên, Bệnh viện Bạch Mai"), may have
  // been read as the wrong unit: what the rest names, anywhere, only partly what was asked.
  const bare = !q.parsed.types.ward && !q.parsed.types.district;
  let anywhere = false;
  if (hits.length === 0 && area && bare && reading === 'sure' && q.adminAsName === 0 && required !== 0) {
    hits = search(required, near);
    anywhere = true;
  }
  const contradicts = (res?.mismatched.length ?? 0) > 0;
  const localUnit = unitInName & (q.adminMask.ward | q.adminMask.district);
  // A ward written bare after a name ("Masteri An Phú") may be the name's own end: a place there (not a street)
  // whose names do not hold it is only partly what was asked.
  const nameFirst = q.terms.findIndex((t) => t.role === 'name');
  const unitFirst = q.terms.findIndex((_, j) => ((unitInName >> j) & 1) !== 0);
  const bareAfterName =
    area?.reading === 'partial' && r.admin.unit(area.unit)?.level === 'ward' && nameFirst >= 0 && unitFirst > nameFirst;
  // A ward's words that are the name of the place's own street ("bệnh viện Tim Trần Hưng Đạo": the hospital on Trần
  // Hưng Đạo, not in the legacy ward of that name) say where it is, not a ward it is beside.
  const writtenUnit = q.terms.flatMap((t, j) => (((unitInName >> j) & 1) !== 0 ? [t.folded] : [])).join(' ');
  const onUnitStreet = (p: number): boolean =>
    writtenUnit !== '' && places.street.at(p) !== 0 && streetNameKeys(r, places.street.at(p)).includes(writtenUnit);
  // An alley asked for itself ("ngõ 41 Thái Hà", "ngõ 61 ngách 34"): a place is it when its names hold each of the
  // alley's numbers, or in it when its house is one of the alley's; any other place is not it.
  const alley = q.parsed.alley !== undefined && q.parsed.house === undefined ? houseKey(q.parsed.alley) : '';
  const holdsAlley = (p: number): boolean =>
    (places.house[p] !== 0 && r.houseKeyOf(p).startsWith(`${alley}/`)) ||
    [...namedPlace.names(p)].some((id) => {
      const name = ` ${r.folded(id).replace(/\//g, ' ')} `;
      return id !== 0 && alley.split('/').every((n) => name.includes(` ${n} `));
    });
  // A street the words name only part of ("phố cổ" is no Phố Cổ Tân): a word of each of its names (past the type words,
  // numerals also as digits) that no written word meets, as written, with the other of i and y or one edit off, nor
  // its words run together ("NGUYENHUE").
  const writtenWords = q.terms.map((t) => t.folded);
  // Numerals written out are also their digits ("Ba Tháng Hai" names 3 Tháng 2).
  writtenWords.push(...numeralsAsDigits(writtenWords.join(' ')).split(' '));
  // A street's words may be written as others of their sound ("chần hưng đạo"), in the heard reading (only there does
  // the search find a street by them).
  const meets = (w: string): boolean =>
    writtenWords.some((x) => wordMeets(x, w) || (opts.heard === true && soundsAlike(x, w)));
  const namedInPart = (p: number): boolean =>
    !opts.prefix &&
    places.kind[p] === PlaceKind.street &&
    !ALLEY_NAME.test(r.folded(places.name[p]!)) &&
    ![...namedPlace.names(p)].some(
      (id) =>
        id !== 0 &&
        streetNameKeys(r, id).some((k) => k.split(' ').every(meets) || writtenWords.includes(k.replace(/ /g, ''))),
    );
  // A kind of place, no number to name it ("Bệnh viện 175" is one) and nothing narrower than a province to say where
  // ("Hanoi post office", "nhà thuốc"): one of many of the kind, not the one meant.
  const oneOfMany =
    kindOnly && !q.terms.some((t) => t.numeric) && !anchor && !onStreet && (area === null || area.wards === null);
  const nameWords = nameWordsOf(q);
  const phrase = nameWords.includes(' ') ? nameWords : '';
  const inOrder = (p: number): boolean => phrase !== '' && ` ${r.folded(places.name[p]!)} `.includes(` ${phrase} `);
  // A place or house the words meet by part of its name and only part of its street's name ("dong khoi": Dòng Đức Bà
  // on Nam Kỳ Khởi Nghĩa; "Tran Hanoi": Bệnh viện Tim Hà Nội on Trần Hưng Đạo): a street is written from its first
  // word to its last (its number aside: "Đường số 2"), so those words name something else.
  const nameList = nameWords === '' ? [] : nameWords.split(' ');
  const metIn =
    (words: string[]) =>
    (x: string): boolean =>
      words.some((w) => wordMeets(x, w));
  const streetInPart = (p: number): boolean => {
    if (opts.prefix || nameList.length === 0 || places.kind[p]! >= PlaceKind.street || places.street.at(p) === 0)
      return false;
    const inName = metIn([...namedPlace.names(p)].flatMap((id) => (id === 0 ? [] : r.folded(id).split(' '))));
    const rest = nameList.filter((x) => !inName(x));
    const keys = streetNameKeys(r, places.street.at(p)).map((k) => k.split(' '));
    return (
      rest.length > 0 &&
      keys.some((ws) => rest.some(metIn(ws))) &&
      !keys.some((ws) => [ws[0]!, ws[ws.length - 1]!].every((w) => /^\d/.test(w) || rest.some((x) => wordMeets(x, w))))
    );
  };
  // Asked for a kind of place, a place whose name holds a written name word only among the kind's words it leads with
  // ("Ben Thanh bus station": "bến" in Bến xe Thạnh Lộc), nowhere else in its names, street or units: the word names
  // no part of it. (Without a kind written the word may be the kind's, shortened: "Viện 108".)
  const nameInKindWords = (p: number): boolean => {
    if (kinds.length === 0 || nameList.length === 0 || places.kind[p] !== PlaceKind.poi) return false;
    const own: string[] = [];
    const kindOwn: string[] = [];
    for (const id of namedPlace.names(p)) {
      if (id === 0) continue;
      const terms = wordsOfText(namedPlace.text(id));
      const end = leadingKind(terms.slice(0, KIND_WORDS_MAX))?.end ?? 0;
      const words = terms.map((w) => w.folded);
      kindOwn.push(...words.slice(0, end));
      own.push(...words.slice(end));
    }
    if (places.street.at(p) !== 0) own.push(...r.folded(places.street.at(p)).split(' '));
    for (const unit of r.admin.namesOf(places, p)) own.push(...fold(unit).split(' '));
    return nameList.some((x) => !metIn(own)(x) && metIn(kindOwn)(x));
  };
  // A name with words past the kind's it leads with ("Ga Sài Gòn"; not "Nhà thuốc").
  const hasNameBeyondKind = (p: number): boolean => {
    const name = r.folded(places.name[p]!);
    return withoutKindWords(name) !== name;
  };
  const leadsWithName = (p: number): boolean =>
    nameWords !== '' && ` ${withoutKindWords(r.folded(places.name[p]!))} `.startsWith(` ${nameWords} `);
  return hits
    .map((h) => {
      const called = calledSo(h.place);
      const inKindWords = nameInKindWords(h.place);
      return {
        region: r,
        place: h.place,
        score:
          h.score -
          (inKindWords ? NAME_IN_KIND_PENALTY : 0) +
          (inOrder(h.place) ? ORDER_BOOST : 0) +
          (called ? EXACT_NAME_BOOST : 0) +
          (leadsWithName(h.place) ? LEAD_BOOST : 0),
        calledSo: called,
        system,
        // Only partly what was asked: any answer to units that contradict each other ("chợ Bến Thành quận 5": Bến
        // Thành is a ward of Quận 1); a stand-in for a landmark the area may be named after, unless on a street of
        // the unit's name ("khách sạn phạm ngũ lão": a hotel on Phạm Ngũ Lão); a place beside the area named, unless
        // called by the unit's words ("Cầu Long Biên" stands at the edge of Long Biên); a house number written and not
        // held (a street, another house, a place named after the street), or an alley's.
        partial:
          contradicts ||
          (standIn && !onUnitStreet(h.place)) ||
          // Kinds only, but a place called exactly so by two of them ("Đại học Ngân hàng"), or by the kind and the
          // city's name ("Ga Sài Gòn"), is that place.
          (oneOfMany && !(called && (kinds.length >= 2 || hasNameBeyondKind(h.place)))) ||
          // A unit of another level named alike ("Quận Thủ Đức" asked, Phường Thủ Đức found): a part of it at most.
          (kindAsked >= PlaceKind.ward &&
            places.kind[h.place]! >= PlaceKind.ward &&
            places.kind[h.place] !== kindAsked) ||
          (h.loose && places.kind[h.place] === PlaceKind.poi) ||
          anywhere ||
          (nameHolds && !called) ||
          (beside(h.place) &&
            !(localUnit !== 0 && holdsInOrder(h.place, localUnit) && called) &&
            !onUnitStreet(h.place)) ||
          (bareAfterName &&
            places.kind[h.place] === PlaceKind.poi &&
            !holdsInOrder(h.place, unitInName) &&
            !onUnitStreet(h.place)) ||
          (written !== '' && houseOf(h.place) !== true) ||
          (alley !== '' && !holdsAlley(h.place)) ||
          (askedOffRoad && places.kind[h.place] === PlaceKind.street && namedAfter(h.place)) ||
          (!called && namedInPart(h.place)) ||
          (!called && streetInPart(h.place)) ||
          tierOff(h.place) ||
          inKindWords,
      };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, opts.limit);
}

/** Whether written word x meets a name's word w: as written, with the other of i and y, or one edit off. */
const wordMeets = (x: string, w: string): boolean =>
  x === w || x === otherIY(w) || (w.length > 2 && withinOneEdit(x, w));

/** Words a kind of place leads a name with, at most ("trường trung học phổ thông"). */
const KIND_WORDS_MAX = 5;

/** streetNameKeys of the region's strings, by string id, kept at first use. */
const nameKeys = new WeakMap<PlacesRegion, Map<number, string[]>>();

/**
 * The forms a street's name (string `id`) is asked by: its key, the key's numerals as digits ("3 tháng 2"), its
 * folded name past the type word (a street named by a kind of place: "Phố Nhà Thờ") and, for "Đường số 9", its
 * number. Cached.
 */
function streetNameKeys(r: PlacesRegion, id: number): string[] {
  let byId = nameKeys.get(r);
  if (!byId) nameKeys.set(r, (byId = new Map()));
  let keys = byId.get(id);
  if (!keys) {
    const text = r.region.strings.get(id);
    const key = streetKey(text);
    // "Đường 9" is how Đường số 9 is mostly written: its number alone asks for it too.
    const numbered = /^so (\d\w*)$/.exec(key)?.[1];
    byId.set(
      id,
      (keys = [key, numeralsAsDigits(key), withoutLeadingType(fold(text)), ...(numbered ? [numbered] : [])]),
    );
  }
  return keys;
}

/** Folded name `name` past the kind's words it leads with ("dh luat tp ho chi minh" → "luat tp ho chi minh"). */
function withoutKindWords(name: string): string {
  const words = name.split(' ');
  const tokens = words.slice(0, KIND_WORDS_MAX).map((w) => ({ folded: w, exact: w }));
  let end = 0;
  for (const span of categorySpans(tokens, 'leading')) if (span.start === end) end = span.end;
  return end < words.length ? words.slice(end).join(' ') : name;
}

/** The query's name words (numbers aside) in order, folded and space-joined. */
function nameWordsOf(q: PlaceQuery): string {
  return q.terms
    .filter((t) => t.role === 'name' && !t.numeric)
    .map((t) => t.folded)
    .join(' ');
}

/**
 * Folded `words` split into names of districts or provinces one after another ("da lat lam dong" → "da lat", "lam
 * dong"), or null when they are not such names.
 */
function unitsOnly(r: PlacesRegion, words: readonly string[]): string[] | null {
  const known = (k: string) => r.gazetteer?.('district', k) === true || r.gazetteer?.('province', k) === true;
  // splits[i]: words[0, i) split into known names, or null.
  const splits: (string[] | null)[] = [[]];
  for (let i = 1; i <= words.length; i++) {
    splits[i] = null;
    for (let k = 0; k < i && !splits[i]; k++) {
      const name = words.slice(k, i).join(' ');
      if (splits[k] && known(name)) splits[i] = [...splits[k]!, name];
    }
  }
  return splits[words.length] ?? null;
}

/** Whether place `p` lies in a district or province of each folded name of `units` (either system). */
function inUnits(r: PlacesRegion, p: number, units: readonly string[]): boolean {
  const a = r.admin.of(r.places, p);
  const names = [a.district, a.province, a.province2025].flatMap((u) => (u ? [nameKey(u.name)] : []));
  return units.every((k) => names.includes(k));
}

/** `mask` without its highest bit. */
function dropLast(mask: number): number {
  return mask === 0 ? 0 : mask & ~(1 << (31 - Math.clz32(mask)));
}
