/**
 * A typed query as the searcher reads it: its words, what each one is, and which of them a result must account for.
 *
 * Every word is looked up and scores, but only some are required (the precision rule):
 * - name words (what is neither a type word, an admin name, the city nor a filler) must all be matched by the place,
 *   exactly, as a prefix (the last word while typing) or within one typo;
 * - category words ("bệnh viện", "BV", "hospital", "cafe") must be accounted for too, either by the place's category
 *   or by the same words in its name;
 * - admin names (ward, district, province or city the address parser recognised) and house numbers rank but are not
 *   required, unless the query holds nothing else (then it asks for the smallest unit named); with only a category
 *   besides, they are first read as part of the name ("Chợ Bến Thành"), see `adminAsName`;
 * - type words ("Phường", "Phố", "Số") and fillers ("street", "near", "gần", "Việt Nam") only add to the score.
 */
import { addressTokens, ENGLISH_UNIT_WORDS } from '../text/abbreviations';
import { parseAddressTokens, type Gazetteer, type ParsedAddress } from '../text/address';
import { categorySpans, unfinishedCategoryRows, unfinishedPhrase } from '../text/category-match';
import { noRow, sameRows, type RowMask } from '../text/row-mask';
import { fold, tokens, type TextToken } from '../text/fold';
import { withoutContact } from '../text/pasted';
import { withoutQuestion } from '../text/question';
import { lostMarks } from '../text/syllable';
import { resolveAdmin, type AdminResolution } from '../../admin/resolve';
import type { AdminTable } from '../../admin/types';
import type { Term } from './terms';

/** At most this many words of a query are searched (masks are 31-bit). */
const MAX_QUERY_TERMS = 31;

/** What a query word is. */
type TermRole = 'name' | 'category' | 'admin' | 'number' | 'type' | 'filler';

/** A query word with its role and, for admin words, the part it names. */
export interface QueryTerm extends Term {
  role: TermRole;
  /** Which comma-separated part of the query it is in. */
  segment: number;
  part?: 'ward' | 'district' | 'province' | 'street' | 'house' | 'alley';
  /** A name word a place need not hold, though one that does ranks higher (markUnfinishedUnitName). */
  unrequired?: true;
}

/** A run of category words and the CATEGORIES rows it names. */
export interface QueryCategory {
  mask: number;
  rows: RowMask;
}

/** A parsed query. Masks have bit j for terms[j]. */
export interface PlaceQuery {
  terms: QueryTerm[];
  required: number;
  categories: QueryCategory[];
  /** Terms of the admin names, by the part they name. */
  adminMask: { ward: number; district: number; province: number };
  /** Terms of the street the parser found (empty when none). */
  streetMask: number;
  /** The admin units the text named, resolved in the region's table (null without one). */
  resolution: AdminResolution | null;
  /** The query names a numbered street ("Đường số 9"): its number is the street's, not a house's. */
  numberedStreet: boolean;
  /** The whole text as written, folded. */
  folded: string;
  /**
   * Terms of what the wanted place is near ("nhà thuốc gần phố Huế", "ATM near Bui Vien"): the words after a near
   * word, to its part's end; they name where to look, not the place (0 when none). See near.ts.
   */
  near: number;
  /**
   * A kind of place and admin names, nothing else ("Chợ Bến Thành", "Bảo tàng Hà Nội", "cafe Hoàn Kiếm"): the admin
   * words, which are first read as part of the name (then required); 0 for other queries.
   */
  adminAsName: number;
  parsed: ParsedAddress;
}

/** Words that only add to the score: English street and area words, prepositions. Folded. */
const FILLERS = new Set([
  'street',
  'st',
  'road',
  'rd',
  'avenue',
  'ave',
  'lane',
  'alley',
  'city',
  'province',
  'district',
  'ward',
  'vietnam',
  'vn',
  'near',
  'the',
  'of',
  'in',
  'at',
  'and',
]);
/** Vietnamese fillers count only as written with their diacritics ("tại", not the name "Tài"). */
const EXACT_FILLERS = new Set(['gần', 'tại', 'ở', 'và', 'cạnh', 'đối', 'diện', 'quanh', 'chỗ']);
/**
 * Words after which the query names what the place is near, not the place: exact ("chỗ": "Lê Duẩn chỗ Dinh Độc Lập",
 * the stretch at the palace; folded it is also "chợ"), or folded in unmarked queries.
 */
