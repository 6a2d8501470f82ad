/**
 * Ranked search over a PlaceIndex. Every query word is looked up by its folded form (recall), exactly, as a
 * prefix (the last word while typing), within one typo (PlaceIndex.nearWords) and, with its neighbour, as one word ("Exim
 * bank" meets "Eximbank"); each match is weighted by how good it is, by the field it hit (the place's name beats its
 * other names, its brand and street, which beat its ward) and by diacritic agreement (a query written with marks
 * prefers candidates with the same marks; one mark off is a slip, like a typo). Category words are also met by a
 * place's category (see query.ts). A place qualifies when it accounts for every required word of the query and was
 * found by something of its own (name, other names, brand, address or category); its score adds up the best match of
 * every query word, how much of its own name the query covers, its importance and the caller's boosts (location
 * bias, admin consistency).
 *
 * Speed: only candidates are scored. A qualifying place holds every required word in a field of its own (or, with
 * none required, some word that is not optional), so the places that hold the required word with the fewest such
 * postings are the candidates; the other words' postings (an admin name's run to every place of the city) are read
 * only at the candidates (a galloping merge of two ascending lists).
 */
import { diacriticAgreement, markDifferences, toneOf } from '../text/fold';
import { firstLetterKept } from '../text/edits';
import { isBareSyllable, otherIY, soundAlikes } from '../text/syllable';
import {
  EXPANDED,
  Field,
  FIELD_MASK,
  JOINED,
  NameFlag,
  POSTING_FIELD,
  POSTING_FIELD_BITS,
  postingPlace,
  type PlaceIndex,
} from './index';
import { categorySpans } from '../text/category-match';
import { CATEGORY_ROWS, hasRow } from '../text/row-mask';
import type { PlaceCategories } from './place-categories';
import type { QueryCategory } from './query';
import type { Term } from './terms';
import { PostingReader } from './postings';

/** Match quality of an exact word, a prefix (scaled up as it nears the whole word) and a one-typo word. */
const EXACT = 1;
const PREFIX_MIN = 0.7;
const PREFIX_SPAN = 0.25;
const TYPO = 0.65;
/** Quality of a word met spelt with the other of i and y ("Lí" for Lý): a little below as written. */
const OTHER_IY = 0.97;
/** Score of a word written with marks met by the same letters stored without any (see search). */
const UNMARKED_STORED = 0.9;
/**
 * Quality of a category word met by the place's category rather than by its name: a little below the word written in
 * the name ("THCS Nguyễn Trãi" is the school of that name before "Trường Tiểu học Nguyễn Trãi").
 */
const CATEGORY_MET = 0.95;
/** Quality of adjacent query words met as one word of a name ("Exim bank" → Eximbank). */
const JOIN = 0.9;
/** Most adjacent query words met as one word ("Thế Giới Di Động" → Thegioididong). */
const JOIN_MAX_WORDS = 4;
/** A form's postings are merged with the candidates (galloping) when they outnumber them this many times. */
const MERGE_RATIO = 4;
/**
 * Typos are matched between words of this length or more, and from one letter less when it is a lost letter
 * (Vietnamese syllables of three letters one edit apart are mostly other words).
 */
const TYPO_MIN_LENGTH = 4;
/**
 * Whether a short typed word is a vocabulary syllable with two adjacent letters swapped ("tna" → "tan", "mia" → "mai",
 * "hao" → "hoa"). A swap keeps every letter, the typo people make most while typing fast, so it is read even below
 * TYPO_MIN_LENGTH; like every typo it is a near miss the rest of the query must vouch for ("Bệnh viện Bạch Mia").
 */
function swappedIntoSyllable(typed: string, word: string): boolean {
  if (typed.length !== word.length || !isBareSyllable(word)) return false;
  let i = 0;
  while (typed.charCodeAt(i) === word.charCodeAt(i)) i++;
  return (
    typed.charCodeAt(i) === word.charCodeAt(i + 1) &&
    typed.charCodeAt(i + 1) === word.charCodeAt(i) &&
    typed.slice(i + 2) === word.slice(i + 2)
  );
}
/**
 * Whether a short typed word that is no syllable at all is a vocabulary syllable of its length with one letter struck
 * wrong ("trj" → "tri"): only a typo makes such a word, so it is read below TYPO_MIN_LENGTH too, a near miss to vouch
 * for like every typo. (A short word that is a syllable is mostly meant as written.)
 */
function mistypedSyllable(typed: string, word: string): boolean {
  return typed.length === word.length && !isBareSyllable(typed) && isBareSyllable(word);
}
/** A query of one required word accepts a typo in it only from this length. */
const TYPO_ALONE_LENGTH = 6;
/** A typo in a word this long is accepted beside one exactly found word. */
const TYPO_SUPPORTED_LENGTH = 3;
/** A slip (one mark off) in a word this long is accepted beside one exactly found word. */
const SLIP_SUPPORTED_LENGTH = 2;
/**
 * Quality factor of the unfinished last word met by completing it into another word of the query (see
 * completedAgain): below every other prefix's quality (PREFIX_MIN), so the place whose name goes on with the word
 * ranks first.
 */
const COMPLETED_AGAIN = 0.5;

