/**
 * Distinct rows (src/pack/distinct-rows.ts): every record reads back through its row number, no row is stored twice,
 * and row numbers take as few bytes as their count allows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctRows, fitsRows } from '../src/pack/distinct-rows.js';

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
