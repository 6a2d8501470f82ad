/** Street places from named roads, and the nearest-street lookup for places without addr:street. */
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import { haversine } from '../../src/geo.js';
import { COORD_SCALE } from '../../src/pack/format.js';
import { GrowableFloat64, GrowableInt32 } from '../growable.js';
import type { OsmStore } from '../store.js';
import type { Tags } from '../osm/types.js';
import { withoutNote } from '../../src/places/text/name-note.js';
import { AltKind } from '../../src/places/kinds.js';
import { altNamesOf, type AltName } from './tags.js';

/**
 * A road's ref that people write as its name ("ĐT.743", "QL.52", "TL 10", "CT01"): a few capitals, then its number. A
 * bare number ("15", "1A") is no name.
 */
const NAMED_REF = /^\p{Lu}{1,3}[.\s]?\d+\p{Lu}?$/u;

/** The road's named refs, as other names of it, written with a space for the dot ("ĐT 743"). */
function refNames(tags: Tags): AltName[] {
  return (tags.ref ?? '')
    .split(';')
    .map((r) => r.trim())
    .filter((r) => NAMED_REF.test(r))
    .map((r) => ({ name: r.replace('.', ' '), kind: AltKind.name }));
}

/** Road classes whose names make street places. */
const STREET_CLASSES = new Set([
  'motorway',
  'trunk',
  'primary',
  'secondary',
  'tertiary',
  'unclassified',
  'residential',
  'living_street',
  'service',
  'pedestrian',
  'road',
  'motorway_link',
  'trunk_link',
  'primary_link',
  'secondary_link',
  'tertiary_link',
  'track',
]);
/** A named road of a street class: its name makes a street place. */
function isStreet(tags: Tags): boolean {
  return !!tags.name && STREET_CLASSES.has(tags.highway ?? '');
}
/** Ways of one name are one street when they share a node or come this close (dual carriageways), metres. */
const JOIN_METRES = 150;

/** One street place: a stretch of a named street inside one 2025 ward. */
export interface StreetPiece {
  lat: number;
  lon: number;
  name: string;
  alt: AltName[];
  /** The street's first OSM way id. */
  way: number;
  /** 0..255, from the whole street's length (every piece of a long street ranks as a long street). */
  importance: number;
}

/**
 * One street place per named road and ward: ways of the same name are joined when they share a node or come within
 * JOIN_METRES of each other; the joined street is cut by `wardOf` (a ward id per point, -1 outside every ward; null:
 * no cutting), and each piece's place sits on its vertex nearest the piece's centre, so it lies in the piece's ward.
 */
