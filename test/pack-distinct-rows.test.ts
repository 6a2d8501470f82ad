/**
 * Distinct rows (src/pack/distinct-rows.ts): every record reads back through its row number, no row is stored twice,
 * and row numbers take as few bytes as their count allows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctRows, fitsRows } from '../src/pack/distinct-rows.js';
import { readValues, valueArrays, valueSections, ValueColumn } from '../src/pack/value-column.js';
import { Pack, PackError } from '../src/pack/reader.js';
import { PackWriter } from '../src/pack/writer.js';

describe('distinct rows', () => {
  it('gives back every record, each distinct row once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 300 }),
        (width, values) => {
          const data = Int32Array.from(values.slice(0, values.length - (values.length % width)));
          const { ids, rows } = distinctRows(data, width);
          const records = data.length / width;
          expect(ids.length).toBe(records);
          expect(fitsRows(ids, records, rows.length / width)).toBe(true);
          for (let i = 0; i < records; i++)
            expect(Array.from(rows.subarray(ids[i]! * width, ids[i]! * width + width))).toEqual(
              Array.from(data.subarray(i * width, i * width + width)),
            );
          const keys = new Set<string>();
          for (let r = 0; r < rows.length / width; r++) keys.add(rows.subarray(r * width, r * width + width).join());
          expect(keys.size).toBe(rows.length / width);
        },
      ),
    );
  });

  it('numbers rows in 1, 2 or 4 bytes by their count', () => {
    const rowsOf = (count: number) =>
      distinctRows(
        Uint8Array.from({ length: 3 * count }, (_, i) => [(i / 3) >> 8, (i / 3) & 255, 0][i % 3]!),
        3,
      );
    expect(rowsOf(256).ids).toBeInstanceOf(Uint8Array);
    expect(rowsOf(257).ids).toBeInstanceOf(Uint16Array);
    expect(rowsOf(65_536).ids).toBeInstanceOf(Uint16Array);
    const big = distinctRows(
      Int32Array.from({ length: 65_537 }, (_, i) => i),
      1,
    );
    expect(big.ids).toBeInstanceOf(Uint32Array);
    expect(big.ids[65_536]).toBe(65_536);
  });

  it('refuses row numbers past the rows, of another length or another type', () => {
    expect(fitsRows(Uint8Array.of(0, 1, 2), 3, 3)).toBe(true);
    expect(fitsRows(Uint8Array.of(0, 1, 3), 3, 3)).toBe(false);
    expect(fitsRows(Uint8Array.of(0, 1), 3, 3)).toBe(false);
    expect(fitsRows(Int32Array.of(0, 1, 2), 3, 3)).toBe(false);
    expect(fitsRows(Uint8Array.of(0, 1, 2), 3, 3.5)).toBe(false);
  });
});

describe('value columns', () => {
  /** A pack holding the column `name` of `values` as the builder writes it. */
  const packOf = (values: Uint32Array, change: (arrays: [string, unknown][]) => void = () => {}) => {
    const arrays: [string, unknown][] = valueArrays('x', values);
    change(arrays);
    const w = new PackWriter();
    for (const [name, a] of arrays) w.addArray(name, a as Uint32Array);
    return Pack.from(w.finish(), { source: 'p' });
  };

  it('give back every value, as distinct values while that takes fewer bytes, else whole', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70_000 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 3000 }),
        (distinct, picks, length) => {
          const values = Uint32Array.from({ length }, (_, i) => picks[(i * 7919) % picks.length]! % (distinct + 1));
          const pack = packOf(values);
          const column = readValues(pack, 'x', length);
          expect(Array.from({ length }, (_, i) => column.at(i))).toEqual([...values]);
          const stored = column.values ? column.ids.byteLength + column.values.byteLength : values.byteLength;
          expect(stored).toBeLessThanOrEqual(values.byteLength);
          expect(pack.has('x')).toBe(column.values === null);
        },
      ),
    );
  });

  it('take one byte a record where a few values repeat', () => {
    const column = ValueColumn.encode(Uint32Array.from({ length: 10_000 }, (_, i) => 70_000 + (i % 200)));
    expect(column.ids).toBeInstanceOf(Uint8Array);
    expect(column.values!.length).toBe(200);
  });

  it('name the pack and section of numbers past their values, or of another length', () => {
    const values = Uint32Array.from({ length: 1000 }, (_, i) => 5 + (i % 10));
    const s = valueSections('x');
    const past = packOf(values, (arrays) => {
      const row = (arrays[0]![1] as Uint8Array).slice();
      row[500] = 10;
      arrays[0]![1] = row;
    });
    expect(() => readValues(past, 'x', 1000)).toThrow(PackError);
    expect(() => readValues(past, 'x', 1000)).toThrow(new RegExp(`p: corrupt section "${s.row}"`));
    expect(() => readValues(packOf(values), 'x', 999)).toThrow(/not 999 numbers/);
    const whole = packOf(Uint32Array.from({ length: 10 }, (_, i) => i * 1e6));
    expect(whole.has('x')).toBe(true);
    expect(() => readValues(whole, 'x', 11)).toThrow(/corrupt section "x": not 11 u32 values/);
  });
});
