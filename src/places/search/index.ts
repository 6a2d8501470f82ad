/**
 * The search index of one region's places, built in memory when the engine first needs it (a few milliseconds
 * per thousand places): a sorted vocabulary of folded words for prefix and one-typo lookups, the exact
 * (diacritic) forms under each folded word, and per exact form the places that hold it and in which field.
 * Our own compact index rather than flexsearch: it folds đ like the rest of the code, keeps exact forms for
 * diacritic ranking, and answers a query in well under a millisecond on packs of this size.
 */
import { AltKind, PlaceKind } from '../kinds';
import type { PlaceStore } from '../store';
import type { StringTable } from '../../pack/strings';
import type { AdminNames } from '../admin-names';
import { storedTermsOf } from './terms';

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

/** The words of each place, by field. Used by the index builder and by the evaluation bench. */
export interface PlaceTexts {
  main: string;
  alt: string[];
  brand: string[];
  address: string;
  admin: string[];
}

/** Texts of place `i` as they are indexed. */
export function placeTexts(places: PlaceStore, strings: StringTable, admin: AdminNames, i: number): PlaceTexts {
  const house = strings.get(places.house[i]!);
  const street = strings.get(places.street[i]!);
  const houseStreet = [house, street].filter(Boolean).join(' ');
  const kind = places.kind[i]!;
  const name = strings.get(places.name[i]!);
  const main = kind === PlaceKind.address || !name ? houseStreet : name;
  const address = kind === PlaceKind.address ? '' : houseStreet;
  const alt: string[] = [];
  const brand: string[] = [];
  for (let k = places.altFirst[i]!; k < places.altFirst[i + 1]!; k++) {
    (places.altKind[k] === AltKind.brand ? brand : alt).push(strings.get(places.alt[k]!));
  }
  const adminTexts = admin.namesOf(places, i);
  const locality = strings.get(places.locality[i]!);
  if (locality) adminTexts.push(locality);
  return { main, alt, brand, address, admin: adminTexts };
}

/** One region's search index. Place numbers are indices into the region's PlaceStore. */
export class PlaceIndex {
  /** Folded words, sorted (UTF-16 code unit order), unique. */
  readonly vocab: string[];
  /** Exact forms of vocab[v] are forms[formStart[v] .. formStart[v+1]). */
  readonly formStart: Uint32Array;
  readonly forms: string[];
  /** Places holding forms[f] are postPlace[postStart[f] .. postStart[f+1]), ascending, with their field. */
  readonly postStart: Uint32Array;
  readonly postPlace: Int32Array;
  readonly postField: Uint8Array;
  /** Number of distinct words that are not type or category words in each place's name: how many query words name it. */
  readonly nameLen: Uint8Array;
  /** The same for its shortest alternative name (0 without one). */
  readonly altLen: Uint8Array;
  /** The same for a POI's street (a POI found by its address is fully found; numbers do not count). */
  readonly addressLen: Uint8Array;

  constructor(places: PlaceStore, strings: StringTable, admin: AdminNames) {
    const byFolded = new Map<string, Map<string, { places: number[]; fields: number[] }>>();
    const n = places.count;
    this.nameLen = new Uint8Array(n);
    this.altLen = new Uint8Array(n);
    this.addressLen = new Uint8Array(n);
    const perPlace = new Map<string, { folded: string; field: number }>();
    // Admin names repeat across thousands of places: tokenize each distinct text once.
    const termCache = new Map<string, ReturnType<typeof storedTermsOf>>();
    const termsCached = (s: string) => {
      let t = termCache.get(s);
      if (!t) termCache.set(s, (t = storedTermsOf(s)));
      return t;
    };
    for (let i = 0; i < n; i++) {
      perPlace.clear();
      const t = placeTexts(places, strings, admin, i);
      const add = (text: string, field: number): void => {
        for (const term of termsCached(text)) {
          const prev = perPlace.get(term.exact);
          if (!prev || prev.field > field) perPlace.set(term.exact, { folded: term.folded, field });
        }
      };
      add(t.main, Field.main);
      for (const a of t.alt) add(a, Field.alt);
      for (const b of t.brand) add(b, Field.brand);
      add(t.address, Field.address);
      for (const a of t.admin) add(a, Field.admin);
      this.nameLen[i] = distinctWords(termsCached(t.main));
      let alt = 0;
      for (const a of t.alt) {
        const n = distinctWords(termsCached(a));
        if (n > 0 && (alt === 0 || n < alt)) alt = n;
      }
      this.altLen[i] = alt;
      this.addressLen[i] = distinctWords(termsCached(t.address).filter((w) => !w.numeric));
      for (const [exact, { folded, field }] of perPlace) {
        let forms = byFolded.get(folded);
        if (!forms) byFolded.set(folded, (forms = new Map()));
        let post = forms.get(exact);
        if (!post) forms.set(exact, (post = { places: [], fields: [] }));
        post.places.push(i);
        post.fields.push(field);
      }
    }
    this.vocab = [...byFolded.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.formStart = new Uint32Array(this.vocab.length + 1);
    this.forms = [];
    const posts: { places: number[]; fields: number[] }[] = [];
    this.vocab.forEach((v, k) => {
      for (const [exact, post] of byFolded.get(v)!) {
        this.forms.push(exact);
        posts.push(post);
      }
      this.formStart[k + 1] = this.forms.length;
    });
    this.postStart = new Uint32Array(this.forms.length + 1);
    let total = 0;
    posts.forEach((p, f) => {
      total += p.places.length;
      this.postStart[f + 1] = total;
    });
    this.postPlace = new Int32Array(total);
    this.postField = new Uint8Array(total);
    posts.forEach((p, f) => {
      this.postPlace.set(p.places, this.postStart[f]!);
      this.postField.set(p.fields, this.postStart[f]!);
    });
  }

  /** Index of the first vocabulary word that is >= `s` (binary search). */
  lowerBound(s: string): number {
    let lo = 0;
    let hi = this.vocab.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.vocab[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Number of distinct non-type words, at most 255. */
function distinctWords(terms: ReturnType<typeof storedTermsOf>): number {
  return Math.min(255, new Set(terms.filter((w) => !w.optional).map((w) => w.folded)).size);
}
