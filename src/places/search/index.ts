/**
 * The search index of one region's places, built in memory when the engine first needs it (a few milliseconds
 * per thousand places): a sorted vocabulary of folded words for prefix and one-typo lookups, the exact
 * (diacritic) forms under each folded word, and per exact form the places that hold it and in which field (and
 * whether the place holds it only as two adjacent words of a name run together: "Exim Bank" holds "eximbank").
 * Our own compact index rather than flexsearch: it folds đ like the rest of the code, keeps exact forms for
 * diacritic ranking, and answers a query in well under a millisecond on packs of this size.
 */
import { Offsets } from '../../pack/offsets.js';
import { AltKind, PlaceKind } from '../kinds';
import type { PlaceStore } from '../store';
import type { StringTable } from '../../pack/strings';
import type { AdminNames } from '../admin-names';
import { fold } from '../text/fold';
import { OneEditIndex } from './one-edit-index';
import { nameTermsOf, storedTermsOf, streetInitials } from './terms';
import { Postings } from './postings';

/** Where a word occurs in a place. Lower is stronger. */
export const Field = {
  /** The place's own name, or house number and street for an address. */
  main: 0,
  /** Its other names (name:en, official, alternative, short, old names). */
  alt: 1,
  /** Its brand or operator. */
  brand: 2,
  /** A POI's house number and street. */
  address: 3,
  /** Names of its ward, district and province (legacy and 2025), and its locality. */
  admin: 4,
} as const;

/**
 * Bit set in a posting's field bits when the place holds the word only as two adjacent words of one of its
 * names run together ("Exim Bank" for "eximbank"): the word then stands for two of its name's words.
 */
export const JOINED = 0x10;
/**
 * Bit set on a posting's field when the place holds the word only as a word of the canonical name a nickname of its
 * names stands for ("Bảo tàng TPHCM" holds hồ, chí, minh so): it matches, but names none of the place's own words.
 */
export const EXPANDED = 0x08;
/** The Field of a posting's field bits (without the JOINED and EXPANDED bits). */
export const FIELD_MASK = 0x07;
/**
 * Bits of a posting (PlaceIndex.postings) that hold its field (a Field with the JOINED and EXPANDED bits); the place
 * is the bits above them, so a form's postings ascend by place and a place's postings are found by one search.
 */
export const POSTING_FIELD_BITS = 5;
/** A posting's field bits: posting & POSTING_FIELD. */
export const POSTING_FIELD = (1 << POSTING_FIELD_BITS) - 1;
/** Most places an index holds: their postings are 32-bit words. */
const MAX_INDEXED_PLACES = 2 ** (32 - POSTING_FIELD_BITS);

/** The place of a posting. */
export const postingPlace = (posting: number): number => posting >>> POSTING_FIELD_BITS;

/** Bits of PlaceIndex.nameFlags: what a place's own name (not its address) is like. */
export const NameFlag = {
  /** The name carries no diacritic at all ("Xoi Yen", "Pho Ga Nguyet", "Pablo Coffee"). */
  unmarked: 1,
  /** The name holds a number of its own ("Landmark 81", "Bệnh viện 175", "Quận 7", "Đường số 5"). */
  numbered: 2,
} as const;

/** The words of each place, by field. Used by the index builder and by the evaluation bench. */
export interface PlaceTexts {
  main: string;
  alt: string[];
  brand: string[];
  address: string;
  /** Other ways the address is written: its street's initials ("Highlands CMT8"). */
  addressAlt: string[];
  admin: string[];
}