/**
 * The matches of the unfinished last word `j`, those completing it into a word the query holds already made weak:
 * "Chợ Bà Ch" is met by the "Chợ" of every market's name, and the prefix of a short word scores above a long one's
 * ("Chợ" above "Chiểu"). Not dropped: a name may hold the word twice ("Bệnh viện Bệ…", Bệnh Nhiệt đới).
 */
function completedAgain(
  found: VocabMatch[],
  terms: readonly Term[],
  j: number,
  vocab: readonly string[],
): VocabMatch[] {
  const again = (m: VocabMatch) => m.prefixOf > 0 && terms.some((t, k) => k !== j && t.folded === vocab[m.v]);
  return found.some(again) ? found.map((m) => (again(m) ? { ...m, q: m.q * COMPLETED_AGAIN } : m)) : found;
}
/** Weight of a field's match: name, other names, brand, address, admin names. */
const FIELD_WEIGHT = [1, 0.95, 0.85, 0.85, 0.8];
/** Query words whose vocabulary matches are kept per searcher. */
const LOOKUP_CACHE_SIZE = 4096;
/** Weight of a query word: type words and fillers count little, numbers a bit less than names. */
const OPTIONAL_WEIGHT = 0.25;
const NUMBER_WEIGHT = 0.8;
/** Score parts on top of the text match (which is in 0..1). */
const COMPLETENESS_WEIGHT = 0.3;
/** Share of an address's completeness that counts when the query names a kind of place. */
const ADDRESS_WITH_CATEGORY = 0.5;
const IMPORTANCE_WEIGHT = 0.08;

/**
 * A vocabulary word matched by a query word: its index, quality, matched prefix length (0: whole word), whether it
 * is a typo, and for two query words met as one (a join) their exact forms run together.
 */
interface VocabMatch {
  v: number;
  q: number;
  prefixOf: number;
  typo: boolean;
  written?: string;
  /** The word spelt with the other of i and y ("Lí" for Lý): as written, but for that letter. */
  otherIY?: true;
  /** A typo that is the word spelt as another of its sound ("chần" for Trần): a near miss as slight as a slip. */
  alike?: true;
}

/** How a place met a query word other than as written (a near miss): kinds from the most lenient. */
const Near = {
  /** Within one typo. */
  edit: 1,
  /** The same letters with one mark off ("Đúc" for Đức, "Rấy" for Rẫy). */
  slip: 2,
  /** The same letters with other marks in two places or more: another word ("Nguyên" is not "Nguyễn"). */
  marks: 3,
} as const;
type NearKind = (typeof Near)[keyof typeof Near];

/**
 * A query word as the searcher may read it: QueryTerm's role, part and segment when the query parser gave them
 * (read to tell a number in a name from a house number, without depending on the parser).
 */
type SearchTerm = Term & { role?: string; part?: string; segment?: number };

/** Whether a query word is a number of a place or address (a house or alley number, a number in a name), not a unit's. */
function isPlaceNumber(t: SearchTerm): boolean {
  return t.numeric && (t.role === undefined || t.role === 'number');
}

/**
 * Whether query word j is a number that names a place ("Landmark 81", "Bệnh viện 108", "Phở 24, Quận 1"): not a
 * house, alley or unit number, and not followed by a name in its part of the query ("Vincom 72 Lê Thánh Tôn": a
 * house number the parser did not place).
 */
function isNameNumber(terms: readonly SearchTerm[], j: number): boolean {
  const t = terms[j]!;
  if (!isPlaceNumber(t) || t.part === 'house' || t.part === 'alley') return false;
  for (let k = j + 1; k < terms.length && terms[k]!.segment === t.segment; k++)
    if (!terms[k]!.numeric && (terms[k]!.role === 'name' || terms[k]!.role === 'category')) return false;
  return true;
}

/** One ranked place. */
export interface Hit {
  place: number;
  score: number;
  /** The text match alone, 0..1. */
  text: number;
  /** Query terms the place matched with something of its own (name, other names, brand, address, category). */
  own: number;
  /** A word was met only within one typo, in a place whose names hold more than was written: a near miss of part of a name. */
  loose: boolean;
}

/** What a search may do besides matching words. */
export interface SearchOptions {
  /** The last word may be an unfinished prefix (autocomplete). */
  prefix: boolean;
  /** Best hits to return. */
  limit: number;
  /** Importance of each place, 0..255. */
  importance: Uint8Array;
  /** Terms a place must account for (bit j = terms[j]). */
  required: number;
  /**
   * Terms that name admin units the query is placed in (not required): they score as admin names wherever they match,
   * so a place whose own name carries the city's name ("Bệnh viện Mắt Hà Nội") gains nothing over the others from it.
   */
  adminTerms?: number;
  /** Runs of category words and the rows that meet them, with the places' categories. */
  categories?: readonly QueryCategory[];
  placeCategories?: PlaceCategories;
  /** False excludes a place (radius filter). */
  keep?: (place: number) => boolean;
  /** Added to the score of a qualifying place (location bias, admin consistency); `own` as in Hit. */
  boost?: (place: number, own: number) => number;
  /** Words must be found as written (no typos, no other diacritics). */
  exact?: boolean;
  /** Words may also be met spelt as others of their sound ("chần" for Trần: soundAlikes), as near misses. */
  heard?: boolean;
  /**
   * The adminTerms of units a place lies in though its stored admin names do not hold them (a street piece, which
   * stores only its 2025 ward, in a legacy district), as a mask: met as its admin names.
   */
  inUnits?: (place: number) => number;
}

