/**
 * The abbreviation / variant table for Vietnamese addresses, and the tokenizer that turns written forms into
 * canonical type words and place names. No Node imports.
 *
 * How the table is read:
 * - `forms` are folded (see fold.ts) and may span several words ("thanh pho", "ho chi minh").
 * - `strict` forms (places) count only when written with diacritics: "ĐN" is Đà Nẵng, "DN" is not.
 * - `exact` (optional) lists the accented spellings a full word must have when the written word carries
 *   diacritics. "xã" is the type word, "Phùng Xá" is a name: both fold to "xa", only the first is a type.
 *   A word written without any diacritic ("xa") is accepted (the writer dropped all accents).
 * - `short` forms are abbreviations of one to three letters ("q", "p", "h", "x", "d", "ng", "ngh"). They count
 *   only when written with a dot ("Q.", "Ng."), or for Quận/Phường right before a number ("Q1", "P 12"), so a
 *   letter inside a name ("Đường D2") is not taken as a type word.
 * - "H." is ambiguous: Hẻm before a number ("H. 51"), Huyện before a name ("H. Củ Chi"); see `classify`.
 */
import { fold, normalize } from './fold';
import { isBareSyllable } from './syllable';
import { categorySpans, type MatchWord } from './category-match';
import { houseNumberEnd } from './house-number.js';
import { WAYS_WORD } from './junction-ways.js';

/** What a type word introduces. `city` (Thành phố) may head a province or a district-level city. */
export type TypeRole = 'city' | 'province' | 'district' | 'ward' | 'street' | 'alley' | 'suballey' | 'house';

/** One row of the table: a type word with its canonical spelling. */
interface TypeWordEntry {
  canonical: string;
  role: TypeRole;
  forms: string[];
  short?: string[];
  /** Short forms also count undotted right before a number ("Q1", "P 12"). */
  beforeNumber?: boolean;
  exact?: string[];
  /**
   * Forms (lower case, as written) that name the type after their name, last in its part: English order ("Ba Dinh
   * district", "Le Loi street") or a word written as it came ("Lê Lợi đường"). One not among `forms` names it only so:
   * before a name it is another word ("street food").
   */
  after?: string[];
}

/** One row of the place table: a well-known place written in many ways, and the type word it implies. */
export interface PlaceEntry {
  canonical: string;
  role: 'province';
  /** The type word written inside some forms ("TPHCM" = Thành phố + HCM). */
  impliedType: string;
  forms: string[];
  /** Forms that already contain the type word. */
  typedForms?: string[];
  /** Forms that count only when written with their diacritics ("ĐN", not "DN"). */
  strict?: string[];
}

