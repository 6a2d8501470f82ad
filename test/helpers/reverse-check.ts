/**
 * An independent judge of one reverse geocode, by straight scans (no spatial index of the engine, no ward index):
 * - the ward: the top result names the 2025 ward whose official polygon holds the query point (ward-reference.ts);
 *   every later result names the ward holding its own location;
 * - the top: when the point lies in a building outline (the pack's basemap, scanned with a plain even-odd test)
 *   that holds a POI or address of the point's ward (its point inside, or the building's name and its point in the
 *   outline's box), the top is one of those places; else when a POI or address of the point's ward lies within
 *   50 m (a scan of every place), the top is one within 50 m; else the top is a street, shown on a road of its own
 *   name, at the distance of the nearest road named as a street place (a scan of every road segment); with no such
 *   road within 1,000 m, the nearest POI or address of the ward within 250 m, else the ward itself;
 * - the rest: nearest first, the point's ward last.
 */
import type { Engine } from '../../src/engine';
import { haversine } from '../../src/geo';
import { KIND_INDEX } from '../../src/map/kinds';
import { PlaceKind } from '../../src/places/kinds';
import { decodePlaceId } from '../../src/places/place-id';
import type { PlacesRegion } from '../../src/places/region-places';
import { nameKey } from '../../src/places/text/fold';
import { inPart, referenceWardAt, segmentDistance } from './ward-reference';

/** Which rule decides the top result at a point. */
type TopRule = 'building' | 'within 50 m' | 'street' | 'within 250 m' | 'ward' | 'none';

/**
 * The verdict on one point: `ward` null when no official polygon holds the point; the rule that applied;
 * `problems` empty when the answer is right.
 */
export interface ReverseVerdict {
  ward: boolean | null;
  rule: TopRule;
  problems: string[];
}

const TOP_M = 50;
const FAR_M = 250;
const RADIUS_M = 1000;

/** Metres per degree of latitude for the flat projection of the scans (as the engine's snap index uses). */
const KY = (6371008.8 * Math.PI) / 180;

/** The scanned geometry of one region: road segments with their names, buildings, street names. */
interface Scan {
  r: PlacesRegion;
  /** Per segment: [lat1, lon1, lat2, lon2] degrees, and the name (string) of its road. */
  seg: Float64Array;
  segName: string[];
  /** Names of the street places. */
  streets: Set<string>;
  /** Basemap feature ids of the buildings. */
  buildings: number[];
}

const scans = new WeakMap<PlacesRegion, Scan>();
function scanOf(r: PlacesRegion): Scan {
  let s = scans.get(r);
  if (s) return s;
  const g = r.region.graph;
  const str = (id: number) => r.region.strings.get(id);
  const seg: number[] = [];
  const segName: string[] = [];
  for (let e = 0; e < g.edgeCount; e++) {
    if (g.edgeName.at(e) === 0) continue;
    const pts: number[] = [g.edgeNodes[2 * e]!];
    const line: Array<[number, number]> = [[g.nodeLat[pts[0]!]! / 1e7, g.nodeLon[pts[0]!]! / 1e7]];
    for (let j = g.edgeShape.at(e); j < g.edgeShape.at(e + 1); j++)
      line.push([g.shapeLat[j]! / 1e7, g.shapeLon[j]! / 1e7]);
    const b = g.edgeNodes[2 * e + 1]!;
    line.push([g.nodeLat[b]! / 1e7, g.nodeLon[b]! / 1e7]);
    for (let i = 0; i + 1 < line.length; i++) {
      seg.push(line[i]![0], line[i]![1], line[i + 1]![0], line[i + 1]![1]);
      segName.push(str(g.edgeName.at(e)));
    }
  }
  const streets = new Set<string>();
  for (let i = 0; i < r.places.count; i++)
    if (r.places.kind[i] === PlaceKind.street) streets.add(str(r.places.name[i]!));
  const map = r.region.basemap;
  const buildings: number[] = [];
  if (map) for (let f = 0; f < map.count; f++) if (map.kind[f] === KIND_INDEX['building/building']) buildings.push(f);
  s = { r, seg: Float64Array.from(seg), segName, streets, buildings };
  scans.set(r, s);
  return s;
}

