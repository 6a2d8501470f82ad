/**
 * Turning text (queries and place names alike) into search terms: folded words for recall, exact (NFC, lower-case)
 * words for ranking by diacritics, with type words ("Phường", "Quận", "Phố", "Thành phố") marked optional so a
 * query matches with or without them. Abbreviations and nicknames are expanded first ("Q.1" → "Quận 1",
 * "TP.HCM" → "Thành phố Hồ Chí Minh"), so both sides agree on one spelling.
 */
import { addressTokens, PLACES } from '../text/abbreviations';
import { fold } from '../text/fold';
import { categorySpans, spannedCount } from '../text/category-match';
import { INITIALISMS } from '../text/initialisms';
import { isSyllable } from '../text/syllable';

/** One word of searchable text. */
export interface Term {
  /** fold() of the word: lower case, no diacritics, đ → d. */
  folded: string;
  /** The word as written, NFC lower case, diacritics kept. */
  exact: string;
  /** A type word (Phường, Quận, Phố, Đường, Thành phố, Ngõ, Số...): matching it helps, missing it does not hurt. */
  optional: boolean;
  /** Starts with a digit (a house, alley or district number). */
  numeric: boolean;
  /** The exact form carries diacritics (so it should prefer candidates with the same ones). */
  marked: boolean;
  /**
   * Written without diacritics in a query that has them elsewhere: the writer types marks, so this word has none
   * ("Ga Hà Nội" is the station, not "gà"); a candidate with marks is a near miss.
   */
  strict?: boolean;
  /** Two adjacent words of a stored name run together ("Exim Bank" → eximbank), see nameTermsOf. */
  joined?: boolean;
  /** A word of the canonical name a nickname in stored text stands for ("TPHCM" → hồ, chí, minh). */
  expanded?: boolean;
}

/**
 * Search terms of a text, in order. Words recognised as type words by the address tokenizer are optional;
 * well-known nicknames come out as the canonical name's words ("HCM" → hồ, chí, minh). Never throws.
 */
export function termsOf(text: string): Term[] {
  const out: Term[] = [];
  for (const t of addressTokens(text)) {
    if (t.kind === 'break') continue;
    const optional = t.kind === 'type';
    for (const word of t.text.split(NON_WORD)) {
      if (word === '') continue;
      const exact = word.normalize('NFC').toLowerCase();
      const folded = foldWord(exact);
      if (folded === '') continue; // a stray combining mark
      out.push({ folded, exact, optional, numeric: folded.charCodeAt(0) <= 57, marked: exact !== folded });
    }
  }
  return out;
}

const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;
/**
 * Letter or digit runs joined by a dot, hyphen, apostrophe or ampersand, without spaces. The look-behind starts a
 * match only at the start of a run: without it a long run with no joiner is rescanned from each of its letters
 * (quadratic time, issue 18).
 */
