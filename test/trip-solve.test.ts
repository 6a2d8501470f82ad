import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bruteForce,
  contractFixedEnds,
  expandFixedEnds,
  farthestInsertion,
  finiteTable,
  heldKarp,
  localSearch,
  mulberry32,
  orOpt,
  rotateCycle,
  segmentSwap,
  solveTrip,
  tourCost,
  TRIP_LIMITS,
  nearestSuccessors,
  twoOpt,
} from '../src/trip/index.js';

/** Independent asymmetric costs 1..100 per direction. */
function randomTable(n: number, seed: number): Float64Array {
  const rnd = mulberry32(seed);
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) t[i * n + j] = 1 + Math.floor(rnd() * 100);
  return t;
}

/** Points in a square with a per-direction detour factor (one-way-like asymmetry). */
function euclidTable(n: number, seed: number): Float64Array {
  const rnd = mulberry32(seed);
  const x = Array.from({ length: n }, () => rnd() * 1000);
  const y = Array.from({ length: n }, () => rnd() * 1000);
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j) t[i * n + j] = Math.hypot(x[i]! - x[j]!, y[i]! - y[j]!) * (1 + rnd()) + 10 * rnd();
    }
  }
  return t;
}

/** Random table where each off-diagonal leg is unreachable with probability `p`. */
function holeyTable(n: number, seed: number, p: number): Float64Array {
  const rnd = mulberry32(seed ^ 0x5bd1e995);
  const t = randomTable(n, seed);
  for (let i = 0; i < n * n; i++) if (i % (n + 1) !== 0 && rnd() < p) t[i] = Infinity;
  return t;
}

