import type { RoadGraph } from '../src/route/graph.js';
import { mulberry32 } from '../src/trip/rng.js';

/**
 * n points [lat, lng] inside seeded random edges of `g`: a shape point of the edge, or the middle of a straight one
 * (degrees to 7 places).
 */
export function edgePoints(g: RoadGraph, n: number, seed: number): [number, number][] {
  const rand = mulberry32(seed);
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const e = Math.floor(rand() * g.edgeCount);
    const s0 = g.edgeShape.at(e),
      k = g.edgeShape.at(e + 1) - s0;
    if (k > 0) {
      const j = s0 + Math.floor(rand() * k);
      out.push([g.shapeLat[j]! / 1e7, g.shapeLon[j]! / 1e7]);
    } else {
      const [a, b] = [g.edgeNodes[2 * e]!, g.edgeNodes[2 * e + 1]!];
      out.push([+((g.lat(a) + g.lat(b)) / 2).toFixed(7), +((g.lon(a) + g.lon(b)) / 2).toFixed(7)]);
    }
  }
  return out;
}

/** OSRM's `lng,lat;…` of [lat, lng] points. */
export function osrmCoords(pts: readonly (readonly number[])[]): string {
  return pts.map(([la, lo]) => `${lo},${la}`).join(';');
}
