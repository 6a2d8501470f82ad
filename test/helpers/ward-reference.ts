/**
 * The reference answer to "which 2025 ward holds this point": a straight scan over every official polygon read
 * directly from the GeoJSON (no index, no clipping, no pack), with the rule src/admin/ward-polygons.ts documents:
 * even-odd crossings in 1e-7 degree units with half-open edges, the first ward in (province code, ward code) order,
 * else the ward whose boundary is nearest within 30 m.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Engine } from '../../src/engine';
import { nameKey } from '../../src/places/text/fold';
import { mulberry32 } from '../../src/trip/rng';
import { ADMIN } from './packs';

/** One official ward. */
export interface RefWard {
  code: string;
  name: string;
  fullName: string;
  provinceCode: string;
  provinceFullName: string;
  /** Parts, each a list of rings of [x, y] in 1e-7 degree. */
  parts: number[][][][];
  bbox: [number, number, number, number];
}

let wards: RefWard[] | null = null;

/** Every ward of the 2025 polygons, in (province code, ward code) order. */
export function referenceWards(): RefWard[] {
  if (wards) return wards;
  const json = JSON.parse(
    gunzipSync(readFileSync(`${ADMIN}vn-2025-boundaries/wards-2025.geojson.gz`)).toString('utf8'),
  );
  const out: RefWard[] = [];
  for (const f of json.features) {
    const p = f.properties;
    const polys = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
    const parts = polys.map((poly: number[][][]) =>
      poly.map((ring) => ring.map(([x, y]) => [Math.round(x! * 1e7), Math.round(y! * 1e7)])),
    );
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const part of parts)
      for (const ring of part)
        for (const [x, y] of ring) {
          x0 = Math.min(x0, x);
          y0 = Math.min(y0, y);
          x1 = Math.max(x1, x);
          y1 = Math.max(y1, y);
        }
    out.push({
      code: p.ward_code,
      name: p.name,
      fullName: p.full_name,
      provinceCode: p.province_code,
      provinceFullName: p.province_full_name,
      parts,
      bbox: [x0, y0, x1, y1],
    });
  }
  out.sort((a, b) => (a.provinceCode + a.code < b.provinceCode + b.code ? -1 : 1));
  return (wards = out);
}

/** Even-odd test of (x, y) against rings of [x, y] (any one unit), a ring's edges with the lower end included. */
export function inPart(part: number[][][], x: number, y: number): boolean {
  let inside = false;
  for (const ring of part) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi! > y !== yj! > y && x < xi! + ((y - yi!) * (xj! - xi!)) / (yj! - yi!)) inside = !inside;
    }
  }
  return inside;
}

/** Metres from (x, y) to the nearest edge of a part, all in 1e-7 degree units, by a local flat projection. */
function partDistance(part: number[][][], x: number, y: number): number {
  const ky = 111_320 / 1e7;
  const kx = ky * Math.cos((y / 1e7) * (Math.PI / 180));
  let best = Infinity;
  for (const ring of part) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const ax = (ring[j]![0]! - x) * kx,
        ay = (ring[j]![1]! - y) * ky;
      const bx = (ring[i]![0]! - x) * kx,
        by = (ring[i]![1]! - y) * ky;
      best = Math.min(best, segmentDistance(ax, ay, bx, by));
    }
  }
  return best;
}

/** Distance from the origin to the segment (ax, ay)–(bx, by), in the segment's units. */
export function segmentDistance(ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax,
    ey = by - ay;
  const l2 = ex * ex + ey * ey;
  const t = l2 > 0 ? Math.min(1, Math.max(0, -(ax * ex + ay * ey) / l2)) : 0;
  return Math.hypot(ax + t * ex, ay + t * ey);
}

/** The ward holding the point (degrees) by the rule above, or null. */
export function referenceWardAt(lat: number, lon: number): RefWard | null {
  const x = Math.round(lon * 1e7);
  const y = Math.round(lat * 1e7);
  for (const w of referenceWards()) {
    if (x < w.bbox[0] || x > w.bbox[2] || y < w.bbox[1] || y > w.bbox[3]) continue;
    if (w.parts.some((p) => inPart(p, x, y))) return w;
  }
  let best: RefWard | null = null;
  let bestD = 30;
  for (const w of referenceWards()) {
    const m = (40 * 1e7) / 111_320; // a little more than 30 m in degree units, for the bbox test
    if (x < w.bbox[0] - 2 * m || x > w.bbox[2] + 2 * m || y < w.bbox[1] - m || y > w.bbox[3] + m) continue;
    for (const p of w.parts) {
      const d = partDistance(p, x, y);
      if (d < bestD) {
        bestD = d;
        best = w;
      }
    }
  }
  return best;
}

/**
 * Reverse geocodes `points` seeded random points of an engine's first pack area and checks every result's 2025 ward
 * (the address component of a ward, commune or special zone): the top result's is the ward whose polygon holds the
 * query point (a street is shown in the ward of the point it answers for), every later result's the ward whose
 * polygon holds that result's location. Returns the share of results that agree.
 */
export function reverseWardCheck(
  engine: Engine,
  points: number,
  seed: number,
): { points: number; results: number; rate: number } {
  const [x0, y0, x1, y1] = engine.regions[0]!.meta.bbox!;
  const rand = mulberry32(seed);
  let results = 0;
  let agree = 0;
  for (let k = 0; k < points; k++) {
    const lat = y0 + rand() * (y1 - y0);
    const lng = x0 + rand() * (x1 - x0);
    const r = engine.geocode({ latlng: `${lat},${lng}` });
    r.results.forEach((x, i) => {
      const shown = x.address_components.find((c) => /^(Phường|Xã|Đặc khu) /.test(c.long_name));
      const truth =
        i === 0 ? referenceWardAt(lat, lng) : referenceWardAt(x.geometry.location.lat, x.geometry.location.lng);
      results++;
      if (shown && truth && nameKey(shown.short_name) === nameKey(truth.name)) agree++;
    });
  }
  return { points, results, rate: agree / Math.max(1, results) };
}