/** Metres from (lat, lng) to the nearest segment whose name `accept`s, by a flat projection around the point. */
function nearestRoad(s: Scan, lat: number, lng: number, accept: (name: string) => boolean): number {
  const kx = KY * Math.cos((lat * Math.PI) / 180);
  let best = Infinity;
  const q = s.seg;
  for (let k = 0; k < s.segName.length; k++) {
    const ay = (q[4 * k]! - lat) * KY,
      ax = (q[4 * k + 1]! - lng) * kx,
      by = (q[4 * k + 2]! - lat) * KY,
      bx = (q[4 * k + 3]! - lng) * kx;
    // Both ends farther than the best along one axis on the same side: the segment cannot be nearer.
    if (
      (ax > best && bx > best) ||
      (ax < -best && bx < -best) ||
      (ay > best && by > best) ||
      (ay < -best && by < -best)
    )
      continue;
    if (accept(s.segName[k]!)) best = Math.min(best, segmentDistance(ax, ay, bx, by));
  }
  return best;
}

/** Even-odd test of a point (degrees) against every ring of basemap feature `f` (ward-reference.ts inPart). */
function inOutline(r: PlacesRegion, f: number, lat: number, lng: number): boolean {
  const m = r.region.basemap!;
  const rings: number[][][] = [];
  for (let p = m.featPart.at(f); p < m.featPart.at(f + 1); p++) {
    const ring: number[][] = [];
    const c = m.partCoords(p);
    for (let k = 0; k < c.length; k += 2) ring.push([c[k]!, c[k + 1]!]);
    rings.push(ring);
  }
  return inPart(rings, lng * 1e7, lat * 1e7);
}

/** The ward a result names (its address component of a ward, commune or special zone), folded. */
const shownWard = (components: Array<{ long_name: string; short_name: string }>): string | undefined => {
  const c = components.find((x) => /^(Phường|Xã|Đặc khu) /.test(x.long_name));
  return c && nameKey(c.short_name);
};

