import { PackError, type Pack } from './reader.js';
import type { TypedArray } from './format.js';

/**
 * Offset arrays ("first" arrays of compressed rows: row i owns items first[i] .. first[i+1]-1) are what readers
 * loop over, so a pack opened without `verify` must not hand them out unchecked: one flipped byte can turn
 * first[i+1] into four billion, and a loop meant to visit a handful of items then runs for minutes over
 * `undefined`. Checked once when a pack is opened (linear in the array), never in the loops.
 */

/**
 * True when `first` is a valid offset array over `end` items: it starts at 0, never decreases, and its last entry
 * is `end`. An empty array is valid only when it must describe nothing (`end` 0).
 * @param first the offsets (item indices): an array, or an Offsets column
 * @param end the number of items the rows cover
 */
export function isOffsetArray(first: ArrayLike<number> | Offsets, end: number): boolean {
  const n = first.length;
  if (n === 0) return end === 0;
  const at = entries(first);
  if (at(0) !== 0 || at(n - 1) !== end) return false;
  for (let i = 1, before = 0; i < n; i++) {
    const v = at(i);
    if (!(v >= before)) return false;
    before = v;
  }
  return true;
}

/** The low part of an Offsets column: per entry its excess over the first entry of its block. */
export type OffsetLow = Uint8Array | Uint16Array | Uint32Array;

/**
 * A non-decreasing offset array (see above) in two levels, as packs store the long ones: per block of 2^shift
 * entries the block's first value whole (`base`, u32), per entry its excess over it (`low`: u8 while every block
 * spans less than 256, u16 less than 65,536, else u32), the block size the one of fewest bytes. Rows of a few items
 * (a grid cell's segments, a word's postings, a place's other names) so take one or two bytes an offset instead of
 * four: whole HCMC's ten offset columns 2.00 MB → 0.82. Reading one is two loads (`at`), allocating nothing.
 *
 * The block size is not stored: it is the one that gives `base` its length, ⌈length / 2^shift⌉, which is unique
 * when there are two blocks or more (with one block, any size covering every entry reads the same).
 */
export class Offsets {
  /** Entries. */
  readonly length: number;
  /**
   * log2 of the entries per block; -1 when no block size gives `base` its length (a damaged pack: readOffsets refuses
   * it).
   */
  readonly shift: number;

  /**
   * @param base per block its first entry
   * @param low per entry its excess over its block's first
   */
  constructor(
    readonly base: Uint32Array,
    readonly low: OffsetLow,
  ) {
    this.length = low.length;
    this.shift = blockShift(low.length, base.length);
  }

  /** A plain offset array as an Offsets (one block; no copy). */
  static whole(first: Uint32Array): Offsets {
    return new Offsets(new Uint32Array(first.length > 0 ? 1 : 0), first);
  }

  /**
   * `values` (non-decreasing whole numbers below 2^32) in the block size of fewest bytes. Throws RangeError naming
   * an entry that is not.
   */
  static encode(column: ArrayLike<number> | Offsets): Offsets {
    const n = column.length,
      values = new Float64Array(n),
      at = entries(column);
    for (let i = 0; i < n; i++) {
      const v = (values[i] = at(i));
      if (!(Number.isInteger(v) && v >= (i > 0 ? values[i - 1]! : 0) && v < 2 ** 32))
        throw new RangeError(`offset ${i} (${v}) is no whole number below 2^32 at least the one before`);
    }
    let shift = 0,
      width = 4,
      bytes = Infinity;
    for (let s = 2; s <= 16; s++) {
      let span = 0;
      for (let i = 0; i < n; i += 1 << s) span = Math.max(span, values[Math.min(i + (1 << s), n) - 1]! - values[i]!);
      const w = span < 0x100 ? 1 : span < 0x10000 ? 2 : 4;
      const b = 4 * Math.ceil(n / (1 << s)) + w * n;
      if (b < bytes) [shift, width, bytes] = [s, w, b];
    }
    const base = new Uint32Array(Math.ceil(n / (1 << shift)));
    const low = width === 1 ? new Uint8Array(n) : width === 2 ? new Uint16Array(n) : new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      if ((i & ((1 << shift) - 1)) === 0) base[i >> shift] = values[i]!;
      low[i] = values[i]! - base[i >> shift]!;
    }
    return new Offsets(base, low);
  }

  /** Entry i (0 ≤ i < length; anything past that is a caller's bug). */
  at(i: number): number {
    return this.base[i >>> this.shift]! + this.low[i]!;
  }
}

/** Entry i of an array or an Offsets column. */
function entries(column: ArrayLike<number> | Offsets): (i: number) => number {
  return column instanceof Offsets ? (i) => column.at(i) : (i) => column[i]!;
}

/** The block shift that splits `n` entries into `blocks` blocks, or -1 when none does. */
function blockShift(n: number, blocks: number): number {
  if (n === 0) return blocks === 0 ? 0 : -1;
  if (blocks === 1) return 31;
  for (let s = 0; s < 31; s++) if (Math.ceil(n / 2 ** s) === blocks) return s;
  return -1;
}

/** The two sections of the Offsets column `name` in a pack (the column's plain u32 form was the section `name`). */
export function offsetSections(name: string): { base: string; low: string } {
  return { base: `${name}Base`, low: `${name}Low` };
}

/**
 * The sections of the Offsets column `name` of `column`, for a pack being written (PackWriter.addArrays). Throws
 * RangeError naming the section when an entry does not fit (see Offsets.encode).
 */
export function offsetArrays(name: string, column: ArrayLike<number> | Offsets): [string, TypedArray][] {
  let encoded: Offsets;
  try {
    encoded = Offsets.encode(column);
  } catch (err) {
    throw new RangeError(`section "${name}": ${(err as Error).message}`);
  }
  const s = offsetSections(name);
  return [
    [s.base, encoded.base],
    [s.low, encoded.low],
  ];
}

/** Whether the pack has the offsets column `name`, in either form. */
export function hasOffsets(pack: Pack, name: string): boolean {
  return pack.has(name) || pack.has(offsetSections(name).low);
}

/**
 * The pack's offsets column `name`: its two sections, or in packs from before 2026-12-03 the one u32 section `name`.
 * Checked whole (isOffsetArray) to hold `fit.rows` + 1 entries, the last `fit.end` (each when given): throws
 * PackError naming the pack and section when it is missing or does not fit.
 */
export function readOffsets(pack: Pack, name: string, fit: { rows?: number; end?: number } = {}): Offsets {
  const s = offsetSections(name);
  let column: Offsets | null = null;
  if (pack.has(s.low)) {
    const base = pack.array(s.base),
      low = pack.array(s.low);
    if (
      base instanceof Uint32Array &&
      (low instanceof Uint8Array || low instanceof Uint16Array || low instanceof Uint32Array)
    )
      column = new Offsets(base, low);
  } else if (pack.has(name)) {
    const first = pack.array(name);
    if (first instanceof Uint32Array) column = Offsets.whole(first);
  }
  const fits =
    column !== null &&
    column.shift >= 0 &&
    (fit.rows === undefined || column.length === fit.rows + 1) &&
    isOffsetArray(column, fit.end ?? (column.length > 0 ? column.at(column.length - 1) : 0));
  if (!fits) {
    const want = `${fit.rows === undefined ? '' : `${fit.rows + 1} `}offsets${fit.end === undefined ? '' : ` up to ${fit.end}`}`;
    throw new PackError(pack.source, `corrupt section "${pack.has(s.low) ? s.low : name}": not ${want}`);
  }
  return column!;
}