/** Type words. Order does not matter: matching takes the longest form. */
const TYPE_WORDS: readonly TypeWordEntry[] = [
  { canonical: 'Thành phố', role: 'city', forms: ['thanh pho', 'tp'] },
  { canonical: 'Tỉnh', role: 'province', forms: ['tinh'], exact: ['tỉnh'] },
  {
    canonical: 'Quận',
    role: 'district',
    forms: ['quan', 'district'],
    short: ['q'],
    beforeNumber: true,
    exact: ['quận'],
    after: ['district'],
  },
  { canonical: 'Huyện', role: 'district', forms: ['huyen'], short: ['h'], exact: ['huyện'] },
  { canonical: 'Thị xã', role: 'district', forms: ['thi xa', 'tx'], exact: ['thị xã', 'tx'] },
  {
    canonical: 'Phường',
    role: 'ward',
    forms: ['phuong', 'ward'],
    // "F.17", "F17": the French-era letter people in Hồ Chí Minh City still write, before a number only.
    short: ['p', 'ph', 'f'],
    beforeNumber: true,
    exact: ['phường'],
    after: ['ward'],
  },
  { canonical: 'Xã', role: 'ward', forms: ['xa', 'commune'], short: ['x'], exact: ['xã'], after: ['commune'] },
  { canonical: 'Thị trấn', role: 'ward', forms: ['thi tran', 'tt'], exact: ['thị trấn', 'tt'] },
  { canonical: 'Đặc khu', role: 'ward', forms: ['dac khu'], exact: ['đặc khu'] },
  {
    canonical: 'Đường',
    role: 'street',
    forms: ['duong'],
    short: ['d'],
    exact: ['đường'],
    // "đường" after its name too; "Đường Thành", "Phố Đường Thành" are a street of that name.
    after: ['street', 'road', 'đường'],
  },
  { canonical: 'Phố', role: 'street', forms: ['pho'], exact: ['phố'] },
  { canonical: 'Đại lộ', role: 'street', forms: ['dai lo'], exact: ['đại lộ'] },
  { canonical: 'Ngõ', role: 'alley', forms: ['ngo'], short: ['ng'], exact: ['ngõ'] },
  { canonical: 'Hẻm', role: 'alley', forms: ['hem'], exact: ['hẻm'] },
  { canonical: 'Kiệt', role: 'alley', forms: ['kiet'], exact: ['kiệt'] },
  { canonical: 'Ngách', role: 'suballey', forms: ['ngach'], short: ['ngh'], exact: ['ngách'] },
  { canonical: 'Số', role: 'house', forms: ['so nha', 'so'], exact: ['số nhà', 'số'] },
];

/** Places common enough to have nicknames and abbreviations; all are province-level cities. */
export const PLACES: readonly PlaceEntry[] = [
  { canonical: 'Hà Nội', role: 'province', impliedType: 'Thành phố', forms: ['ha noi', 'hn', 'hanoi'] },
  {
    canonical: 'Hồ Chí Minh',
    role: 'province',
    impliedType: 'Thành phố',
    forms: ['ho chi minh', 'hcm', 'tphcm', 'hcmc', 'sai gon', 'saigon', 'sg', 'hochiminh'],
    typedForms: ['tphcm', 'hcmc'],
  },
  // "DN" without the stroke is also Đồng Nai and "doanh nghiệp": only the written "ĐN" counts.
  { canonical: 'Đà Nẵng', role: 'province', impliedType: 'Thành phố', forms: ['da nang', 'dn'], strict: ['dn'] },
];

/**
 * Abbreviations of words inside names ("BV Răng Hàm Mặt TW", "BVĐK Hồng Ngọc"), read as the words they stand for.
 * Only letter groups that are not Vietnamese words themselves, or (`capitals`) that are only in capitals beside
 * words that are not: "TƯ" in "BV Mắt TƯ" is Trung ương, "tư" the numeral ("ngã tư").
 */
const NAME_WORDS: ReadonlyArray<{ canonical: string; forms: string[]; capitals?: string[]; leading?: string[] }> = [
  { canonical: 'Trung ương', forms: ['tw'], capitals: ['TƯ'] },
  { canonical: 'Đa khoa', forms: ['dk'] },
  { canonical: 'Quốc tế', forms: ['qt'] },
  { canonical: 'Quốc lộ', forms: ['ql'] },
  { canonical: 'Tỉnh lộ', forms: ['tl'] },
  // "CA phường Bến Nghé" is the ward's police; "ca" is also a fish ("Chả Cá"), a song and a shift.
  { canonical: 'Công an', forms: [], capitals: ['CA'] },
  // `leading`: read so only leading a part of the address, before a name ("CC Sunrise City" is chung cư Sunrise City;
  // elsewhere "CC" is as likely a name's own letters).
  { canonical: 'chung cư', forms: [], leading: ['cc'] },
];
const NAME_WORD_INDEX = new Map<string, string>();
const CAPITALS_INDEX = new Map<string, string>();
const LEADING_NAME_WORDS = new Map<string, string>();
for (const w of NAME_WORDS) {
  for (const f of w.forms) NAME_WORD_INDEX.set(f, w.canonical);
  for (const c of w.capitals ?? []) CAPITALS_INDEX.set(c, w.canonical);
  for (const f of w.leading ?? []) LEADING_NAME_WORDS.set(f, w.canonical);
}

