import { roadMetres } from '../geo.js';
import type { RoadGraph } from './graph.js';
import type { ArcPath } from './search.js';

/** A point as [lat, lon] in degrees. */
type LatLon = [number, number];

/** Points of arc a (edge * 2 + dir) in driving order, degrees. */
function arcPoints(g: RoadGraph, a: number): LatLon[] {
  const e = a >> 1;
  const s0 = g.edgeShape.at(e);
  const k = g.edgeShape.at(e + 1) - s0;
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
function arcPart(g: RoadGraph, a: number, from: number, to: number): LatLon[] {
  const pts = arcPoints(g, a);
  if (from <= 0 && to >= 1) return pts;
  const cum = [0];
  for (let i = 1; i < pts.length; i++)
    cum.push(cum[i - 1]! + roadMetres(pts[i - 1]![0], pts[i - 1]![1], pts[i]![0], pts[i]![1]));
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

/**
 * A path's line in driving order: `coords` is flat `[lat0, lon0, lat1, lon1, …]` in degrees with no point repeated
 * consecutively; `starts[i]` is the index (in points) where arc i's piece begins: 0 for the first arc, else the
 * line's last point before that piece was added (the node the arc leaves, so consecutive pieces share it).
 */
export interface PathLine {
  coords: number[];
  starts: number[];
}

/** The line of a path ({@link arcPart} of each arc with the fractions the path covers), see {@link PathLine}. */
export function pathLine(g: RoadGraph, p: ArcPath): PathLine {
  const n = p.arcs.length;
  // The line has at most every arc's shape points and both its ends (an end shared by two arcs is written once): it
  // is written into an array of that size, one allocation rather than the copies a growing array makes, and cut to
  // what was written.
  let bound = 0;
  for (let i = 0; i < n; i++) {
    const e = p.arcs[i]! >> 1;
    bound += g.edgeShape.at(e + 1) - g.edgeShape.at(e) + 2;
  }
  const coords: number[] = new Array(2 * bound);
  const starts: number[] = new Array(n);
  let length = 0;
  for (let i = 0; i < n; i++) {
    starts[i] = Math.max(0, length / 2 - 1);
    const from = i === 0 ? p.from : 0;
    const to = i === n - 1 ? p.to : 1;
    if (from <= 0 && to >= 1) length = appendArc(coords, length, g, p.arcs[i]!);
    else {
      const pts = arcPart(g, p.arcs[i]!, from, to);
      for (let k = 0; k < pts.length; k++) length = appendPoint(coords, length, pts[k]![0], pts[k]![1]);
    }
  }
  coords.length = length;
  return { coords, starts };
}

/**
 * The line of one leg between two located points: its path's line ({@link pathLine}) with the first and last point
 * set exactly to the leg's ends (the path's end fractions give the same points up to rounding), so a route's line
 * passes through every stop it was asked for; still no point repeated consecutively, and at least one point. The one
 * leg-geometry rule of Direction, trip and the static map.
 */
export function legLine(
  g: RoadGraph,
  leg: { path: ArcPath; from: { lat: number; lon: number }; to: { lat: number; lon: number } },
): PathLine {
  const { coords: c, starts } = pathLine(g, leg.path);
  const { from, to } = leg;
  if (c.length === 0) c.push(from.lat, from.lon);
  c[0] = from.lat;
  c[1] = from.lon;
  if (c.length >= 4 && c[2] === from.lat && c[3] === from.lon) {
    c.splice(0, 2);
    for (let i = 0; i < starts.length; i++) starts[i] = Math.max(0, starts[i]! - 1);
  }
  const n = c.length;
  if (n >= 4 && c[n - 4] === to.lat && c[n - 3] === to.lon) c.length = n - 2;
  else if (n >= 4 || from.lat !== to.lat || from.lon !== to.lon) {
    if (n === 2) c.push(to.lat, to.lon);
    else [c[n - 2], c[n - 1]] = [to.lat, to.lon];
  }
  const last = c.length / 2 - 1;
  for (let i = 0; i < starts.length; i++) starts[i] = Math.min(starts[i]!, last);
  return { coords: c, starts };
}

/**
 * Appends the points of arc a ({@link arcPoints}, same values) to a flat line whose first `n` values are written,
 * without making point arrays; returns the new count of values.
 */
function appendArc(out: number[], n: number, g: RoadGraph, a: number): number {
  const e = a >> 1;
  const s0 = g.edgeShape.at(e);
  const k = g.edgeShape.at(e + 1) - s0;
  const first = g.edgeNodes[2 * e + (a & 1)]!;
  const last = g.edgeNodes[2 * e + 1 - (a & 1)]!;
  n = appendPoint(out, n, g.lat(first), g.lon(first));
  if (a & 1)
    for (let i = k - 1; i >= 0; i--) n = appendPoint(out, n, g.shapeLat[s0 + i]! / 1e7, g.shapeLon[s0 + i]! / 1e7);
  else for (let i = 0; i < k; i++) n = appendPoint(out, n, g.shapeLat[s0 + i]! / 1e7, g.shapeLon[s0 + i]! / 1e7);
  return appendPoint(out, n, g.lat(last), g.lon(last));
}

/**
 * Writes one point after the first `n` values of a flat line unless it equals the last point written; returns the
 * new count of values. Writing at `n` = `out.length` appends, so this serves both a growing array and one made to
 * size beforehand.
 */
function appendPoint(out: number[], n: number, lat: number, lon: number): number {
  if (n > 0 && out[n - 2] === lat && out[n - 1] === lon) return n;
  out[n] = lat;
  out[n + 1] = lon;
  return n + 2;
}

/** Appends flat line `src` to flat line `out`, skipping each point equal to the line's last one. */
export function appendLine(out: number[], src: readonly number[]): void {
  let n = out.length;
  for (let i = 0; i < src.length; i += 2) n = appendPoint(out, n, src[i]!, src[i + 1]!);
}

/** Scratch for {@link encodePolyline}: character codes before they become a string (grown on demand). */
let polyChars = new Uint8Array(4096);
/** Polyline characters are ASCII 63–126, the same in Latin-1: one native decode makes the whole string. */
const latin1 = new TextDecoder('latin1');

/**
 * Google's encoded polyline (precision 5) of points `from` (inclusive) to `to` (exclusive) of a flat line
 * `[lat0, lon0, lat1, lon1, …]` in degrees: the same characters as `@mapbox/polyline`'s `encode(points, 5)` (Python-2
 * rounding of each coordinate times 1e5, zig-zag deltas, 5-bit groups), written into a reused byte buffer and turned
 * into one flat string by one native decode (no per-coordinate strings, no string ropes).
 */
export function encodePolyline(coords: ArrayLike<number>, from = 0, to = coords.length / 2): string {
  const n = writePolyline(coords, from, to, 0); // first: it may replace polyChars
  return latin1.decode(polyChars.subarray(0, n));
}

/**
 * The encoded polylines ({@link encodePolyline}) of several stretches of one flat line: `stretches` holds point
 * ranges `[from0, to0, from1, to1, …]` (from inclusive, to exclusive); a stretch of one point is encoded as that
 * point twice (a zero-length line, as Google gives for a step without length). All are written into one buffer and
 * decoded once; each answer is a slice of that string.
 */
export function encodePolylines(coords: ArrayLike<number>, stretches: readonly number[]): string[] {
  const ends: number[] = new Array(stretches.length / 2);
  let n = 0;
  for (let k = 0; k < stretches.length; k += 2) {
    const from = stretches[k]!;
    const to = stretches[k + 1]!;
    n = writePolyline(coords, from, to, n);
    if (to - from === 1) n = writePolyline(coords, from, to, n, from);
    ends[k / 2] = n;
  }
  const all = latin1.decode(polyChars.subarray(0, n));
  // Pushed, not `ends.map`: the array `map` returns takes another elements kind (another V8 map) once the call is
  // inlined in compiled code, and buildManeuvers, reading it, was deoptimized at that map.
  const lines: string[] = [];
  for (let i = 0; i < ends.length; i++) lines.push(all.slice(i === 0 ? 0 : ends[i - 1], ends[i]));
  return lines;
}

/**
 * Writes the characters of points `from`..`to` (exclusive) into polyChars at `n`, with deltas from point `base`
 * (none: from zero, as a polyline starts), and returns the new length. Grows polyChars, keeping what it holds.
 */
function writePolyline(coords: ArrayLike<number>, from: number, to: number, n: number, base = -1): number {
  const count = to - from;
  if (count <= 0) return n;
  // At most 6 characters per coordinate for |delta| < 2^29 (any lat/lon times 1e5 is below 2^25).
  if (polyChars.length < n + count * 12) {
    const grown = new Uint8Array(2 * (n + count * 12));
    grown.set(polyChars.subarray(0, n));
    polyChars = grown;
  }
  const out = polyChars;
  let prevLat = base < 0 ? 0 : py2Round(coords[2 * base]! * 1e5);
  let prevLon = base < 0 ? 0 : py2Round(coords[2 * base + 1]! * 1e5);
  for (let i = from; i < to; i++) {
    const lat = py2Round(coords[2 * i]! * 1e5);
    const lon = py2Round(coords[2 * i + 1]! * 1e5);
    for (let k = 0; k < 2; k++) {
      let c = k === 0 ? lat - prevLat : lon - prevLon;
      c = c < 0 ? -2 * c - 1 : 2 * c;
      // |c| < 2^27 (see above): 32-bit shifts are exact.
      while (c >= 0x20) {
        out[n++] = ((c & 0x1f) | 0x20) + 63;
        c >>>= 5;
      }
      out[n++] = c + 63;
    }
    prevLat = lat;
    prevLon = lon;
  }
  return n;
}

/** Python 2 rounding (halves away from zero), as the polyline algorithm specifies. */
function py2Round(v: number): number {
  return Math.floor(Math.abs(v) + 0.5) * (v >= 0 ? 1 : -1);
}
