import { describe, expect, it } from 'vitest';
import { StreetPieces } from '../src/places/street-pieces.js';
import { mulberry32 } from '../src/trip/rng.js';

/** The pieces by name as a Map of arrays, names in order of their first piece: what StreetPieces must equal. */
function byMap(names: number[], street: boolean[]): Map<number, number[]> {
  const m = new Map<number, number[]>();
  names.forEach((n, i) => {
    if (!street[i]) return;
    const list = m.get(n);
    if (list) list.push(i);
    else m.set(n, [i]);
  });
  return m;
}

describe('StreetPieces', () => {
  it('groups street places by name like a Map of arrays, in order of first piece', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = mulberry32(seed);
      const count = Math.floor(rnd() * 400);
      const names = Array.from({ length: count }, () => Math.floor(rnd() * 60) + 1);
      const street = names.map(() => rnd() < 0.6);
      const want = byMap(names, street);
      const got = new StreetPieces(names, (i) => street[i]!);
      expect(got.size).toBe(want.size);
      expect([...got.keys()]).toEqual([...want.keys()]);
      expect([...got]).toEqual([...want]);
      for (let n = 0; n <= 62; n++) {
        expect(got.has(n)).toBe(want.has(n));
        expect(got.get(n)).toEqual(want.get(n));
      }
    }
  });
});