/** The "H." ambiguity's second reading. */
const HEM: TypeWordEntry = TYPE_WORDS.find((t) => t.canonical === 'Hẻm')!;

/** A token of an address. `text` is the canonical spelling for types and places, else as written (NFC). */
export interface AddressToken {
  kind: 'type' | 'place' | 'number' | 'word' | 'break';
  text: string;
  folded: string;
  /** For `type` tokens: what the type word introduces. */
  role?: TypeRole;
  /** For `place` tokens: the type word the place implies ("Thành phố"). */
  impliedType?: string;
  /**
   * For `type` tokens: written bare — a whole word without its marks ("quan", "ngo") or a letter without its dot ("q
   * hai ba trung") — so it may as well be a word of a name ("43 quan su" is Quán Sứ, "18 ngo quyen" Ngô Quyền).
   */
  bare?: boolean;
  /**
   * For `place` tokens: the words as written ("sài gòn", "tphcm"), NFC lower case; for `type` tokens of a short form,
   * its letters folded ("p").
   */
  written?: string;
}

/** A token before type words and places are recognised (see {@link lex}). */
export interface RawToken {
  kind: 'word' | 'number' | 'break';
  text: string;
  folded: string;
  exact: string;
  dotted: boolean;
  /** The next token follows with no space ("Q1"). */
  glued: boolean;
}

/**
 * Every token but numbers, at one position: a word (letters and marks, apostrophes inside: "N'Trang"), breaks, a dot,
 * white space, or any other single character.
 */