const NEAR_EXACT = new Set(['gần', 'cạnh', 'quanh', 'diện', 'chỗ']);
const NEAR_FOLDED = new Set(['near', 'around', 'gan', 'canh']);
/** "Việt Nam" at the end of an address. */
const COUNTRY = ['viet', 'nam'];

const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;

/** How an address may end after its postal code: the country, folded. */
const COUNTRY_TAILS = [COUNTRY.join(' '), COUNTRY.join(''), 'vn'];

/**
 * The text without a postal code at its end ("… TP.HCM 700000", "Hà Nội 100000, Việt Nam"; 5 digits since 2018, 6
 * before): the last number, after other words, followed by nothing but the country and punctuation.
 */
function withoutPostalCode(text: string): string {
  const letterOrDigit = (at: number): boolean => /[\p{L}\p{N}]/u.test(text[at] ?? ' ');
  const skipBack = (end: number): number => {
    while (end > 0 && !letterOrDigit(end - 1)) end--;
    return end;
  };
  let end = skipBack(text.length);
  const country = COUNTRY_TAILS.find(
    (w) => end >= w.length && fold(text.slice(end - w.length, end)) === w && !letterOrDigit(end - w.length - 1),
  );
  if (country) end = skipBack(end - country.length);
  let start = end;
  while (start > 0 && text[start - 1]! >= '0' && text[start - 1]! <= '9') start--;
  const digits = end - start;
  if ((digits !== 5 && digits !== 6) || letterOrDigit(start - 1) || skipBack(start) === 0) return text;
  return text.slice(0, start) + text.slice(end);
}

/** Options of buildQuery. */
export interface QueryOptions {
  /** Confirms admin names for the address parser (the region's gazetteer). */
  gazetteer?: Gazetteer;
  /** Whether folded words name a street of the region (see ParseOptions.isStreet). */
  isStreet?: (foldedName: string) => boolean;
  /** The region's admin units: admin names it does not resolve are read as name words. */
  table?: AdminTable | null;
  /** The units of the region's area: of several units bearing a name, those (see resolveAdmin). */
  area?: ReadonlySet<number>;
  /** House and alley numbers rank but are not required (forward geocoding); otherwise they are (autocomplete). */
  numbersOptional: boolean;
  /** Reads the text as its writer meant it before parsing: keyboard-off words, type-word typos (search/as-typed.ts). */
  readTyped?: (text: string) => string;
  /** The last word may be unfinished (autocomplete): after name words, it may begin a category word ("Bỏng hosp"). */
  lastIsPrefix?: boolean;
  /** Whether a folded word begins the name of a unit of the region's area (with lastIsPrefix). */
  beginsUnitName?: (start: string) => boolean;
}

/**
 * Whether a query asks only for a kind of place ("cây xăng", "atm", "nhà thuốc quận 3"): kind words, and nothing that
 * names a place, a street, a house or a place to be near.
 */
export function asksKindOnly(q: PlaceQuery): boolean {
  return (
    q.near === 0 &&
    q.terms.some((t) => t.role === 'category') &&
    !q.terms.some((t) => t.role === 'name' || t.role === 'number')
  );
}