/** A seeded random permutation of 0..n-1 (Fisher-Yates). */
function shuffled(n: number, seed: number): Int32Array {
  const rnd = mulberry32(seed);
  const out = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function expectPermutation(order: ArrayLike<number>, n: number): void {
  expect(order.length).toBe(n);
  expect(Array.from(order).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
}

/** Every (start, end) combination: undefined or any stop, start ≠ end. */
function endsCombos(n: number): { start?: number; end?: number }[] {
  const out: { start?: number; end?: number }[] = [];
  const choices = [undefined, ...Array.from({ length: n }, (_, i) => i)];
  for (const start of choices) {
    for (const end of choices) {
      if (start !== undefined && start === end) continue;
      const o: { start?: number; end?: number } = {};
      if (start !== undefined) o.start = start;
      if (end !== undefined) o.end = end;
      out.push(o);
    }
  }
  return out;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

describe('bruteForce (reference)', () => {
  it('matches a hand-checked 4-stop one-way ring', () => {
    // Cheap arcs 0→1→2→3→0 (cost 1), everything else 10: the optimum is the ring, cost 4.
    const n = 4;
    const t = new Float64Array(n * n).fill(10);
    for (let i = 0; i < n; i++) t[i * n + ((i + 1) % n)] = 1;
    expect(bruteForce(t, n)).toEqual({ order: Int32Array.from([0, 1, 2, 3]), cost: 4 });
    // End fixed at 1 → the start is its successor 2.
    expect(Array.from(bruteForce(t, n, { end: 1 }).order)).toEqual([2, 3, 0, 1]);
    // Start 0, end 1 forces the leg 1→0 (10); best: 0→2 (10) →3 (1) →1 (10) →0 (10) = 31.
    expect(bruteForce(t, n, { start: 0, end: 1 }).cost).toBe(31);
  });
});

describe('heldKarp', () => {
  it('equals brute force on random asymmetric tables, n = 2..9', () => {
    for (let n = 2; n <= 9; n++) {
      const seeds = n <= 7 ? 40 : 8;
      for (let s = 0; s < seeds; s++) {
        for (const t of [randomTable(n, 100 * n + s), euclidTable(n, 100 * n + s)]) {
          const order = heldKarp(t, n);
          expectPermutation(order, n);
          expect(order[0]).toBe(0);
          expect(close(tourCost(t, n, order), bruteForce(t, n).cost)).toBe(true);
        }
      }
    }
  });

  it('with the fixed-ends contraction equals constrained brute force, n = 2..8', () => {
    for (let n = 2; n <= 8; n++) {
      for (let s = 0; s < (n <= 6 ? 6 : 2); s++) {
        const t = randomTable(n, 7000 + 10 * n + s);
        for (let start = 0; start < n; start++) {
          for (let end = 0; end < n; end++) {
            if (start === end) continue;
            const reduced = contractFixedEnds(t, n, start, end);
            const cycle = heldKarp(reduced, n - 1);
            const order = expandFixedEnds(cycle, n, start, end);
            expectPermutation(order, n);
            expect(order[0]).toBe(start);
            expect(order[n - 1]).toBe(end);
            expect(tourCost(t, n, order)).toBe(bruteForce(t, n, { start, end }).cost);
            // The reduced cycle costs exactly the forced leg end→start less (from 2 reduced stops on; a single
            // reduced stop is the 2-stop trip start→end→start).
            if (n >= 3) expect(tourCost(reduced, n - 1, cycle) + t[end * n + start]!).toBe(tourCost(t, n, order));
          }
        }
      }
    }
  });

  it('rejects sizes above N_EXACT', () => {
    const n = TRIP_LIMITS.N_EXACT + 1;
    expect(() => heldKarp(new Float64Array(n * n), n)).toThrow(RangeError);
  });
});

describe('solveTrip, exact range', () => {
  it('equals the brute-force optimum for every start/end combination, n = 1..9', () => {
    for (let n = 1; n <= 9; n++) {
      const seeds = n <= 6 ? 4 : 1;
      for (let s = 0; s < seeds; s++) {
        const t = s % 2 === 0 ? randomTable(n, 31 * n + s) : euclidTable(n, 31 * n + s);
        for (const ends of endsCombos(n)) {
          const res = solveTrip(t, n, ends);
          if (res.code !== 'Ok') throw new Error(res.message);
          expectPermutation(res.order, n);
          if (ends.start !== undefined) expect(res.order[0]).toBe(ends.start);
          if (ends.end !== undefined) expect(res.order[n - 1]).toBe(ends.end);
          if (ends.start === undefined && ends.end === undefined) expect(res.order[0]).toBe(0);
          expect(res.cost).toBe(tourCost(t, n, res.order));
          expect(close(res.cost, bruteForce(t, n, ends).cost)).toBe(true);
        }
      }
    }
  });

  it('handles unreachable legs exactly: NoTrips iff no finite tour, else the optimum', () => {
    let noTrips = 0;
    let ok = 0;
    for (let n = 2; n <= 8; n++) {
      for (let s = 0; s < 25; s++) {
        const t = holeyTable(n, 500 * n + s, 0.45);
        for (const ends of [{}, { start: 0 }, { end: n - 1 }, { start: 1, end: 0 }]) {
          const res = solveTrip(t, n, ends);
          const ref = bruteForce(t, n, ends);
          if (ref.cost === Infinity) {
            expect(res.code).toBe('NoTrips');
            noTrips++;
          } else {
            if (res.code !== 'Ok') throw new Error(`n=${n} s=${s}: ${res.message}`);
            expect(res.cost).toBe(ref.cost);
            ok++;
          }
        }
      }
    }
    // The sample really exercised both outcomes.
    expect(noTrips).toBeGreaterThan(20);
    expect(ok).toBeGreaterThan(20);
  });
});

describe('local search', () => {
  /** Best saving of any 2-opt reconnection (reverse positions i..j, or the complement), by explicit rebuilding. */
  function best2optGain(t: Float64Array, n: number, order: Int32Array): number {
    const base = tourCost(t, n, order);
    let best = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const inner = Array.from(order);
        inner.splice(i, j - i + 1, ...inner.slice(i, j + 1).reverse());
        const outer = inner.slice().reverse();
        best = Math.max(best, base - tourCost(t, n, inner), base - tourCost(t, n, outer));
      }
    }
    return best;
  }

  /** Best saving of moving a segment of 1..3 stops anywhere, both orientations, by explicit rebuilding. */
  function bestOrOptGain(t: Float64Array, n: number, order: Int32Array): number {
    const base = tourCost(t, n, order);
    let best = 0;
    for (let i = 0; i < n; i++) {
      for (let len = 1; len <= 3 && len <= n - 2; len++) {
        const rot = Array.from(rotateCycle(order, order[i]!, 0));
        const seg = rot.slice(0, len);
        const rest = rot.slice(len);
        for (let k = 0; k < rest.length; k++) {
          for (const s of [seg, seg.slice().reverse()]) {
            const cand = [...rest.slice(0, k + 1), ...s, ...rest.slice(k + 1)];
            best = Math.max(best, base - tourCost(t, n, cand));
          }
        }
      }
    }
    return best;
  }

  it('twoOpt reaches a true 2-opt local optimum (deltas checked by rebuilding every move)', () => {
    for (let s = 0; s < 12; s++) {
      const n = 12 + s;
      const t = s % 2 ? randomTable(n, s) : euclidTable(n, s);
      // Random starts leave many improving moves of both kinds; farthest insertion leaves few.
      const start = s < 8 ? shuffled(n, s) : farthestInsertion(t, n);
      expectPermutation(start, n);
      const out = twoOpt(t, n, start);
      expectPermutation(out, n);
      expect(tourCost(t, n, out)).toBeLessThanOrEqual(tourCost(t, n, start));
      expect(best2optGain(t, n, out)).toBeLessThan(1e-6);
    }
  });

  it('orOpt reaches a true Or-opt local optimum (deltas checked by rebuilding every move)', () => {
    for (let s = 0; s < 12; s++) {
      const n = 5 + 2 * s;
      const t = s % 2 ? randomTable(n, 40 + s) : euclidTable(n, 40 + s);
      const start = Int32Array.from({ length: n }, (_, i) => i);
      const out = orOpt(t, n, start);
      expectPermutation(out, n);
      expect(tourCost(t, n, out)).toBeLessThanOrEqual(tourCost(t, n, start));
      expect(bestOrOptGain(t, n, out)).toBeLessThan(1e-6);
    }
  });

  /** Best saving of any exchange of two consecutive segments (A B C → A C B), by explicit rebuilding. */
  function bestSwapGain(t: Float64Array, n: number, order: Int32Array): number {
    const base = tourCost(t, n, order);
    let best = 0;
    for (let i = 1; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        for (let k = j + 1; k <= n; k++) {
          const o = Array.from(order);
          const cand = [...o.slice(0, i), ...o.slice(j, k), ...o.slice(i, j), ...o.slice(k)];
          best = Math.max(best, base - tourCost(t, n, cand));
        }
      }
    }
    return best;
  }

  it('segmentSwap with full candidate lists reaches a true segment-exchange local optimum', () => {
    for (let s = 0; s < 10; s++) {
      const n = 6 + 2 * s;
      const t = s % 2 ? randomTable(n, 70 + s) : euclidTable(n, 70 + s);
      const start = shuffled(n, s);
      const out = segmentSwap(t, n, start, { neighbours: n - 1 });
      expectPermutation(out, n);
      expect(tourCost(t, n, out)).toBeLessThanOrEqual(tourCost(t, n, start));
      expect(bestSwapGain(t, n, out)).toBeLessThan(1e-6);
    }
  });

  it('nearestSuccessors lists the k cheapest successors in ascending order (checked against a full sort)', () => {
    for (const n of [1, 2, 5, 17]) {
      const t = randomTable(n, n);
      const k = 4;
      const { list, k: width } = nearestSuccessors(t, n, k);
      expect(width).toBe(Math.min(k, n - 1));
      for (let i = 0; i < n; i++) {
        const sorted = Array.from({ length: n }, (_, j) => j)
          .filter((j) => j !== i)
          .sort((x, y) => t[i * n + x]! - t[i * n + y]! || x - y);
        expect(Array.from(list.subarray(i * width, (i + 1) * width))).toEqual(sorted.slice(0, width));
      }
    }
  });

  it('localSearch does not modify its input and is a local optimum of both neighbourhoods', () => {
    const n = 25;
    const t = euclidTable(n, 99);
    const input = farthestInsertion(t, n);
    const copy = input.slice();
    const out = localSearch(t, n, input);
    expect(input).toEqual(copy);
    expect(best2optGain(t, n, out)).toBeLessThan(1e-6);
    expect(bestOrOptGain(t, n, out)).toBeLessThan(1e-6);
  });
});