/** Texts of place `i` as they are indexed. */
export function placeTexts(places: PlaceStore, strings: StringTable, admin: AdminNames, i: number): PlaceTexts {
  const house = strings.get(places.house[i]!);
  const street = strings.get(places.street.at(i));
  const houseStreet = [house, street].filter(Boolean).join(' ');
  const kind = places.kind[i]!;
  const name = strings.get(places.name[i]!);
  const main = kind === PlaceKind.address || !name ? houseStreet : name;
  const address = kind === PlaceKind.address ? '' : houseStreet;
  const alt: string[] = [];
  const brand: string[] = [];
  for (let k = places.altFirst.at(i), end = places.altFirst.at(i + 1); k < end; k++) {
    (places.altKind[k] === AltKind.brand ? brand : alt).push(strings.get(places.alt[k]!));
  }
  // A 2025 ward named after its old town ("Phường Xuân Hương - Đà Lạt") is called by the first part alone.
  const dash = kind === PlaceKind.ward ? name.indexOf(' - ') : -1;
  if (dash > 0) alt.push(name.slice(0, dash));
  // A long street is also called by its initials ("NKKN", "CMT8").
  if (kind === PlaceKind.street) alt.push(...streetInitials(name));
  const adminTexts = admin.namesOf(places, i);
  const locality = strings.get(places.locality.at(i));
  if (locality) adminTexts.push(locality);
  // A place on a long street is also written with the street's initials ("Highlands CMT8", "Circle K NKKN").
  const addressAlt = kind === PlaceKind.street || !street ? [] : streetInitials(street);
  return { main, alt, brand, address, addressAlt, admin: adminTexts };
}

/** One word of a place: its folded form, its strongest field, and whether it only joins two adjacent name words. */
interface PlaceWord {
  folded: string;
  field: number;
  joined: boolean;
  expanded: boolean;
}

/** What one place contributes to the index: its words (exact form → PlaceWord), counts and name flags. */
export interface PlaceWords {
  words: Map<string, PlaceWord>;
  nameLen: number;
  altLen: number;
  addressLen: number;
  /** NameFlag bits. */
  flags: number;
}

/** The words of places as the index takes them; admin names repeat across thousands of places, so texts are cached. */
export class PlaceTerms {
  private readonly cache = new Map<string, ReturnType<typeof storedTermsOf>>();
  private readonly nameCache = new Map<string, ReturnType<typeof storedTermsOf>>();

  constructor(
    private readonly places: PlaceStore,
    private readonly strings: StringTable,
    private readonly admin: AdminNames,
  ) {}

  /** The words and counts of place `i`. */
  of(i: number): PlaceWords {
    const t = placeTexts(this.places, this.strings, this.admin, i);
    const words = new Map<string, PlaceWord>();
    // Names also yield their adjacent words run together ("Exim Bank" → eximbank); addresses and admin names do not
    // (typed as written, and shared by thousands of places).
    const add = (text: string, textField: number, name: boolean): void => {
      for (const term of name ? this.nameTerms(text) : this.terms(text)) {
        const joined = term.joined === true;
        // A nickname's canonical words ("TPHCM" → Hồ Chí Minh) are another name for the place, not its own name's
        // words: "Bảo tàng Hồ Chí Minh" names the museum of that name before "Bảo tàng TPHCM".
        const field = term.expanded ? Math.max(textField, Field.alt) : textField;
        const expanded = term.expanded === true;
        const prev = words.get(term.exact);
        if (!prev) words.set(term.exact, { folded: term.folded, field, joined, expanded });
        else {
          // The strongest field wins; a word the place holds as written anywhere is not a join nor an expansion.
          if (prev.field > field) prev.field = field;
          prev.joined &&= joined;
          prev.expanded &&= expanded;
        }
      }
    };
    add(t.main, Field.main, true);
    for (const a of t.alt) add(a, Field.alt, true);
    for (const b of t.brand) add(b, Field.brand, true);
    add(t.address, Field.address, false);
    for (const a of t.addressAlt) add(a, Field.address, false);
    for (const a of t.admin) add(a, Field.admin, false);
    // The longest other name: the query's words met in any of them count, so the shortest ("SGU") would be "named"
    // by words of the others.
    let altLen = 0;
    for (const a of t.alt) altLen = Math.max(altLen, distinctWords(this.terms(a)));
    const own = this.places.kind[i] !== PlaceKind.address && this.places.name[i] !== 0;
    const mainTerms = this.terms(t.main);
    const letters = mainTerms.filter((w) => !w.numeric);
    const flags =
      (letters.length > 0 && letters.every((w) => !w.marked) ? NameFlag.unmarked : 0) |
      (own && mainTerms.some((w) => w.numeric && !w.optional) ? NameFlag.numbered : 0);
    return {
      words,
      nameLen: distinctWords(mainTerms),
      altLen,
      addressLen: distinctWords(this.terms(t.address).filter((w) => !w.numeric)),
      flags,
    };
  }

