import type { PathCommand } from 'opentype.js/dist/opentype.mjs';

/** Glyph rendering size in pixels: the em size of MapLibre's glyph PBFs. */
export const GLYPH_SIZE = 24;
/** Border of the SDF bitmap around the glyph's box, in pixels (fixed by the glyph PBF format). */
export const GLYPH_BUFFER = 3;
/** Distance in pixels that the SDF spans from the edge outward (as tiny-sdf / fontnik). */
export const SDF_RADIUS = 8;
/** Fraction of the 0–255 range that lies inside the glyph (the edge is at 255 × (1 − cutoff) = 191). */
export const SDF_CUTOFF = 0.25;

/** Sub-rows sampled per pixel row; horizontal coverage within a sub-row is exact. */
const SUBROWS = 8;
const INF = 1e20;

/** A closed polygon (x, y pairs, y down, pixels) from a flattened outline contour. */
type Contour = number[];

/** Flattens outline commands (pixels, y down) into polygons, curves cut into short straight segments. */
export function flatten(commands: readonly PathCommand[]): Contour[] {
  const out: Contour[] = [];
  let cur: Contour = [];
  let x = 0,
    y = 0;
  const close = () => {
    if (cur.length >= 6) out.push(cur);
    cur = [];
  };
  for (const c of commands) {
    if (c.type === 'M') {
      close();
      x = c.x!;
      y = c.y!;
      cur.push(x, y);
    } else if (c.type === 'L') {
      x = c.x!;
      y = c.y!;
      cur.push(x, y);
    } else if (c.type === 'Q') {
      const n = Math.max(2, Math.ceil(Math.hypot(c.x! - x, c.y! - y) / 1.5));
      for (let i = 1; i <= n; i++) {
        const t = i / n,
          u = 1 - t;
        cur.push(u * u * x + 2 * u * t * c.x1! + t * t * c.x!, u * u * y + 2 * u * t * c.y1! + t * t * c.y!);
      }
      x = c.x!;
      y = c.y!;
    } else if (c.type === 'C') {
      const n = Math.max(3, Math.ceil(Math.hypot(c.x! - x, c.y! - y) / 1.5));
      for (let i = 1; i <= n; i++) {
        const t = i / n,
          u = 1 - t;
        cur.push(
          u * u * u * x + 3 * u * u * t * c.x1! + 3 * u * t * t * c.x2! + t * t * t * c.x!,
          u * u * u * y + 3 * u * u * t * c.y1! + 3 * u * t * t * c.y2! + t * t * t * c.y!,
        );
      }
      x = c.x!;
      y = c.y!;
    } else if (c.type === 'Z') close();
  }
  close();
  return out;
}

/**
 * Anti-aliased coverage (0–1 per pixel, row-major, width × height) of polygons under the non-zero winding rule:
 * each pixel row is sampled on SUBROWS horizontal lines, and along each line the covered length is exact.
 */
export function rasterize(contours: readonly Contour[], width: number, height: number): Float64Array {
  const cov = new Float64Array(width * height);
  const xs: number[] = [];
  const ws: number[] = [];
  for (let py = 0; py < height; py++) {
    for (let s = 0; s < SUBROWS; s++) {
      const sy = py + (s + 0.5) / SUBROWS;
      xs.length = 0;
      ws.length = 0;
      for (const c of contours) {
        const n = c.length / 2;
        for (let i = 0, j = n - 1; i < n; j = i++) {
          const x0 = c[2 * j]!,
            y0 = c[2 * j + 1]!,
            x1 = c[2 * i]!,
            y1 = c[2 * i + 1]!;
          if (y0 <= sy === y1 <= sy) continue;
          xs.push(x0 + ((sy - y0) * (x1 - x0)) / (y1 - y0));
          ws.push(y1 > y0 ? 1 : -1);
        }
      }
      const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
      let winding = 0;
      for (let k = 0; k < order.length - 1; k++) {
        winding += ws[order[k]!]!;
        if (winding !== 0) addSpan(cov, py * width, width, xs[order[k]!]!, xs[order[k + 1]!]!, 1 / SUBROWS);
      }
    }
  }
  for (let i = 0; i < cov.length; i++) cov[i] = Math.min(1, cov[i]!);
  return cov;
}

/** Adds `weight` × the covered length of [a, b) to each pixel of one row. */
function addSpan(cov: Float64Array, row: number, width: number, a: number, b: number, weight: number): void {
  const lo = Math.max(0, a),
    hi = Math.min(width, b);
  for (let px = Math.floor(lo); px < hi; px++) {
    const len = Math.min(px + 1, hi) - Math.max(px, lo);
    if (len > 0) cov[row + px] += len * weight;
  }
}

/**
 * Signed distance field of a coverage bitmap (as @mapbox/tiny-sdf): squared distances to the edge outside and
 * inside by a 2-D Euclidean distance transform, then 255 − 255 × (distance / SDF_RADIUS + SDF_CUTOFF), clamped.
 */
export function sdf(coverage: Float64Array, width: number, height: number): Uint8Array {
  const outer = new Float64Array(width * height);
  const inner = new Float64Array(width * height);
  for (let i = 0; i < coverage.length; i++) {
    const a = coverage[i]!;
    if (a === 0) {
      outer[i] = INF;
      inner[i] = 0;
    } else if (a === 1) {
      outer[i] = 0;
      inner[i] = INF;
    } else {
      // A partly covered pixel: the edge lies inside it, at a sub-pixel distance estimated from its coverage.
      const d = 0.5 - a;
      outer[i] = d > 0 ? d * d : 0;
      inner[i] = d < 0 ? d * d : 0;
    }
  }
  const n = Math.max(width, height);
  const f = new Float64Array(n),
    z = new Float64Array(n + 1),
    v = new Uint16Array(n);
  edt(outer, width, height, f, v, z);
  edt(inner, width, height, f, v, z);
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) {
    const d = Math.sqrt(outer[i]!) - Math.sqrt(inner[i]!);
    out[i] = Math.max(0, Math.min(255, Math.round(255 - 255 * (d / SDF_RADIUS + SDF_CUTOFF))));
  }
  return out;
}

/** 2-D squared Euclidean distance transform in place: columns, then rows (Felzenszwalb & Huttenlocher). */
function edt(
  grid: Float64Array,
  width: number,
  height: number,
  f: Float64Array,
  v: Uint16Array,
  z: Float64Array,
): void {
  for (let x = 0; x < width; x++) edt1d(grid, x, width, height, f, v, z);
  for (let y = 0; y < height; y++) edt1d(grid, y * width, 1, width, f, v, z);
}

function edt1d(
  grid: Float64Array,
  offset: number,
  stride: number,
  length: number,
  f: Float64Array,
  v: Uint16Array,
  z: Float64Array,
): void {
  v[0] = 0;
  z[0] = -INF;
  z[1] = INF;
  f[0] = grid[offset]!;
  for (let q = 1, k = 0, s = 0; q < length; q++) {
    f[q] = grid[offset + q * stride]!;
    const q2 = q * q;
    do {
      const r = v[k]!;
      s = (f[q]! - f[r]! + q2 - r * r) / (q - r) / 2;
    } while (s <= z[k]! && --k > -1);
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = INF;
  }
  for (let q = 0, k = 0; q < length; q++) {
    while (z[k + 1]! < q) k++;
    const r = v[k]!;
    const qr = q - r;
    grid[offset + q * stride] = f[r]! + qr * qr;
  }
}
