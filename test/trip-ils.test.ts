import { describe, expect, it } from 'vitest';
import {
  bruteForce,
  farthestInsertion,
  iteratedLocalSearch,
  localSearch,
  mulberry32,
  TourState,
  tourCost,
} from '../src/trip/index.js';

/** Random asymmetric table: points in a square, per-direction detour factor and approach penalty (seconds). */
function randomTable(n: number, seed: number): Float64Array {
  const rnd = mulberry32(seed);
  const x = Array.from({ length: n }, () => rnd() * 10_000);
  const y = Array.from({ length: n }, () => rnd() * 10_000);
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      if (i !== j) t[i * n + j] = (Math.hypot(x[i]! - x[j]!, y[i]! - y[j]!) / 10) * (1.1 + 0.5 * rnd()) + 60 * rnd();
  return t;
}

const isPermutation = (o: ArrayLike<number>, n: number) =>
  [...Array.from(o)].sort((a, b) => a - b).every((v, i) => v === i) && o.length === n;

describe('TourState', () => {
  it('forward/backward sums equal direct sums over any cyclic range', () => {
    const n = 11;
    const table = randomTable(n, 3);
    const order = [4, 2, 9, 0, 7, 1, 10, 3, 8, 6, 5];
    const s = new TourState(table, n, order);
    expect(s.cost).toBeCloseTo(tourCost(table, n, order), 9);
    for (let u = 0; u < n; u++) {
      for (let v = 0; v < n; v++) {
        let f = 0;
        let b = 0;
        for (let p = u; p % n !== v; p++) {
          const a = order[p % n]!,
            c = order[(p + 1) % n]!;
          f += table[a * n + c]!;
          b += table[c * n + a]!;
        }
        expect(s.forward(u, v)).toBeCloseTo(f, 6);
        expect(s.backward(u, v)).toBeCloseTo(b, 6);
      }
    }
  });
});

describe('TourState windows', () => {
  it('a rewritten window leaves positions and prefix sums exactly as a fresh state of the new order', () => {
    const n = 23;
    const table = randomTable(n, 5);
    const rnd = mulberry32(9);
    const s = new TourState(table, n, farthestInsertion(table, n));
    for (let round = 0; round < 300; round++) {
      // A window of 2…n stops at any position (wrapping ones included), cut in two pieces written back swapped,
      // the first reversed: every way a move rewrites the tour.
      const at = Math.floor(rnd() * n);
      const len = 2 + Math.floor(rnd() * (n - 1));
      const cut = 1 + Math.floor(rnd() * (len - 1));
      s.begin();
      s.piece(at + len - 1, len - cut, true);
      s.piece(at, cut);
      s.commit(at);
      const fresh = new TourState(table, n, s.order);
      expect(isPermutation(s.order, n)).toBe(true);
      expect(Array.from(s.pos)).toEqual(Array.from(fresh.pos));
      expect(Array.from(s.fwd)).toEqual(Array.from(fresh.fwd));
      expect(Array.from(s.bwd)).toEqual(Array.from(fresh.bwd));
    }
  });
});

describe('iteratedLocalSearch', () => {
  it('reaches the brute-force optimum on small asymmetric tables', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const n = 7 + (seed % 3); // at 6 stops the kicks move single stops only (solveTrip is exact there anyway)
      const table = randomTable(n, seed);
      const out = iteratedLocalSearch(table, n, farthestInsertion(table, n), { kicks: 300 });
      expect(isPermutation(out, n)).toBe(true);
      expect(tourCost(table, n, out)).toBeCloseTo(bruteForce(table, n).cost, 6);
    }
  });

  it('is a permutation, never worse than its start, and deterministic; shorter than plain local search here', () => {
    let gain = 0;
    for (const n of [20, 60, 120]) {
      const table = randomTable(n, n);
      const start = localSearch(table, n, farthestInsertion(table, n));
      const a = iteratedLocalSearch(table, n, start);
      const b = iteratedLocalSearch(table, n, start);
      expect(isPermutation(a, n)).toBe(true);
      expect(Array.from(a)).toEqual(Array.from(b));
      expect(tourCost(table, n, a)).toBeLessThanOrEqual(tourCost(table, n, start));
      gain += tourCost(table, n, start) - tourCost(table, n, a);
    }
    expect(gain).toBeGreaterThan(0);
  });
});
