/**
 * Finding the category words of the CATEGORIES table in a run of words, for queries and stored names alike.
 * Words are compared folded; a word written with diacritics must also carry the form's own diacritics ("gà" is not
 * "ga", "Trương" is not "trường", "Láng" is not "lăng"), while a word written without any diacritic matches the
 * folded form (people drop all accents when they type fast). Abbreviations match as whole single words only.
 */
import { CATEGORIES } from './categories';
import { fold } from './fold';
import { firstLetterKept, withinOneEdit } from './edits';
import { isBareSyllable } from './syllable';
import { CATEGORY_ROWS, NO_ROWS, noRow, orRows, rowBit, type RowMask } from './row-mask';

/** A word as the matcher sees it: folded, and exact (NFC lower case). */
export interface MatchWord {
  folded: string;
  exact: string;
}

/** A run of words [start, end) that names categories: the CATEGORIES rows `rows`. */
export interface CategorySpan {
  start: number;
  end: number;
  rows: RowMask;
  /** Read by a form that counts only leading its run (CategoryRow.leading: "chợ", "hồ"). */
  leading?: boolean;
}

interface Form {
  folded: string[];
  exact: string[];
  rows: RowMask;
  /** Counts only at the start of a run (CategoryRow.leading). */
  leading: boolean;
}

if (CATEGORIES.length > CATEGORY_ROWS) throw new Error(`categories: at most ${CATEGORY_ROWS} rows (row-mask.ts)`);

/** The rows of the CATEGORIES rows with these keys; throws on a key no row has (a table edited apart). */
export function rowsOfKeys(keys: readonly string[]): RowMask {
  return keys.reduce<RowMask>((m, key) => {
    const row = CATEGORIES.findIndex((c) => c.key === key);
    if (row < 0) throw new Error(`no category ${key}`);
    return orRows(m, rowBit(row));
  }, NO_ROWS);
}

/** Forms by their first folded word; the same spelling in several rows is one form with several row bits. */
const BY_FIRST = new Map<string, Form[]>();
const ABBR = new Map<string, RowMask>();
/** Rows per OSM category value. */
const BY_OSM = new Map<string, RowMask>();

CATEGORIES.forEach((row, r) => {
  const forms = [...row.words.map((w) => [w, false] as const), ...(row.leading ?? []).map((w) => [w, true] as const)];
  for (const [w, leading] of forms) {
    const exact = w.normalize('NFC').toLowerCase().split(/\s+/);
    const folded = exact.map(fold);
    const list = BY_FIRST.get(folded[0]!) ?? [];
    const same = list.find((f) => f.exact.join(' ') === exact.join(' ') && f.leading === leading);
    if (same) same.rows = orRows(same.rows, rowBit(r));
    else list.push({ folded, exact, rows: rowBit(r), leading });
    BY_FIRST.set(folded[0]!, list);
  }
  for (const a of row.abbr ?? []) ABBR.set(fold(a), orRows(ABBR.get(fold(a)) ?? NO_ROWS, rowBit(r)));
  for (const v of row.osm) BY_OSM.set(v, orRows(BY_OSM.get(v) ?? NO_ROWS, rowBit(r)));
});
/** Every folded word of every form ("community", "laptop"). */
const FORM_WORDS = new Set([...BY_FIRST.values()].flatMap((list) => list.flatMap((f) => f.folded)));

/** True when a folded word is a word of some kind's forms. */
export function isCategoryWord(folded: string): boolean {
  return FORM_WORDS.has(folded);
}

/** Multi-word forms by their second folded word. */
const BY_SECOND = new Map<string, Form[]>();
for (const list of BY_FIRST.values()) {
  for (const f of list)
    if (f.folded.length >= 2) BY_SECOND.set(f.folded[1]!, [...(BY_SECOND.get(f.folded[1]!) ?? []), f]);
}

/** True when written word `w` may be the form's word `k` (see the module comment). */
function wordFits(w: MatchWord, folded: string, exact: string): boolean {
  return w.folded === folded && (w.exact === w.folded || w.exact === exact);
}

/**
 * True when the words spell a multi-word form with at most one of them mistyped by one edit ("Bệh viện", "Nhà hàg"):
 * a phrase of two or more words is still recognised where a single mistyped word would not be; a word that is a
 * one-word form of its own is not mistyped.
 */
