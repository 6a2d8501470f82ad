// Offset columns in two levels (src/pack/offsets.ts): every entry reads back as written in the narrowest form that
// holds it, damage is named with its pack and section, and packs from before (one u32 per entry, and the columns of
// string ids whole rather than as distinct values: value-column.ts) still load and answer the same.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isOffsetArray, offsetArrays, offsetSections, Offsets, readOffsets } from '../src/pack/offsets.js';
import { PackWriter } from '../src/pack/writer.js';
import { Pack, PackError } from '../src/pack/reader.js';
import { createEngine } from '../src/engine.js';
import { readValues, valueSections } from '../src/pack/value-column.js';
import { testPack } from './helpers/packs.js';
import { rewrite } from './helpers/pack-rewrite.js';

/** Offset arrays from 0: mostly short rows, now and then a long one (so that some need u16 or u32 excesses). */
const offsetsArb = fc
  .array(fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 6 }) }, fc.integer({ min: 0, max: 300_000 })), {
    maxLength: 700,
  })
  .map((rows) => {
    const first = new Uint32Array(rows.length + 1);
    rows.forEach((n, i) => (first[i + 1] = first[i]! + n));
    return first;
  });

const entries = (c: Offsets) => Array.from({ length: c.length }, (_, i) => c.at(i));

/** The pack's columns that are Offsets. */
const COLUMNS = [
  'str.offs',
  'place.alt.first',
  'route.snap.first',
  'place.ix.formStart',
  'place.ix.postStart',
  'place.ix.editStart',
];

describe('offset columns', () => {
  it('read every entry back as written, from the sections as a pack stores them', () => {
    fc.assert(
      fc.property(offsetsArb, (first) => {
        const c = Offsets.encode(first);
        expect(entries(c)).toEqual([...first]);
        expect(isOffsetArray(c, first[first.length - 1]!)).toBe(true);
        // The block size is found again from the sections alone.
        const [[, base], [, low]] = offsetArrays('x', first);
        expect(entries(new Offsets(base as Uint32Array, low as Uint8Array))).toEqual([...first]);
        // Narrowest: no entry's excess would fit a narrower type with a block size this small.
        const width = c.low.BYTES_PER_ELEMENT;
        if (width > 1) expect(Math.max(...c.low)).toBeGreaterThanOrEqual(width === 2 ? 0x100 : 0x10000);
      }),
    );
  });

  it('take one byte an entry where rows are short', () => {
    const first = Uint32Array.from({ length: 100_001 }, (_, i) => 3 * i);
    const c = Offsets.encode(first);
    expect(c.low).toBeInstanceOf(Uint8Array);
    expect(c.base.byteLength + c.low.byteLength).toBeLessThan(1.1 * 100_001);
  });

  it('refuse entries that are not whole, ascending and below 2^32, naming the section', () => {
    expect(() => Offsets.encode([0, 3, 2])).toThrow(/offset 2 \(2\)/);
    expect(() => Offsets.encode([0, 1.5])).toThrow(/offset 1/);
    expect(() => Offsets.encode([0, 2 ** 32])).toThrow(/offset 1/);
    expect(() => new PackWriter().addArrays(offsetArrays('place.alt.first', [0, NaN]))).toThrow(
      /section "place\.alt\.first": offset 1/,
    );
  });

  it('name the pack and section of a column that is damaged or does not fit', () => {
    fc.assert(
      fc.property(offsetsArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (first, at, add) => {
        const s = offsetSections('x');
        const [[, base], [, low]] = offsetArrays('x', first);
        const read = (b: unknown, l: unknown, fit = {}) =>
          readOffsets(
            Pack.from(rewrite(new PackWriter().finish(), { [s.base]: b, [s.low]: l }), { source: 'p' }),
            'x',
            fit,
          );
        expect(entries(read(base, low, { rows: first.length - 1, end: first[first.length - 1] }))).toEqual([...first]);
        // A changed excess breaks the order or the end, unless it lands where the order and end still hold.
        const damaged = (low as Uint8Array).slice();
        damaged[at % damaged.length] = (damaged[at % damaged.length]! + add) % (1 << (8 * damaged.BYTES_PER_ELEMENT));
        try {
          const c = read(base, damaged, { end: first[first.length - 1] });
          expect(isOffsetArray(c, first[first.length - 1]!)).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(PackError);
          expect(String(err)).toMatch(/^PackError: p: corrupt section "xLow"/);
        }
        // Blocks the entries do not split into: named, or (where the blocks dropped added nothing) the same entries.
        if (base.length > 1)
          try {
            expect(entries(read(base.subarray(1), low))).toEqual([...first]);
          } catch (err) {
            expect(String(err)).toMatch(/corrupt section "xLow"/);
          }
        // A count the caller does not expect: always named.
        expect(() => read(base, low, { rows: first.length })).toThrow(/not \d+ offsets/);
      }),
    );
  });
});

