import { Offsets } from '../src/pack/offsets.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import type { Basemap } from '../src/map/basemap.js';
import { BasemapIndex } from '../src/render/basemap-index.js';
import { loadRasterKernel } from '../src/render/raster/wasm-raster.js';
import { kernelSignificances } from '../src/render/raster/wasm-significance.js';
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

describe('significances in the WebAssembly raster kernel', () => {
  let basemap: Basemap;
  beforeAll(async () => {
    expect(await loadRasterKernel()).not.toBeNull();
    basemap = (await createEngine()).regions[0]!.basemap!; // the default pack: central Hanoi
  });

  it('equal the TypeScript values bit for bit, several parts per call (random lines, ties and zero-length chords)', () => {
    // Coarse coordinates make equal distances (ties) and repeated points (zero-length chords, closed rings) common.
    const coord = fc.integer({ min: -20, max: 20 }).map((v) => v / 3);
    const part = fc.array(fc.tuple(coord, coord), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), (parts) => {
        const first = [0];
        for (const p of parts) first.push(first[first.length - 1]! + p.length);
        const world = Float64Array.from(parts.flat(2));
        const n = first[first.length - 1]!;
        const ts = new Float32Array(n).fill(-1);
        for (let p = 0; p < parts.length; p++) significance(world, first[p]!, first[p + 1]!, ts, new Float64Array(3));
        const wasm = new Float32Array(n).fill(-1);
        // Every other part, in reverse order, then the rest: a call computes only the parts it is given.
        const odd = parts
          .map((_, p) => p)
          .filter((p) => p % 2 === 1)
          .reverse();
        expect(kernelSignificances(world, Offsets.encode(first), first, odd, odd.length, wasm)).toBe(true);
        for (let p = 0; p < parts.length; p++)
          for (let i = first[p]!; i < first[p + 1]!; i++) expect(wasm[i]).toBe(p % 2 === 1 ? ts[i] : -1);
        const even = parts.map((_, p) => p).filter((p) => p % 2 === 0);
        kernelSignificances(world, Offsets.encode(first), first, even, even.length, wasm);
        expect(Array.from(wasm)).toEqual(Array.from(ts));
        // All parts from the middle on, then those before: parts whose points follow one another are copied to the
        // kernel and back as one run.
        const rotated = parts.map((_, p) => (p + (parts.length >> 1)) % parts.length);
        const inRuns = new Float32Array(n).fill(-1);
        kernelSignificances(world, Offsets.encode(first), first, rotated, rotated.length, inRuns);
        expect(Array.from(inRuns)).toEqual(Array.from(ts));
      }),
      { numRuns: 300 },
    );
  });

  it('equal the TypeScript values on every part of a real pack (prepareSignificance against partSignificance)', () => {
    const byKernel = new BasemapIndex(basemap);
    const all = Uint32Array.from({ length: basemap.count }, (_, f) => f);
    byKernel.prepareSignificance(all);
    // Parts taken in reverse order here: their points sit in other slots (BasemapIndex.start) than the kernel's.
    const byTs = new BasemapIndex(basemap);
    const parts = basemap.partFirst.length - 1;
    for (let p = parts - 1; p >= 0; p--) byTs.partSignificance(p);
    let points = 0;
    const differ: unknown[] = [];
    for (let p = 0; p < parts; p++) {
      const [a, b] = [byKernel.partSignificance(p), byTs.partSignificance(p)];
      const [ka, kb] = [byKernel.start(p), byTs.start(p)];
      const [wa, wb] = [byKernel.points(p), byTs.points(p)];
      for (let k = 0; k < basemap.partFirst.at(p + 1) - basemap.partFirst.at(p); k++, points++) {
        const [i, j] = [ka + k, kb + k];
        if (a[i] !== b[j] || wa[2 * i] !== wb[2 * j] || wa[2 * i + 1] !== wb[2 * j + 1])
          differ.push({ part: p, point: k });
      }
    }
    expect(differ).toEqual([]);
    expect(byTs.start(0)).not.toBe(byKernel.start(0));
    expect(points).toBe(basemap.pointCount);
    expect(points).toBeGreaterThan(10_000);
  });
});