  private terms(s: string): ReturnType<typeof storedTermsOf> {
    let t = this.cache.get(s);
    if (!t) this.cache.set(s, (t = storedTermsOf(s)));
    return t;
  }

  private nameTerms(s: string): ReturnType<typeof storedTermsOf> {
    let t = this.nameCache.get(s);
    if (!t) this.nameCache.set(s, (t = nameTermsOf(s)));
    return t;
  }
}

/** The arrays of a PlaceIndex (see its fields). */
export type PlaceIndexArrays = Pick<
  PlaceIndex,
  | 'vocab'
  | 'formStart'
  | 'forms'
  | 'postStart'
  | 'postings'
  | 'nameLen'
  | 'altLen'
  | 'addressLen'
  | 'nameFlags'
  | 'joinOnly'
  | 'editStart'
  | 'editIds'
>;

/** One region's search index. Place numbers are indices into the region's PlaceStore. */
export class PlaceIndex {
  /** Folded words, sorted (UTF-16 code unit order), unique. */
  readonly vocab: string[];
  /** Exact forms of vocab[v] are forms[formStart[v] .. formStart[v+1]). */
  readonly formStart: Offsets;
  readonly forms: string[];
  /**
   * The places holding forms[f] are postings[postStart[f] .. postStart[f+1]), ascending: each a place (postingPlace)
   * and, in its low POSTING_FIELD_BITS, the field holding the word there (a Field, with the JOINED bit when the place
   * holds the word only as two adjacent name words run together, EXPANDED when only as a word a nickname stands for).
   * One number per posting rather than a place and a field byte, stored as varint steps (postings.ts).
   */
  readonly postStart: Offsets;
  readonly postings: Postings;
  /** Number of distinct words that are not type or category words in each place's name: how many query words name it. */
  readonly nameLen: Uint8Array;
  /** The same for its longest alternative name (0 without one). */
  readonly altLen: Uint8Array;
  /** The same for a POI's street (a POI found by its address is fully found; numbers do not count). */
  readonly addressLen: Uint8Array;
  /** NameFlag bits of each place. */
  readonly nameFlags: Uint8Array;
  /** 1 for a vocabulary word that only joins two adjacent name words (no place holds it as written), else 0. */
  readonly joinOnly: Uint8Array;
  /** The one-edit index of the vocabulary words that are not join-only (OneEditIndex's start and ids). */
  readonly editStart: Offsets;
  readonly editIds: Uint32Array;

