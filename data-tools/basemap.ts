import { COORD_SCALE } from '../src/pack/format.js';
import type { StringTableBuilder } from '../src/pack/strings.js';
import { GeomType, KIND_INDEX } from '../src/map/kinds.js';
import { seaPolygons, type XY } from './coastline.js';
import { GrowableInt32 } from './growable.js';
import { assembleRings, ringArea } from './rings.js';
import type { OsmStore } from './store.js';
import type { Member, Tags } from './osm/types.js';

/**
 * Basemap features in flat arrays: per feature its kind, geometry type, name and bbox; its parts (rings or lines)
 * as offsets into the point arrays.
 */
export interface BasemapArrays {
  kind: Uint8Array;
  type: Uint8Array;
  name: Uint32Array;
  /** F × 4 bbox in 1e-7 degrees: minLon, minLat, maxLon, maxLat. */
  bbox: Int32Array;
  /** F + 1 offsets into partFirst. */
  featPart: Uint32Array;
  /** P + 1 offsets into lat/lon. */
  partFirst: Uint32Array;
  lat: Int32Array;
  lon: Int32Array;
  /** Multipolygon relations of drawn areas left out as broken: a member missing, or a ring that does not close. */
  skippedMultipolygons: number;
  /** True when the input has coastline but its sea was left out: no stated bounds, or a coastline with a gap. */
  seaSkipped: boolean;
}

const ROAD_KIND: Record<string, string> = {
  motorway: 'motorway',
  motorway_link: 'motorway',
  trunk: 'trunk',
  trunk_link: 'trunk',
  primary: 'primary',
  primary_link: 'primary',
  secondary: 'secondary',
  secondary_link: 'secondary',
  tertiary: 'tertiary',
  tertiary_link: 'tertiary',
  unclassified: 'minor',
  residential: 'minor',
  living_street: 'minor',
  road: 'minor',
  service: 'service',
  track: 'service',
  busway: 'service',
  pedestrian: 'path',
  footway: 'path',
  path: 'path',
  cycleway: 'path',
  steps: 'path',
  bridleway: 'path',
};

/** A named point label of an administrative unit, degrees. */
export interface UnitLabel {
  /** A 2025 ward (`place/ward`) or province (`place/province`). */
  kind: 'ward' | 'province';
  name: string;
  lat: number;
  lon: number;
}

/** Kind of an area feature ("layer/class"), or undefined when the tags describe no drawn area. */
function areaKind(t: Tags): string | undefined {
  if (
    t.natural === 'water' ||
    t.water ||
    t.waterway === 'riverbank' ||
    t.landuse === 'reservoir' ||
    t.landuse === 'basin'
  )
    return 'water/water';
  if (
    t.leisure === 'park' ||
    t.leisure === 'garden' ||
    t.leisure === 'playground' ||
    t.landuse === 'recreation_ground' ||
    t.landuse === 'village_green'
  )
    return 'park/park';
  if (t.natural === 'wood' || t.landuse === 'forest' || t.natural === 'scrub') return 'park/wood';
  if (
    t.landuse === 'grass' ||
    t.natural === 'grassland' ||
    t.landuse === 'meadow' ||
    t.landuse === 'farmland' ||
    t.landuse === 'orchard'
  )
    return 'park/grass';
  if (t.leisure === 'pitch' || t.leisure === 'stadium' || t.leisure === 'sports_centre') return 'park/pitch';
  if (t.landuse === 'cemetery' || t.amenity === 'grave_yard') return 'park/cemetery';
  if (t.building && t.building !== 'no') return 'building/building';
  if (t.landuse === 'residential') return 'landuse/residential';
  if (t.landuse === 'commercial' || t.landuse === 'retail') return 'landuse/commercial';
  if (t.landuse === 'industrial' || t.landuse === 'railway' || t.landuse === 'construction')
    return 'landuse/industrial';
  if (
    t.amenity === 'school' ||
    t.amenity === 'university' ||
    t.amenity === 'college' ||
    t.amenity === 'hospital' ||
    t.landuse === 'education' ||
    t.landuse === 'religious'
  )
    return 'landuse/institutional';
  if (t.landuse === 'military') return 'landuse/military';
  return undefined;
}

function lineKind(t: Tags): string | undefined {
  if (t.highway && ROAD_KIND[t.highway] && t.area !== 'yes') return `road/${ROAD_KIND[t.highway]}`;
  if (t.waterway === 'river') return 'waterway/river';
  if (t.waterway === 'stream' || t.waterway === 'drain' || t.waterway === 'ditch') return 'waterway/stream';
  if (t.waterway === 'canal') return 'waterway/canal';
  if (t.railway === 'rail' || t.railway === 'light_rail' || t.railway === 'subway' || t.railway === 'tram')
    return 'railway/rail';
  return undefined;
}