function phraseFits(words: readonly MatchWord[], at: number, f: Form): boolean {
  let typos = 0;
  for (let k = 0; k < f.folded.length; k++) {
    const w = words[at + k]!;
    if (wordFits(w, f.folded[k]!, f.exact[k]!)) continue;
    // A word that is a one-word form itself is no typo of another ("ga ba son" is the station Ba Son, not "ngã ba").
    if (
      f.folded.length < 2 ||
      ++typos > 1 ||
      w.folded.length < 2 ||
      !withinOneEdit(w.folded, f.folded[k]!) ||
      // See firstLetterKept ("Võ Văn Ngân Đặng Văn Bi" holds no "ngân hàng").
      !firstLetterKept(w.folded, f.folded[k]!) ||
      // A word that is a syllable is mostly meant as written ("giao Lê Văn Chí" holds no "giao lộ", "Quang Trung" no
      // "quảng trường").
      (w.folded !== f.folded[k] && isBareSyllable(w.folded)) ||
      BY_FIRST.get(w.folded)?.some((o) => o.folded.length === 1)
    )
      return false;
  }
  return true;
}

/**
 * The category spans of a word sequence, left to right, longest form first; words inside a span are not reused;
 * `leading` forms only at the start; `typoTolerant` (queries, by default with abbreviations) accepts one mistyped word
 * in a multi-word form.
 * `abbreviations`: whether abbreviations count (queries yes; stored names no, where "BV" is rarely a category), or
 * 'leading': only as the first word or right after another kind's words ("Trường THCS X"); either way only first or
 * right after another span.
 */
export function categorySpans(
  words: readonly MatchWord[],
  abbreviations: boolean | 'leading',
  typoTolerant = abbreviations === true,
): CategorySpan[] {
  const out: CategorySpan[] = [];
  for (let i = 0; i < words.length;) {
    let matched: CategorySpan | null = null;
    // Multi-word forms are looked up by their first word, and, a word being mistyped, by the second.
    const candidates = [
      ...(BY_FIRST.get(words[i]!.folded) ?? []),
      ...(i + 1 < words.length ? (BY_SECOND.get(words[i + 1]!.folded) ?? []) : []),
    ];
    candidates.sort((a, b) => b.folded.length - a.folded.length);
    for (const f of candidates) {
      if (i + f.folded.length > words.length || (f.leading && i > 0)) continue;
      if (
        typoTolerant ? phraseFits(words, i, f) : f.folded.every((fw, k) => wordFits(words[i + k]!, fw, f.exact[k]!))
      ) {
        matched = { start: i, end: i + f.folded.length, rows: f.rows, ...(f.leading ? { leading: true } : {}) };
        break;
      }
    }
    // An abbreviation leads the words or follows another kind's ("trường THPT X", "BV X"): after a name's words it is
    // more likely a word of the name, or one begun ("đại học Tôn Đức Th").
    const after = out.length > 0 && out[out.length - 1]!.end === i;
    if (!matched && (i === 0 || after) && abbreviations !== false) {
      const rows = ABBR.get(words[i]!.folded);
      if (rows) matched = { start: i, end: i + 1, rows };
    }
    if (matched) {
      matched.start = shopStart(words, out.length > 0 ? out[out.length - 1]!.end : 0, matched.start);
      out.push(matched);
      i = matched.end;
    } else i++;
  }
  return out;
}

/** The words the spans cover, together (spans never overlap). */
export function spannedCount(spans: readonly CategorySpan[]): number {
  return spans.reduce((n, span) => n + span.end - span.start, 0);
}

/**
 * Words written before a kind's words that say "a shop of that kind" ("shop hoa", "cửa hàng giày", "tiệm nail"): read
 * as part of the kind's span, so they ask for no name word. Folded and as written.
 */
const SHOP_WORDS: readonly { folded: string[]; exact: string[] }[] = ['shop', 'tiệm', 'cửa hàng'].map((w) => ({
  folded: fold(w).split(' '),
  exact: w.split(' '),
}));

/**
 * Where the span of a kind whose words start at `start` begins: earlier by a shop word right before it (SHOP_WORDS),
 * not before `from` (the end of the span before).
 */