/** Parses query text into a PlaceQuery. Never throws. */
export function buildQuery(text: string, opts: QueryOptions): PlaceQuery {
  const clean = withoutQuestion(withoutContact(text));
  const toks = addressTokens(withoutPostalCode(opts.readTyped ? opts.readTyped(clean) : clean));
  const { parsed, roleOf, asWords } = parseAddressTokens(toks, { isKnown: opts.gazetteer, isStreet: opts.isStreet });
  const terms: QueryTerm[] = [];
  // Whether the writer typed diacritics (in their own words: type words and nicknames come out canonical, marked).
  let writtenMarked = false;
  let segment = 0;
  for (const t of toks) {
    if (t.kind === 'break') {
      segment++;
      continue;
    }
    const part = roleOf.get(t);
    // The type word of a house or alley number ("ngõ 1 Bà Triệu") says what the number is, not a word of a name: it
    // would rank a street named "Ngõ Bà Triệu" over Phố Bà Triệu, whose alley 1 is asked for.
    if (t.kind === 'type' && (part === 'house' || part === 'alley')) continue;
    const role: TermRole =
      t.kind === 'type' && !asWords.has(t)
        ? 'type'
        : t.kind === 'place' || part === 'ward' || part === 'district' || part === 'province'
          ? 'admin'
          : 'name';
    // A type word read as a word of a name is as the writer typed it (bare: "ngo" of "18 ngo quyen", not "ngõ").
    const written = asWords.has(t) && t.bare ? t.folded : t.text;
    for (const word of written.split(NON_WORD)) {
      if (word === '') continue;
      const exact = word.normalize('NFC').toLowerCase();
      const folded = fold(exact);
      if (folded === '') continue; // a stray combining mark
      if (t.kind === 'word' && exact !== folded) writtenMarked = true;
      const numeric = folded.charCodeAt(0) <= 57;
      const filler = role === 'name' && (FILLERS.has(folded) || EXACT_FILLERS.has(exact));
      terms.push({
        segment,
        folded,
        exact,
        numeric,
        marked: exact !== folded,
        optional: role === 'type' || filler,
        role: filler ? 'filler' : numeric && role === 'name' ? 'number' : role,
        part:
          part === 'ward' ||
          part === 'district' ||
          part === 'province' ||
          part === 'street' ||
          part === 'house' ||
          part === 'alley'
            ? part
            : undefined,
      });
    }
    // A nickname read as its place ("Sài Gòn", "TPHCM" → Hồ Chí Minh) also ranks by the words as written: a place
    // whose name holds them ("Trường Đại học Sài Gòn", "Bảo tàng TPHCM") is nearer to the query.
    if (t.kind === 'place' && t.written !== undefined && fold(t.written) !== t.folded)
      for (const word of t.written.split(NON_WORD)) {
        const folded = fold(word);
        if (folded !== '')
          terms.push({
            segment,
            folded,
            exact: word,
            numeric: false,
            marked: word !== folded,
            optional: true,
            role: 'filler',
          });
      }
  }
  if (terms.length > MAX_QUERY_TERMS) terms.length = MAX_QUERY_TERMS;
  const units = {
    province: parsed.province,
    district: parsed.district,
    ward: parsed.ward,
    districtType: parsed.types.district,
    wardType: parsed.types.ward,
  };
  let resolution = opts.table ? resolveAdmin(opts.table, units, opts.area) : null;
  // A unit's name written with other marks names another place ("vòng xoay Phù Đổng" is not in Xã Phú Đông): its
  // words are name words, and the units are resolved without it.
  const otherwise = resolution && opts.table ? partsSpeltOtherwise(terms, resolution, opts.table) : [];
  if (otherwise.length > 0) {
    for (const part of otherwise) units[part] = undefined;
    for (const t of terms) if (t.role === 'admin' && otherwise.includes(t.part as AdminPart)) t.role = 'name';
    resolution = resolveAdmin(opts.table!, units, opts.area);
  }
  // A part written as an admin name that names no unit of the region ("tỉnh Bắc Gianng", "Hồ Chí Minh" in a Hà Nội
  // pack) explains nothing: its words are name words, to be matched. (A name several units carry still names units.)
  const ambiguous = (level: 'ward' | 'district' | 'province') => resolution?.ambiguous.includes(level) === true;
  const resolved = {
    ward: resolution?.legacy.ward !== undefined || resolution?.v2025.ward !== undefined || ambiguous('ward'),
    district: resolution?.legacy.district !== undefined || ambiguous('district'),
    province:
      resolution?.legacy.province !== undefined || resolution?.v2025.province !== undefined || ambiguous('province'),
  };
  for (const t of terms)
    if (t.role === 'admin' && t.part !== undefined && t.part in resolved && !resolved[t.part as keyof typeof resolved])
      t.role = 'name';
  if (resolution && opts.table) spellAsUnits(terms, resolution, opts.table);
  // Written with marks, a word without any is written so ("Ga Hà Nội" is not "gà"), unless some such word shows
  // that the writer dropped marks ("nhà thờ duc ba": "duc" cannot be written without its tone).
  const strict = writtenMarked && !terms.some((t) => !t.marked && !t.numeric && lostMarks(t.folded));
  if (strict) for (const t of terms) t.strict = !t.marked && !t.numeric;
  const near = markNear(terms, writtenMarked);
  if (!writtenMarked) markBareAt(terms);
  markCampus(terms);
  markAdminFillers(terms);
  markKindFillers(terms);
  markCountry(terms);
  if (parsed.house === undefined) markBuildingWords(terms);
  // The words of a street written after a house or alley number, or with a street type word, name the street ("ngõ 12
  // Chùa Bộc", "88 Nhà Thờ"): no kind of place. (A number after the words is a name's: "BV Nhi Đồng 2".)
  const firstStreet = terms.findIndex((t) => t.part === 'street');
  const streetNamed =
    parsed.types.street !== undefined ||
    terms.slice(0, Math.max(0, firstStreet)).some((t) => t.part === 'house' || t.part === 'alley');
  const categories = markCategories(terms, (t) => streetNamed && t.part === 'street');
  if (opts.lastIsPrefix) {
    markUnfinishedCategory(terms, categories);
    markUnfinishedUnitType(terms);
    if (opts.beginsUnitName) markUnfinishedUnitName(terms, opts.beginsUnitName);
  }

  // A street written with its type word and named by a number alone, or "số" and a number: a numbered street.
  const streetWords = terms.filter((t) => t.part === 'street' && t.role !== 'type');
  const numberedStreet =
    parsed.types.street !== undefined &&
    streetWords.some((t) => t.numeric) &&
    streetWords.every((t) => t.numeric || t.folded === 'so');
  let required = 0;
  const adminMask = { ward: 0, district: 0, province: 0 };
  let streetMask = 0;
  terms.forEach((t, j) => {
    const bit = 1 << j;
    if ((near & bit) !== 0) return;
    // The number of a numbered street names it ("Đường số 9", "đường 9A"): required, unlike a house number.
    const number = t.role === 'number' && (!opts.numbersOptional || numberedStreet);
    if ((t.role === 'name' && !t.unrequired) || t.role === 'category' || number) required |= bit;
    if (t.role === 'admin' && (t.part === 'ward' || t.part === 'district' || t.part === 'province'))
      adminMask[t.part] |= bit;
    if (t.part === 'street' && t.role !== 'type') streetMask |= bit;
  });
  // Without name words, a house or alley number is what names the place ("Ngõ 88, Phường Tây Hồ").
  if (required === 0) terms.forEach((t, j) => t.role === 'number' && (required |= 1 << j));
  // A query of admin names only asks for the unit itself: the smallest one named is what a result must be called
  // (the larger ones around it rank).
  if (required === 0) required = adminMask.ward || adminMask.district || adminMask.province;
  const adminAsName =
    categories.length > 0 && !terms.some((t, j) => t.role === 'name' && (near & (1 << j)) === 0)
      ? adminAfterCategory(terms) & ~near
      : 0;
  return {
    terms,
    required,
    categories,
    adminMask,
    streetMask,
    adminAsName,
    resolution,
    parsed,
    near,
    numberedStreet,
    folded: fold(text),
  };
}