const JOINED = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:[.'’&-][\p{L}\p{N}]+)+/gu;
/** fold() of single words, cached: the same few thousand words recur in every name and query. */
const folds = new Map<string, string>();
const MAX_CACHED_FOLDS = 50_000;

function foldWord(w: string): string {
  let f = folds.get(w);
  if (f === undefined) {
    if (folds.size >= MAX_CACHED_FOLDS) folds.clear();
    folds.set(w, (f = fold(w)));
  }
  return f;
}

/**
 * Type words that may lead a name ("Phố Hàng Bông", "Phường Văn Miếu"), as written: a word is one when it is written
 * so, or without any mark ("Duong Lang"); "Dương Anh Thư" is a name, not the street type "Đường".
 */
const LEADING_TYPES: Array<{ exact: string[]; folded: string[] }> = [
  'thành phố',
  'thị xã',
  'thị trấn',
  'đặc khu',
  'đại lộ',
  'số nhà',
  'tỉnh',
  'quận',
  'huyện',
  'phường',
  'xã',
  'đường',
  'phố',
  'ngõ',
  'ngách',
  'hẻm',
  'kiệt',
  'số',
].map((t) => ({ exact: t.split(' '), folded: fold(t).split(' ') }));

/** The one-word type words that lead names: folded → as written ("duong" → "đường", "hem" → "hẻm"...). */
export const TYPE_WORDS: ReadonlyMap<string, string> = new Map(
  LEADING_TYPES.filter((t) => t.folded.length === 1).map((t) => [t.folded[0]!, t.exact[0]!]),
);

/**
 * Search terms of stored text (names, streets, admin names): a lighter tokenizer than termsOf for building the
 * index. Words are split and folded the same way; a leading type word ("Phố", "Phường", "Thành phố") and category
 * words ("Bệnh viện", "Cà phê") are marked optional.
 */
export function storedTermsOf(text: string): Term[] {
  const out = wordsOf(text);
  // A leading type word counts only when a name follows it ("Phố Huế", not a street called just "Phố"); after a house
  // number it leads the street ("31 Phố Cao Bá Quát").
  const from = out.length > 2 && out[0]!.numeric ? 1 : 0;
  const lead = LEADING_TYPES.find(
    (t) =>
      from + t.folded.length < out.length &&
      t.folded.every((w, k) => {
        const word = out[from + k]!;
        return word.folded === w && (!word.marked || word.exact === t.exact[k]);
      }),
  );
  if (lead) for (let k = 0; k < lead.folded.length; k++) out[from + k]!.optional = true;
  // Category words ("Bệnh viện", "Cà phê", "Hospital") may be left out of a query too, unless they are the whole name
  // (a name of kinds' words alone, "Garden Spa", is named by them).
  const spans = categorySpans(out, false);
  if (spannedCount(spans) < out.length)
    for (const span of spans) for (let k = span.start; k < span.end; k++) out[k]!.optional = true;
  // Words joined by punctuation ("Co.opmart", "7-Eleven", "4P's") are also found written as one ("coopmart").
  for (const m of text.matchAll(JOINED)) {
    const joined = foldWord(
      m[0]
        .replace(/[^\p{L}\p{M}\p{N}]/gu, '')
        .normalize('NFC')
        .toLowerCase(),
    );
    if (joined !== '' && !out.some((t) => t.folded === joined))
      out.push({ folded: joined, exact: joined, optional: true, numeric: joined.charCodeAt(0) <= 57, marked: false });
  }
  // Dates written out in street names ("Ba Tháng Hai", "Mười Chín Tháng Năm") are typed in digits ("3 tháng 2").
  for (const t of dateForms(out)) out.push(t);
  // A Roman numeral in a name ("Dinh III", "Mỹ Khánh IV") is typed in digits ("dinh 3").
  for (const t of romanForms(text, out)) out.push(t);
  // A number written with leading zeros ("Phường 07") is typed without them.
  for (const t of out.slice()) {
    const bare = t.numeric ? t.folded.replace(/^0+(?=\d)/, '') : t.folded;
    if (bare !== t.folded && !out.some((u) => u.folded === bare))
      out.push({ folded: bare, exact: bare, optional: true, numeric: true, marked: false });
  }
  // An initialism in a name ("TT Dạy Nghề", "Trường PT Năng Khiếu") also stands for the words it is written for.
  for (const t of out.slice()) {
    const words = t.numeric ? undefined : INITIALISMS.get(t.folded);
    if (words) for (const w of termsOf(words)) out.push({ ...w, optional: true, expanded: true });
  }
  // A nickname in a name ("Little Hanoi", "Cơm Tấm Sài Gòn") also stands for the canonical words a query expands to,
  // a provincial road's name for its other names (ALIASES).
  const n = out.length;
  for (let k = 0; k < n; k++) {
    for (const [words, canonical] of ALIASES) {
      if (k + words.length <= n && words.every((w, m) => out[k + m]!.folded === w))
        for (const t of canonical) out.push({ ...t, optional: true, expanded: true });
    }
  }
  return out;
}

/** The words of a text in order, folded and exact, none optional. */
export function wordsOf(text: string): Term[] {
  const out: Term[] = [];
  for (const word of text.split(NON_WORD)) {
    if (word === '') continue;
    const exact = word.normalize('NFC').toLowerCase();
    const folded = foldWord(exact);
    if (folded !== '')
      out.push({ folded, exact, optional: false, numeric: folded.charCodeAt(0) <= 57, marked: exact !== folded });
  }
  return out;
}

/**
 * Search terms of a place's name: storedTermsOf, and every two adjacent words run together as one optional `joined`
 * term ("Exim Bank" → eximbank, "Co-op Mart" → coopmart, "Phở 24" → phở24), since people write names with and
 * without the space and the punctuation. Two numbers are not joined ("19 5" is not 195).
 */
export function nameTermsOf(text: string): Term[] {
  const out = storedTermsOf(text);
  // The words as split, and with the words joined by punctuation as one ("Co-op Mart" → coopmart too).
  const collapsed = text.replace(JOINED, (m) => m.replace(/[^\p{L}\p{M}\p{N}]/gu, ''));
  for (const words of collapsed === text ? [wordsOf(text)] : [wordsOf(text), wordsOf(collapsed)]) {
    for (let k = 0; k + 1 < words.length; k++) {
      const a = words[k]!;
      const b = words[k + 1]!;
      if (a.numeric && b.numeric) continue;
      const exact = a.exact + b.exact;
      if (out.some((t) => t.exact === exact)) continue;
      out.push({
        folded: a.folded + b.folded,
        exact,
        optional: true,
        numeric: a.numeric,
        marked: a.marked || b.marked,
        joined: true,
      });
    }
  }
  return out;
}

/**
 * Runs of a stored name's folded words → the search terms of other words they stand for, which a query may write:
 * - the nicknames of the PLACES table that the address tokenizer turns into the canonical name ("hanoi", "sai gon",
 *   "saigon" → Hà Nội, Hồ Chí Minh); short abbreviations ("hn", "sg") are left out: in a stored name they are rarely
 *   the city;
 * - a provincial road's names: "Đường tỉnh 725" (its official name since 2016) or "Tỉnh lộ 10" (the older one, still
 *   on many signs and in HCMC's data), written either way or as its ref "ĐT 725".
 */
const ALIASES: Array<[string[], Term[]]> = [];
for (const p of PLACES) {
  for (const f of p.forms)
    if (f.length >= 5 && fold(p.canonical) !== f) ALIASES.push([f.split(' '), termsOf(p.canonical)]);
}
for (const [name, others] of [
  ['duong tinh', ['tỉnh lộ', 'đt']],
  ['tinh lo', ['đường tỉnh', 'đt']],
] as const)
  for (const other of others) ALIASES.push([name.split(' '), termsOf(other)]);

/**
 * The initials people write a long street's name by ("NKKN" for Nam Kỳ Khởi Nghĩa, "NTMK", "ĐBP"), with a closing
 * numeral as its digits too ("CMT8" and "CMTT" for Cách Mạng Tháng Tám): for names of four words or more after their
 * type word, folded; none for shorter names (three letters are mostly other words, or keys typed with the keyboard
 * off: "dda" is Telex for "đa", not Đào Duy Anh).
 */
export function streetInitials(name: string): string[] {
  const words = wordsOf(name).map((w) => w.folded);
  const lead = LEADING_TYPES.find((t) => t.folded.every((w, k) => words[k] === w));
  const rest = words.slice(lead ? lead.folded.length : 0);
  if (rest.length < 4 || rest.some((w) => w.charCodeAt(0) <= 57)) return [];
  const out = [rest.map((w) => w[0]).join('')];
  for (const n of [2, 1]) {
    const value = NUMERALS.get(rest.slice(-n).join(' '));
    if (value !== undefined && rest.length - n >= 2) {
      out.push(
        `${rest
          .slice(0, -n)
          .map((w) => w[0])
          .join('')}${value}`,
      );
      break;
    }
  }
  return out;
}

/**
 * Folded text with its Vietnamese numerals written as digits, longest runs first ("ba thang hai" → "3 thang 2",
 * "muoi chin thang nam" → "19 thang 5"): how a street named after a date is typed.
 */
export function numeralsAsDigits(folded: string): string {
  const words = folded.split(' ');
  const out: string[] = [];
  for (let k = 0; k < words.length;) {
    const n = [3, 2, 1].find((m) => k + m <= words.length && NUMERALS.has(words.slice(k, k + m).join(' ')));
    out.push(n ? String(NUMERALS.get(words.slice(k, k + n).join(' '))) : words[k]!);
    k += n ?? 1;
  }
  return out.join(' ');
}

/** Vietnamese numerals 1–39 as folded word runs ("muoi chin" → 19, "hai muoi mot" → 21, "thang tu" → 4). */
const NUMERALS = new Map<string, number>();
{
  const units = ['mot', 'hai', 'ba', 'bon', 'nam', 'sau', 'bay', 'tam', 'chin'];
  units.forEach((u, k) => NUMERALS.set(u, k + 1));
  NUMERALS.set('tu', 4);
  for (const [tens, value] of [
    ['muoi', 10],
    ['hai muoi', 20],
    ['ba muoi', 30],
  ] as const) {
    NUMERALS.set(tens, value);
    units.forEach((u, k) => NUMERALS.set(`${tens} ${u}`, value + k + 1));
    // "lăm" for 5 and "tư" for 4 after the tens ("mười lăm", "hai mươi tư").
    NUMERALS.set(`${tens} lam`, value + 5).set(`${tens} tu`, value + 4);
  }
}

/** The folded words of each numeral value of NUMERALS (every way it is written: 4 is "bốn" and "tư"). */
const NUMERAL_WORDS = new Map<number, Set<string>>();
for (const [words, n] of NUMERALS) {
  const set = NUMERAL_WORDS.get(n) ?? new Set<string>();
  for (const w of words.split(' ')) set.add(w);
  NUMERAL_WORDS.set(n, set);
}

/** A Roman numeral of two letters or more up to 39, in capitals ("II", "XIV"): one letter is more often a letter. */
const ROMAN = /(?<![\p{L}\p{N}])(?=[IVX]{2})(X{0,3})(IX|IV|V?I{0,3})(?![\p{L}\p{N}])/gu;
const ROMAN_UNITS = ['', 'i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix'];

/**
 * The digits of the Roman numerals in capitals of a name, as optional terms ("Dinh III Bảo Đại" → 3); not those that
 * spell a Vietnamese word ("XI" of "XI MĂNG", "VI").
 */
function romanForms(text: string, words: readonly Term[]): Term[] {
  const out: Term[] = [];
  for (const m of text.matchAll(ROMAN)) {
    const folded = m[0].toLowerCase();
    if (isSyllable(folded)) continue;
    const value = String(m[1]!.length * 10 + ROMAN_UNITS.indexOf(m[2]!.toLowerCase()));
    if (!words.some((w) => w.folded === value) && !out.some((t) => t.folded === value))
      out.push({ folded: value, exact: value, optional: true, numeric: true, marked: false });
  }
  return out;
}

/**
 * The other form of a date around "tháng" (month) in a name, as optional terms: written out, its digits ("Ba Tháng
 * Hai" → 3, 2; "Cách Mạng Tháng Tám" → 8); in digits, its words ("3 Tháng 2" → ba, hai).
 */
function dateForms(words: readonly Term[]): Term[] {
  const out: Term[] = [];
  const numeral = (from: number, to: number): number | undefined =>
    from >= 0 && to <= words.length && from < to
      ? NUMERALS.get(
          words
            .slice(from, to)
            .map((w) => w.folded)
            .join(' '),
        )
      : undefined;
  const push = (n: number | undefined) =>
    n !== undefined && out.push({ folded: String(n), exact: String(n), optional: true, numeric: true, marked: false });
  const spell = (w: Term | undefined) => {
    for (const folded of (w?.numeric && NUMERAL_WORDS.get(Number(w.folded))) || [])
      out.push({ folded, exact: folded, optional: true, numeric: false, marked: false });
  };
  words.forEach((w, i) => {
    if (w.exact !== 'tháng') return;
    // The month: one or two words after ("Tháng Tư", "Tháng Mười Hai").
    push(numeral(i + 1, i + 3) ?? numeral(i + 1, i + 2));
    // The day: up to three words before ("Ba", "Mười Chín", "Hai Mươi Mốt").
    push(numeral(i - 3, i) ?? numeral(i - 2, i) ?? numeral(i - 1, i));
    spell(words[i + 1]);
    spell(words[i - 1]);
  });
  return out.filter(
    (t, k) => !words.some((w) => w.folded === t.folded) && out.findIndex((u) => u.folded === t.folded) === k,
  );
}