const OTHER_TOKEN = /([\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*)|([,;\n|]+)|(\.)|\s+|./suy;

/**
 * Splits raw text into words, numbers (house numbers as written: 12, 12A, 12/3A, 43/91, 12B-14) and segment
 * breaks (comma, semicolon, newline, |).
 */
export function lex(s: string): RawToken[] {
  // Join dotted initials first so "T.P." and "T.X." read as "TP." and "TX.".
  const text = s.normalize('NFC').replace(/(?<![\p{L}\p{M}])(\p{L})\.(\p{L})\.?(?![\p{L}\p{M}])/gu, '$1$2.');
  const out: RawToken[] = [];
  let lastEnd = -1; // end offset of the last word/number token, to see "Q1" (glued) apart from "Q 1"
  for (let at = 0; at < text.length;) {
    let num: string | undefined, word: string | undefined, brk: string | undefined, dot: string | undefined;
    let all: string;
    const c = text.charCodeAt(at);
    if (c >= 48 && c <= 57) {
      all = num = text.slice(at, houseNumberEnd(text, at));
    } else {
      // Sticky: matches at `at` exactly (every character matches some branch), so no start position is retried.
      OTHER_TOKEN.lastIndex = at;
      const m = OTHER_TOKEN.exec(text)!;
      [all, word, brk, dot] = m as unknown as [string, string?, string?, string?];
    }
    const start = at;
    at += all.length;
    const prev = out[out.length - 1];
    if (num !== undefined || word !== undefined) {
      if (prev && prev.kind !== 'break' && lastEnd === start) prev.glued = true;
      out.push(
        num !== undefined
          ? { kind: 'number', text: all, folded: all.toLowerCase(), exact: all, dotted: false, glued: false }
          : { kind: 'word', text: all, folded: fold(all), exact: normalize(all), dotted: false, glued: false },
      );
      lastEnd = at;
    } else if (brk !== undefined) {
      if (prev && prev.kind !== 'break')
        out.push({ kind: 'break', text: ',', folded: '', exact: '', dotted: false, glued: false });
    } else if (dot !== undefined && prev && prev.kind === 'word' && lastEnd === start) {
      prev.dotted = true;
    }
  }
  while (out.length > 0 && out[out.length - 1]!.kind === 'break') out.pop();
  return out;
}

/** Whether an accented written word is one of the entry's accepted spellings. */
function exactOk(entry: { exact?: string[]; strict?: string[] }, exact: string, folded: string): boolean {
  if (entry.strict?.includes(folded)) return exact !== folded;
  if (!entry.exact) return true;
  if (exact === folded) return true; // written without any diacritic
  return entry.exact.includes(exact);
}

/** Index: folded form → entries, for forms of 1..3 words. */
const FORM_INDEX = new Map<string, Array<TypeWordEntry | PlaceEntry>>();
for (const e of [...TYPE_WORDS, ...PLACES]) {
  const after = 'after' in e ? (e.after ?? []).map(fold).filter((f) => !e.forms.includes(f)) : [];
  for (const f of [...e.forms, ...after]) {
    const list = FORM_INDEX.get(f) ?? [];
    list.push(e);
    FORM_INDEX.set(f, list);
  }
}
/** Short forms that are a type word only before a ward's number (see WARD_NUMBER). */
const NUMBER_ONLY_SHORT = new Set(['f']);
/** A ward's number: one or two digits. */
const WARD_NUMBER = /^\d{1,2}$/;
const SHORT_INDEX = new Map<string, TypeWordEntry>();
for (const e of TYPE_WORDS) for (const f of e.short ?? []) SHORT_INDEX.set(f, e);

function isPlace(e: TypeWordEntry | PlaceEntry): e is PlaceEntry {
  return (e as PlaceEntry).impliedType !== undefined;
}

/**
 * Tokenizes an address into canonical tokens: type words ("Q.", "Tp.", "Phuong" → Quận, Thành phố, Phường),
 * well-known places ("HCM", "Sài Gòn", "TP.HCM" → Thành phố + Hồ Chí Minh), house/alley numbers, plain words
 * and segment breaks (commas).
 */
export function addressTokens(s: string): AddressToken[] {
  if (typeof s !== 'string') return [];
  const raw = lex(s);
  const out: AddressToken[] = [];
  // Some word is not all in capitals: a word that is may be an abbreviation (CAPITALS_INDEX).
  const mixedCase = raw.some((t) => t.kind === 'word' && t.text !== t.text.toUpperCase());
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    if (t.kind !== 'word') {
      const prev = out[out.length - 1];
      const before = out[out.length - 2];
      const house = prev?.kind === 'number' && (before?.kind !== 'type' || before.role === 'house'); // no "Q10 3/2"
      const dateHere = prev?.role === 'street' || (house && unitFollows(raw, i + 1));
      // After a street's type word a hyphen joins a day and month too ("đường 3-2"); after a house number it is a
      // range of numbers ("12-14").
      const date =
        t.kind === 'number' && dateHere ? (prev?.role === 'street' ? DAY_MONTH_DASH : DAY_MONTH).exec(t.text) : null;
      // "đường 3/2" is Đường 3 Tháng 2: a street named after a date, written as one; so is "594 3/2, Q10" (a day and
      // month after a house number, ending its part of the address: a house number has no space inside).
      // "ngã 4 Hàng Xanh" is Ngã tư Hàng Xanh: the count of a junction written as a digit (see junction-ways.ts).
      const ways = t.kind === 'number' && JUNCTION.has(raw[i - 1]?.exact ?? '') ? WAYS_WORD.get(t.text) : undefined;
      if (date)
        out.push(
          { kind: 'number', text: date[1]!, folded: date[1]! },
          { kind: 'word', text: 'tháng', folded: 'thang' },
          { kind: 'number', text: date[2]!, folded: date[2]! },
        );
      else if (ways !== undefined) out.push({ kind: 'word', text: ways, folded: fold(ways) });
      else out.push({ kind: t.kind, text: t.text, folded: t.folded });
      continue;
    }
    // Longest multi-word form first (up to three words, none of them dotted inside the phrase).
    let matched = false;
    for (let n = 3; n >= 1 && !matched; n--) {
      const parts = raw.slice(i, i + n);
      if (parts.length < n || parts.some((p, k) => p.kind !== 'word' || (k < n - 1 && p.dotted))) continue;
      const folded = parts.map((p) => p.folded).join(' ');
      const exact = parts.map((p) => p.exact).join(' ');
      for (const e of FORM_INDEX.get(folded) ?? []) {
        if (!exactOk(e, exact, folded)) continue;
        // "P. Sài Gòn", "phường Sài Gòn": after a ward's or district's type word a city's nickname names that unit.
        const unitType = out[out.length - 1]?.role === 'ward' || out[out.length - 1]?.role === 'district';
        if (isPlace(e) && unitType) {
          for (const p of parts) out.push({ kind: 'word', text: p.text, folded: p.folded });
        } else if (isPlace(e)) {
          // "TPHCM" carries the city type inside the place: emit it as its own type token.
          if (e.typedForms?.includes(folded))
            out.push({ kind: 'type', text: e.impliedType, folded: fold(e.impliedType), role: 'city' });
          out.push({
            kind: 'place',
            text: e.canonical,
            folded: fold(e.canonical),
            impliedType: e.impliedType,
            written: exact,
          });
        } else {
          // A type word right after another is part of a name: "Phường Phố Huế", "Phố Đường Thành" ("Số" aside:
          // "Đường số 9").
          if (out[out.length - 1]?.kind === 'type' && e.role !== 'house') continue;
          const type: AddressToken = { kind: 'type', text: e.canonical, folded: fold(e.canonical), role: e.role };
          if (exact === folded && e.canonical.toLowerCase() !== fold(e.canonical)) type.bare = true;
          // After its name, ending its part ("Điện Biên Phủ đường quận Bình Thạnh"), a form is read so first.
          const lower = exact.toLowerCase();
          const trails = e.after?.includes(lower) === true && namesBefore(out, lower) && endsPart(raw, i + n);
          if (!trails && e.forms.includes(folded) && typeAllowedHere(e, raw, i, i + n)) {
            out.push(type);
            const numeral = e.role === 'district' || e.role === 'ward' ? unitNumeral(raw, i + n) : null;
            if (numeral) {
              out.push({ kind: 'number', text: numeral.value, folded: numeral.value });
              i += numeral.words;
            }
          } else if (trails) {
            // The type word last ("Ba Dinh district", "Lê Lợi đường"): it leads its name, which starts after an
            // English unit word ("ha noi city ta hien street": "city" is Hà Nội's) or a kind's words ("hotel pham ngu
            // lao street": kindBefore).
            let k = out.length;
            while (k > 0 && out[k - 1]!.kind === 'word' && !ENGLISH_UNIT_WORDS.has(out[k - 1]!.folded)) k--;
            out.splice(k + kindBefore(out.slice(k)), 0, type);
          } else continue;
        }
        i += n - 1;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    const next = raw[i + 1];
    // "F Coffee", "F2/33" (a house's number): "F" is Phường only before a ward's number.
    const short =
      NUMBER_ONLY_SHORT.has(t.folded) && !(next?.kind === 'number' && WARD_NUMBER.test(next.text))
        ? undefined
        : SHORT_INDEX.get(t.folded);
    const beforeNumber = next?.kind === 'number' && short?.beforeNumber === true;
    // "q hai ba trung", "p ben nghe": Quận and Phường by their letter alone, leading a part of the address.
    const leading = short?.beforeNumber === true && next?.kind === 'word' && (i === 0 || raw[i - 1]!.kind !== 'word');
    if (
      short &&
      (t.dotted || beforeNumber || leading) &&
      next &&
      next.kind !== 'break' &&
      out[out.length - 1]?.kind !== 'type'
    ) {
      // "H." reads Hẻm before a number, Huyện before a name.
      const e = short.canonical === 'Huyện' && next.kind === 'number' ? HEM : short;
      const type: AddressToken = {
        kind: 'type',
        text: e.canonical,
        folded: fold(e.canonical),
        role: e.role,
        written: t.folded,
      };
      if (!t.dotted && !beforeNumber) type.bare = true;
      out.push(type);
      continue;
    }
    const leads = (out.length === 0 || out[out.length - 1]!.kind === 'break') && next?.kind === 'word';
    const expanded =
      NAME_WORD_INDEX.get(t.folded) ??
      (mixedCase ? CAPITALS_INDEX.get(t.text) : undefined) ??
      (leads ? LEADING_NAME_WORDS.get(t.folded) : undefined);
    if (expanded) {
      // "QL20" is Quốc lộ 20: the number stays a number of its own.
      out.push({ kind: 'word', text: expanded, folded: fold(expanded) });
      continue;
    }
    if (t.glued && next?.kind === 'number') {
      // A letter glued to a number that is not a type word is one name: "D2", "N1" (HCMC street names).
      out.push({ kind: 'word', text: t.text + next.text, folded: t.folded + next.folded });
      i++;
      continue;
    }
    out.push({ kind: 'word', text: t.text, folded: t.folded });
  }
  return out;
}

/**
 * Whether the part of the address ends at raw token `at`, or a unit's type word comes there (a ward, district, city
 * or province, in full or short before its number: "Quận", "Q10", "P.12") or a well-known place ("TPHCM").
 */
function unitFollows(raw: RawToken[], at: number): boolean {
  const t = raw[at];
  if (!t || t.kind === 'break') return true;
  if (t.kind !== 'word') return false;
  const unit = (e: TypeWordEntry | PlaceEntry) => isPlace(e) || UNIT_ROLES.has(e.role);
  const short = SHORT_INDEX.get(t.folded);
  return (
    (FORM_INDEX.get(t.folded) ?? []).some(unit) || (short !== undefined && short.beforeNumber === true && unit(short))
  );
}
const UNIT_ROLES = new Set<TypeRole>(['ward', 'district', 'city', 'province']);

/** Vietnamese numerals people write unit numbers in ("Quận Nhứt", "Quận Ba", "Phường Mười Hai"), folded. */
const UNIT_NUMERALS = new Map<string, string>([
  ['nhat', '1'],
  ['nhut', '1'],
  ['nhi', '2'],
  ['ba', '3'],
  ['tu', '4'],
  ['nam', '5'],
  ['sau', '6'],
  ['bay', '7'],
  ['tam', '8'],
  ['chin', '9'],
  ['muoi', '10'],
  ['muoi mot', '11'],
  ['muoi hai', '12'],
  ['muoi ba', '13'],
  ['muoi bon', '14'],
  ['muoi lam', '15'],
]);

/**
 * The number a unit's name at raw token `at` spells out, when the numeral is the whole name (one or two words, then
 * the end of the part): "Quận Nhứt" is Quận 1; "Phường Bảy Hiền" is a name.
 */
function unitNumeral(raw: RawToken[], at: number): { value: string; words: number } | null {
  for (const n of [2, 1]) {
    const words = raw.slice(at, at + n);
    const after = raw[at + n];
    if (words.length < n || words.some((w) => w.kind !== 'word') || (after && after.kind === 'word')) continue;
    const value = UNIT_NUMERALS.get(words.map((w) => w.folded).join(' '));
    if (value) return { value, words: n };
  }
  return null;
}

/** A day and month written as a number ("3/2", "30/4"), which after a street type word names the street by a date. */
const DAY_MONTH = /^([1-9]|[12]\d|3[01])\/([1-9]|1[0-2])$/;
const DAY_MONTH_DASH = /^([1-9]|[12]\d|3[01])[/-]([1-9]|1[0-2])$/;
/** "Ngã" as written before a junction's count (without marks too, or with the hỏi tone mistyped). */
const JUNCTION = new Set(['ngã', 'ngả', 'nga']);

/** English words of a unit's type, written after its name ("Hanoi city", "Ba Dinh district"). Folded. */
export const ENGLISH_UNIT_WORDS: ReadonlySet<string> = new Set(['city', 'province', 'district', 'ward']);

/**
 * Whether the words before a type word written after its name (`word`, lower case) name it: an English one after a
 * Vietnamese syllable ("Dinh Tien Hoang street", "Ba Dinh district"; "walking street", "beer street" are kinds of
 * street, not names), "đường" after two words or more ("Hàng Đường" is a street of Hà Nội, "Lê Lợi đường" Đường Lê Lợi).
 */
function namesBefore(out: readonly AddressToken[], word: string): boolean {
  let words = 0;
  while (words < out.length && out[out.length - 1 - words]!.kind === 'word') words++;
  const last = out[out.length - 1];
  if (words === 0 || !last) return false;
  return word === 'đường' ? words >= 2 : isBareSyllable(last.folded);
}

/** Tokens as the category matcher reads words: folded, and as written in NFC lower case. */
export function matchWords(tokens: readonly AddressToken[]): MatchWord[] {
  return tokens.map((t) => ({ folded: t.folded, exact: t.text.normalize('NFC').toLowerCase() }));
}

/**
 * How many of the words before a trailing type word are a kind's words leading them ("travel agency" in "travel agency
 * pham ngu lao street", "kindergarten" in "kindergarten an khanh ward"), not the name's: those of a kind's form (not
 * one that only leads a name, as "chùa" and "hồ" lead streets' names) followed by two words or more; 0 when none.
 */
function kindBefore(words: readonly AddressToken[]): number {
  const [first] = categorySpans(matchWords(words), false);
  return first && first.start === 0 && !first.leading && words.length - first.end >= 2 ? first.end : 0;
}

/**
 * Whether the address's part ends before raw token `at`: none, a comma, a city's name ("Hanoi") or a unit's type word
 * ("quận", "thành phố") after it.
 */
function endsPart(raw: RawToken[], at: number): boolean {
  const t = raw[at];
  if (!t || t.kind === 'break') return true;
  const phrases = [t.folded, `${t.folded} ${raw[at + 1]?.folded ?? ''}`];
  return phrases.some((f) => FORM_INDEX.get(f)?.some((e) => isPlace(e) || UNIT_ROLES.has(e.role)) === true);
}

/**
 * Full-word type words that also occur as names need something after them: "Đường" at the end of
 * "Bình Dương"-like text is not a type. A type word must be followed by a word or number in the same segment.
 */
function typeAllowedHere(e: TypeWordEntry, raw: RawToken[], at: number, next: number): boolean {
  const t = raw[next];
  if (!t || t.kind === 'break') return false;
  // An alley word closing a run of name words and followed by no number ends the name: "Lý Thường Kiệt", not a kiệt.
  if ((e.role === 'alley' || e.role === 'suballey') && raw[at - 1]?.kind === 'word' && t.kind !== 'number')
    return false;
  // A unit's word before "lộ" and a number names a road: "Tỉnh lộ 15", "Huyện lộ 2".
  if (t.folded === 'lo' && (t.exact === 'lộ' || t.exact === 'lo') && raw[next + 1]?.kind === 'number') return false;
  return e.role !== 'house' || t.kind === 'number';
}

/**
 * Rewrites abbreviations and variants to their canonical written forms, keeping everything else as written:
 * "123 Nguyễn Huệ, P. Bến Nghé, Q.1, TP.HCM" → "123 Nguyễn Huệ, Phường Bến Nghé, Quận 1, Thành phố Hồ Chí Minh".
 */
export function expandAbbreviations(s: string): string {
  const toks = addressTokens(s);
  const parts: string[] = [];
  for (const t of toks) {
    if (t.kind === 'break') {
      parts.push(',');
      continue;
    }
    parts.push(t.text);
  }
  return parts.join(' ').replace(/ ,/g, ',');
}