type AdminPart = 'ward' | 'district' | 'province';

/**
 * An admin part the text wrote with marks, against the units it resolved to: its terms (`at`, in order) and the words
 * of each unit (legacy, then 2025) whose name folds to the words written; null when the part carries no marks.
 */
function unitsAsWritten(
  terms: readonly QueryTerm[],
  part: AdminPart,
  resolution: AdminResolution,
  table: AdminTable,
): { at: number[]; units: TextToken[][] } | null {
  const at = terms.flatMap((t, j) => (t.role === 'admin' && t.part === part && !t.numeric ? [j] : []));
  if (!at.some((j) => terms[j]!.marked)) return null;
  const written = at.map((j) => terms[j]!.folded).join(' ');
  const units = [resolution.legacy[part], part === 'district' ? undefined : resolution.v2025[part]].flatMap((id) => {
    const words = tokens((id === undefined ? undefined : table.byId.get(id)?.name) ?? '');
    return words.map((w) => w.folded).join(' ') === written ? [words] : [];
  });
  return { at, units };
}

/**
 * The admin parts the text wrote with marks of which no word is the unit's word as written ("Phù Đổng" for Xã Phú
 * Đông; "Thống Nhât" still names Thống Nhất and "Long Biện" Long Biên, a word agreeing). A part without marks, or whose
 * words are not the unit's name as folded, is left as resolved.
 */
