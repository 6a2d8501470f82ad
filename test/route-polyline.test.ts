import polyline from '@mapbox/polyline';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePolyline, encodePolylines } from '../src/route/geometry.js';

/** Points as [lat, lon] degrees, Vietnam-ish and anywhere on earth. */
const point = fc.tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }));
const flat = (pts: [number, number][]) => pts.flat();

describe('encoded polylines (checked against @mapbox/polyline)', () => {
  it('a whole line and any stretch of it encode as @mapbox/polyline encodes those points', () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 60 }), fc.nat(), fc.nat(), (pts, x, y) => {
        const from = x % pts.length;
        const to = from + 1 + (y % (pts.length - from));
        expect(encodePolyline(flat(pts))).toBe(polyline.encode(pts, 5));
        expect(encodePolyline(flat(pts), from, to)).toBe(polyline.encode(pts.slice(from, to), 5));
      }),
    );
  });

  it('many stretches in one go: each as encoded alone; a one-point stretch is that point twice', () => {
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 12 }),
        (pts, picks) => {
          const stretches = picks.flatMap(([x, y]) => {
            const from = x % pts.length;
            return [from, from + 1 + (y % (pts.length - from))];
          });
          const got = encodePolylines(flat(pts), stretches);
          expect(got).toHaveLength(picks.length);
          got.forEach((s, i) => {
            const part = pts.slice(stretches[2 * i], stretches[2 * i + 1]);
            expect(s).toBe(polyline.encode(part.length === 1 ? [part[0]!, part[0]!] : part, 5));
          });
        },
      ),
    );
  });

  it('lines longer than the scratch buffer (it grows and keeps what it holds)', () => {
    const pts = Array.from({ length: 3000 }, (_, i): [number, number] => [
      21 + Math.sin(i) * 0.3,
      105.8 + Math.cos(i * 1.3) * 0.4,
    ]);
    // Stretches first (the earlier tests left the buffer small): it grows while holding the first stretch.
    const got = encodePolylines(flat(pts), [0, 1500, 1499, 3000, 7, 8]);
    expect(got).toEqual([
      polyline.encode(pts.slice(0, 1500), 5),
      polyline.encode(pts.slice(1499), 5),
      polyline.encode([pts[7]!, pts[7]!], 5),
    ]);
    expect(encodePolyline(flat(pts))).toBe(polyline.encode(pts, 5));
  });
});