/** Judges the reverse geocode of (lat, lng) degrees by an engine with one pack of places. */
export function judgeReverse(engine: Engine, lat: number, lng: number): ReverseVerdict {
  const res = engine.geocode({ latlng: `${lat},${lng}` });
  const state = engine.places;
  const r = state.regions[0]!;
  const s = scanOf(r);
  const problems: string[] = [];
  const truth = referenceWardAt(lat, lng);
  const top = res.results[0];
  const ward = truth && top ? shownWard(top.address_components) === nameKey(truth.name) : null;
  if (!top) {
    if (truth) problems.push('no result in a ward');
    const street = nearestRoad(s, lat, lng, (n) => s.streets.has(n));
    if (street <= RADIUS_M) problems.push(`no result with a street at ${street.toFixed(1)} m`);
    return { ward, rule: 'none', problems };
  }
  let rule: TopRule;
  const id = decodePlaceId(top.place_id, state.packs, state.tags);
  const place = id.status === 'ok' ? id.place : -1;
  const kind = place >= 0 ? r.places.kind[place]! : -1;
  const topD = haversine(lat, lng, top.geometry.location.lat, top.geometry.location.lng);
  const say = (what: string) => problems.push(`${what}; top ${top.formatted_address} at ${topD.toFixed(1)} m`);

  // The POIs and addresses of the point's ward that may be the top.
  const sameWard = (i: number) => !truth || referenceWardAt(r.lat(i), r.lon(i)) === truth;
  const isPoint = (i: number) => r.places.kind[i] === PlaceKind.poi || r.places.kind[i] === PlaceKind.address;
  const held = new Set<number>();
  const map = r.region.basemap;
  for (const f of s.buildings) {
    const b = map!.bbox;
    const x = lng * 1e7,
      y = lat * 1e7;
    if (x < b[4 * f]! || x > b[4 * f + 2]! || y < b[4 * f + 1]! || y > b[4 * f + 3]!) continue;
    if (!inOutline(r, f, lat, lng)) continue;
    for (let i = 0; i < r.places.count; i++) {
      if (!isPoint(i)) continue;
      const px = r.lon(i) * 1e7,
        py = r.lat(i) * 1e7;
      if (px < b[4 * f]! || px > b[4 * f + 2]! || py < b[4 * f + 1]! || py > b[4 * f + 3]!) continue;
      const named = map!.name[f] !== 0 && r.places.name[i] === map!.name[f];
      if ((named || inOutline(r, f, r.lat(i), r.lon(i))) && sameWard(i)) held.add(i);
    }
  }
  // The nearest POI or address of the point's ward within FAR_M.
  let closest = Infinity;
  for (let i = 0; i < r.places.count; i++) {
    if (!isPoint(i)) continue;
    const d = haversine(lat, lng, r.lat(i), r.lon(i));
    if (d <= FAR_M && d < closest && sameWard(i)) closest = d;
  }
  const isTopPoint = kind === PlaceKind.poi || kind === PlaceKind.address;

  if (held.size > 0) {
    rule = 'building';
    if (!held.has(place)) say(`the point is in a building of ${held.size} places, the top is none of them`);
  } else if (closest <= TOP_M) {
    rule = 'within 50 m';
    if (!isTopPoint || topD > TOP_M + 0.5) say('a POI or address of the ward lies within 50 m, the top is not one');
  } else {
    const street = nearestRoad(s, lat, lng, (n) => s.streets.has(n));
    rule = street <= RADIUS_M ? 'street' : closest <= FAR_M ? 'within 250 m' : 'ward';
    if (rule === 'within 250 m') {
      if (!isTopPoint || Math.abs(topD - closest) > 0.5)
        say(`no street within ${RADIUS_M} m, the top is not the place of the ward at ${closest.toFixed(1)} m`);
    } else if (rule === 'ward') {
      if (kind !== PlaceKind.ward)
        say(`no street within ${RADIUS_M} m nor place within ${FAR_M} m, the top is not the ward`);
    } else if (kind !== PlaceKind.street) say(`the top is not a street (nearest street ${street.toFixed(1)} m)`);
    else {
      const name = top.address_components[0]!.long_name;
      const off = nearestRoad(s, top.geometry.location.lat, top.geometry.location.lng, (n) => n === name);
      if (off > 0.5) say(`the top lies ${off.toFixed(1)} m off its street`);
      if (Math.abs(topD - street) > 1 + street * 0.002) say(`the nearest street lies at ${street.toFixed(1)} m`);
    }
  }

  // The rest: nearest first, each in the ward holding its own location; the point's ward last.
  const rest = res.results.slice(1);
  const last = rest[rest.length - 1];
  const wardLast = !!last && !!truth && nameKey(last.address_components[0]?.short_name ?? '') === nameKey(truth.name);
  const near = wardLast ? rest.slice(0, -1) : rest;
  let prev = -Infinity;
  for (const x of near) {
    const d = haversine(lat, lng, x.geometry.location.lat, x.geometry.location.lng);
    if (d < prev - 0.5) problems.push(`${x.formatted_address} at ${d.toFixed(1)} m after one at ${prev.toFixed(1)} m`);
    prev = d;
    const at = referenceWardAt(x.geometry.location.lat, x.geometry.location.lng);
    if (at && shownWard(x.address_components) !== nameKey(at.name))
      problems.push(`${x.formatted_address} is shown outside ${at.fullName}, which holds it`);
  }
  if (truth && kind !== PlaceKind.ward && !wardLast) problems.push('the ward is not last');
  return { ward, rule, problems };
}