function partsSpeltOtherwise(terms: readonly QueryTerm[], resolution: AdminResolution, table: AdminTable): AdminPart[] {
  return (['ward', 'district', 'province'] as const).filter((part) => {
    const found = unitsAsWritten(terms, part, resolution, table);
    return (
      found !== null &&
      found.units.length > 0 &&
      !found.units.some((words) => found.at.some((j, k) => terms[j]!.exact === words[k]!.exact))
    );
  });
}

/**
 * Admin words the text wrote with marks and that name a unit it resolved to are that unit's words, spelt as the unit
 * is ("Bệnh viện Thống Nhât": the unit Thống Nhất), so that a place named after the unit is found by the name as
 * written too (see adminAsName), as the unit itself was.
 */
function spellAsUnits(terms: QueryTerm[], resolution: AdminResolution, table: AdminTable): void {
  for (const part of ['ward', 'district', 'province'] as const) {
    const found = unitsAsWritten(terms, part, resolution, table);
    const words = found?.units[0];
    if (!found || !words) continue;
    found.at.forEach((j, k) => {
      const exact = words[k]!.exact;
      Object.assign(terms[j]!, { exact, marked: exact !== terms[j]!.folded });
    });
  }
}

/**
 * The admin words that directly follow category words in the same part of the query ("Bệnh viện Thanh Nhàn",
 * "Công an phường Văn Miếu", "Chợ Bến Thành"), or, in English order, directly precede the category words that end
 * their part ("Ben Thanh Market", "Ho Chi Minh Mausoleum"): the name of the place more likely than where it is.
 */
function adminAfterCategory(terms: QueryTerm[]): number {
  let mask = 0;
  // Whether term k is a category word or already taken: what an admin word may follow (type words may sit between).
  const leads = (k: number): boolean => terms[k]!.role === 'category' || (mask & (1 << k)) !== 0;
  for (let j = 1; j < terms.length; j++) {
    const t = terms[j]!;
    // A unit known by its number ("Quận 1") names no place: "cây xăng Quận 1" is not "CHXD số 1".
    if (t.role !== 'admin' || t.numeric) continue;
    let k = j - 1;
    while (k >= 0 && terms[k]!.role === 'type' && terms[k]!.segment === t.segment) k--;
    // A type word after the name's admin words starts another unit ("Chợ Bến Thành TP.HCM": the city is where).
    const typed = k < j - 1;
    if (k >= 0 && terms[k]!.segment === t.segment && (typed ? terms[k]!.role === 'category' : leads(k))) mask |= 1 << j;
  }
  // English order: a run of admin words, then category words to the end of the part.
  const sameRole = (k: number, role: TermRole, segment: number): boolean =>
    terms[k]!.role === role && terms[k]!.segment === segment;
  for (let j = 0; j < terms.length; j++) {
    const t = terms[j]!;
    if (t.role !== 'admin' || t.numeric) continue;
    let k = j + 1;
    while (k < terms.length && sameRole(k, 'admin', t.segment) && !terms[k]!.numeric) k++;
    let end = k;
    while (end < terms.length && sameRole(end, 'category', t.segment)) end++;
    if (end > k && (end === terms.length || terms[end]!.segment !== t.segment)) mask |= 1 << j;
  }
  return mask;
}

