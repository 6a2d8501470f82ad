/**
 * Places of a pack: POIs, addressed buildings and entrances, street pieces and admin units, with their admin units
 * (see data-tools/admin-bundle.ts for how they are decided) and alternative names.
 */
import { around } from 'geokdbush';
import { COORD_SCALE } from '../../src/pack/format.js';
import type { StringTableBuilder } from '../../src/pack/strings.js';
import { ADMIN_SLOTS, OsmType, PlaceKind } from '../../src/places/kinds.js';
import type { OsmStore } from '../store.js';
import type { Tags } from '../osm/types.js';
import { withoutOutlines } from './outlines.js';
import { unnamedLabel } from '../../src/places/text/category-match.js';
import { isLocality } from '../../src/places/locality-kinds.js';
import { buildStreets, namedRoadPoints } from './streets.js';
import {
  altNamesOf,
  categoryOf,
  centroid,
  importanceOf,
  isHighwayArea,
  nameOf,
  namedAreaCategoryOf,
  namedPointCategoryOf,
  type AltName,
} from './tags.js';
import { unitPlaces } from './units.js';
import { isWaterway, namedWaterway, pointOnWaterway } from './waterways.js';

/** Pack-local admin unit indices for one place; -1 where unknown. */
export type AdminRef = [ward: number, district: number, province: number, ward2025: number, province2025: number];

/** Resolves places' admin units (see data-tools/admin-bundle.ts). */
export interface AdminResolver {
  /** True when the official 2025 ward polygons decide the 2025 units. */
  readonly polygons: boolean;
  /** The units an element's own addr:* tags name (legacy, and 2025 as far as tags tell), or null when none. */
  resolve(tags: Tags): AdminRef | null;
  /** All five units of a place at (lat, lon) degrees whose tags resolved to `tagged` (null: none). */
  locate(lat: number, lon: number, tagged: AdminRef | null): AdminRef;
  /** Name with type ("Phường Văn Miếu") and level of a unit. */
  describe(id: number): { name: string; level: 'province' | 'district' | 'ward'; system: 'legacy' | '2025' } | null;
  /** A point inside a 2025 ward's polygon (degrees), or null without polygons. */
  pointInside(unit: number): { lat: number; lon: number } | null;
}

export interface PlaceArrays {
  lat: Int32Array;
  lon: Int32Array;
  kind: Uint8Array;
  name: Uint32Array;
  house: Uint32Array;
  street: Uint32Array;
  /** Category string id (e.g. "restaurant", "hospital"). */
  category: Uint32Array;
  /** Locality string id for places outside the Vietnamese admin system (addr:city / addr:place). */
  locality: Uint32Array;
  /** M × ADMIN_SLOTS pack-local admin indices, -1 when unknown. */
  adm: Int32Array;
  /** OSM id * 4 + OsmType. */
  osm: Float64Array;
  /** 0..255, higher is more important. */
  importance: Uint8Array;
  /** Alternative names of place i are alt[altFirst[i] .. altFirst[i + 1]) (string ids), of kinds altKind (AltKind). */
  altFirst: Uint32Array;
  alt: Uint32Array;
  altKind: Uint8Array;
}

interface Draft {
  lat: number;
  lon: number;
  kind: number;
  name?: string;
  house?: string;
  street?: string;
  category?: string;
  locality?: string;
  alt: AltName[];
  /** The units the element's own tags named (null: none). */
  tagged: AdminRef | null;
  adm: AdminRef;
  osm: number;
  importance: number;
  /** A named area of no kind of its own (namedAreaCategoryOf): a building or piece of land known by its name. */
  area?: boolean;
}

const NO_ADMIN: AdminRef = [-1, -1, -1, -1, -1];
/** Places without addr:street take the name of the nearest named road within this, metres. */
const STREET_RADIUS_M = 80;

