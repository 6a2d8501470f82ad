import { bearing, haversine } from '../geo.js';
import type { RoadGraph } from './graph.js';
import type { ArcPath } from './search.js';

/** A point as [lat, lon] in degrees. */
export type LatLon = [number, number];

/** Points of arc a (edge * 2 + dir) in driving order, degrees. */
export function arcPoints(g: RoadGraph, a: number): LatLon[] {
  const e = a >> 1;
  const s0 = g.edgeShape[e]!;
  const k = g.edgeShape[e + 1]! - s0;
  // Filled in driving order straight away (no reverse); values as g.lat/g.lon and shape / 1e7.
  const pts: LatLon[] = new Array(k + 2);
  const first = g.edgeNodes[2 * e]!;
  const last = g.edgeNodes[2 * e + 1]!;
  const rev = a & 1;
  pts[rev ? k + 1 : 0] = [g.lat(first), g.lon(first)];
  for (let i = 0; i < k; i++) pts[rev ? k - i : i + 1] = [g.shapeLat[s0 + i]! / 1e7, g.shapeLon[s0 + i]! / 1e7];
  pts[rev ? 0 : k + 1] = [g.lat(last), g.lon(last)];
  return pts;
}

/** The part of arc a between fractions `from` and `to` of its length (0 ≤ from ≤ to ≤ 1), degrees. */
export function arcPart(g: RoadGraph, a: number, from: number, to: number): LatLon[] {
  const pts = arcPoints(g, a);
  if (from <= 0 && to >= 1) return pts;
  const cum = [0];
  for (let i = 1; i < pts.length; i++) cum.push(cum[i - 1]! + haversine(pts[i - 1]![0], pts[i - 1]![1], pts[i]![0], pts[i]![1]));
  const total = cum[cum.length - 1]!;
  const at = (f: number): LatLon => {
    const d = f * total;
    let i = 1;
    while (i < pts.length - 1 && cum[i]! < d) i++;
    const seg = cum[i]! - cum[i - 1]!;
    const u = seg > 0 ? Math.min(1, Math.max(0, (d - cum[i - 1]!) / seg)) : 0;
    return [pts[i - 1]![0] + u * (pts[i]![0] - pts[i - 1]![0]), pts[i - 1]![1] + u * (pts[i]![1] - pts[i - 1]![1])];
  };
  const out: LatLon[] = [at(from)];
  for (let i = 1; i < pts.length - 1; i++) if (cum[i]! > from * total && cum[i]! < to * total) out.push(pts[i]!);
  out.push(at(to));
  return out;
}

/** Fractions of the i-th arc of a path that the path covers. */
export function pieceOf(p: ArcPath, i: number): [number, number] {
  const n = p.arcs.length;
  return [i === 0 ? p.from : 0, i === n - 1 ? p.to : 1];
}

/** The piece of each arc of a path ({@link arcPart} with the fractions the path covers), degrees. */
export function pathParts(g: RoadGraph, p: ArcPath): LatLon[][] {
  const n = p.arcs.length;
  const out: LatLon[][] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = arcPart(g, p.arcs[i]!, i === 0 ? p.from : 0, i === n - 1 ? p.to : 1);
  return out;
}

/** The whole line of a path, degrees, without repeated points. */
export function pathPoints(g: RoadGraph, p: ArcPath): LatLon[] {
  const out: LatLon[] = [];
  const n = p.arcs.length;
  for (let i = 0; i < n; i++) appendPoints(out, arcPart(g, p.arcs[i]!, i === 0 ? p.from : 0, i === n - 1 ? p.to : 1));
  return out;
}

/** Appends points, skipping a first point equal to the last one already there. */
export function appendPoints(out: LatLon[], pts: LatLon[]): void {
  for (let i = 0; i < pts.length; i++) {
    const q = pts[i]!;
    const last = out[out.length - 1];
    if (last && last[0] === q[0] && last[1] === q[1]) continue;
    out.push(q);
  }
}