export function buildStreets(store: OsmStore, wardOf: ((lat: number, lon: number) => number) | null): StreetPiece[] {
  const byName = new Map<string, { id: number; refs: number[]; alt: AltName[] }[]>();
  // A way's street name and other names depend on its tags alone, and road networks repeat a few tag sets over
  // millions of ways (the tags object is shared: WayRec.tags): each set's are made once.
  const namesOf = new Map<Tags, { name: string; alt: AltName[] }>();
  for (const way of store.sortedWays(isStreet)) {
    let names = namesOf.get(way.tags);
    if (!names) {
      // "Võ Văn Kiệt (Đông Tây)" is one street with the ways called "Võ Văn Kiệt".
      const name = withoutNote(way.tags.name!);
      namesOf.set(way.tags, (names = { name, alt: [...altNamesOf(way.tags, name), ...refNames(way.tags)] }));
    }
    const refs = way.refs.map((r) => store.nodeIndex(r)).filter((r) => r >= 0);
    if (refs.length < 2) continue;
    let list = byName.get(names.name);
    if (!list) byName.set(names.name, (list = []));
    list.push({ id: way.id, refs, alt: names.alt });
  }
  const out: StreetPiece[] = [];
  const wardCache = new Map<number, number>();
  const wardOfNode = (r: number): number => {
    if (!wardOf) return -1;
    let w = wardCache.get(r);
    if (w === undefined) wardCache.set(r, (w = wardOf(store.latE7(r) / COORD_SCALE, store.lonE7(r) / COORD_SCALE)));
    return w;
  };
  for (const [name, ways] of [...byName.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const root = joinNear(store, ways);
    const groups = new Map<number, number[]>();
    ways.forEach((_, i) => {
      const r = root[i]!;
      const g = groups.get(r);
      if (g) g.push(i);
      else groups.set(r, [i]);
    });
    for (const members of groups.values()) {
      const refs = [...new Set(members.flatMap((i) => ways[i]!.refs))];
      // Members are in ways' order (ids ascending), so the first is the street's first way.
      const first = ways[members[0]!]!;
      // The other names of all its ways (one may carry the old name the others lack: "Võ Tánh" for Bùi Thị Xuân).
      const alt: AltName[] = [];
      const merged = new Set<AltName[]>();
      for (const i of members) {
        const list = ways[i]!.alt;
        if (merged.has(list)) continue;
        merged.add(list);
        for (const a of list) if (!alt.some((b) => b.name === a.name)) alt.push(a);
      }
      const importance = Math.min(255, 60 + Math.round(Math.sqrt(refs.length) * 8));
      const byWard = new Map<number, number[]>();
      for (const r of refs) {
        const w = wardOfNode(r);
        const list = byWard.get(w);
        if (list) list.push(r);
        else byWard.set(w, [r]);
      }
      for (const w of [...byWard.keys()].sort((a, b) => a - b)) {
        const at = nearestToCentre(store, byWard.get(w)!);
        out.push({
          lat: store.latE7(at) / COORD_SCALE,
          lon: store.lonE7(at) / COORD_SCALE,
          name,
          alt,
          way: first.id,
          importance,
        });
      }
    }
  }
  return out;
}

/**
 * A group root per way of `ways` (one name) after joining every pair that shares a node or comes within
 * JOIN_METRES: the groups are the connected components of that "near" relation. Candidate pairs come from an
 * R-tree of the ways' boxes, so a name shared by thousands of ways across a country costs about each way's
 * neighbours, not all its pairs, nor all ways in its band of longitude; the components, and so the result, do not
 * depend on the order in which pairs are met.
 */
function joinNear(store: OsmStore, ways: readonly { refs: number[] }[]): number[] {
  const parent = ways.map((_, i) => i);
  if (ways.length < 2) return parent;
  // Union-find with path compression.
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const boxes = ways.map((w) => bboxOf(store, w.refs));
  const tree = new Flatbush(ways.length);
  for (const b of boxes) tree.add(b[0], b[1], b[2], b[3]);
  tree.finish();
  // The search box is one unit (1e-7 degree) wider than the margin, so that rounding never drops a pair that
  // boxesNear, the exact test, accepts.
  const m = nearMargin(JOIN_METRES) + 1;
  for (let i = 0; i < ways.length; i++) {
    const a = boxes[i]!;
    for (const j of tree.search(a[0] - m, a[1] - m, a[2] + m, a[3] + m)) {
      if (
        j > i &&
        find(i) !== find(j) &&
        boxesNear(a, boxes[j]!, JOIN_METRES) &&
        (sharesNode(ways[i]!.refs, ways[j]!.refs) || nearerThan(store, ways[i]!.refs, ways[j]!.refs, JOIN_METRES))
      )
        parent[find(i)] = find(j);
    }
  }
  return parent.map((_, i) => find(i));
}

/** The node (store index) of `refs` (distinct store indices) nearest to their centroid. */
function nearestToCentre(store: OsmStore, refs: number[]): number {
  // The mean as centroid() takes it over these nodes' ids, summed in the same order, without finding each again.
  let lat = 0,
    lon = 0;
  for (const r of refs) {
    lat += store.latE7(r);
    lon += store.lonE7(r);
  }
  const c = { lat: lat / refs.length / COORD_SCALE, lon: lon / refs.length / COORD_SCALE };
  let best = refs[0]!;
  let bestD = Infinity;
  for (const r of refs) {
    const d = haversine(c.lat, c.lon, store.latE7(r) / COORD_SCALE, store.lonE7(r) / COORD_SCALE);
    if (d < bestD) {
      bestD = d;
      best = r;
    }
  }
  return best;
}

type Box = [number, number, number, number];
function bboxOf(store: OsmStore, refs: number[]): Box {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const r of refs) {
    x0 = Math.min(x0, store.lonE7(r));
    x1 = Math.max(x1, store.lonE7(r));
    y0 = Math.min(y0, store.latE7(r));
    y1 = Math.max(y1, store.latE7(r));
  }
  return [x0, y0, x1, y1];
}
/** A distance in metres as a generous margin in 1e-7 degrees (1.5× a degree of latitude's length). */
function nearMargin(metres: number): number {
  return (metres / 111_000) * COORD_SCALE * 1.5;
}
function boxesNear(a: Box, b: Box, metres: number): boolean {
  const m = nearMargin(metres);
  return a[0] - m <= b[2] && b[0] - m <= a[2] && a[1] - m <= b[3] && b[1] - m <= a[3];
}
function sharesNode(a: number[], b: number[]): boolean {
  const s = new Set(a);
  return b.some((r) => s.has(r));
}
/** True when some vertex of `a` lies less than `metres` from some vertex of `b` (store indices). */
function nearerThan(store: OsmStore, a: number[], b: number[], metres: number): boolean {
  for (const p of a) {
    const pLat = store.latE7(p) / COORD_SCALE,
      pLon = store.lonE7(p) / COORD_SCALE;
    for (const q of b)
      if (haversine(pLat, pLon, store.latE7(q) / COORD_SCALE, store.lonE7(q) / COORD_SCALE) < metres) return true;
  }
  return false;
}