function shopStart(words: readonly MatchWord[], from: number, start: number): number {
  for (const { folded, exact } of SHOP_WORDS) {
    const at = start - folded.length;
    if (at >= from && folded.every((w, k) => wordFits(words[at + k]!, w, exact[k]!))) return at;
  }
  return start;
}

/**
 * The span of the kind a name's words lead with ("Bến xe Thạnh Lộc": "bến xe"; "Chợ Bà Chiểu": "chợ"), none when they
 * lead with no kind's words (a kind only inside a name, "Hanoi Station", is not what the name says the place is).
 */
export function leadingKind(words: readonly MatchWord[]): CategorySpan | undefined {
  const first = categorySpans(words, false)[0];
  return first !== undefined && first.start === 0 ? first : undefined;
}

/** Letters an unfinished word needs to stand for the category words it begins ("hosp", not "ho"). */
const MIN_UNFINISHED = 4;

/**
 * The rows of the one-word category forms an unfinished word begins ("hosp" → hospital, "pago" → pagoda; a word
 * written with marks begins them with its marks), none for a word shorter than MIN_UNFINISHED letters or a whole
 * form (categorySpans reads those).
 */
export function unfinishedCategoryRows(w: MatchWord): RowMask {
  let rows = NO_ROWS;
  if (w.folded.length < MIN_UNFINISHED) return rows;
  for (const [first, forms] of BY_FIRST) {
    if (first === w.folded || !first.startsWith(w.folded)) continue;
    for (const f of forms)
      if (f.folded.length === 1 && !f.leading && (w.exact === w.folded || f.exact[0]!.startsWith(w.exact)))
        rows = orRows(rows, f.rows);
  }
  return rows;
}

/** Most words of a form. */
const MAX_FORM_WORDS = Math.max(...[...BY_FIRST.values()].flatMap((list) => list.map((f) => f.folded.length)));

/**
 * The multi-word category forms that the words before an unfinished last word begin and that it goes on ("bus s" →
 * bus station, bus stop; "trung tâm thương m" → shopping centre): their rows and how many words they span, the most
 * that fit; undefined when none does. The words before are the form's words as written, marks and all ("Phổ Quang T"
 * is no "quảng trường", and written bare it may be either), the last begins the form's last word (with its marks when
 * written with any) without ending it. A form that counts only leading its run fits only from the first word.
 */
export function unfinishedPhrase(words: readonly MatchWord[]): { rows: RowMask; length: number } | undefined {
  const last = words[words.length - 1];
  if (!last) return undefined;
  for (let n = Math.min(words.length, MAX_FORM_WORDS); n >= 2; n--) {
    const at = words.length - n;
    let rows = NO_ROWS;
    for (const f of BY_FIRST.get(words[at]!.folded) ?? []) {
      const end = f.folded[n - 1];
      if (f.folded.length !== n || (f.leading && at > 0) || end!.length <= last.folded.length) continue;
      if (!end!.startsWith(last.folded) || (last.exact !== last.folded && !f.exact[n - 1]!.startsWith(last.exact)))
        continue;
      if (f.exact.slice(0, n - 1).every((fw, k) => words[at + k]!.exact === fw)) rows = orRows(rows, f.rows);
    }
    if (!noRow(rows)) return { rows, length: n };
  }
  return undefined;
}

/** The rows of an OSM category value (none for none). */
export function categoryRowsOf(osmValue: string): RowMask {
  return BY_OSM.get(osmValue) ?? NO_ROWS;
}

/** The first row that keeps unnamed places of each OSM category value (CategoryRow.unnamed). */
const UNNAMED_ROW = new Map<string, (typeof CATEGORIES)[number]>();
for (const row of CATEGORIES)
  if (row.unnamed) for (const v of row.osm) if (!UNNAMED_ROW.has(v)) UNNAMED_ROW.set(v, row);

/**
 * What an unnamed place of OSM category `osmValue` is called ("fuel" → "Trạm xăng", "atm" → "ATM"); undefined when
 * an unnamed place of that kind is no place to search for (a pond, a bench).
 */
export function unnamedLabel(osmValue: string): string | undefined {
  const row = UNNAMED_ROW.get(osmValue);
  if (!row) return undefined;
  const first = row.words[0]!;
  return row.label ?? first.charAt(0).toUpperCase() + first.slice(1);
}