describe('the real Hanoi pack', () => {
  let bytes: Uint8Array;
  beforeAll(() => {
    bytes = testPack('hanoi');
  });

  it('stores its long offset columns in two levels, at most half the bytes of one u32 an entry', () => {
    const pack = Pack.from(bytes);
    for (const name of COLUMNS) {
      const s = offsetSections(name);
      expect(pack.has(name), name).toBe(false);
      const c = readOffsets(pack, name);
      expect(pack.length(s.base) * 4 + pack.array(s.low).byteLength, name).toBeLessThanOrEqual(2 * c.length + 64);
    }
  });

  it('answers the same from a pack of one u32 an entry (before the columns)', async () => {
    const pack = Pack.from(bytes);
    const change: Record<string, unknown> = {};
    for (const name of COLUMNS) {
      const s = offsetSections(name);
      change[name] = Uint32Array.from(entries(readOffsets(pack, name)));
      change[s.base] = change[s.low] = null;
    }
    for (const [name, count] of [
      ['place.street', pack.length('place.lat')],
      ['place.category', pack.length('place.lat')],
      ['place.locality', pack.length('place.lat')],
      ['graph.edge.name', pack.length('graph.edge.len')],
    ] as const) {
      const s = valueSections(name);
      expect(pack.has(s.row), name).toBe(true);
      const column = readValues(pack, name, count);
      change[name] = Uint32Array.from({ length: count }, (_, i) => column.at(i));
      change[s.row] = change[s.values] = null;
    }
    const old = rewrite(bytes, change);
    expect(Pack.from(old).array(COLUMNS[0]!)).toBeInstanceOf(Uint32Array);
    const [now, before] = await Promise.all([createEngine({ packs: [bytes] }), createEngine({ packs: [old] })]);
    const plain = (x: unknown) =>
      JSON.stringify(x, (k, v: unknown) => (k === 'executed_time' || k === 'executed_time_all' ? undefined : v));
    // A typo reaches the one-edit index; every answer the string table.
    for (const q of ['phở hàng trống', 'benh vien bach mia', 'phường hàng bạc', '36 hang bac', 'bach mai'])
      for (const ask of [
        (e: typeof now) => e.geocode({ address: q }),
        (e: typeof now) => e.autocomplete({ input: q }),
      ]) {
        const got = plain(ask(now));
        expect(plain(ask(before))).toBe(got);
        expect(got, q).toMatch(/"status":"OK"/);
      }
    // Snapping reads the grid's offsets.
    const direction = (e: typeof now) =>
      e.direction({ origin: '21.0285,105.8542', destination: '21.0368,105.8347', vehicle: 'car' });
    expect(plain(direction(before))).toBe(plain(direction(now)));
    expect(plain(direction(now))).toMatch(/"status":"OK"/);
    await Promise.all([now.close(), before.close()]);
  });
});
