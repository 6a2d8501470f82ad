import { distinctRows, fitsRows, type RowIds } from './distinct-rows.js';
import type { TypedArray } from './format.js';
import { PackError, type Pack } from './reader.js';

/**
 * A column of whole numbers below 2^32 that repeats a few values over many records (string ids: a place's street,
 * locality and category, an edge's name), as a pack stores it: its distinct values (`<name>Values`, u32, in order of
 * first use) and per record the number of its value (`<name>Row`: u8 while at most 256 values, u16 while at most
 * 65,536; distinct-rows.ts) when that takes fewer bytes, else every value whole (the u32 section `<name>`, as every
 * pack stored it before 2026-12-03). `at(i)` reads one or two arrays and allocates nothing.
 */
export class ValueColumn {
  /** Records. */
  readonly length: number;

  /**
   * @param ids per record the number of its value in `values`, or its value itself when `values` is null
   * @param values the distinct values, or null for a column stored whole
   */
  constructor(
    readonly ids: RowIds,
    readonly values: Uint32Array | null,
  ) {
    this.length = ids.length;
  }

  /** The column of `values` in the form of fewest bytes. */
  static encode(values: Uint32Array): ValueColumn {
    const { ids, rows } = distinctRows(values, 1);
    return ids.byteLength + rows.byteLength < values.byteLength
      ? new ValueColumn(ids, rows)
      : new ValueColumn(values, null);
  }

  /** Record i's value (0 ≤ i < length; anything past that is a caller's bug). */
  at(i: number): number {
    const v = this.values;
    return v === null ? this.ids[i]! : v[this.ids[i]!]!;
  }
}

/** The sections of the ValueColumn `name` stored as distinct values (whole, it is the section `name`). */
export function valueSections(name: string): { row: string; values: string } {
  return { row: `${name}Row`, values: `${name}Values` };
}

/** The sections of the ValueColumn `name` of `values`, for a pack being written (PackWriter.addArrays). */
export function valueArrays(name: string, values: Uint32Array): [string, TypedArray][] {
  const column = ValueColumn.encode(values);
  const s = valueSections(name);
  return column.values
    ? [
        [s.row, column.ids],
        [s.values, column.values],
      ]
    : [[name, column.ids]];
}

/**
 * The pack's ValueColumn `name` of `count` records, in either form. Throws PackError naming the pack and section
 * when it is missing, of another type or length, or names a value it does not hold.
 */
export function readValues(pack: Pack, name: string, count: number): ValueColumn {
  const s = valueSections(name);
  if (pack.has(s.row)) {
    const ids = pack.array(s.row),
      values = pack.array(s.values);
    if (values instanceof Uint32Array && fitsRows(ids, count, values.length)) return new ValueColumn(ids, values);
    throw new PackError(pack.source, `corrupt section "${s.row}": not ${count} numbers of its values`);
  }
  const whole = pack.has(name) ? pack.array(name) : null;
  if (whole instanceof Uint32Array && whole.length === count) return new ValueColumn(whole, null);
  throw new PackError(pack.source, `corrupt section "${name}": not ${count} u32 values`);
}