/**
 * Extracts places: POIs, addressed buildings and entrances, named streets cut by ward, and (with `admin`) one place
 * per admin unit. `wards`: the 2025 wards whose polygons the pack keeps; each gets a place even without members.
 */
export function buildPlaces(
  store: OsmStore,
  strings: StringTableBuilder,
  admin: AdminResolver | null,
  wards: Iterable<number> = [],
): PlaceArrays {
  const elements: Draft[] = [];
  /** Adds an element as a place when it is one; `given` when a GeoJSON feature gave it as a place. */
  const add = (type: number, id: number, tags: Tags, lat: number, lon: number, given: boolean) => {
    const house = tags['addr:housenumber'];
    const kindOf = categoryOf(tags);
    const name = placeNameOf(tags);
    const category =
      kindOf ??
      (name
        ? (namedAreaCategoryOf(tags, name) ?? (type === OsmType.node ? namedPointCategoryOf(tags, name) : undefined))
        : undefined);
    if (!name && !house) return;
    // Named things of no kind are not places (roads, boundaries are handled elsewhere), unless given as places.
    if (name && !category && !house && !given) return;
    elements.push({
      lat,
      lon,
      kind: name && (category || given) ? PlaceKind.poi : PlaceKind.address,
      name,
      house,
      street: tags['addr:street'],
      category,
      locality: tags['addr:city'] ?? tags['addr:place'] ?? tags['addr:province'],
      alt: altNamesOf(tags, name),
      tagged: admin?.resolve(tags) ?? null,
      adm: [...NO_ADMIN],
      osm: id * 4 + type,
      importance: importanceOf(tags, category),
      area: !kindOf && !!category,
    });
  };
  for (const [id, tags] of [...store.nodeTags.entries()].sort((a, b) => a[0] - b[0])) {
    if (tags.highway && !tags.name) continue;
    const r = store.nodeIndex(id);
    if (r < 0) continue;
    add(
      OsmType.node,
      id,
      tags,
      store.latE7(r) / COORD_SCALE,
      store.lonE7(r) / COORD_SCALE,
      store.isFeature('node', id),
    );
  }
  for (const way of store.sortedWays((t) => !((t.highway && !isHighwayArea(t)) || isLine(t)))) {
    const c = isWaterway(way.tags) ? pointOnWaterway(store, way.refs) : (way.center ?? centroid(store, way.refs));
    if (c) add(OsmType.way, way.id, way.tags, c.lat, c.lon, store.isFeature('way', way.id));
  }
  for (const rel of store.sortedRelations()) {
    if (
      rel.tags.type === 'restriction' ||
      rel.tags.type === 'route' ||
      rel.tags.type === 'route_master' ||
      rel.tags.boundary
    )
      continue;
    if (isWaterway(rel.tags) && !namedWaterway(rel.tags)) continue;
    const refs = () => rel.members.filter((m) => m.type === 'way').flatMap((m) => store.ways.get(m.ref)?.refs ?? []);
    const c = isWaterway(rel.tags) ? pointOnWaterway(store, refs()) : (rel.center ?? centroid(store, refs()));
    if (c) add(OsmType.relation, rel.id, rel.tags, c.lat, c.lon, store.isFeature('relation', rel.id));
  }
  // A named area with a house number stays: it is also the address.
  const drafts = withoutOutlines(elements, (d) => d.area === true && !d.house);
  const wardOf = admin?.polygons ? (lat: number, lon: number) => admin.locate(lat, lon, null)[3] : null;
  for (const s of buildStreets(store, wardOf)) {
    drafts.push({
      lat: s.lat,
      lon: s.lon,
      kind: PlaceKind.street,
      name: s.name,
      alt: s.alt,
      tagged: null,
      adm: [...NO_ADMIN],
      osm: s.way * 4 + OsmType.street,
      importance: s.importance,
    });
  }

  // Streets for places without addr:street: the nearest named road. The roads' points are made at the first such
  // place: an input of roads alone (a synthetic graph) has none, and they are millions of points in a country. A
  // locality (a neighbourhood, a hamlet, an old ward's label) is an area, on no one street.
  let roads: ReturnType<typeof namedRoadPoints> | null = null;
  for (const d of drafts) {
    if (d.kind === PlaceKind.street || d.street || (d.category !== undefined && isLocality(d.category))) continue;
    roads ??= namedRoadPoints(store);
    const near = around(roads.index, d.lon, d.lat, 1, STREET_RADIUS_M / 1000) as number[];
    if (near.length) d.street = roads.name(near[0]!);
  }
  if (admin) {
    for (const d of drafts) d.adm = admin.locate(d.lat, d.lon, d.tagged);
    for (const u of unitPlaces(drafts, admin, wards)) drafts.push({ ...u, alt: [], tagged: null });
  }

  drafts.sort((a, b) => a.kind - b.kind || a.osm - b.osm);
  return placeArrays(drafts, strings);
}

