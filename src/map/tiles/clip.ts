/**
 * Clipping of a projected polygon ring (tile units) to a tile's buffered square [lo, hi]² by Sutherland-Hodgman,
 * which runs the parts outside along the square's edges, so a ring never closes across the tile. (Lines are clipped
 * by the rasteriser's clipPolyline.)
 */
import type { PointList } from '../../render/raster/polyline.js';

/**
 * Clips the closed ring `src` (no repeated closing point) to [lo, hi]² into `out` (reset first), using `tmp` as
 * scratch. The result may be empty, and follows the square's edges where the ring runs outside.
 */
export function clipRing(src: PointList, lo: number, hi: number, out: PointList, tmp: PointList): void {
  // Four half-plane passes, alternating between the two lists so that the last one lands in `out`.
  clipHalf(src, tmp, 0, lo, false);
  clipHalf(tmp, out, 0, hi, true);
  clipHalf(out, tmp, 1, lo, false);
  clipHalf(tmp, out, 1, hi, true);
}

/** One Sutherland-Hodgman pass: keeps the side of `axis` (0 x, 1 y) at or below `bound` when `below`, else above. */
function clipHalf(src: PointList, out: PointList, axis: number, bound: number, below: boolean): void {
  out.reset();
  const p = src.xy,
    n = 2 * src.count;
  if (n === 0) return;
  let prev = n - 2;
  let prevIn = below ? p[prev + axis]! <= bound : p[prev + axis]! >= bound;
  for (let i = 0; i < n; i += 2) {
    const curIn = below ? p[i + axis]! <= bound : p[i + axis]! >= bound;
    if (curIn !== prevIn) {
      // The crossing of the edge between prev and i.
      const a = p[prev + axis]!,
        t = (bound - a) / (p[i + axis]! - a);
      if (axis === 0) out.push(bound, p[prev + 1]! + t * (p[i + 1]! - p[prev + 1]!));
      else out.push(p[prev]! + t * (p[i]! - p[prev]!), bound);
    }
    if (curIn) out.push(p[i]!, p[i + 1]!);
    prev = i;
    prevIn = curIn;
  }
}