/**
 * Extracts basemap features: the sea, roads by class, water, parks/landuse, buildings, place labels.
 * @param bounds the extract's bounds [minLon, minLat, maxLon, maxLat] in degrees, where the inputs state them: the
 *   sea is closed along them
 * @param unitLabels the 2025 wards and provinces of the pack, each named at a point inside its official polygon
 *   (`place/ward`, `place/province`)
 */
export function buildBasemap(
  store: OsmStore,
  strings: StringTableBuilder,
  bounds: readonly number[] | null = null,
  unitLabels: readonly UnitLabel[] = [],
): BasemapArrays {
  const kinds: number[] = [];
  const types: number[] = [];
  const names: number[] = [];
  const featPart: number[] = [0];
  const partFirst: number[] = [0];
  const lat = new GrowableInt32();
  const lon = new GrowableInt32();
  const bbox: number[] = [];

  /**
   * Adds a feature whose parts are lists of points of any form, `x` and `y` giving a point's longitude and latitude
   * (1e-7 degrees): the points go straight into the arrays, with no pair made per point.
   */
  const emitParts = <P>(
    kind: string,
    type: number,
    name: string | undefined,
    parts: readonly (readonly P[])[],
    x: (p: P) => number,
    y: (p: P) => number,
  ) => {
    const good = parts.filter((p) => p.length >= (type === GeomType.point ? 1 : 2));
    if (good.length === 0) return;
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const p of good) {
      for (const point of p) {
        const px = x(point),
          py = y(point);
        lat.push(py);
        lon.push(px);
        x0 = Math.min(x0, px);
        y0 = Math.min(y0, py);
        x1 = Math.max(x1, px);
        y1 = Math.max(y1, py);
      }
      partFirst.push(lat.length);
    }
    kinds.push(KIND_INDEX[kind]!);
    types.push(type);
    names.push(strings.intern(name));
    featPart.push(partFirst.length - 1);
    bbox.push(x0, y0, x1, y1);
  };
  /** Adds a feature whose parts are lists of [lon, lat] points (1e-7 degrees). */
  const emitXY = (kind: string, type: number, name: string | undefined, parts: readonly (readonly XY[])[]) =>
    emitParts(
      kind,
      type,
      name,
      parts,
      (p) => p[0],
      (p) => p[1],
    );
  const xy = (r: number): XY => [store.lonE7(r), store.latE7(r)];
  /** Adds a feature whose parts are lists of store node indices; a part with a missing node (-1) is skipped. */
  const emit = (kind: string, type: number, name: string | undefined, parts: number[][]) =>
    emitParts(
      kind,
      type,
      name,
      parts.filter((p) => p.every((r) => r >= 0)),
      (r) => store.lonE7(r),
      (r) => store.latE7(r),
    );

  const idx = (refs: number[]) => refs.map((r) => store.nodeIndex(r));
  /** Orders rings as the renderer expects: outer counter-clockwise then its holes clockwise (in lon/lat). */
  const orient = (ring: number[], outer: boolean) => {
    const xs = ring.map((r) => store.lonE7(r) / COORD_SCALE);
    const ys = ring.map((r) => store.latE7(r) / COORD_SCALE);
    const ccw = ringArea(xs, ys) > 0;
    return ccw === outer ? ring : [...ring].reverse();
  };

  // The sea first, below every other water area.
  const coast = [...store.sortedWays((t) => t.natural === 'coastline')].map((w) => idx(w.refs));
  const box = bounds?.map((d) => Math.round(d * COORD_SCALE));
  const sea =
    coast.length === 0
      ? []
      : box && coast.every((w) => w.every((r) => r >= 0))
        ? seaPolygons(
            coast.map((w) => w.map(xy)),
            box,
          )
        : null;
  for (const [outer, ...islands] of sea ?? [])
    emitXY('water/water', GeomType.polygon, undefined, [
      orientXY(outer!, true),
      ...islands.map((i) => orientXY(i, false)),
    ]);

  // Areas drawn below lines: emit in a stable order by kind group (kinds sort is the renderer's job; ids keep determinism).
  // A way of neither an area's nor a line's kind is drawn in no way: it is not even made (WayTable.inIdOrder).
  for (const way of store.sortedWays((t) => areaKind(t) !== undefined || lineKind(t) !== undefined)) {
    const t = way.tags;
    const closed = way.refs.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1];
    const area = closed ? areaKind(t) : undefined;
    const refs = idx(way.refs);
    if (area && t.area !== 'no') {
      if (refs.every((r) => r >= 0)) emit(area, GeomType.polygon, t.name, [orient(refs, true)]);
      continue;
    }
    const line = lineKind(t);
    if (line) emit(line, GeomType.line, t.name ?? t.ref, [refs]);
  }
  let skippedMultipolygons = 0;
  for (const rel of store.sortedRelations()) {
    const t = rel.tags;
    if (t.type !== 'multipolygon') continue;
    const kind = areaKind(t);
    if (!kind) continue;
    const polygons = multipolygon(store, rel.members);
    if (!polygons) {
      skippedMultipolygons++;
      continue;
    }
    for (const [outer, ...holes] of polygons)
      emit(kind, GeomType.polygon, t.name, [orient(outer!, true), ...holes.map((h) => orient(h, false))]);
  }
  for (const w of unitLabels)
    emitXY(`place/${w.kind}`, GeomType.point, w.name, [
      [[Math.round(w.lon * COORD_SCALE), Math.round(w.lat * COORD_SCALE)]],
    ]);
  for (const [id, t] of [...store.nodeTags.entries()].sort((a, b) => a[0] - b[0])) {
    const p = t.place;
    if ((p === 'suburb' || p === 'quarter' || p === 'neighbourhood') && t.name)
      emit(`place/${p}`, GeomType.point, t.name, [[store.nodeIndex(id)]]);
  }

  return {
    kind: Uint8Array.from(kinds),
    type: Uint8Array.from(types),
    name: Uint32Array.from(names),
    bbox: Int32Array.from(bbox),
    featPart: Uint32Array.from(featPart),
    partFirst: Uint32Array.from(partFirst),
    lat: lat.view().slice(),
    lon: lon.view().slice(),
    skippedMultipolygons,
    seaSkipped: sea === null,
  };
}

