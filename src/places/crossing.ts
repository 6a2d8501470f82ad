/**
 * Where two streets meet ("ngã tư Lê Văn Sỹ Huỳnh Văn Bánh", "góc Nguyễn Thị Minh Khai Cao Thắng"): the road nodes
 * that roads of both names end at. Streets that meet in several places far apart (a street crossed twice, a ring
 * road) do not say which one is meant: no answer then, rather than a confident one in the wrong place.
 */
import { haversine } from '../geo';
import type { PlacesRegion } from './region-places';
import { edgesNamed } from './street-line';

/**
 * Nodes of one crossing lie within this of the next, metres: a dual carriageway meeting another crosses at up to four
 * nodes some 20–60 m apart, and a junction of several roads (Gò Vấp's six ways) chains more of them.
 */
const ONE_CROSSING_M = 120;
/** …and all within this of each other, metres: two names on one stretch of road share every node of it. */
const CROSSING_SPAN_M = 250;

/**
 * The point (degrees) where roads named `a` and roads named `b` (string ids) meet, the mean of the nodes they share;
 * null when they do not meet, or meet at places apart (see ONE_CROSSING_M, CROSSING_SPAN_M). `keep` limits the nodes considered
 * (the area the query names).
 */
export function crossingOf(
  r: PlacesRegion,
  a: number,
  b: number,
  keep: (lat: number, lng: number) => boolean,
): { lat: number; lng: number } | null {
  if (a === b) return null;
  const g = r.region.graph;
  const onA = new Set<number>();
  for (const e of edgesNamed(r, a)) onA.add(g.edgeNodes[2 * e]!).add(g.edgeNodes[2 * e + 1]!);
  const shared = new Set<number>();
  for (const e of edgesNamed(r, b))
    for (const n of [g.edgeNodes[2 * e]!, g.edgeNodes[2 * e + 1]!])
      if (onA.has(n) && keep(g.lat(n), g.lon(n))) shared.add(n);
  if (shared.size === 0) return null;
  const nodes = [...shared];
  const apart = (n: number, m: number) => haversine(g.lat(n), g.lon(n), g.lat(m), g.lon(m));
  // One crossing: no node too far from another (checked first: two names on one long stretch share hundreds of nodes
  // and leave at the first far pair), and every node chained to the first by steps of ONE_CROSSING_M at most.
  let lat = 0;
  let lng = 0;
  for (const n of nodes) {
    for (const m of nodes) if (apart(n, m) > CROSSING_SPAN_M) return null;
    lat += g.lat(n);
    lng += g.lon(n);
  }
  const reached = new Set([nodes[0]!]);
  for (const n of reached) for (const m of nodes) if (!reached.has(m) && apart(n, m) <= ONE_CROSSING_M) reached.add(m);
  if (reached.size < nodes.length) return null;
  // Rounded as stored coordinates are (1e-7 degrees).
  return { lat: Math.round((lat / nodes.length) * 1e7) / 1e7, lng: Math.round((lng / nodes.length) * 1e7) / 1e7 };
}