  /**
   * Builds the index of the places, or opens `stored` (the arrays a pack stores, see stored-place-index.ts; the
   * caller checked that they were built from these places by this code).
   */
  constructor(places: PlaceStore, strings: StringTable, admin: AdminNames, stored: PlaceIndexArrays | null = null) {
    if (stored) {
      ({
        vocab: this.vocab,
        formStart: this.formStart,
        forms: this.forms,
        postStart: this.postStart,
        postings: this.postings,
        nameLen: this.nameLen,
        altLen: this.altLen,
        addressLen: this.addressLen,
        nameFlags: this.nameFlags,
        joinOnly: this.joinOnly,
        editStart: this.editStart,
        editIds: this.editIds,
      } = stored);
      return;
    }
    const byFolded = new Map<string, Map<string, number[]>>();
    const n = places.count;
    if (n > MAX_INDEXED_PLACES) throw new RangeError(`${n} places: a place index holds at most ${MAX_INDEXED_PLACES}`);
    this.nameLen = new Uint8Array(n);
    this.altLen = new Uint8Array(n);
    this.addressLen = new Uint8Array(n);
    this.nameFlags = new Uint8Array(n);
    const terms = new PlaceTerms(places, strings, admin);
    for (let i = 0; i < n; i++) {
      const t = terms.of(i);
      this.nameLen[i] = t.nameLen;
      this.altLen[i] = t.altLen;
      this.addressLen[i] = t.addressLen;
      this.nameFlags[i] = t.flags;
      for (const [exact, { folded, field, joined, expanded }] of t.words) {
        let forms = byFolded.get(folded);
        if (!forms) byFolded.set(folded, (forms = new Map()));
        let post = forms.get(exact);
        if (!post) forms.set(exact, (post = []));
        post.push(i * 2 ** POSTING_FIELD_BITS + (field | (joined ? JOINED : 0) | (expanded ? EXPANDED : 0)));
      }
    }
    this.vocab = [...byFolded.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const formStart = new Uint32Array(this.vocab.length + 1);
    this.forms = [];
    const posts: number[][] = [];
    this.vocab.forEach((v, k) => {
      for (const [exact, post] of byFolded.get(v)!) {
        this.forms.push(exact);
        posts.push(post);
      }
      formStart[k + 1] = this.forms.length;
    });
    this.formStart = Offsets.encode(formStart);
    const postStart = new Uint32Array(this.forms.length + 1);
    let total = 0;
    posts.forEach((p, f) => {
      total += p.length;
      postStart[f + 1] = total;
    });
    this.postStart = Offsets.encode(postStart);
    const postings = new Uint32Array(total);
    posts.forEach((p, f) => postings.set(p, postStart[f]!));
    this.postings = Postings.encode(postings, this.postStart);
    this.joinOnly = new Uint8Array(this.vocab.length);
    for (let v = 0; v < this.vocab.length; v++) {
      let only = 1;
      for (let k = postStart[formStart[v]!]!; only && k < postStart[formStart[v + 1]!]!; k++)
        if ((postings[k]! & JOINED) === 0) only = 0;
      this.joinOnly[v] = only;
    }
    // Typos are looked up among the words places hold as written ("nguyenvan" is no word of anyone's).
    const edits = new OneEditIndex(this.vocab, (v) => this.joinOnly[v] === 0);
    this.editStart = edits.start;
    this.editIds = edits.ids;
  }

  /** Whether the vocabulary holds the folded word `w` (with `prefix`, a word starting with it). Bound: pass it on. */
  readonly has = (w: string, prefix = false): boolean => {
    const v = this.lowerBound(w);
    return v < this.vocab.length && (prefix ? this.vocab[v]!.startsWith(w) : this.vocab[v] === w);
  };

  /** Ids of the vocabulary words within one edit of `w` (itself included when it is one), ascending. */
  nearWords(w: string): number[] {
    this.edits ??= new OneEditIndex(this.vocab, () => true, { start: this.editStart, ids: this.editIds });
    return this.edits.near(w);
  }
  /** The one-edit index over editStart/editIds, opened at the first nearWords. */
  private edits: OneEditIndex | undefined;

  /**
   * Whether the vocabulary holds a word other than `w` within one edit of it, on the same first letter (`w` may be a
   * typo of it). Bound: pass it on.
   */
  readonly hasNear = (w: string): boolean =>
    this.nearWords(w).some((v) => this.vocab[v] !== w && this.vocab[v]![0] === w[0]);

  /** Whether some place holds the word as written (NFC, lower case, marks kept). Bound: pass it on. */
  readonly hasForm = (exact: string): boolean => {
    const folded = fold(exact);
    const v = this.lowerBound(folded);
    if (this.vocab[v] !== folded) return false;
    for (let f = this.formStart.at(v); f < this.formStart.at(v + 1); f++) if (this.forms[f] === exact) return true;
    return false;
  };

  /** Index of the first vocabulary word that is >= `s` (binary search). */
  lowerBound(s: string): number {
    return firstAtLeast(this.vocab, s);
  }
}

/** Index of the first string of sorted `list` that is >= `s` (its length when none is). */
export function firstAtLeast(list: readonly string[], s: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of distinct non-type words, at most 255. */
function distinctWords(terms: ReturnType<typeof storedTermsOf>): number {
  return Math.min(255, new Set(terms.filter((w) => !w.optional).map((w) => w.folded)).size);
}