describe('solveTrip, heuristic range', () => {
  it('finds the one-way ring (hand-checked optimum n) with free, start-only, end-only and fitting ends', () => {
    // Only i→i+1 is cheap (1); every other leg, including the way back i+1→i, costs 100.
    const n = 60;
    const t = new Float64Array(n * n).fill(100);
    for (let i = 0; i < n; i++) t[i * n + ((i + 1) % n)] = 1;
    const cases: [{ start?: number; end?: number }, number, number][] = [
      [{}, 0, n - 1],
      [{ start: 17 }, 17, 16],
      [{ end: 30 }, 31, 30],
      [{ start: 5, end: 4 }, 5, 4],
    ];
    for (const [ends, first, last] of cases) {
      const res = solveTrip(t, n, ends);
      if (res.code !== 'Ok') throw new Error(res.message);
      expect(res.cost).toBe(n);
      expect(res.order[0]).toBe(first);
      expect(res.order[n - 1]).toBe(last);
      expectPermutation(res.order, n);
    }
  });

  it('honours start/end, returns permutations and recomputable costs for n = 14..80', () => {
    for (const n of [14, 15, 20, 33, 50, 80]) {
      const t = euclidTable(n, n);
      const endsList: { start?: number; end?: number }[] = [
        {},
        { start: 3 },
        { end: 7 },
        { start: n - 1, end: 0 },
        { start: 2, end: 9 },
      ];
      for (const ends of endsList) {
        const res = solveTrip(t, n, ends);
        if (res.code !== 'Ok') throw new Error(res.message);
        expectPermutation(res.order, n);
        if (ends.start !== undefined) expect(res.order[0]).toBe(ends.start);
        if (ends.end !== undefined) expect(res.order[n - 1]).toBe(ends.end);
        expect(res.cost).toBe(tourCost(t, n, res.order));
      }
    }
  });

  it('is deterministic (same input, same order)', () => {
    for (const n of [9, 40, 150]) {
      const t = euclidTable(n, 3 * n);
      const a = solveTrip(t, n, { end: 1 });
      const b = solveTrip(Float64Array.from(t), n, { end: 1 });
      expect(a.code).toBe('Ok');
      expect(a).toEqual(b);
    }
  });

  it('reports NoTrips for a stop nobody can reach, or one that cannot leave, even for n = 200', () => {
    for (const n of [5, 30, 200]) {
      const inbound = euclidTable(n, n);
      for (let i = 0; i < n; i++) if (i !== 3) inbound[i * n + 3] = Infinity;
      expect(solveTrip(inbound, n).code).toBe('NoTrips');
      const outbound = euclidTable(n, n);
      for (let j = 0; j < n; j++) if (j !== 2) outbound[2 * n + j] = Infinity;
      expect(solveTrip(outbound, n).code).toBe('NoTrips');
    }
  });

  it('reports NoTrips when start and end are fixed but end→start is unreachable', () => {
    const n = 20;
    const t = euclidTable(n, 5);
    t[4 * n + 2] = Infinity;
    expect(solveTrip(t, n, { start: 2, end: 4 }).code).toBe('NoTrips');
    expect(solveTrip(t, n, { start: 4, end: 2 }).code).toBe('Ok');
  });

  it('avoids unreachable legs in large tables when a finite tour exists', () => {
    const n = 60;
    const t = euclidTable(n, 8);
    // Close a tenth of all legs but keep the ring i→i+1 open, so a finite tour surely exists.
    const rnd = mulberry32(8);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) if (j !== (i + 1) % n && i !== j && rnd() < 0.1) t[i * n + j] = Infinity;
    }
    const res = solveTrip(t, n, { start: 10 });
    if (res.code !== 'Ok') throw new Error(res.message);
    expect(Number.isFinite(res.cost)).toBe(true);
    expect(res.cost).toBe(tourCost(t, n, res.order));
  });
});