/**
 * The name a place takes from its tags: a name tag; else, without a house number, its brand, or the label of its kind
 * when an unnamed place of that kind is still one people look for ("cây xăng gần đây": see CategoryRow.unnamed).
 */
export function placeNameOf(tags: Tags): string | undefined {
  const named = nameOf(tags);
  const kind = categoryOf(tags);
  if (named !== undefined || tags['addr:housenumber'] || kind === undefined) return named;
  return tags.brand ?? unnamedLabel(kind);
}

/**
 * Railway tracks and power lines are lines, not places (their stations and substations are); so is a waterway without
 * a name of its own (a named one is a place: waterways.ts).
 */
const LINE_RAILWAYS = new Set([
  'rail',
  'subway',
  'light_rail',
  'tram',
  'monorail',
  'narrow_gauge',
  'construction',
  'proposed',
  'disused',
  'abandoned',
  'funicular',
]);
const LINE_POWER = new Set(['line', 'minor_line', 'cable']);
function isLine(tags: Tags): boolean {
  return (
    LINE_RAILWAYS.has(tags.railway ?? '') ||
    (isWaterway(tags) && !namedWaterway(tags)) ||
    LINE_POWER.has(tags.power ?? '')
  );
}

/** The drafts as pack arrays, in their order. */
function placeArrays(drafts: Draft[], strings: StringTableBuilder): PlaceArrays {
  const M = drafts.length;
  const altCount = drafts.reduce((n, d) => n + d.alt.length, 0);
  const out: PlaceArrays = {
    lat: new Int32Array(M),
    lon: new Int32Array(M),
    kind: new Uint8Array(M),
    name: new Uint32Array(M),
    house: new Uint32Array(M),
    street: new Uint32Array(M),
    category: new Uint32Array(M),
    locality: new Uint32Array(M),
    adm: new Int32Array(M * ADMIN_SLOTS),
    osm: new Float64Array(M),
    importance: new Uint8Array(M),
    altFirst: new Uint32Array(M + 1),
    alt: new Uint32Array(altCount),
    altKind: new Uint8Array(altCount),
  };
  let a = 0;
  drafts.forEach((d, i) => {
    out.lat[i] = Math.round(d.lat * COORD_SCALE);
    out.lon[i] = Math.round(d.lon * COORD_SCALE);
    out.kind[i] = d.kind;
    out.name[i] = strings.intern(d.name);
    out.house[i] = strings.intern(d.house);
    out.street[i] = strings.intern(d.street);
    out.category[i] = strings.intern(d.category);
    out.locality[i] = strings.intern(d.locality);
    out.adm.set(d.adm, i * ADMIN_SLOTS);
    out.osm[i] = d.osm;
    out.importance[i] = d.importance;
    for (const n of d.alt) {
      out.alt[a] = strings.intern(n.name);
      out.altKind[a++] = n.kind;
    }
    out.altFirst[i + 1] = a;
  });
  return out;
}
