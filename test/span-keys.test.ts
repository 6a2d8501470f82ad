/**
 * The name keys of spans the address parser asks a gazetteer about (src/places/text/span-keys.ts), built from each
 * token's key once, against nameKey of the span's text folded whole; and the long-input bounds of the one-edit index
 * and the joined-words reader against the plain scans they skip.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AddressToken } from '../src/places/text/abbreviations';
import { nameKey } from '../src/places/text/fold';
import { key, prefixKeys, suffixKeys } from '../src/places/text/span-keys';
import { OneEditIndex } from '../src/places/search/one-edit-index';
import { withinOneEdit } from '../src/places/text/edits';
import { splitJoined } from '../src/places/text/joined-words';

/** Pieces of hostile words: marks alone, zeros, final sigma, dotted I, đ/ð, punctuation, other scripts. */
const PIECES = [
  'a',
  'Đ',
  'ð',
  '\u0301',
  '\u0323',
  'ở',
  '0',
  '00',
  '9',
  'Σ',
  'ΑΣ',
  'İ',
  '.',
  '-',
  '/',
  "'",
  '東',
  'я',
  ' ',
];
const word = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
const tokens = fc.array(
  word.map((text): AddressToken => ({ kind: 'word', text, folded: '' })),
  { maxLength: 12 },
);
const text = (ws: AddressToken[]): string => ws.map((w) => w.text).join(' ');

describe('span keys', () => {
  it('equal nameKey of the span folded whole, for every span', () => {
    fc.assert(
      fc.property(tokens, (ws) => {
        expect(key(ws)).toBe(nameKey(text(ws)));
        const pre = prefixKeys(ws);
        const suf = suffixKeys(ws);
        for (let n = 0; n <= ws.length; n++) {
          expect(pre[n]).toBe(nameKey(text(ws.slice(0, n))));
          expect(suf[n]).toBe(nameKey(text(ws.slice(n))));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('long words', () => {
  const vocab = ['hang', 'bac', 'nguyen', 'nguyenn', 'truong', 'a'];
  const index = new OneEditIndex(vocab, () => true);
  it('a word far longer than the vocabulary has no one-edit neighbour, as a scan finds', () => {
    for (const w of ['nguyenxx', 'nguyenx', 'nguyen'.repeat(300), 'ab', 'b']) {
      const scan = vocab.flatMap((v, id) => (withinOneEdit(w, v) ? [id] : []));
      expect(index.near(w)).toEqual(scan);
    }
  });
  it('a run of joined words too long for four syllables is not read apart', () => {
    const held = { has: (w: string) => ['nguyen', 'thi', 'minh', 'khai'].includes(w), hasNear: () => false };
    expect(splitJoined('nguyenthiminhkhai', held)).toEqual(['nguyen', 'thi', 'minh', 'khai']);
    expect(splitJoined('nguyenthiminhkhai'.repeat(100), held)).toBeNull();
  });
});