/**
 * The polygons of a multipolygon relation as store node indices: each an outer ring then the holes right inside it.
 * Rings are assembled from all member ways whatever their roles (roles are often wrong or missing) and told apart
 * by nesting: a ring inside an even number of others is an outer ring, inside an odd number a hole of the innermost
 * ring around it (so islands in a lake in an island come out right).
 * @returns null when the relation is broken: a member way or node missing (cut off by the extract), or a ring that
 *   does not close
 */
function multipolygon(store: OsmStore, members: readonly Member[]): number[][][] | null {
  const ways: number[][] = [];
  for (const m of members) {
    if (m.type !== 'way' || (m.role !== 'outer' && m.role !== 'inner' && m.role !== '')) continue;
    const refs = store.ways.get(m.ref)?.refs;
    if (!refs) return null;
    ways.push(refs);
  }
  const assembled = assembleRings(ways);
  if (!assembled || assembled.length === 0) return null;
  const rings = assembled.map((ring) => ring.map((r) => store.nodeIndex(r)));
  if (rings.some((ring) => ring.some((r) => r < 0))) return null;
  const boxes = rings.map((ring) => ringBox(store, ring));
  // parents[i]: the rings that contain ring i.
  const parents = rings.map((ring, i) =>
    rings.flatMap((other, j) => (j !== i && ringInside(store, ring, boxes[i]!, other, boxes[j]!) ? [j] : [])),
  );
  const depth = parents.map((p) => p.length);
  const polygons = new Map<number, number[][]>();
  rings.forEach((ring, i) => {
    if (depth[i]! % 2 === 0) polygons.set(i, [ring]);
  });
  rings.forEach((ring, i) => {
    if (depth[i]! % 2 === 0) return;
    // The innermost ring around a hole is the one nested one level less deep.
    const owner = parents[i]!.find((j) => depth[j] === depth[i]! - 1);
    if (owner !== undefined) polygons.get(owner)?.push(ring);
  });
  return [...polygons.values()];
}

/** [minLon, minLat, maxLon, maxLat] of a ring of store node indices, 1e-7 degrees. */
/** A ring of points turned counter-clockwise (`outer`) or clockwise (a hole), in lon/lat. */
function orientXY(ring: readonly XY[], outer: boolean): readonly XY[] {
  const ccw =
    ringArea(
      ring.map((p) => p[0]),
      ring.map((p) => p[1]),
    ) > 0;
  return ccw === outer ? ring : [...ring].reverse();
}

function ringBox(store: OsmStore, ring: readonly number[]): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const r of ring) {
    const x = store.lonE7(r),
      y = store.latE7(r);
    box[0] = Math.min(box[0], x);
    box[1] = Math.min(box[1], y);
    box[2] = Math.max(box[2], x);
    box[3] = Math.max(box[3], y);
  }
  return box;
}

/**
 * Whether `ring` (bounding box `box`) lies inside `other` (bounding box `otherBox`) (valid multipolygon rings do not cross, so one vertex of `ring` that is not a
 * vertex of `other` decides; rings that touch share vertices, which are on both boundaries and decide nothing).
 */
function ringInside(
  store: OsmStore,
  ring: readonly number[],
  box: readonly number[],
  other: readonly number[],
  otherBox: readonly number[],
): boolean {
  if (box[0]! < otherBox[0]! || box[1]! < otherBox[1]! || box[2]! > otherBox[2]! || box[3]! > otherBox[3]!)
    return false;
  const shared = new Set(other);
  const p = ring.find((r) => !shared.has(r));
  if (p === undefined) return false;
  const x = store.lonE7(p);
  const y = store.latE7(p);
  let inside = false;
  for (let i = 0, j = other.length - 1; i < other.length; j = i++) {
    const xi = store.lonE7(other[i]!),
      yi = store.latE7(other[i]!);
    const xj = store.lonE7(other[j]!),
      yj = store.latE7(other[j]!);
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
