/**
 * Ranked search over a PlaceIndex. Every query word is looked up by its folded form (recall), exactly, as a
 * prefix (the last word while typing) and within one typo; each match is weighted by how good it is, by the
 * field it hit (the place's name beats its other names, its brand and street, which beat its ward) and by diacritic
 * agreement (a query written with marks prefers candidates with the same marks). Category words are also met by a
 * place's category (see query.ts). A place qualifies when it accounts for every required word of the query and was
 * found by something of its own (name, other names, brand, address or category); its score adds up the best match of
 * every query word, how much of its own name the query covers, its importance and the caller's boosts (location
 * bias, admin consistency).
 */
import { diacriticAgreement } from '../text/fold';
import { withinOneEdit } from '../text/edits';
import { Field, type PlaceIndex } from './index';
import type { PlaceCategories } from './place-categories';
import type { QueryCategory } from './query';
import type { Term } from './terms';

/** Match quality of an exact word, a prefix (scaled up as it nears the whole word) and a one-typo word. */
const EXACT = 1;
const PREFIX_MIN = 0.7;
const PREFIX_SPAN = 0.25;
const TYPO = 0.65;
/** Score of a word written with marks met by the same letters stored without any (see search). */
const UNMARKED_STORED = 0.9;
/**
 * Typos are matched between words of this length or more, and from one letter less when it is a lost letter
 * (Vietnamese syllables of three letters one edit apart are mostly other words).
 */
const TYPO_MIN_LENGTH = 4;
/** A query of one required word accepts a typo in it only from this length. */
const TYPO_ALONE_LENGTH = 6;
/** A typo in a word this long is accepted beside one exactly found word. */
const TYPO_SUPPORTED_LENGTH = 3;
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

/** A vocabulary word matched by a query word: its index, quality, matched prefix length (0: whole word). */
interface VocabMatch {
  v: number;
  q: number;
  prefixOf: number;
  typo: boolean;
}

/** One ranked place. */
export interface Hit {
  place: number;
  score: number;
  /** The text match alone, 0..1. */
  text: number;
  /** Query terms the place matched with something of its own (name, other names, brand, address, category). */
  own: number;
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
}

const isOwnField = (f: number): boolean => f !== Field.admin;

/** Number of set bits. */
function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) n++;
  return n;
}

/**
 * Whether a place may count the word in `near` (met only by a typo, or with other diacritics than written) as found.
 * At most one such word, and the rest of the query must vouch for it: two other query words (not category words) in
 * the place's own names or address exactly (`exact`, see {@link vouchers}); or, for a typo in a word of TYPO_SUPPORTED_LENGTH letters or
 * more, one; or it is the only name word and has TYPO_ALONE_LENGTH letters or more. Other diacritics than written get
 * no shorter way in: "Thiền Quang" is not "Thiên Quang".
 */
/**
 * The exactly met words that may vouch for a near miss: numbers only beside a word ("3 tháng 2" is not a shop of
 * "Thời Trang" with a 2 in its name; "pho 10 ly quoc suu" is Phở 10 Lý Quốc Sư).
 */
function vouchers(exact: number, numbers: number): number {
  return (exact & ~numbers) === 0 ? 0 : exact;
}