describe('solveTrip input checks', () => {
  const t = randomTable(4, 1);
  it.each([
    ['n', () => solveTrip(t, 0), 'InvalidValue'],
    ['n', () => solveTrip(t, 2.5), 'InvalidValue'],
    ['table', () => solveTrip(t, 3), 'InvalidValue'],
    ['table', () => solveTrip(Float64Array.from([0, NaN, 1, 0]), 2), 'InvalidValue'],
    ['table', () => solveTrip(Float64Array.from([0, -1, 1, 0]), 2), 'InvalidValue'],
    ['start', () => solveTrip(t, 4, { start: 4 }), 'InvalidValue'],
    ['end', () => solveTrip(t, 4, { end: -1 }), 'InvalidValue'],
    ['end', () => solveTrip(t, 4, { start: 1, end: 1 }), 'InvalidValue'],
    ['stops', () => solveTrip(new Float64Array(0), TRIP_LIMITS.N_MAX + 1), 'TooBig'],
  ] as const)('rejects a bad %s with a message naming it', (name, call, code) => {
    const res = call();
    expect(res.code).toBe(code);
    if (res.code !== 'Ok') expect(res.message).toContain(name);
  });

  it('ignores the diagonal and solves single stops', () => {
    expect(solveTrip(Float64Array.from([NaN]), 1)).toEqual({ code: 'Ok', order: [0], cost: 0 });
    expect(solveTrip(Float64Array.from([NaN, 3, 4, -2]), 2)).toEqual({ code: 'Ok', order: [0, 1], cost: 7 });
  });
});