const isOwnField = (f: number): boolean => f !== Field.admin;

/** Whether a query word is a category only as an abbreviation ("THCS", "BV"), which stored names keep as a word. */
function isAbbreviation(t: Term): boolean {
  const w = [{ folded: t.folded, exact: t.exact }];
  return categorySpans(w, false).length === 0 && categorySpans(w, true).length > 0;
}

/** Number of set bits. */
function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) n++;
  return n;
}

/**
 * The exactly met words that may vouch for a near miss: numbers only beside a word ("3 tháng 2" is not a shop of
 * "Thời Trang" with a 2 in its name; "pho 10 ly quoc suu" is Phở 10 Lý Quốc Sư).
 */
function vouchers(exact: number, numbers: number): number {
  return (exact & ~numbers) === 0 ? 0 : exact;
}

/**
 * Whether a place may count the word in `near` (met only by a typo, or with other diacritics than written) as found.
 * At most one such word, and the rest of the query must vouch for it: two other query words (not category words)
 * met as written in the place's own names or address (`exact`, see {@link vouchers}), or for a typo one such word and
 * the kind of place the query names when the place is of it ("công viên da định": Gia Định); or, for a typo in a word of
 * TYPO_SUPPORTED_LENGTH letters or more, or a one-mark slip in a word of SLIP_SUPPORTED_LENGTH letters or more ("Từ Dủ" for Từ Dũ: a
 * tone people confuse keeps every letter), one (for a slip, met in the place's names: `exactInNames`); for a typo, the kind of place the query names, when
 * the place is of it (`kindMet`: "Cà Phê Lnih" is a café; a unit's type word met in its name: "phường da định"), counts as that one; or, for a typo only, it is the only
 * name word and has TYPO_ALONE_LENGTH letters or more. A slip gets no way in alone: most syllables have a neighbour
 * one mark away that is another word ("Thiền" and "Thiên"), so only the rest of the name can tell a slip from a
 * different name. Marks off in two places or more get no shorter way in than two vouchers.
 */
function nearMissAllowed(
  near: number,
  exact: number,
  exactInNames: number,
  names: number,
  terms: readonly Term[],
  kind: NearKind,
  kindMet: boolean,
): boolean {
  if ((near & (near - 1)) !== 0) return false;
  const found = popcount(exact);
  const length = terms[31 - Math.clz32(near)]!.folded.length;
  if (found >= 2) return true;
  if (kind === Near.marks) return false;
  // A slip's one voucher is a word of the place's names: one in its address ("Kỳ" of Nam Kỳ Khởi Nghĩa) says nothing of
  // its name ("chùa Kỳ Viên" is not "Ni Viện Kiều Đàm" on Nam Kỳ Khởi Nghĩa).
  const support = kind === Near.slip ? popcount(exactInNames) : found + (kind === Near.edit && kindMet ? 1 : 0);
  if (support >= 2) return true;
  if (support >= 1 && length >= (kind === Near.slip ? SLIP_SUPPORTED_LENGTH : TYPO_SUPPORTED_LENGTH)) return true;
  return kind === Near.edit && near === names && length >= TYPO_ALONE_LENGTH;
}

/** Scratch state for searching one index; reused across queries (the engine answers one query at a time). */
export class Searcher {
  private acc: Float32Array;
  private best: Float32Array;
  private seen: Int32Array;
  private termSeen: Int32Array;
  private mainSeen: Int32Array;
  private mainHits: Uint8Array;
  private altSeen: Int32Array;
  private altHits: Uint8Array;
  private addrSeen: Int32Array;
  private addrHits: Uint8Array;
  private anyMask: Int32Array;
  private ownMask: Int32Array;
  /** Terms the place matched only within one typo or with other diacritics, in its own fields. */
  private typoMask: Int32Array;
  /** Of those, the ones met with one mark off (a slip). */
  private slipMask: Int32Array;
  /** Of those, the ones met with marks off in two places or more. */
  private marksMask: Int32Array;
  /** Numbers the place holds only as its house number (they count as its own only with its street). */
  private houseMask: Int32Array;
  /** Terms the place's own names, brand or address hold as written (not met through its category). */
  private textMask: Int32Array;
  /** Of those, the ones its names or brand hold (not only its address). */
  private nameTextMask: Int32Array;
  private touched: Int32Array;
  /** Candidates of the current search: cand[p] === stamp, listed ascending in candList[0 .. candCount). */
  private cand: Int32Array;
  private candList: Int32Array;
  private candCount = 0;
  private stamp = 0;
  private termStamp = 0;
  /** Postings of each form in fields of the place's own (not its admin names), counted at first need (-1: not yet). */
  private ownCounts: Int32Array;
  /** Reads one form's postings at a time (never two at once: a visit reads no postings). */
  private readonly reader = new PostingReader();

