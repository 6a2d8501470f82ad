/**
 * Ranked search over a PlaceIndex. Every query word is looked up by its folded form (recall), exactly, as a
 * prefix (the last word while typing) and within one typo; each match is weighted by how good it is, by the
 * field it hit (the place's name beats its street beats its ward) and by diacritic agreement (a query written
 * with marks prefers candidates with the same marks). A place's score adds up the best match of every query
 * word, plus how much of its own name the query covers, its importance and the caller's boosts (location bias,
 * admin consistency).
 */
import { diacriticAgreement } from '../text/fold';
import { withinOneEdit } from './edits';
import { Field, type PlaceIndex } from './index';
import type { Term } from './terms';

/** Match quality of an exact word, a prefix (scaled up as it nears the whole word) and a one-typo word. */
const EXACT = 1;
const PREFIX_MIN = 0.7;
const PREFIX_SPAN = 0.25;
const TYPO = 0.65;
/** Words shorter than this are not typo-matched (too many neighbours). */
const TYPO_MIN_LENGTH = 3;
/** Weight of a field's match: name 1, a POI's street address 0.85, admin names 0.8. */
const FIELD_WEIGHT = [1, 0.85, 0.8];
/** Query words whose vocabulary matches are kept per searcher. */
const LOOKUP_CACHE_SIZE = 4096;
/** Weight of a query word: type words count little, numbers a bit less than names. */
const OPTIONAL_WEIGHT = 0.25;
const NUMBER_WEIGHT = 0.8;
/** Score parts on top of the text match (which is in 0..1). */
const COMPLETENESS_WEIGHT = 0.3;
const IMPORTANCE_WEIGHT = 0.08;
/** Taken per required query word a place does not explain (a ward is a poor answer to "BIDV, Phường Giảng Võ"). */
const MISSING_PENALTY = 0.2;

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
}

/** What a search may do besides matching words. */
export interface SearchOptions {
  /** The last word may be an unfinished prefix (autocomplete). */
  prefix: boolean;
  /** Best hits to return. */
  limit: number;
  /** Importance of each place, 0..255. */
  importance: Uint8Array;
  /** False excludes a place (radius filter, kinds). */
  keep?: (place: number) => boolean;
  /** Added to the score of a place that matched (location bias, admin consistency). */
  boost?: (place: number) => number;
  /** Numbers (house and alley numbers) rank but need not match (forward geocoding). */
  numbersOptional?: boolean;
}

