// Postings as varint steps in blocks (src/places/search/postings.ts): every form reads back as written, a seek lands
// where a straight scan of the words says, and damaged bytes are named, never read past.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { POSTING_BLOCK, PostingReader, Postings } from '../src/places/search/postings';
import { Offsets } from '../src/pack/offsets';

/** Forms of ascending postings below 2^32, as the words and their starts. */
const formsArb = fc
  .array(
    fc
      .uniqueArray(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 3 * POSTING_BLOCK })
      .map((a) => a.sort((x, y) => x - y)),
    { maxLength: 12 },
  )
  .map((forms) => {
    const starts = new Uint32Array(forms.length + 1);
    forms.forEach((f, i) => (starts[i + 1] = starts[i]! + f.length));
    return { values: new Uint32Array(forms.flat()), starts };
  });

/** First index in [from, hi) whose value is at least `target` (hi when none): the straight scan. */
function scan(values: Uint32Array, from: number, hi: number, target: number): number {
  let k = from;
  while (k < hi && values[k]! < target) k++;
  return k;
}

describe('place postings', () => {
  it('reads every form back as written, and checks clean', () => {
    fc.assert(
      fc.property(formsArb, ({ values, starts }) => {
        const p = Postings.encode(values, Offsets.whole(starts));
        expect(p.problem(Offsets.whole(starts), () => true)).toBeNull();
        const r = new PostingReader();
        for (let f = 0; f + 1 < starts.length; f++) {
          const got: number[] = [];
          for (r.open(p, starts[f]!, starts[f + 1]!); r.next();) got.push(r.value);
          expect(got).toEqual([...values.subarray(starts[f]!, starts[f + 1]!)]);
        }
      }),
    );
  });

  it('seeks where a straight scan lands, targets ascending and posting by posting between them', () => {
    fc.assert(
      fc.property(
        formsArb,
        fc.array(fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.boolean()), { maxLength: 40 }),
        ({ values, starts }, steps) => {
          const p = Postings.encode(values, Offsets.whole(starts));
          const r = new PostingReader();
          const targets = steps.map(([t]) => t).sort((a, b) => a - b);
          for (let f = 0; f + 1 < starts.length; f++) {
            const lo = starts[f]!,
              hi = starts[f + 1]!;
            r.open(p, lo, hi);
            // The posting read last (lo - 1 before any): a seek goes on from it, itself included.
            let cur = lo - 1;
            for (let i = 0; i < targets.length; i++) {
              // Now and then a plain step first, as a scan mixed with seeks would.
              if (steps[i]![1] && cur + 1 < hi) {
                expect(r.next()).toBe(true);
                expect(r.value).toBe(values[++cur]);
              }
              const want = scan(values, Math.max(cur, lo), hi, targets[i]!);
              const found = r.seek(targets[i]!);
              expect(found).toBe(want < hi);
              if (!found) break;
              expect([r.k, r.value]).toEqual([want, values[want]]);
              cur = want;
            }
          }
        },
      ),
    );
  });

  it('takes about a byte a posting where places follow one another', () => {
    const values = Uint32Array.from({ length: 10_000 }, (_, i) => i * 32 + 4);
    const p = Postings.encode(values, Offsets.whole(Uint32Array.of(0, values.length)));
    expect(p.bytes.length).toBeLessThan(values.length * 1.1);
  });

  it('names damaged postings and never reads past their bytes', () => {
    fc.assert(
      fc.property(
        formsArb.filter(({ values }) => values.length > 0),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 255 }),
        ({ values, starts }, at, byte) => {
          const p = Postings.encode(values, Offsets.whole(starts));
          const bytes = p.bytes.slice();
          bytes[at % bytes.length] = byte;
          const damaged = new Postings(bytes, p.blockAt, p.count);
          const why = damaged.problem(Offsets.whole(starts), () => true);
          // Either it says what is wrong, or every form reads back as some ascending postings of the same count.
          if (why === null) {
            const r = new PostingReader();
            for (let f = 0; f + 1 < starts.length; f++) {
              let n = 0,
                last = -1;
              for (r.open(damaged, starts[f]!, starts[f + 1]!); r.next(); n++) {
                expect(r.value).toBeGreaterThan(last);
                last = r.value;
              }
              expect(n).toBe(starts[f + 1]! - starts[f]!);
            }
          } else expect(why).toMatch(/posting|block|bytes/);
          // Cut short: always named.
          const cut = new Postings(p.bytes.subarray(0, p.bytes.length - 1), p.blockAt, p.count);
          expect(cut.problem(Offsets.whole(starts), () => true)).not.toBeNull();
        },
      ),
    );
  });

  it('names a posting the caller refuses (a place past the places, a field of none)', () => {
    const values = Uint32Array.of(1 * 32 + 1, 3 * 32 + 7);
    const p = Postings.encode(values, Offsets.whole(Uint32Array.of(0, 2)));
    expect(p.problem(Offsets.whole(Uint32Array.of(0, 2)), (x) => x >>> 5 < 3)).toMatch(
      /posting 1 names no place and field/,
    );
    expect(p.problem(Offsets.whole(Uint32Array.of(0, 2)), (x) => (x & 31) < 7)).toMatch(
      /posting 1 names no place and field/,
    );
    expect(p.problem(Offsets.whole(Uint32Array.of(0, 2)), (x) => x >>> 5 < 4 && (x & 31) <= 7)).toBeNull();
  });
});