  constructor(readonly index: PlaceIndex) {
    const n = index.nameLen.length;
    this.acc = new Float32Array(n);
    this.best = new Float32Array(n);
    this.seen = new Int32Array(n);
    this.termSeen = new Int32Array(n);
    this.mainSeen = new Int32Array(n);
    this.mainHits = new Uint8Array(n);
    this.altSeen = new Int32Array(n);
    this.altHits = new Uint8Array(n);
    this.addrSeen = new Int32Array(n);
    this.addrHits = new Uint8Array(n);
    this.anyMask = new Int32Array(n);
    this.ownMask = new Int32Array(n);
    this.typoMask = new Int32Array(n);
    this.slipMask = new Int32Array(n);
    this.marksMask = new Int32Array(n);
    this.textMask = new Int32Array(n);
    this.nameTextMask = new Int32Array(n);
    this.houseMask = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.cand = new Int32Array(n);
    this.candList = new Int32Array(n);
    this.ownCounts = new Int32Array(index.forms.length).fill(-1);
  }

  /** Lookups of recent query words (people retype the same words while typing); cleared when full. */
  private cache = new Map<string, VocabMatch[]>();

  /** Vocabulary words matching a query word, with their match quality (cached). */
  private lookup(term: Term, asPrefix: boolean, heard: boolean): VocabMatch[] {
    const key = `${term.folded}${asPrefix ? '*' : ''}${heard ? '~' : ''}`;
    let hit = this.cache.get(key);
    if (!hit) {
      if (this.cache.size >= LOOKUP_CACHE_SIZE) this.cache.clear();
      this.cache.set(key, (hit = this.lookupUncached(term, asPrefix, heard)));
    }
    return hit;
  }

  /** Whether vocabulary word v only joins two adjacent name words. */
  private joinOnly(v: number): boolean {
    return this.index.joinOnly[v] === 1;
  }

  private lookupUncached(term: Term, asPrefix: boolean, heard: boolean): VocabMatch[] {
    const ix = this.index;
    const out: VocabMatch[] = [];
    const w = term.folded;
    let v = ix.lowerBound(w);
    if (asPrefix) {
      // Words that only join two name words ("nguyenvan") are prefixes' matches only when no word as written is.
      let end = v;
      while (end < ix.vocab.length && ix.vocab[end]!.startsWith(w)) end++;
      let literal = false;
      for (let k = v; k < end && !literal; k++) literal = !this.joinOnly(k);
      for (; v < end; v++) {
        const len = ix.vocab[v]!.length;
        if (literal && len > w.length && this.joinOnly(v)) continue;
        out.push({
          v,
          q: len === w.length ? EXACT : PREFIX_MIN + (PREFIX_SPAN * w.length) / len,
          prefixOf: len === w.length ? 0 : w.length,
          typo: false,
        });
      }
    } else if (v < ix.vocab.length && ix.vocab[v] === w) {
      out.push({ v, q: EXACT, prefixOf: 0, typo: false });
    }
    const iy = otherIY(w);
    const k = iy === null ? -1 : ix.lowerBound(iy);
    if (k >= 0 && ix.vocab[k] === iy) out.push({ v: k, q: EXACT * OTHER_IY, prefixOf: 0, typo: false, otherIY: true });
    if (!term.numeric && w.length >= TYPO_MIN_LENGTH - 1) {
      const q = out.length > 0 ? TYPO * 0.8 : TYPO;
      for (const k of ix.nearWords(w)) {
        const word = ix.vocab[k]!;
        // People rarely mistype the first letter (swapping it with the second aside); requiring it keeps one-edit
        // neighbours of short syllables out. A word shorter than TYPO_MIN_LENGTH may only have lost a letter ("lnh"
        // for "linh").
        if (
          word === w ||
          (Math.max(w.length, word.length) < TYPO_MIN_LENGTH &&
            !swappedIntoSyllable(w, word) &&
            !mistypedSyllable(w, word))
        )
          continue;
        if (!firstLetterKept(w, word)) continue;
        if (!(asPrefix && word.startsWith(w))) out.push({ v: k, q, prefixOf: 0, typo: true });
      }
    }
    // A word spelt as another of its sound ("chần" for Trần, "da" for Gia): a near miss like a slip, whatever its
    // first letters and length.
    if (heard && !term.numeric)
      for (const alike of soundAlikes(w)) {
        const a = ix.lowerBound(alike);
        if (ix.vocab[a] !== alike) continue;
        // Also one typo away ("đàng", "đàn"): heard, so the heard rules of marks decide.
        const typo = out.find((m) => m.v === a && m.typo);
        if (typo) typo.alike = true;
        else if (!out.some((m) => m.v === a))
          out.push({ v: a, q: out.length > 0 ? TYPO * 0.8 : TYPO, prefixOf: 0, typo: true, alike: true });
      }
    return out;
  }

  /**
   * Vocabulary words that a run of adjacent query words holding word j makes together, up to JOIN_MAX_WORDS of them
   * ("Exim bank" → eximbank, "Thế Giới Di Động" → Thegioididong; the last word as a prefix while typing: "exim b" →
   * eximbank; a category word too: "Exim bank" is a bank). Two adjacent numbers are not joined; words that themselves
   * only join two name words are left out (the place holds both words as written).
   */
  private joins(terms: readonly Term[], j: number, lastPrefix: number): VocabMatch[] {
    const ix = this.index;
    const out: VocabMatch[] = [];
    for (let a = Math.max(0, j - JOIN_MAX_WORDS + 1); a <= j; a++) {
      let folded = terms[a]!.folded,
        written = terms[a]!.exact;
      for (let b = a + 1; b < terms.length && b < a + JOIN_MAX_WORDS; b++) {
        const y = terms[b]!;
        if (y.numeric && terms[b - 1]!.numeric) break;
        folded += y.folded;
        written += y.exact;
        if (b < j) continue;
        const prefix = b === lastPrefix;
        for (let v = ix.lowerBound(folded); v < ix.vocab.length; v++) {
          const word = ix.vocab[v]!;
          if (prefix ? !word.startsWith(folded) : word !== folded) break;
          if (this.joinOnly(v)) continue;
          const whole = word.length === folded.length;
          out.push({
            v,
            q: JOIN * (whole ? EXACT : PREFIX_MIN + (PREFIX_SPAN * folded.length) / word.length),
            prefixOf: whole ? 0 : folded.length,
            typo: false,
            written,
          });
        }
      }
    }
    return out;
  }

