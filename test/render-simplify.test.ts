import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { significance } from '../src/render/simplify.js';

/** Textbook recursive Douglas-Peucker: indices kept at tolerance `eps` (a split is kept when its distance > eps). */
function douglasPeucker(xy: number[], a: number, b: number, eps: number, kept: Set<number>): void {
  const ax = xy[2 * a]!,
    ay = xy[2 * a + 1]!,
    bx = xy[2 * b]!,
    by = xy[2 * b + 1]!;
  let best = -1,
    bestD = -1;
  for (let i = a + 1; i < b; i++) {
    const px = xy[2 * i]!,
      py = xy[2 * i + 1]!;
    const dx = bx - ax,
      dy = by - ay,
      len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
    const d = Math.hypot(px - ax - t * dx, py - ay - t * dy);
    if (d > bestD) ((bestD = d), (best = i));
  }
  if (best < 0 || !(bestD > eps)) return;
  kept.add(best);
  douglasPeucker(xy, a, best, eps, kept);
  douglasPeucker(xy, best, b, eps, kept);
}

describe('precomputed Douglas-Peucker significance', () => {
  it('keeps exactly the vertices recursive Douglas-Peucker keeps, at every tolerance', () => {
    const coord = fc.integer({ min: -1000, max: 1000 }).map((v) => v / 7);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord), { minLength: 1, maxLength: 40 }),
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        (pts, eps) => {
          const offset = 3; // a part that does not start at index 0, as in a pack
          const xy = [9, 9, 9, 9, 9, 9, ...pts.flat()];
          const n = pts.length;
          const sig = new Float32Array(offset + n).fill(-1);
          significance(xy, offset, offset + n, sig, new Float64Array(3));
          const kept = new Set<number>([offset, offset + n - 1]);
          douglasPeucker(xy, offset, offset + n - 1, eps, kept);
          const byPrecomputed = new Set<number>();
          for (let i = offset; i < offset + n; i++) if (sig[i]! > eps) byPrecomputed.add(i);
          // Float32 rounding could only matter within a relative 1e-7 of eps.
          for (let i = offset; i < offset + n; i++) {
            if (Math.abs(sig[i]! - eps) < 1e-5 * eps) continue;
            expect(byPrecomputed.has(i), `vertex ${i}`).toBe(kept.has(i));
          }
          expect(sig.slice(0, offset).every((v) => v === -1)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the ends Infinity and never more significance to a vertex than to the split that exposed it', () => {
    // A zigzag whose middle vertex is the first split: its neighbours' own distances exceed it but are capped.
    const xy = [0, 0, 1, 10, 2, 1, 3, 10, 4, 0];
    const sig = new Float32Array(5);
    significance(xy, 0, 5, sig, new Float64Array(3));
    expect(sig[0]).toBe(Infinity);
    expect(sig[4]).toBe(Infinity);
    expect(sig[1]).toBeCloseTo(10, 5); // farthest from the chord (0,0)-(4,0); first of the tie with vertex 3
    expect(sig[3]!).toBeLessThanOrEqual(sig[1]!);
    expect(sig[2]!).toBeLessThanOrEqual(Math.min(sig[1]!, sig[3]!));
  });
});
