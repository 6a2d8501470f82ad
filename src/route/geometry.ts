import { bearing, haversine } from '../geo.js';
import type { RoadGraph } from './graph.js';
import type { ArcPath } from './search.js';

/** A point as [lat, lon] in degrees. */
export type LatLon = [number, number];

/** Points of arc a (edge * 2 + dir) in driving order, degrees. */
export function arcPoints(g: RoadGraph, a: number): LatLon[] {
  const e = a >> 1;
  const pts: LatLon[] = [[g.lat(g.edgeNodes[2 * e]!), g.lon(g.edgeNodes[2 * e]!)]];
  for (let i = g.edgeShape[e]!; i < g.edgeShape[e + 1]!; i++) pts.push([g.shapeLat[i]! / 1e7, g.shapeLon[i]! / 1e7]);
  pts.push([g.lat(g.edgeNodes[2 * e + 1]!), g.lon(g.edgeNodes[2 * e + 1]!)]);
  return a & 1 ? pts.reverse() : pts;
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

/** The whole line of a path, degrees, without repeated points. */
export function pathPoints(g: RoadGraph, p: ArcPath): LatLon[] {
  const out: LatLon[] = [];
  p.arcs.forEach((a, i) => appendPoints(out, arcPart(g, a, ...pieceOf(p, i))));
  return out;
}

/** Appends points, skipping a first point equal to the last one already there. */
export function appendPoints(out: LatLon[], pts: LatLon[]): void {
  for (const q of pts) {
    const last = out[out.length - 1];
    if (last && last[0] === q[0] && last[1] === q[1]) continue;
    out.push(q);
  }
}

/** Bearing (degrees from north) with which arc a leaves its tail, and with which it enters its head. */
export function arcBearings(g: RoadGraph, a: number): { out: number; in: number } {
  const pts = arcPoints(g, a);
  const n = pts.length;
  return { out: bearing(pts[0]![0], pts[0]![1], pts[1]![0], pts[1]![1]), in: bearing(pts[n - 2]![0], pts[n - 2]![1], pts[n - 1]![0], pts[n - 1]![1]) };
}

/** South-west / north-east corners of a line. */
export function boundsOf(pts: LatLon[]): { northeast: { lat: number; lng: number }; southwest: { lat: number; lng: number } } {
  let s = Infinity, w = Infinity, n = -Infinity, e = -Infinity;
  for (const [lat, lon] of pts) {
    s = Math.min(s, lat); n = Math.max(n, lat); w = Math.min(w, lon); e = Math.max(e, lon);
  }
  return { northeast: { lat: n, lng: e }, southwest: { lat: s, lng: w } };
}