/**
 * Bearing (degrees from north) with which arc a leaves its tail: from its first to its second point in driving
 * order. Reads the graph's arrays directly (no point arrays), with the same arithmetic as {@link arcPoints}.
 */
export function arcOutBearing(g: RoadGraph, a: number): number {
  const e = a >> 1;
  const s0 = g.edgeShape[e]!;
  const s1 = g.edgeShape[e + 1]!;
  const tail = g.edgeNodes[2 * e + (a & 1)]!;
  if (s1 === s0) {
    const head = g.edgeNodes[2 * e + 1 - (a & 1)]!;
    return bearing(g.lat(tail), g.lon(tail), g.lat(head), g.lon(head));
  }
  const s = a & 1 ? s1 - 1 : s0;
  return bearing(g.lat(tail), g.lon(tail), g.shapeLat[s]! / 1e7, g.shapeLon[s]! / 1e7);
}

/** Bearing (degrees from north) with which arc a enters its head: from its last-but-one to its last point. */
export function arcInBearing(g: RoadGraph, a: number): number {
  const e = a >> 1;
  const s0 = g.edgeShape[e]!;
  const s1 = g.edgeShape[e + 1]!;
  const head = g.edgeNodes[2 * e + 1 - (a & 1)]!;
  if (s1 === s0) {
    const tail = g.edgeNodes[2 * e + (a & 1)]!;
    return bearing(g.lat(tail), g.lon(tail), g.lat(head), g.lon(head));
  }
  const s = a & 1 ? s0 : s1 - 1;
  return bearing(g.shapeLat[s]! / 1e7, g.shapeLon[s]! / 1e7, g.lat(head), g.lon(head));
}

/** Scratch for {@link encodePolyline}: character codes before they become a string (grown on demand). */
let polyChars = new Uint8Array(4096);

/**
 * Google's encoded polyline (precision 5) of points in degrees: the same characters as `@mapbox/polyline`'s
 * `encode(points, 5)` (Python-2 rounding of each coordinate times 1e5, zig-zag deltas, 5-bit groups), written into
 * a reused byte buffer and turned into one flat string (no per-coordinate strings, no string ropes).
 */
export function encodePolyline(pts: readonly LatLon[]): string {
  if (pts.length === 0) return '';
  // At most 6 characters per coordinate for |delta| < 2^29 (any lat/lon times 1e5 is below 2^25).
  if (polyChars.length < pts.length * 12) polyChars = new Uint8Array(pts.length * 24);
  const out = polyChars;
  let n = 0;
  let prevLat = 0;
  let prevLon = 0;
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i]!;
    const lat = py2Round(p[0] * 1e5);
    const lon = py2Round(p[1] * 1e5);
    for (let k = 0; k < 2; k++) {
      let c = k === 0 ? lat - prevLat : lon - prevLon;
      c = c < 0 ? -2 * c - 1 : 2 * c;
      while (c >= 0x20) {
        out[n++] = ((c & 0x1f) | 0x20) + 63;
        c = Math.floor(c / 32);
      }
      out[n++] = c + 63;
    }
    prevLat = lat;
    prevLon = lon;
  }
  let s = '';
  for (let i = 0; i < n; i += 8192) s += String.fromCharCode.apply(null, out.subarray(i, Math.min(n, i + 8192)) as unknown as number[]);
  return s;
}

/** Python 2 rounding (halves away from zero), as the polyline algorithm specifies. */
function py2Round(v: number): number {
  return Math.floor(Math.abs(v) + 0.5) * (v >= 0 ? 1 : -1);
}

/** South-west / north-east corners of a line. */
export function boundsOf(pts: LatLon[]): { northeast: { lat: number; lng: number }; southwest: { lat: number; lng: number } } {
  let s = Infinity, w = Infinity, n = -Infinity, e = -Infinity;
  for (const [lat, lon] of pts) {
    s = Math.min(s, lat); n = Math.max(n, lat); w = Math.min(w, lon); e = Math.max(e, lon);
  }
  return { northeast: { lat: n, lng: e }, southwest: { lat: s, lng: w } };
}