/** Scratch state for searching one index; reused across queries (the engine answers one query at a time). */
export class Searcher {
  private acc: Float32Array;
  private best: Float32Array;
  private seen: Int32Array;
  private termSeen: Int32Array;
  private mainSeen: Int32Array;
  private reqHits: Uint8Array;
  private mainHits: Uint8Array;
  private addrSeen: Int32Array;
  private addrHits: Uint8Array;
  private anyMain: Uint8Array;
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
    this.reqHits = new Uint8Array(n);
    this.mainHits = new Uint8Array(n);
    this.addrSeen = new Int32Array(n);
    this.addrHits = new Uint8Array(n);
    this.anyMain = new Uint8Array(n);
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
        out.push({ v, q: len === w.length ? EXACT : PREFIX_MIN + (PREFIX_SPAN * w.length) / len, prefixOf: w.length, typo: false });
      }
    } else if (v < ix.vocab.length && ix.vocab[v] === w) {
      out.push({ v, q: EXACT, prefixOf: 0, typo: false });
    }
    if (!term.numeric && w.length >= TYPO_MIN_LENGTH) {
      const q = out.length > 0 ? TYPO * 0.8 : TYPO;
      for (let k = 0; k < ix.vocab.length; k++) {
        const word = ix.vocab[k]!;
        if (word !== w && withinOneEdit(w, word) && !(asPrefix && word.startsWith(w))) out.push({ v: k, q, prefixOf: 0, typo: true });
      }
    }
    return out;
  }

  /** The best `opts.limit` places for the query terms, best first. */
  search(terms: Term[], opts: SearchOptions): Hit[] {
    const ix = this.index;
    if (terms.length === 0) return [];
    const stamp = ++this.stamp;
    let touchedCount = 0;
    let totalWeight = 0;
    let required = 0;
    const isRequired = (t: Term): boolean => !t.optional && !(opts.numbersOptional && t.numeric);
    for (const t of terms) if (isRequired(t)) required++;
    terms.forEach((term, j) => {
      const needed = isRequired(term);
      const weight = term.optional ? OPTIONAL_WEIGHT : term.numeric ? NUMBER_WEIGHT : 1;
      totalWeight += weight;
      const termStamp = ++this.termStamp;
      const asPrefix = opts.prefix && j === terms.length - 1;
      for (const m of this.lookup(term, asPrefix)) {
        for (let f = ix.formStart[m.v]!; f < ix.formStart[m.v + 1]!; f++) {
          let q = m.q;
          if (term.marked && !m.typo) {
            const form = m.prefixOf > 0 ? ix.forms[f]!.slice(0, m.prefixOf) : ix.forms[f]!;
            q *= diacriticAgreement(term.exact, form) || 0.5;
          }
          for (let k = ix.postStart[f]!; k < ix.postStart[f + 1]!; k++) {
            const p = ix.postPlace[k]!;
            const field = ix.postField[k]!;
            if (this.seen[p] !== stamp) {
              this.seen[p] = stamp;
              this.acc[p] = 0;
              this.reqHits[p] = 0;
              this.mainHits[p] = 0;
              this.addrHits[p] = 0;
              this.anyMain[p] = 0;
              this.touched[touchedCount++] = p;
            }
            if (this.termSeen[p] !== termStamp) {
              this.termSeen[p] = termStamp;
              this.best[p] = 0;
              if (needed) this.reqHits[p]++;
            }
            if (field === Field.main) {
              this.anyMain[p] = 1;
              if (this.mainSeen[p] !== termStamp) {
                this.mainSeen[p] = termStamp;
                if (!term.optional) this.mainHits[p]++;
              }
            } else if (field === Field.address && this.addrSeen[p] !== termStamp) {
              this.addrSeen[p] = termStamp;
              if (!term.optional) this.addrHits[p]++;
            }
            const s = q * FIELD_WEIGHT[field]!;
            if (s > this.best[p]!) {
              this.acc[p] += weight * (s - this.best[p]!);
              this.best[p] = s;
            }
          }
        }
      }
    });
    // Queries of several words may carry one word the data does not hold ("Việt Nam", a postcode, a typo too far).
    const allowedMissing = required >= 3 ? 1 : 0;
    const top: Hit[] = [];
    const limit = Math.max(1, opts.limit);
    for (let k = 0; k < touchedCount; k++) {
      const p = this.touched[k]!;
      // A place must be found by its own name or (a POI) by its own address, not only by its ward's name.
      if (this.reqHits[p]! + allowedMissing < required) continue;
      if (this.mainHits[p] === 0 && this.addrHits[p] === 0 && (required > 0 || this.anyMain[p] === 0)) continue;
      if (opts.keep && !opts.keep(p)) continue;
      const text = this.acc[p]! / totalWeight;
      const nameLen = ix.nameLen[p]!;
      const addressLen = ix.addressLen[p]!;
      const completeness = Math.max(
        nameLen === 0 ? 1 : Math.min(1, this.mainHits[p]! / nameLen),
        addressLen === 0 ? 0 : Math.min(1, this.addrHits[p]! / addressLen),
      );
      const missing = required - this.reqHits[p]!;
      const score =
        text + COMPLETENESS_WEIGHT * completeness + (IMPORTANCE_WEIGHT * opts.importance[p]!) / 255 - MISSING_PENALTY * missing + (opts.boost ? opts.boost(p) : 0);
      if (top.length === limit && score <= top[limit - 1]!.score) continue;
      // Insertion into the small sorted top list; ties keep the lower place number first (deterministic).
      let at = top.length;
      while (at > 0 && top[at - 1]!.score < score) at--;
      top.splice(at, 0, { place: p, score, text });
      if (top.length > limit) top.pop();
    }
    return top;
  }
}