/**
 * The terms after the first near word that has something before it and after it in its part ("nhà thuốc gần phố
 * Huế": "phố Huế"), as a mask; the near word becomes a filler. "gan"/"canh" count only in queries written without
 * marks (else they are the words "gan", "canh" of a name).
 */
function markNear(terms: QueryTerm[], writtenMarked: boolean): number {
  for (let j = 1; j < terms.length - 1; j++) {
    const t = terms[j]!;
    const isNear = NEAR_EXACT.has(t.exact) || (NEAR_FOLDED.has(t.folded) && (!writtenMarked || t.folded === 'near'));
    if (!isNear || t.role === 'admin' || terms[j - 1]!.segment !== t.segment || terms[j + 1]!.segment !== t.segment)
      continue;
    // Something to look for must come before it ("quán ăn gần chợ"; "gần chợ" alone asks for the market).
    if (!terms.slice(0, j).some((b) => b.role === 'name' || b.role === 'number')) continue;
    Object.assign(t, { role: 'filler', optional: true });
    let mask = 0;
    for (let k = j + 1; k < terms.length && terms[k]!.segment === t.segment; k++) mask |= 1 << k;
    return mask;
  }
  return 0;
}

/**
 * English unit words follow the unit's name ("Hanoi city", "Ba Dinh district"; "District 1" is a type word): there
 * they add nothing; anywhere else they are part of a name ("Royal City", "Royal City Nguyễn Trãi"): name words, to be
 * matched.
 */
function markAdminFillers(terms: QueryTerm[]): void {
  terms.forEach((t, j) => {
    if (t.role !== 'filler' || !ENGLISH_UNIT_WORDS.has(t.folded)) return;
    const before = terms[j - 1];
    if (before?.role !== 'admin' || before.segment !== t.segment) Object.assign(t, { role: 'name', optional: false });
  });
}

/**
 * An English filler word that begins a kind's words written with their marks, no name's words after them ("in ấn
 * quận 10": printing), is that kind's word, to be read with them (markCategories): read as "in" it left "ấn" to
 * match names ("An Đông"). Unmarked, or before a name ("khách sạn in Ấn Quang"), the words may as well be English
 * ("hotel in an phu"): the filler stays.
 */
function markKindFillers(terms: QueryTerm[]): void {
  terms.forEach((t, j) => {
    if (t.role !== 'filler' || !FILLERS.has(t.folded)) return;
    let k = j + 1;
    while (k < terms.length && terms[k]!.role === 'name' && terms[k]!.segment === t.segment) k++;
    const span = categorySpans(terms.slice(j, k), false, false)[0];
    if (span?.start === 0 && span.end >= 2 && j + span.end === k && terms.slice(j + 1, k).some((w) => w.marked))
      Object.assign(t, { role: 'name', optional: false });
  });
}

/** "Việt Nam" / "Viet Nam" written as the last two name words is the country: a filler. */
function markCountry(terms: QueryTerm[]): void {
  const n = terms.length;
  if (n >= 3 && terms[n - 2]!.folded === COUNTRY[0] && terms[n - 1]!.folded === COUNTRY[1]) {
    for (const t of terms.slice(n - 2)) if (t.role === 'name') Object.assign(t, { role: 'filler', optional: true });
  }
}

/**
 * Words that call a named place a building ("tòa nhà", "cao ốc", "chung cư", "căn hộ") or a shop ("cửa hàng"), folded;
 * pairs of words.
 */
const BUILDING_WORDS = ['toa nha', 'cao oc', 'chung cu', 'can ho', 'cua hang'];

/**
 * "Tòa nhà Landmark 81", "cao ốc Vạn Đô", "chung cư Carina Plaza", "cửa hàng Circle K": the words saying it is a
 * building or a shop, before a name, add nothing a place must hold (buildings are mapped as offices, shops,
 * apartments, residential areas, construction sites, shops by their brand's name, with or without the words):
 * fillers. Not with a
 * house number: there the address says where, and the words keep a namesake elsewhere from standing in for it ("Tòa
 * nhà Phương Nam 157 Võ Thị Sáu" is the building at that address, not the Phương Nam bank).
 */
