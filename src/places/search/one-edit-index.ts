/**
 * The words of a vocabulary within one edit of a word (one letter inserted, deleted or replaced, or two adjacent
 * letters swapped: withinOneEdit), found without scanning the vocabulary: a deletion neighbourhood (SymSpell's idea,
 * for distance one). Every word is filed under a hash of itself and of each of its one-letter deletions. Two words
 * within one edit always share one of those strings (an insertion or a deletion: the shorter word is a deletion of the
 * longer; a replacement at i: both with letter i deleted; a swap of i and i + 1: the first with letter i deleted, the
 * second with letter i + 1), so the words filed under the query's own keys, checked with withinOneEdit, are exactly
 * its one-edit neighbours.
 *
 * Layout: a hash table in CSR form (a power of two of buckets → word ids), 4 bytes per key and per bucket; a vocabulary
 * of V words of mean length L takes about 8·V·(L + 1) bytes. Built in two passes (a counting sort), or stored in the
 * pack with the place index (stored-index.ts).
 */
import { Offsets } from '../../pack/offsets.js';
import { withinOneEdit } from '../text/edits';

/** FNV-1a of `w`'s UTF-16 code units, leaving out the one at `skip` (-1: none). Packs store tables of these keys (stored-index.ts): another hash needs another LAYOUT there. */
function hashWithout(w: string, skip: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) {
    if (i === skip) continue;
    h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** One-edit neighbours of words, over a fixed vocabulary. */
export class OneEditIndex {
  private readonly mask: number;
  /** Query stamp per word id (a word reached through several keys is reported once). */
  private readonly seen: Uint32Array;
  private stamp = 0;
  /** Length of the longest word of the vocabulary: a word two letters longer has no neighbour (no lookup, which costs its length squared). */
  private readonly longest: number;
  /** Word ids of bucket b: ids[start[b] .. start[b + 1]). */
  readonly start: Offsets;
  readonly ids: Uint32Array;

  /**
   * Files the words `include` accepts, or opens `stored` (the arrays of an index of this vocabulary and filter,
   * built by this code: see stored-index.ts).
   * @param vocab the words (any order)
   */
  constructor(
    private readonly vocab: readonly string[],
    include: (id: number) => boolean,
    stored: { start: Offsets; ids: Uint32Array } | null = null,
  ) {
    this.seen = new Uint32Array(vocab.length);
    this.longest = vocab.reduce((m, w) => Math.max(m, w.length), 0);
    if (stored) {
      ({ start: this.start, ids: this.ids } = stored);
      this.mask = this.start.length - 2;
      return;
    }
    // Every key of every filed word (its own hash, then one per deleted letter), hashed once, then counting-sorted
    // into a power of two of buckets.
    const filed: number[] = [];
    let keys = 0;
    for (let v = 0; v < vocab.length; v++)
      if (include(v)) {
        filed.push(v);
        keys += vocab[v]!.length + 1;
      }
    const hashes = new Uint32Array(keys);
    const owners = new Uint32Array(keys);
    let k = 0;
    for (const v of filed) {
      const w = vocab[v]!;
      for (let skip = -1; skip < w.length; skip++) {
        hashes[k] = hashWithout(w, skip);
        owners[k++] = v;
      }
    }
    let buckets = 1;
    while (buckets < keys) buckets *= 2;
    this.mask = buckets - 1;
    const start = new Uint32Array(buckets + 1);
    this.ids = new Uint32Array(keys);
    for (k = 0; k < keys; k++) start[(hashes[k]! & this.mask) + 1]!++;
    for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
    const fill = start.slice(0, buckets);
    for (k = 0; k < keys; k++) this.ids[fill[hashes[k]! & this.mask]!++] = owners[k]!;
    this.start = Offsets.encode(start);
  }

  /** Ids of the filed words within one edit of `w` (itself included when filed), ascending. */
  near(w: string): number[] {
    const stamp = ++this.stamp;
    const out: number[] = [];
    if (w.length > this.longest + 1) return out;
    for (let skip = -1; skip < w.length; skip++) {
      const b = hashWithout(w, skip) & this.mask;
      for (let k = this.start.at(b), end = this.start.at(b + 1); k < end; k++) {
        const v = this.ids[k]!;
        if (this.seen[v] === stamp) continue;
        this.seen[v] = stamp;
        if (withinOneEdit(w, this.vocab[v]!)) out.push(v);
      }
    }
    return out.sort((a, b) => a - b);
  }
}