  /** Diacritic agreements of (query word, indexed form) pairs seen lately; cleared when full. */
  private agreements = new Map<string, { agreement: number; differences: number }>();

  /**
   * diacriticAgreement of a written word and an indexed form (0.5 when they disagree in every mark), and the number
   * of marks they differ in (markDifferences), cached.
   */
  private agreement(exact: string, form: string): { agreement: number; differences: number } {
    const key = `${exact}\u0000${form}`;
    let a = this.agreements.get(key);
    if (a === undefined) {
      if (this.agreements.size >= LOOKUP_CACHE_SIZE) this.agreements.clear();
      a = { agreement: diacriticAgreement(exact, form) || 0.5, differences: markDifferences(exact, form) };
      this.agreements.set(key, a);
    }
    return a;
  }

  /** Postings of form f in fields of the place's own (counted once). */
  private ownCount(f: number): number {
    let n = this.ownCounts[f]!;
    if (n < 0) {
      const ix = this.index;
      n = 0;
      for (const r = this.reader.open(ix.postings, ix.postStart.at(f), ix.postStart.at(f + 1)); r.next();)
        if ((r.value & FIELD_MASK) !== Field.admin) n++;
      this.ownCounts[f] = n;
    }
    return n;
  }

  /**
   * Marks the candidates of a search: the places that hold, in a field of their own or by their category, one of the
   * `drivers` terms (a superset of the places that can qualify: see search), listed ascending. Returns their count.
   */
  private markCandidates(
    matches: readonly VocabMatch[][],
    drivers: number,
    categories: readonly QueryCategory[] | undefined,
    pc: PlaceCategories | undefined,
    stamp: number,
  ): number {
    const ix = this.index;
    const cand = this.cand;
    const list = this.candList;
    let count = 0;
    const mark = (p: number): void => {
      if (cand[p] === stamp) return;
      cand[p] = stamp;
      list[count++] = p;
    };
    for (let j = 0; drivers >>> j !== 0; j++) {
      if (((drivers >>> j) & 1) === 0) continue;
      for (const m of matches[j]!)
        for (let f = ix.formStart.at(m.v); f < ix.formStart.at(m.v + 1); f++)
          for (const r = this.reader.open(ix.postings, ix.postStart.at(f), ix.postStart.at(f + 1)); r.next();)
            if ((r.value & FIELD_MASK) !== Field.admin) mark(postingPlace(r.value));
      const cat = categories?.find((c) => ((c.mask >>> j) & 1) !== 0);
      if (cat && pc)
        for (let row = 0; row < CATEGORY_ROWS; row++)
          if (hasRow(cat.rows, row))
            for (let k = pc.rowStart[row]!; k < pc.rowStart[row + 1]!; k++) mark(pc.rowPlaces[k]!);
    }
    // Ascending, for the merges: sorted when few, else read off the marks in place order.
    if (count * 16 < cand.length) list.subarray(0, count).sort();
    else for (let p = 0, k = 0; p < cand.length; p++) if (cand[p] === stamp) list[k++] = p;
    return (this.candCount = count);
  }

  /** The cost of driving the candidates by term j: its own postings and its category's places. */
  private driverCost(
    matches: readonly VocabMatch[],
    cat: QueryCategory | undefined,
    pc: PlaceCategories | undefined,
  ): number {
    const ix = this.index;
    let n = 0;
    for (const m of matches)
      for (let f = ix.formStart.at(m.v); f < ix.formStart.at(m.v + 1); f++) n += this.ownCount(f);
    if (cat && pc)
      for (let row = 0; row < CATEGORY_ROWS; row++)
        if (hasRow(cat.rows, row)) n += pc.rowStart[row + 1]! - pc.rowStart[row]!;
    return n;
  }

  /** Calls visit(posting) for every posting of form f whose place is a candidate of the search `stamp`. */
  private candidatePostings(f: number, stamp: number, visit: (posting: number) => void): void {
    const ix = this.index;
    const lo = ix.postStart.at(f);
    const hi = ix.postStart.at(f + 1);
    const r = this.reader.open(ix.postings, lo, hi);
    if (hi - lo <= MERGE_RATIO * this.candCount) {
      while (r.next()) if (this.cand[postingPlace(r.value)] === stamp) visit(r.value);
      return;
    }
    for (let c = 0; c < this.candCount; c++) {
      const p = this.candList[c]!;
      if (!r.seek(p * 2 ** POSTING_FIELD_BITS)) return;
      if (postingPlace(r.value) === p) visit(r.value);
    }
  }