/**
 * Vertices of named roads (and points every 40 m along long segments), for nearest-street lookups: `index` holds
 * the points (lon, lat degrees) in way-id order, `name(i)` the name of point i. Points sit in typed arrays and names
 * as ids, as a country has tens of millions of them.
 */
export function namedRoadPoints(store: OsmStore): { index: KDBush; name(point: number): string } {
  const xy = new GrowableFloat64();
  const nameOfPoint = new GrowableInt32();
  const names: string[] = [];
  const nameIds = new Map<string, number>();
  for (const way of store.sortedWays(isStreet)) {
    // "Võ Văn Kiệt (Đông Tây)" is one street with the ways called "Võ Văn Kiệt".
    const name = withoutNote(way.tags.name!);
    let id = nameIds.get(name);
    if (id === undefined) nameIds.set(name, (id = names.push(name) - 1));
    let prev = -1;
    for (const ref of way.refs) {
      const r = store.nodeIndex(ref);
      if (r < 0) continue;
      if (prev >= 0) {
        const d = haversine(
          store.latE7(prev) / COORD_SCALE,
          store.lonE7(prev) / COORD_SCALE,
          store.latE7(r) / COORD_SCALE,
          store.lonE7(r) / COORD_SCALE,
        );
        const steps = Math.floor(d / 40);
        for (let k = 1; k <= steps; k++) {
          const t = k / (steps + 1);
          xy.push((store.lonE7(prev) + (store.lonE7(r) - store.lonE7(prev)) * t) / COORD_SCALE);
          xy.push((store.latE7(prev) + (store.latE7(r) - store.latE7(prev)) * t) / COORD_SCALE);
          nameOfPoint.push(id);
        }
      }
      xy.push(store.lonE7(r) / COORD_SCALE);
      xy.push(store.latE7(r) / COORD_SCALE);
      nameOfPoint.push(id);
      prev = r;
    }
  }
  const count = nameOfPoint.length;
  const index = new KDBush(Math.max(1, count));
  for (let i = 0; i < count; i++) index.add(xy.at(2 * i), xy.at(2 * i + 1));
  if (count === 0) index.add(0, 0);
  index.finish();
  return { index, name: (point) => names[nameOfPoint.at(point)]! };
}