function markBuildingWords(terms: QueryTerm[]): void {
  for (let j = 0; j + 2 < terms.length; j++) {
    const [a, b, next] = [terms[j]!, terms[j + 1]!, terms[j + 2]!];
    if (
      a.role === 'name' &&
      b.role === 'name' &&
      next.role === 'name' &&
      BUILDING_WORDS.includes(`${a.folded} ${b.folded}`) &&
      // Not the start of a kind's longer words ("cửa hàng tiện lợi": a convenience store).
      !categorySpans(terms.slice(j), false, false).some((span) => span.start === 0 && span.end > 2)
    )
      for (const t of [a, b]) Object.assign(t, { role: 'filler', optional: true });
  }
}

/**
 * "cơ sở" (a campus, a branch) after a name and before words that say where ("bv k cơ sở quán sứ"): a filler, as
 * "chi nhánh" is a word of names. Before a number it names the campus ("ĐH Bách Khoa cơ sở 2": stored names hold it).
 */
function markCampus(terms: QueryTerm[]): void {
  for (let j = 1; j + 2 < terms.length; j++) {
    const [a, b, next] = [terms[j]!, terms[j + 1]!, terms[j + 2]!];
    if (a.role === 'name' && b.role === 'name' && a.folded === 'co' && b.folded === 'so' && !next.numeric)
      for (const t of [a, b]) Object.assign(t, { role: 'filler', optional: true });
  }
}

/** "ở", "tại" written without marks, folded: where the place is follows (markBareAt). */
const AT_BARE = new Set(['o', 'tai']);

/**
 * In a text without marks, "o" or "tai" between words of the place and a unit ("chua o quan 6", "atm tai phuong 5")
 * is "ở", "tại": a filler. (Elsewhere they are a name's words: "O Cho Dua", "Tai Loc".)
 */
function markBareAt(terms: QueryTerm[]): void {
  terms.forEach((t, j) => {
    const next = terms[j + 1];
    if (
      j > 0 &&
      t.role === 'name' &&
      AT_BARE.has(t.folded) &&
      next !== undefined &&
      (next.role === 'type' || next.role === 'admin') &&
      next.part !== undefined &&
      next.part !== 'street'
    )
      Object.assign(t, { role: 'filler', optional: true });
  });
}

/** Unit type words, folded and as written, whose start a writer may have stopped at (markUnfinishedUnitType). */
const UNIT_TYPES = ['phuong', 'quan', 'huyen'];
const UNIT_TYPES_MARKED = ['phường', 'quận', 'huyện'];
/**
 * Fewest letters of such a start that are read as it: shorter ones begin too many name words ("Phú", "Quang"); with
 * its mark written, three ("quậ").
 */
const UNIT_TYPE_START_MIN = 4;
const UNIT_TYPE_MARKED_START_MIN = 3;

/**
 * The last word, unfinished, after two words or more of a name, a street or units: when it begins or is a unit's type
 * word ("212 Phan Xich Long phuon", "Chợ Bến Thành quậ", "Chùa Cát Linh, phường"), the writer is about to say where,
 * not more of the name: it is optional (a place whose words it begins still meets it).
 */
function markUnfinishedUnitType(terms: QueryTerm[]): void {
  const last = terms[terms.length - 1];
  if (!last || last.role !== 'name') return;
  const begins = (types: readonly string[], start: string, min: number) =>
    start.length >= min && types.some((u) => u.startsWith(start));
  const written = last.exact.toLowerCase();
  if (
    !begins(UNIT_TYPES, last.folded, UNIT_TYPE_START_MIN) &&
    !(last.marked && begins(UNIT_TYPES_MARKED, written, UNIT_TYPE_MARKED_START_MIN))
  )
    return;
  if (terms.filter((t) => t.role === 'name' || t.role === 'admin').length < 3) return;
  Object.assign(last, { role: 'filler', optional: true });
}