  /** Starts place `p` for this search if it is new; returns the new count of touched places. */
  private touch(p: number, stamp: number, count: number): number {
    if (this.seen[p] === stamp) return count;
    this.seen[p] = stamp;
    this.acc[p] = 0;
    this.mainHits[p] = 0;
    this.altHits[p] = 0;
    this.addrHits[p] = 0;
    this.anyMask[p] = 0;
    this.ownMask[p] = 0;
    this.typoMask[p] = 0;
    this.slipMask[p] = 0;
    this.marksMask[p] = 0;
    this.textMask[p] = 0;
    this.nameTextMask[p] = 0;
    this.houseMask[p] = 0;
    this.touched[count] = p;
    return count + 1;
  }

  /** The best `opts.limit` places for the query terms, best first. */
  search(terms: readonly SearchTerm[], opts: SearchOptions): Hit[] {
    const ix = this.index;
    if (terms.length === 0) return [];
    const stamp = ++this.stamp;
    let touchedCount = 0;
    let totalWeight = 0;
    let nonOptional = 0;
    // Category words do not count towards naming a place completely: stored names mark them optional too.
    let categoryMask = 0;
    for (const c of opts.categories ?? []) categoryMask |= c.mask;
    let numberMask = 0;
    // A unit's type word ("phường", "xã"): the kind of unit asked for.
    let typeMask = 0;
    let nameNumbers = 0;
    let placeNumbers = 0;
    terms.forEach((t, j) => {
      if (t.numeric) numberMask |= 1 << j;
      if (t.role === 'type') typeMask |= 1 << j;
      if (isNameNumber(terms, j)) nameNumbers |= 1 << j;
      if (isPlaceNumber(t)) placeNumbers |= 1 << j;
      if (!t.optional) nonOptional |= 1 << j;
    });
    const required = opts.required;
    const lastPrefix = opts.prefix ? terms.length - 1 : -1;
    const matches = terms.map((term, j) => {
      // A kind of place is named exactly ("chùa" is not "chủ"): the category table holds its spellings.
      const category = ((categoryMask >>> j) & 1) !== 0;
      // Heard otherwise: a word of the name (a unit's the parser knew, a type word or a filler is as written).
      const heard = opts.heard === true && !term.optional && (term.role === undefined || term.role === 'name');
      const own = this.lookup(term, j === lastPrefix, heard);
      const joined = this.joins(terms, j, lastPrefix);
      const typed = category ? own.filter((m) => !m.typo) : own;
      const found = j === lastPrefix ? completedAgain(typed, terms, j, ix.vocab) : typed;
      return joined.length > 0 ? [...found, ...joined] : found;
    });
    // A qualifying place holds every required word in a field of its own, or with none required some word that is
    // not optional: the required word with the fewest such postings names the candidates.
    let drivers = required !== 0 ? 0 : nonOptional;
    if (required !== 0) {
      let cheapest = Infinity;
      for (let j = 0; j < terms.length; j++) {
        if (((required >>> j) & 1) === 0) continue;
        const cat = opts.categories?.find((c) => ((c.mask >>> j) & 1) !== 0);
        const cost = this.driverCost(matches[j]!, cat, opts.placeCategories);
        if (cost < cheapest) {
          cheapest = cost;
          drivers = 1 << j;
        }
      }
    }
    if (drivers === 0 || this.markCandidates(matches, drivers, opts.categories, opts.placeCategories, stamp) === 0)
      return [];
    terms.forEach((term, j) => {
      const bit = 1 << j;
      const weight = term.optional ? OPTIONAL_WEIGHT : term.numeric ? NUMBER_WEIGHT : 1;
      totalWeight += weight;
      const termStamp = ++this.termStamp;
      // Admin words still count towards naming a place completely ("Bệnh viện Mắt Hà Nội" is all of that name).
      const asAdmin = ((opts.adminTerms ?? 0) & ~required & bit) !== 0;
      // Category words do not count towards naming a place completely (stored names mark them optional too), but for
      // abbreviations: stored names keep "THCS", "BV" as name words, so the query's count where the name holds them.
      // Fillers count where the name holds them ("The Landmark", "Saigon Star": the written nickname).
      const counts = (!term.optional || term.role === 'filler') && ((categoryMask & bit) === 0 || isAbbreviation(term));
      // Fillers ("street", "gần", a nickname's written words beside its place) describe the place itself: met in its
      // ward's or city's names they say nothing.
      const ownOnly = term.role === 'filler';
      /**
       * Credits place p with match score s in field `fieldBits` (a posting's field bits); `near` how it met the word when not as
       * written; `voucher` whether it met it as written (see vouchers); `viaCategory` met by its category.
       */
      const credit = (p: number, s: number, fieldBits: number, near: number, voucher: boolean, viaCategory = false) => {
        const field = fieldBits & FIELD_MASK;
        touchedCount = this.touch(p, stamp, touchedCount);
        if (this.termSeen[p] !== termStamp) {
          this.termSeen[p] = termStamp;
          this.best[p] = 0;
        }
        // A near miss accounts for a word only in the place's own fields (a near miss on its ward's name says nothing).
        if (near !== 0) {
          if (isOwnField(field)) {
            this.typoMask[p] |= bit;
            if (near === Near.slip) this.slipMask[p] |= bit;
            if (near === Near.marks) this.marksMask[p] |= bit;
          }
        } else if (field === Field.address && term.numeric) {
          // "Bệnh viện 108" is not the hospital at number 108 of some street.
          this.anyMask[p] |= bit;
          this.houseMask[p] |= bit;
        } else {
          this.anyMask[p] |= bit;
          if (isOwnField(field)) this.ownMask[p] |= bit;
          if (isOwnField(field) && voucher && !viaCategory) {
            this.textMask[p] |= bit;
            if (field !== Field.address) this.nameTextMask[p] |= bit;
          }
        }
        // A word that joins two of the name's words stands for both of them.
        const hits = (fieldBits & JOINED) !== 0 ? 2 : 1;
        if (viaCategory || (fieldBits & EXPANDED) !== 0) {
          // Met by the place's category, or a nickname's canonical words: no word of its names.
        } else if (field === Field.main && counts && this.mainSeen[p] !== termStamp) {
          this.mainSeen[p] = termStamp;
          this.mainHits[p] += hits;
        } else if (field === Field.alt && counts && this.altSeen[p] !== termStamp) {
          this.altSeen[p] = termStamp;
          this.altHits[p] += hits;
        } else if (field === Field.address && counts && !term.numeric && this.addrSeen[p] !== termStamp) {
          this.addrSeen[p] = termStamp;
          this.addrHits[p]++;
        }
        if (s > this.best[p]!) {
          this.acc[p] += weight * (s - this.best[p]!);
          this.best[p] = s;
        }
      };
      for (const m of matches[j]!) {
        const written = m.written ?? ((m.otherIY && otherIY(term.exact)) || term.exact);
        const marked = m.written !== undefined ? written !== ix.vocab[m.v]!.slice(0, written.length) : term.marked;
        // A word written with marks and heard otherwise keeps them all: "giên" is Diên, not "viện" nor "Vien".
        const heardAs = m.alike && marked ? soundAlikes(term.exact) : null;
        for (let f = ix.formStart.at(m.v); f < ix.formStart.at(m.v + 1); f++) {
          // A form stored without marks ("Tao Dan Park") cannot tell which sound was meant: a typo, needing vouchers.
          const bare = heardAs !== null && ix.forms[f] === ix.vocab[m.v];
          if (heardAs && !bare && !heardAs.some((h) => markDifferences(h, ix.forms[f]!) === 0)) continue;
          // A word written with marks keeps its tone through a typo: one that differs in letters and tone is another
          // word ("phà" is not "Phấn").
          if (m.typo && marked && !bare && toneOf(ix.forms[f]!) !== toneOf(written)) continue;
          let q = m.q;
          // A word heard otherwise is a slip when its marks agree (above) or it has letters enough; a syllable of two
          // letters written bare has many neighbours so heard ("di": Vi, Gi, Ri): a typo.
          let near: number =
            m.alike && !bare && (heardAs || term.folded.length >= TYPO_SUPPORTED_LENGTH)
              ? Near.slip
              : m.typo
                ? Near.edit
                : 0;
          // A main name stored wholly without marks ("Xoi Yen", "Pho Ga Nguyet") cannot disagree with the written
          // ones: it ranks a little below a name stored with the same marks, is no near miss, and vouches for none.
          // A word without marks in a name that has them ("Sữa chua", "Phố Quang Trung") is written so: "chùa",
          // "Quảng" are other words. (Other names drop marks by habit: "Thien Quang Lake" says nothing against
          // "Thiền".)
          let lenient = false;
          if ((marked || term.strict) && !m.typo) {
            const form = m.prefixOf > 0 ? ix.forms[f]!.slice(0, m.prefixOf) : ix.forms[f]!;
            const unmarked = form === ix.vocab[m.v]!.slice(0, form.length);
            if (marked) {
              const a = this.agreement(written, form);
              q *= a.agreement;
              // One mark off a word that is no Vietnamese syllable ("Đatanla") has no neighbour it could mean: a typo.
              const slip = isBareSyllable(ix.vocab[m.v]!) ? Near.slip : Near.edit;
              near = a.differences === 0 ? 0 : a.differences === 1 ? slip : Near.marks;
              lenient = unmarked && near !== 0;
            } else if (!unmarked) {
              // Written without marks where the writer types them ("Ga Hà Nội" is not "gà"): one mark is a slip.
              const a = this.agreement(written, form);
              q *= 0.5;
              near = a.differences === 1 ? Near.slip : Near.marks;
            }
          }
          // A kind of place is named as written ("chùa" is not the "chua" of "Sữa chua"): no slips either.
          if (near !== 0 && (categoryMask & bit) !== 0) continue;
          this.candidatePostings(f, stamp, (posting) => {
            const p = postingPlace(posting);
            const field = posting & POSTING_FIELD;
            if (ownOnly && field === Field.admin) return;
            const weight = FIELD_WEIGHT[asAdmin ? Math.max(field & FIELD_MASK, Field.admin) : field & FIELD_MASK]!;
            if (lenient && (field & FIELD_MASK) === Field.main && (ix.nameFlags[p]! & NameFlag.unmarked) !== 0)
              credit(p, m.q * UNMARKED_STORED * weight, field, 0, false);
            else credit(p, q * weight, field, near, near === 0 && !m.written);
          });
        }
      }
      // An admin word is also met by the places that lie in its unit without storing its name.
      if (asAdmin && opts.inUnits)
        for (let c = 0; c < this.candCount; c++) {
          const p = this.candList[c]!;
          if ((this.termSeen[p] !== termStamp || this.best[p] === 0) && (opts.inUnits(p) & bit) !== 0)
            credit(p, FIELD_WEIGHT[Field.admin]!, Field.admin, 0, false);
        }
      // A category word is also met by every place of its category (whatever its name says).
      const cat = opts.categories?.find((c) => (c.mask & bit) !== 0);
      const pc = opts.placeCategories;
      if (cat && pc)
        for (let c = 0; c < this.candCount; c++) {
          const p = this.candList[c]!;
          if (pc.any(p, cat.rows)) credit(p, CATEGORY_MET, Field.main, 0, true, true);
        }
    });
    const top: Hit[] = [];
    const limit = Math.max(1, opts.limit);
    for (let k = 0; k < touchedCount; k++) {
      const p = this.touched[k]!;
      const house = this.addrHits[p]! > 0 ? this.houseMask[p]! : 0;
      const typoOnly = this.typoMask[p]! & ~this.ownMask[p]! & ~house & required;
      const own = this.ownMask[p]! | house | typoOnly;
      // Every required word is the place's own: its names, brand, address or category (its ward's name does not
      // make a café named after another ward).
      if ((own & required) !== required) continue;
      const kind: NearKind =
        (this.marksMask[p]! & typoOnly) !== 0
          ? Near.marks
          : (this.slipMask[p]! & typoOnly) !== 0
            ? Near.slip
            : Near.edit;
      if (
        typoOnly !== 0 &&
        (opts.exact ||
          !nearMissAllowed(
            typoOnly,
            vouchers(this.textMask[p]! & nonOptional & ~categoryMask, numberMask),
            vouchers(this.nameTextMask[p]! & nonOptional & ~categoryMask, numberMask),
            required & ~categoryMask,
            terms,
            kind,
            (categoryMask !== 0 && (own & categoryMask) === categoryMask) ||
              (typeMask !== 0 && (this.nameTextMask[p]! & typeMask) === typeMask),
          ))
      )
        continue;
      if (required === 0 && (own & nonOptional) === 0) continue;
      // A number written in a name ("Landmark 81", "Bệnh viện 108") is part of it: a place that holds none of the
      // written numbers in its names or address is another place ("The Landmark", "Bệnh viện 175"), whatever its
      // other words. A place whose name holds a number of its own is another place unless it holds a written one
      // (in its name, or as its house number): "Nước mía 66" is not "Nước mía 73", read as a name or as an address.
      const numbers = this.ownMask[p]! | this.houseMask[p]!;
      if (nameNumbers !== 0 && (numbers & nameNumbers) === 0) continue;
      if (placeNumbers !== 0 && (ix.nameFlags[p]! & NameFlag.numbered) !== 0 && (numbers & placeNumbers) === 0)
        continue;
      const text = this.acc[p]! / totalWeight;
      const nameLen = ix.nameLen[p]!;
      const addressLen = ix.addressLen[p]!;
      // A place named by the query beats one on a street of that name; with a kind of place asked for ("THPT Nguyễn
      // Thị Minh Khai") the words name the place more often than its street.
      const altLen = ix.altLen[p]!;
      const mainHits = this.mainHits[p]!;
      // The address names a place completely only when the words name none of its name or all of it: "Saigon Square
      // 2" on the street written is not the whole of "Saigon Square Nam Kỳ Khởi Nghĩa", "Saigon Square" there is.
      const byAddress = addressLen > 0 && (mainHits === 0 || mainHits >= nameLen);
      const completeness = Math.max(
        nameLen === 0 ? 1 : Math.min(1, mainHits / nameLen),
        altLen === 0 ? 0 : Math.min(1, this.altHits[p]! / altLen),
        byAddress ? Math.min(1, this.addrHits[p]! / addressLen) * (categoryMask !== 0 ? ADDRESS_WITH_CATEGORY : 1) : 0,
      );
      // Not the whole of a name (nor of another name) met: a typo there is a near miss of part of a name.
      const loose =
        kind === Near.edit &&
        typoOnly !== 0 &&
        !(nameLen > 0 && this.mainHits[p]! >= nameLen) &&
        !(altLen > 0 && this.altHits[p]! >= altLen);
      const score =
        text +
        COMPLETENESS_WEIGHT * completeness +
        (IMPORTANCE_WEIGHT * opts.importance[p]!) / 255 +
        (opts.boost ? opts.boost(p, own) : 0);
      // The filter last: it may be costly (a walk of the road network), and most places do not make the top.
      if ((top.length === limit && !better(score, p, top[limit - 1]!)) || (opts.keep && !opts.keep(p))) continue;
      // Insertion into the small sorted top list; ties keep the lower place number first (deterministic).
      let at = top.length;
      while (at > 0 && better(score, p, top[at - 1]!)) at--;
      top.splice(at, 0, { place: p, score, text, own, loose });
      if (top.length > limit) top.pop();
    }
    return top;
  }
}

/** Whether a place of `score` ranks before hit h: higher score, or equal and a lower place number. */
function better(score: number, place: number, h: Hit): boolean {
  return score > h.score || (score === h.score && place < h.place);
}