describe('properties (fast-check)', () => {
  const instance = fc.record({ n: fc.integer({ min: 14, max: 45 }), seed: fc.integer(), euclid: fc.boolean() });

  it('the improved tour is never longer than plain farthest insertion, and its cost is the recomputed sum', () => {
    fc.assert(
      fc.property(instance, ({ n, seed, euclid }) => {
        const t = euclid ? euclidTable(n, seed) : randomTable(n, seed);
        const res = solveTrip(t, n);
        if (res.code !== 'Ok') return false;
        const fi = tourCost(t, n, farthestInsertion(t, n));
        return res.cost <= fi + 1e-9 && close(res.cost, tourCost(t, n, res.order));
      }),
      { numRuns: 60, seed: 42 },
    );
  });

  it('fixed ends are honoured and the result is a permutation', () => {
    fc.assert(
      fc.property(instance, fc.nat(), fc.nat(), ({ n, seed, euclid }, a, b) => {
        const t = euclid ? euclidTable(n, seed) : randomTable(n, seed);
        const start = a % n;
        const end = b % n === start ? (start + 1) % n : b % n;
        const res = solveTrip(t, n, { start, end });
        if (res.code !== 'Ok') return false;
        const sorted = [...res.order].sort((x, y) => x - y);
        return res.order[0] === start && res.order[n - 1] === end && sorted.every((v, i) => v === i);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('finiteTable penalises unreachable legs above any finite tour', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.integer(), (n, seed) => {
        const t = holeyTable(n, seed, 0.3);
        const { table, penalty } = finiteTable(t, n);
        let widest = 0;
        for (let i = 0; i < n * n; i++) if (t[i] !== Infinity && i % (n + 1) !== 0) widest = Math.max(widest, t[i]!);
        return (
          penalty > n * widest &&
          table.every((v, i) => (i % (n + 1) === 0 ? v === 0 : t[i] === Infinity ? v === penalty : v === t[i]))
        );
      }),
      { numRuns: 100, seed: 3 },
    );
  });
});