/** Words that say where, whose start a writer may have stopped at (markUnfinishedUnitName), folded. */
const WHERE_WORDS = [...UNIT_TYPES, 'district', 'ward'];

/**
 * The last word, unfinished, after a word of a name or kind: when it begins the name of a unit of the region's area or
 * a unit's type word ("SC VivoCity Phú", "benh vien tam anh l", "FV Hospital Q": Phú Mỹ, Long Biên, Quận), the writer
 * may be saying where: a place need not hold it, though one whose words it begins ranks above those whose words it
 * does not.
 */
function markUnfinishedUnitName(terms: QueryTerm[], beginsUnitName: (start: string) => boolean): void {
  const last = terms[terms.length - 1];
  if (!last || last.role !== 'name' || last.numeric) return;
  const start = last.folded;
  if (!beginsUnitName(start) && !WHERE_WORDS.some((w) => w.length > start.length && w.startsWith(start))) return;
  if (!terms.some((t) => t !== last && (t.role === 'name' || t.role === 'category'))) return;
  last.unrequired = true;
}

/**
 * The last word, unfinished, after other name words: when it goes on a kind's words that the name words right before
 * it begin ("Mien Tay bus s": bus station, bus stop), those words and it are that kind's, else when it begins a
 * category word ("National Burn Hosp"), it is that category's word; either way met by the place's kind or by name
 * words (as any unfinished word is).
 */
function markUnfinishedCategory(terms: QueryTerm[], categories: QueryCategory[]): void {
  const j = terms.length - 1;
  const last = terms[j];
  if (!last || last.role !== 'name') return;
  const named = (from: number) => terms.slice(from, j + 1).every((t) => t.role === 'name');
  const afterName = (from: number) => terms.some((t, k) => k < from && t.role === 'name');
  const phrase = unfinishedPhrase(terms);
  const from = phrase ? j + 1 - phrase.length : -1;
  const [start, rows] =
    phrase && named(from) && afterName(from) ? [from, phrase.rows] : [j, unfinishedCategoryRows(last)];
  if (noRow(rows) || !afterName(start)) return;
  let mask = 0;
  for (let k = start; k <= j; k++) {
    terms[k]!.role = 'category';
    mask |= 1 << k;
  }
  categories.push({ mask, rows });
}

/**
 * Marks category words among the name words (runs of adjacent name words, but those `named` keeps as names) and
 * returns their spans. A number in a run belongs to it when a kind's form ends with it ("trường cấp 1 Trường Sơn" is
 * the primary school Trường Sơn); otherwise it stays a number, between runs.
 */
function markCategories(terms: QueryTerm[], named: (t: QueryTerm) => boolean): QueryCategory[] {
  const out: QueryCategory[] = [];
  const open = (t: QueryTerm): boolean => t.role === 'name' && !named(t);
  let j = 0;
  while (j < terms.length) {
    if (!open(terms[j]!)) {
      j++;
      continue;
    }
    let k = j;
    for (;;) {
      while (k < terms.length && open(terms[k]!)) k++;
      const spelt =
        terms[k]?.role === 'number' &&
        categorySpans(terms.slice(j, k + 1), true).some((span) => span.end === k + 1 - j);
      if (!spelt) break;
      k++;
    }
    const spans = categorySpans(terms.slice(j, k), true);
    // A word that is a kind only leading a name, then name words and another kind's words, leads the name of that other
    // kind ("Chợ Rẫy bệnh viện" is Bệnh viện Chợ Rẫy, no market); right before another kind it is that kind's
    // ("Trường THPT X").
    const [first, second] = spans;
    if (first?.leading && second && second.start > first.end && !sameRows(second.rows, first.rows)) spans.shift();
    for (const span of spans) {
      let mask = 0;
      for (let m = j + span.start; m < j + span.end; m++) {
        terms[m]!.role = 'category';
        mask |= 1 << m;
      }
      out.push({ mask, rows: span.rows });
    }
    j = k;
  }
  return out;
}
