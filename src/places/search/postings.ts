import type { Offsets } from '../../pack/offsets.js';
import { putVarint, VarintCursor, varintBytes } from '../../pack/varint.js';

/**
 * Postings per block: the first posting of a block is written whole, so a reader can start at any block, and a
 * reader skipping ahead (PostingReader.seek) tries a block by decoding its first posting alone.
 */
export const POSTING_BLOCK = 32;
const BLOCK_SHIFT = 5;

/**
 * The postings of a place index (PlaceIndex.postings: per form, its places with their fields, ascending) as varints:
 * a form's first posting and every block's first posting whole, every other one as its step from the one before
 * (at least 1: a form holds a place once). Whole HCMC's 790,983 postings take 1.1 MB instead of 3.2 as words: an
 * admin word's postings run over every place of its unit, a byte or two apart. Read them through a PostingReader.
 */
export class Postings {
  /**
   * @param bytes the varints, little end first, seven bits a byte, the high bit set on every byte but a number's last
   * @param blockAt per block of POSTING_BLOCK postings the byte its first posting starts at, then the bytes' length
   * @param count how many postings there are
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly blockAt: Uint32Array,
    readonly count: number,
  ) {}

  /** The postings `values` whose forms start at `starts` (offsets into `values`: form f's are starts[f] .. starts[f+1]). */
  static encode(values: Uint32Array, starts: Offsets): Postings {
    const count = values.length;
    const blockAt = new Uint32Array(blockCount(count) + 1);
    let bytes = 0;
    const each = (write: (x: number) => void): void => {
      let f = 0;
      for (let k = 0; k < count; k++) {
        while (starts.at(f + 1) <= k) f++;
        if ((k & (POSTING_BLOCK - 1)) === 0) blockAt[k >> BLOCK_SHIFT] = bytes;
        write(k === starts.at(f) || (k & (POSTING_BLOCK - 1)) === 0 ? values[k]! : values[k]! - values[k - 1]!);
      }
      blockAt[blockAt.length - 1] = bytes;
    };
    // Counted, then written into one array.
    each((x) => (bytes += varintBytes(x)));
    const out = new Uint8Array(bytes);
    bytes = 0;
    each((x) => (bytes = putVarint(out, bytes, x)));
    return new Postings(out, blockAt, count);
  }

  /**
   * Why these arrays are no postings of forms `starts`, or null when they are: each form's postings ascend, `fits`
   * holds for every posting (its place and field), and every varint ends inside the bytes, where its block says.
   * Reads every posting once, never past the bytes.
   */
  problem(starts: Offsets, fits: (posting: number) => boolean): string | null {
    const { bytes, blockAt, count } = this;
    if (blockAt.length !== blockCount(count) + 1 || blockAt[blockAt.length - 1] !== bytes.length)
      return 'the blocks do not fit the postings';
    if (starts.length === 0 || starts.at(starts.length - 1) !== count) return 'the forms do not fit the postings';
    const c = new VarintCursor();
    let value = 0,
      f = 0;
    for (let k = 0; k < count; k++) {
      while (starts.at(f + 1) <= k) f++;
      const whole = k === starts.at(f) || (k & (POSTING_BLOCK - 1)) === 0;
      if ((k & (POSTING_BLOCK - 1)) === 0 && blockAt[k >> BLOCK_SHIFT] !== c.at)
        return `block ${k >> BLOCK_SHIFT} is not where it says`;
      // Below 2^32: at most 5 bytes.
      const x = c.read(bytes, bytes.length, 5);
      if (x < 0) return `posting ${k} runs past its bytes`;
      if (!whole && x === 0) return `posting ${k} does not ascend`;
      value = whole ? x : value + x;
      if (value > 0xffffffff || !fits(value)) return `posting ${k} names no place and field of the index`;
    }
    return c.at === bytes.length ? null : 'bytes are left after the postings';
  }
}

const NO_BYTES = new Uint8Array(0);
const NO_BLOCKS = new Uint32Array(0);

/** Blocks of `count` postings. */
function blockCount(count: number): number {
  return Math.ceil(count / POSTING_BLOCK);
}

/**
 * Reads one form's postings in order, or skips ahead to the first at or above a value (galloping over the blocks'
 * first postings, then posting by posting inside a block): `open`, then `next` or `seek` until they return false,
 * reading `value`. Allocates nothing; one reader serves every form in turn.
 */
export class PostingReader {
  /** The posting read last (valid once next or seek returned true). */
  value = 0;
  /** Its index among all postings. */
  k = 0;
  private bytes: Uint8Array = NO_BYTES;
  private blockAt: Uint32Array = NO_BLOCKS;
  private lo = 0;
  private hi = 0;
  private at = 0;

  /** Places the reader before posting `lo`, the first of a form, whose postings end before `hi`. */
  open(postings: Postings, lo: number, hi: number): this {
    this.bytes = postings.bytes;
    this.blockAt = postings.blockAt;
    this.lo = lo;
    this.hi = hi;
    this.k = lo - 1;
    this.value = 0;
    // Starts at lo's block and passes the varints that block holds before lo (the forms' before it).
    const { bytes, blockAt } = postings;
    let at = blockAt[lo >> BLOCK_SHIFT] ?? bytes.length;
    for (let skip = lo & (POSTING_BLOCK - 1); skip > 0; skip--) while (bytes[at++]! >= 0x80);
    this.at = at;
    return this;
  }

  /** Reads the next posting into `value`; false past the form's last. */
  next(): boolean {
    const k = ++this.k;
    if (k >= this.hi) return false;
    const x = this.varint();
    this.value = k === this.lo || (k & (POSTING_BLOCK - 1)) === 0 ? x : this.value + x;
    return true;
  }

  /**
   * Moves to the first posting from the current one on (the next one when none was read yet) whose value is at least
   * `target`; false when the form has none. Blocks whose next block's first posting is still below `target` are
   * passed without reading their postings.
   */
  seek(target: number): boolean {
    if (this.k >= this.lo && this.k < this.hi && this.value >= target) return true;
    const blockAt = this.blockAt;
    // The last block, from the one after the current posting's, whose first posting is below target: galloping.
    const from = (this.k + 1) >> BLOCK_SHIFT,
      last = (this.hi - 1) >> BLOCK_SHIFT;
    let below = -1;
    // Only blocks that start inside the form (after its first posting) hold one of its postings first.
    let step = 1;
    let b = from + 1;
    while (b <= last && this.firstOf(b) < target) {
      below = b;
      b = below + step;
      step *= 2;
    }
    if (below >= 0) {
      let h = Math.min(b, last + 1);
      let l = below + 1;
      while (l < h) {
        const m = (l + h) >>> 1;
        if (this.firstOf(m) < target) l = m + 1;
        else h = m;
      }
      below = l - 1;
      // Inside block `below`, before its first posting.
      this.k = below * POSTING_BLOCK - 1;
      this.at = blockAt[below]!;
    }
    while (this.next()) if (this.value >= target) return true;
    return false;
  }

  /** The first posting of block `block` (written whole), the reader left where it was. */
  private firstOf(block: number): number {
    const at = this.at;
    this.at = this.blockAt[block]!;
    const x = this.varint();
    this.at = at;
    return x;
  }

  /** The varint at the reader's byte, which it passes. */
  private varint(): number {
    const bytes = this.bytes;
    let at = this.at;
    let b = bytes[at++]!;
    if (b < 0x80) {
      this.at = at;
      return b;
    }
    let x = b & 0x7f;
    for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
      b = bytes[at++]!;
      x += (b & 0x7f) * scale;
    }
    this.at = at;
    return x;
  }
}