function nearMissAllowed(near: number, exact: number, names: number, terms: readonly Term[], edit: boolean): boolean {
  if ((near & (near - 1)) !== 0) return false;
  const found = popcount(exact);
  const length = terms[31 - Math.clz32(near)]!.folded.length;
  if (found >= 2 || (edit && found >= 1 && length >= TYPO_SUPPORTED_LENGTH)) return true;
  return near === names && length >= TYPO_ALONE_LENGTH;
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
  /** Of those, the ones met with other diacritics (not an edit). */
  private marksMask: Int32Array;
  /** Numbers the place holds only as its house number (they count as its own only with its street). */
  private houseMask: Int32Array;
  /** Terms the place's own names, brand or address hold exactly (not met through its category). */
  private textMask: Int32Array;
  private touched: Int32Array;
  private stamp = 0;
  private termStamp = 0;

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
    this.marksMask = new Int32Array(n);
    this.textMask = new Int32Array(n);
    this.houseMask = new Int32Array(n);
    this.touched = new Int32Array(n);
  }

  /** Lookups of recent query words (people retype the same words while typing); cleared when full. */
  private cache = new Map<string, VocabMatch[]>();

  /** Vocabulary words matching a query word, with their match quality (cached). */
  private lookup(term: Term, asPrefix: boolean): VocabMatch[] {
    const key = asPrefix ? `${term.folded}*` : term.folded;
    let hit = this.cache.get(key);
    if (!hit) {
      if (this.cache.size >= LOOKUP_CACHE_SIZE) this.cache.clear();
      this.cache.set(key, (hit = this.lookupUncached(term, asPrefix)));
    }
    return hit;
  }

  private lookupUncached(term: Term, asPrefix: boolean): VocabMatch[] {
    const ix = this.index;
    const out: VocabMatch[] = [];
    const w = term.folded;
    let v = ix.lowerBound(w);
    if (asPrefix) {
      for (; v < ix.vocab.length && ix.vocab[v]!.startsWith(w); v++) {
        const len = ix.vocab[v]!.length;
        out.push({
          v,
          q: len === w.length ? EXACT : PREFIX_MIN + (PREFIX_SPAN * w.length) / len,
          prefixOf: w.length,
          typo: false,
        });
      }
    } else if (v < ix.vocab.length && ix.vocab[v] === w) {
      out.push({ v, q: EXACT, prefixOf: 0, typo: false });
    }
    if (!term.numeric && w.length >= TYPO_MIN_LENGTH - 1) {
      const q = out.length > 0 ? TYPO * 0.8 : TYPO;
      for (let k = 0; k < ix.vocab.length; k++) {
        const word = ix.vocab[k]!;
        // People rarely mistype the first letter; requiring it keeps one-edit neighbours of short syllables out. A
        // word shorter than TYPO_MIN_LENGTH may only have lost a letter ("lnh" for "linh").
        if (word.charCodeAt(0) !== w.charCodeAt(0) || word === w || Math.max(w.length, word.length) < TYPO_MIN_LENGTH)
          continue;
        if (withinOneEdit(w, word) && !(asPrefix && word.startsWith(w))) out.push({ v: k, q, prefixOf: 0, typo: true });
      }
    }
    return out;
  }

  /** Diacritic agreements of (query word, indexed form) pairs seen lately; cleared when full. */
  private agreements = new Map<string, number>();

  /** diacriticAgreement of a written word and an indexed form (0.5 when they disagree in every mark), cached. */
  private agreement(exact: string, form: string): number {
    const key = `${exact}\u0000${form}`;
    let a = this.agreements.get(key);
    if (a === undefined) {
      if (this.agreements.size >= LOOKUP_CACHE_SIZE) this.agreements.clear();
      this.agreements.set(key, (a = diacriticAgreement(exact, form) || 0.5));
    }
    return a;
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
    this.marksMask[p] = 0;
    this.textMask[p] = 0;
    this.houseMask[p] = 0;
    this.touched[count] = p;
    return count + 1;
  }

  /** The best `opts.limit` places for the query terms, best first. */
  search(terms: readonly Term[], opts: SearchOptions): Hit[] {
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
    terms.forEach((t, j) => t.numeric && (numberMask |= 1 << j));
    terms.forEach((term, j) => {
      const bit = 1 << j;
      const weight = term.optional ? OPTIONAL_WEIGHT : term.numeric ? NUMBER_WEIGHT : 1;
      if (!term.optional) nonOptional |= bit;
      totalWeight += weight;
      const termStamp = ++this.termStamp;
      const asPrefix = opts.prefix && j === terms.length - 1;
      // Admin words still count towards naming a place completely ("Bệnh viện Mắt Hà Nội" is all of that name).
      const asAdmin = ((opts.adminTerms ?? 0) & ~opts.required & bit) !== 0;
      const counts = !term.optional && (categoryMask & bit) === 0;
      const credit = (p: number, s: number, field: number, typo: boolean, marks = false, viaCategory = false): void => {
        touchedCount = this.touch(p, stamp, touchedCount);
        if (this.termSeen[p] !== termStamp) {
          this.termSeen[p] = termStamp;
          this.best[p] = 0;
        }
        // A typo accounts for a word only in the place's own fields (a near miss on its ward's name says nothing).
        if (typo || marks) {
          if (isOwnField(field)) this.typoMask[p] |= bit;
          if (isOwnField(field) && marks) this.marksMask[p] |= bit;
        } else if (field === Field.address && term.numeric) {
          // "Bệnh viện 108" is not the hospital at number 108 of some street.
          this.anyMask[p] |= bit;
          this.houseMask[p] |= bit;
        } else {
          this.anyMask[p] |= bit;
          if (isOwnField(field)) this.ownMask[p] |= bit;
          if (isOwnField(field) && !viaCategory) this.textMask[p] |= bit;
        }
        if (field === Field.main && counts && this.mainSeen[p] !== termStamp) {
          this.mainSeen[p] = termStamp;
          this.mainHits[p]++;
        } else if (field === Field.alt && counts && this.altSeen[p] !== termStamp) {
          this.altSeen[p] = termStamp;
          this.altHits[p]++;
        } else if (field === Field.address && counts && !term.numeric && this.addrSeen[p] !== termStamp) {
          this.addrSeen[p] = termStamp;
          this.addrHits[p]++;
        }
        if (s > this.best[p]!) {
          this.acc[p] += weight * (s - this.best[p]!);
          this.best[p] = s;
        }
      };
      for (const m of this.lookup(term, asPrefix)) {
        // A kind of place is named exactly ("chùa" is not "chủ"): the category table holds its spellings.
        if (m.typo && (categoryMask & bit) !== 0) continue;
        for (let f = ix.formStart[m.v]!; f < ix.formStart[m.v + 1]!; f++) {
          let q = m.q;
          let marks = false;
          // A main name stored without any marks ("Xoi Yen", "Pho Ga Nguyet") cannot disagree with the written
          // ones: it ranks a little below a name stored with the same marks, and is no near miss. (Other names
          // drop marks by habit: "Thien Quang Lake" says nothing against "Thiền".)
          let lenient = false;
          if ((term.marked || term.strict) && !m.typo) {
            const form = m.prefixOf > 0 ? ix.forms[f]!.slice(0, m.prefixOf) : ix.forms[f]!;
            const unmarked = form === ix.vocab[m.v]!.slice(0, form.length);
            const agreement = term.marked ? this.agreement(term.exact, form) : unmarked ? 1 : 0.5;
            q *= agreement;
            // Written with other marks than the word has: another word ("Thiền" is not "Thiên"), a near miss.
            marks = agreement < 1;
            lenient = marks && term.marked && unmarked;
          }
          for (let k = ix.postStart[f]!; k < ix.postStart[f + 1]!; k++) {
            const field = ix.postField[k]!;
            const weight = FIELD_WEIGHT[asAdmin ? Math.max(field, Field.admin) : field]!;
            if (lenient && field === Field.main)
              credit(ix.postPlace[k]!, m.q * UNMARKED_STORED * weight, field, m.typo);
            else credit(ix.postPlace[k]!, q * weight, field, m.typo, marks);
          }
        }
      }
      // A category word is also met by every place of its category (whatever its name says).
      const cat = opts.categories?.find((c) => (c.mask & bit) !== 0);
      const pc = opts.placeCategories;
      if (cat && pc) {
        for (let row = 0; row < 64; row++) {
          if (!((row < 32 ? cat.rows[0] >>> row : cat.rows[1] >>> (row - 32)) & 1)) continue;
          for (let k = pc.rowStart[row]!; k < pc.rowStart[row + 1]!; k++)
            credit(pc.rowPlaces[k]!, EXACT, Field.main, false, false, true);
        }
      }
    });
    const required = opts.required;
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
      if (
        typoOnly !== 0 &&
        (opts.exact ||
          !nearMissAllowed(
            typoOnly,
            vouchers(this.textMask[p]! & nonOptional & ~categoryMask, numberMask),
            required & ~categoryMask,
            terms,
            (this.marksMask[p]! & typoOnly) === 0,
          ))
      )
        continue;
      if (required === 0 && (own & nonOptional) === 0) continue;
      if (opts.keep && !opts.keep(p)) continue;
      const text = this.acc[p]! / totalWeight;
      const nameLen = ix.nameLen[p]!;
      const addressLen = ix.addressLen[p]!;
      // A place named by the query beats one on a street of that name; with a kind of place asked for ("THPT Nguyễn
      // Thị Minh Khai") the words name the place more often than its street.
      const altLen = ix.altLen[p]!;
      const completeness = Math.max(
        nameLen === 0 ? 1 : Math.min(1, this.mainHits[p]! / nameLen),
        altLen === 0 ? 0 : Math.min(1, this.altHits[p]! / altLen),
        addressLen === 0
          ? 0
          : Math.min(1, this.addrHits[p]! / addressLen) * (categoryMask !== 0 ? ADDRESS_WITH_CATEGORY : 1),
      );
      const score =
        text +
        COMPLETENESS_WEIGHT * completeness +
        (IMPORTANCE_WEIGHT * opts.importance[p]!) / 255 +
        (opts.boost ? opts.boost(p, own) : 0);
      if (top.length === limit && score <= top[limit - 1]!.score) continue;
      // Insertion into the small sorted top list; ties keep the lower place number first (deterministic).
      let at = top.length;
      while (at > 0 && top[at - 1]!.score < score) at--;
      top.splice(at, 0, { place: p, score, text, own });
      if (top.length > limit) top.pop();
    }
    return top;
  }
}
