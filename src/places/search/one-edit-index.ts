/**
 * The words of a vocabulary within one edit of a word (one letter inserted, deleted or replaced, or two adjacent
 * letters swapped: withinOneEdit), found without scanning the vocabulary: a deletion neighbourhood (SymSpell's idea,
 * for distance one). Every word is filed under a hash of itself and of each of its one-letter deletions. Two words
 * within one edit always share one of those strings (an insertion or a deletion: the shorter word is a deletion of the
 * longer; a replacement at i: both with letter i deleted; a swap of i and i + 1: the first with letter i deleted, the
 * second with letter i + 1), so the words filed under the query's own keys, checked with withinOneEdit, are exactly
 * its one-edit neighbours.
 *
 * Layout: an open hash table in CSR form (bucket → word ids), 4 bytes per key and per bucket; a vocabulary of V words
 * of mean length L takes about 8·V·(L + 1) bytes. Built in one pass, no sorting.
 */
import { withinOneEdit } from '../text/edits';

/** FNV-1a of `w`'s UTF-16 code units, leaving out the one at `skip` (-1: none). */
function hashWithout(w: string, skip: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) {
    if (i === skip) continue;
    h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** Keys of a word: its own hash, then one per deleted letter. */
function keyCount(w: string): number {
  return w.length + 1;
}

/** One-edit neighbours of words, over a fixed vocabulary. */
export class OneEditIndex {
  private readonly mask: number;
  /** Word ids of bucket b: ids[start[b] .. start[b + 1]). */
  private readonly start: Uint32Array;
  private readonly ids: Uint32Array;
  /** Query stamp per word id (a word reached through several keys is reported once). */
  private readonly seen: Uint32Array;
  private stamp = 0;

  /**
   * @param vocab the words (any order)
   * @param include which words to file (the others are never returned)
   */
  constructor(
    private readonly vocab: readonly string[],
    include: (id: number) => boolean = () => true,
  ) {
    let keys = 0;
    for (let v = 0; v < vocab.length; v++) if (include(v)) keys += keyCount(vocab[v]!);
    let buckets = 1;
    while (buckets < keys) buckets *= 2;
    this.mask = buckets - 1;
    this.start = new Uint32Array(buckets + 1);
    this.ids = new Uint32Array(keys);
    this.seen = new Uint32Array(vocab.length);
    const each = (visit: (bucket: number, v: number) => void): void => {
      for (let v = 0; v < vocab.length; v++) {
        if (!include(v)) continue;
        const w = vocab[v]!;
        for (let skip = -1; skip < w.length; skip++) visit(hashWithout(w, skip) & this.mask, v);
      }
    };
    each((b) => this.start[b + 1]!++);
    for (let b = 0; b < buckets; b++) this.start[b + 1]! += this.start[b]!;
    const fill = this.start.slice(0, buckets);
    each((b, v) => (this.ids[fill[b]!++] = v));
  }

  /** Ids of the filed words within one edit of `w` (itself included when filed), ascending. */
  near(w: string): number[] {
    const stamp = ++this.stamp;
    const out: number[] = [];
    for (let skip = -1; skip < w.length; skip++) {
      const b = hashWithout(w, skip) & this.mask;
      for (let k = this.start[b]!; k < this.start[b + 1]!; k++) {
        const v = this.ids[k]!;
        if (this.seen[v] === stamp) continue;
        this.seen[v] = stamp;
        if (withinOneEdit(w, this.vocab[v]!)) out.push(v);
      }
    }
    return out.sort((a, b) => a - b);
  }
}
