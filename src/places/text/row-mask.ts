/**
 * Sets of rows of the CATEGORIES table (categories.ts) as bit masks of MASK_WORDS 32-bit words: row r is bit r & 31
 * of word r >> 5. Masks are small immutable tuples, each word unsigned (so a word compares equal to the same word read
 * from a Uint32Array); the helpers make new ones.
 */

/** 32-bit words of a mask. */
export const MASK_WORDS = 3;

/** Rows of the CATEGORIES table a mask can hold. */
export const CATEGORY_ROWS = 32 * MASK_WORDS;

/** A set of category rows (MASK_WORDS words: the helpers below are written out for three). */
export type RowMask = readonly [number, number, number];

/** The mask of no row. */
export const NO_ROWS: RowMask = [0, 0, 0];

/** The mask of row `row` alone. */
export function rowBit(row: number): RowMask {
  const m: [number, number, number] = [0, 0, 0];
  m[row >> 5] = (1 << (row & 31)) >>> 0;
  return m;
}

/** True when `m` holds row `row`. */
export function hasRow(m: RowMask, row: number): boolean {
  return ((m[row >> 5]! >>> (row & 31)) & 1) !== 0;
}

/** The rows of `a` or `b`. */
export function orRows(a: RowMask, b: RowMask): RowMask {
  return [(a[0] | b[0]) >>> 0, (a[1] | b[1]) >>> 0, (a[2] | b[2]) >>> 0];
}

/** The rows of both `a` and `b`. */
export function andRows(a: RowMask, b: RowMask): RowMask {
  return [(a[0] & b[0]) >>> 0, (a[1] & b[1]) >>> 0, (a[2] & b[2]) >>> 0];
}

/** The rows of `a` not in `b`. */
export function withoutRows(a: RowMask, b: RowMask): RowMask {
  return [(a[0] & ~b[0]) >>> 0, (a[1] & ~b[1]) >>> 0, (a[2] & ~b[2]) >>> 0];
}

/** True when `a` and `b` share a row. */
export function rowsMeet(a: RowMask, b: RowMask): boolean {
  return (a[0] & b[0]) !== 0 || (a[1] & b[1]) !== 0 || (a[2] & b[2]) !== 0;
}

/** True when `m` holds no row. */
export function noRow(m: RowMask): boolean {
  return (m[0] | m[1] | m[2]) === 0;
}

/** True when every row of `a` is in `b`. */
export function rowsWithin(a: RowMask, b: RowMask): boolean {
  return noRow(withoutRows(a, b));
}

/** True when `a` and `b` hold the same rows. */
export function sameRows(a: RowMask, b: RowMask): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}
