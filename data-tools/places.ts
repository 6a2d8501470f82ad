import KDBush from 'kdbush';
import { around } from 'geokdbush';
import { haversine } from '../src/geo.js';
import { COORD_SCALE } from '../src/pack/format.js';
import type { StringTableBuilder } from '../src/pack/strings.js';
import { ADMIN_SLOTS, AdminSlot, OsmType, PlaceKind } from '../src/places/kinds.js';
import type { OsmStore } from './store.js';
import type { Center, Tags } from './osm/types.js';

/** Pack-local admin unit indices for one place; -1 where unknown. */
export type AdminRef = [ward: number, district: number, province: number, ward2025: number, province2025: number];

/** Resolves OSM addr:* tags to pack-local admin units (see data-tools/admin). */
export interface AdminResolver {
  resolve(tags: Tags): AdminRef | null;
  /** Completes a partial reference from the admin hierarchy (a legacy ward implies its district, province, 2025 ward). */
  complete(ref: AdminRef): AdminRef;
  /** Name with type ("Phường Văn Miếu") and level of a unit. */
  describe(id: number): { name: string; level: 'province' | 'district' | 'ward'; system: 'legacy' | '2025' } | null;
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
  adm: AdminRef;
  fromTags: boolean;
  osm: number;
  importance: number;
}

const CATEGORY_KEYS = ['amenity', 'shop', 'tourism', 'leisure', 'office', 'healthcare', 'historic', 'craft', 'club', 'sport', 'man_made', 'railway', 'aeroway', 'public_transport', 'place', 'natural', 'building'];
const NO_ADMIN: AdminRef = [-1, -1, -1, -1, -1];
/** Radius for borrowing admin units and street names from neighbours, metres. */
const NEIGHBOUR_RADIUS_M = 600;
const STREET_RADIUS_M = 80;
/** Beyond NEIGHBOUR_RADIUS_M, district and province still come from the nearest tagged place within this, metres. */
const FAR_RADIUS_M = 4000;

/** Extracts places: POIs, addressed buildings and entrances, named streets (admin units are added by the caller). */
export function buildPlaces(store: OsmStore, strings: StringTableBuilder, admin: AdminResolver | null): PlaceArrays {
  const drafts: Draft[] = [];
  const add = (type: number, id: number, tags: Tags, lat: number, lon: number) => {
    const name = tags.name ?? tags['name:vi'];
    const house = tags['addr:housenumber'];
    const category = categoryOf(tags);
    if (!name && !house) return;
    if (name && !category && !house) return; // named things that are not places (roads, boundaries) are handled elsewhere
    const resolved = admin?.resolve(tags) ?? null;
    drafts.push({
      lat, lon,
      kind: name && category ? PlaceKind.poi : PlaceKind.address,
      name, house, street: tags['addr:street'], category,
      locality: tags['addr:city'] ?? tags['addr:place'] ?? tags['addr:province'],
      adm: resolved ? admin!.complete(resolved) : [...NO_ADMIN], fromTags: !!resolved && resolved[0] >= 0,
      osm: id * 4 + type,
      importance: importanceOf(tags, category),
    });
  };
  for (const [id, tags] of [...store.nodeTags.entries()].sort((a, b) => a[0] - b[0])) {
    if (tags.highway && !tags.name) continue;
    const r = store.nodeIndex(id);
    if (r >= 0) add(OsmType.node, id, tags, store.latE7(r) / COORD_SCALE, store.lonE7(r) / COORD_SCALE);
  }
  for (const way of store.sortedWays()) {
    if (way.tags.highway) continue;
    const c = way.center ?? centroid(store, way.refs);
    if (c) add(OsmType.way, way.id, way.tags, c.lat, c.lon);
  }
  for (const rel of store.sortedRelations()) {
    if (rel.tags.type === 'restriction' || rel.tags.type === 'route' || rel.tags.boundary) continue;
    const c = rel.center ?? centroid(store, rel.members.filter((m) => m.type === 'way').flatMap((m) => store.ways.get(m.ref)?.refs ?? []));
    if (c) add(OsmType.relation, rel.id, rel.tags, c.lat, c.lon);
  }
  drafts.push(...buildStreets(store));

  // Streets for places without addr:street: the nearest named road.
  const roads = namedRoadPoints(store);
  for (const d of drafts) {
    if (d.kind === PlaceKind.street || d.street) continue;
    const near = around(roads.index, d.lon, d.lat, 1, STREET_RADIUS_M / 1000) as number[];
    if (near.length) d.street = roads.names[near[0]!];
  }
  // Admin units by majority of neighbours whose tags named them; then one place per unit.
  if (admin) {
    borrowAdmin(drafts);
    drafts.push(...adminPlaces(drafts, admin));
  }

  drafts.sort((a, b) => a.kind - b.kind || a.osm - b.osm);
  const M = drafts.length;
  const out: PlaceArrays = {
    lat: new Int32Array(M), lon: new Int32Array(M), kind: new Uint8Array(M), name: new Uint32Array(M),
    house: new Uint32Array(M), street: new Uint32Array(M), category: new Uint32Array(M), locality: new Uint32Array(M),
    adm: new Int32Array(M * ADMIN_SLOTS), osm: new Float64Array(M), importance: new Uint8Array(M),
  };
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
  });
  return out;
}

function categoryOf(tags: Tags): string | undefined {
  for (const k of CATEGORY_KEYS) {
    const v = tags[k];
    if (v && v !== 'no' && v !== 'yes') return v;
    if (v === 'yes' && k !== 'building') return k;
  }
  return undefined;
}

function importanceOf(tags: Tags, category: string | undefined): number {
  let s = 40;
  if (tags.wikidata) s += 60;
  if (tags.wikipedia) s += 30;
  if (category && ['hospital', 'university', 'college', 'school', 'museum', 'attraction', 'station', 'marketplace', 'place_of_worship', 'townhall', 'stadium', 'park', 'water', 'lake'].includes(category)) s += 40;
  if (tags['name:en']) s += 10;
  if (tags.tourism) s += 20;
  return Math.min(255, s);
}

function centroid(store: OsmStore, refs: number[]): Center | null {
  let lat = 0, lon = 0, n = 0;
  const seen = new Set<number>();
  for (const ref of refs) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const r = store.nodeIndex(ref);
    if (r < 0) continue;
    lat += store.latE7(r);
    lon += store.lonE7(r);
    n++;
  }
  return n ? { lat: lat / n / COORD_SCALE, lon: lon / n / COORD_SCALE } : null;
}

const STREET_CLASSES = new Set(['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'living_street', 'service', 'pedestrian', 'road', 'motorway_link', 'trunk_link', 'primary_link', 'secondary_link', 'tertiary_link', 'track']);

/**
 * One street place per named road: ways of the same name are joined when they share a node or come within
 * 150 m of each other (dual carriageways); the place sits on the road vertex nearest the group's centre.
 */
function buildStreets(store: OsmStore): Draft[] {
  const byName = new Map<string, { id: number; refs: number[] }[]>();
  for (const way of store.sortedWays()) {
    const name = way.tags.name;
    if (!name || !STREET_CLASSES.has(way.tags.highway ?? '')) continue;
    const refs = way.refs.map((r) => store.nodeIndex(r)).filter((r) => r >= 0);
    if (refs.length < 2) continue;
    let list = byName.get(name);
    if (!list) byName.set(name, (list = []));
    list.push({ id: way.id, refs });
  }
  const out: Draft[] = [];
  for (const [name, ways] of [...byName.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const parent = ways.map((_, i) => i);
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
    const boxes = ways.map((w) => bboxOf(store, w.refs));
    for (let i = 0; i < ways.length; i++) {
      for (let j = i + 1; j < ways.length; j++) {
        if (boxesNear(boxes[i]!, boxes[j]!, 150) && (sharesNode(ways[i]!.refs, ways[j]!.refs) || minVertexDistance(store, ways[i]!.refs, ways[j]!.refs) < 150)) parent[find(i)] = find(j);
      }
    }
    const groups = new Map<number, number[]>();
    ways.forEach((_, i) => {
      const r = find(i);
      groups.set(r, [...(groups.get(r) ?? []), i]);
    });
    for (const members of groups.values()) {
      const refs = members.flatMap((i) => ways[i]!.refs);
      const c = centroid(store, refs.map((r) => store.nodeId(r)))!;
      let best = refs[0]!;
      let bestD = Infinity;
      for (const r of refs) {
        const d = haversine(c.lat, c.lon, store.latE7(r) / COORD_SCALE, store.lonE7(r) / COORD_SCALE);
        if (d < bestD) {
          bestD = d;
          best = r;
        }
      }
      const firstWay = ways[Math.min(...members)]!;
      out.push({
        lat: store.latE7(best) / COORD_SCALE, lon: store.lonE7(best) / COORD_SCALE, kind: PlaceKind.street, name,
        adm: [...NO_ADMIN], fromTags: false, osm: firstWay.id * 4 + OsmType.street,
        importance: Math.min(255, 60 + Math.round(Math.sqrt(refs.length) * 8)),
      });
    }
  }
  return out;
}

type Box = [number, number, number, number];
function bboxOf(store: OsmStore, refs: number[]): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const r of refs) {
    x0 = Math.min(x0, store.lonE7(r)); x1 = Math.max(x1, store.lonE7(r));
    y0 = Math.min(y0, store.latE7(r)); y1 = Math.max(y1, store.latE7(r));
  }
  return [x0, y0, x1, y1];
}
function boxesNear(a: Box, b: Box, metres: number): boolean {
  const m = (metres / 111_000) * COORD_SCALE * 1.5;
  return a[0] - m <= b[2] && b[0] - m <= a[2] && a[1] - m <= b[3] && b[1] - m <= a[3];
}
function sharesNode(a: number[], b: number[]): boolean {
  const s = new Set(a);
  return b.some((r) => s.has(r));
}
function minVertexDistance(store: OsmStore, a: number[], b: number[]): number {
  let best = Infinity;
  for (const p of a) for (const q of b) {
    best = Math.min(best, haversine(store.latE7(p) / COORD_SCALE, store.lonE7(p) / COORD_SCALE, store.latE7(q) / COORD_SCALE, store.lonE7(q) / COORD_SCALE));
  }
  return best;
}

/** Vertices of named roads (and midpoints of long segments) with their names, for nearest-street lookups. */
function namedRoadPoints(store: OsmStore): { index: KDBush; names: string[] } {
  const pts: number[] = [];
  const names: string[] = [];
  for (const way of store.sortedWays()) {
    const name = way.tags.name;
    if (!name || !STREET_CLASSES.has(way.tags.highway ?? '')) continue;
    let prev = -1;
    for (const ref of way.refs) {
      const r = store.nodeIndex(ref);
      if (r < 0) continue;
      if (prev >= 0) {
        const d = haversine(store.latE7(prev) / COORD_SCALE, store.lonE7(prev) / COORD_SCALE, store.latE7(r) / COORD_SCALE, store.lonE7(r) / COORD_SCALE);
        const steps = Math.floor(d / 40);
        for (let k = 1; k <= steps; k++) {
          const t = k / (steps + 1);
          pts.push((store.lonE7(prev) + (store.lonE7(r) - store.lonE7(prev)) * t) / COORD_SCALE, (store.latE7(prev) + (store.latE7(r) - store.latE7(prev)) * t) / COORD_SCALE);
          names.push(name);
        }
      }
      pts.push(store.lonE7(r) / COORD_SCALE, store.latE7(r) / COORD_SCALE);
      names.push(name);
      prev = r;
    }
  }
  const index = new KDBush(Math.max(1, names.length));
  for (let i = 0; i < names.length; i++) index.add(pts[2 * i]!, pts[2 * i + 1]!);
  if (names.length === 0) index.add(0, 0);
  index.finish();
  return { index, names };
}

const LEVEL_KIND = { ward: PlaceKind.ward, district: PlaceKind.district, province: PlaceKind.province } as const;

/**
 * One place per admin unit that holds places of the pack, located at the place nearest to the median of its
 * places (a point inside the unit's populated area), with the unit's own parents as its admin parts.
 */
function adminPlaces(drafts: Draft[], admin: AdminResolver): Draft[] {
  const members = new Map<number, Draft[]>();
  for (const d of drafts) {
    for (const id of d.adm) {
      if (id < 0) continue;
      let list = members.get(id);
      if (!list) members.set(id, (list = []));
      list.push(d);
    }
  }
  const out: Draft[] = [];
  for (const [id, list] of [...members.entries()].sort((a, b) => a[0] - b[0])) {
    const unit = admin.describe(id);
    if (!unit) continue;
    const lats = list.map((d) => d.lat).sort((a, b) => a - b);
    const lons = list.map((d) => d.lon).sort((a, b) => a - b);
    const mLat = lats[lats.length >> 1]!;
    const mLon = lons[lons.length >> 1]!;
    const at = list.reduce((best, d) => (haversine(d.lat, d.lon, mLat, mLon) < haversine(best.lat, best.lon, mLat, mLon) ? d : best));
    const slot = unit.system === '2025' ? (unit.level === 'ward' ? AdminSlot.ward2025 : AdminSlot.province2025) : AdminSlot[unit.level];
    // The unit's own admin parts: those of its members from its level up.
    const adm = [...at.adm] as AdminRef;
    if (unit.system === 'legacy') {
      for (let s = 0; s < slot; s++) adm[s] = -1;
      if (slot !== AdminSlot.ward) adm[AdminSlot.ward2025] = -1; // a legacy district or province spans many 2025 wards
    } else {
      adm[AdminSlot.ward] = adm[AdminSlot.district] = -1;
      if (slot === AdminSlot.province2025) adm[AdminSlot.ward2025] = -1;
    }
    adm[slot] = id;
    out.push({
      lat: at.lat, lon: at.lon, kind: LEVEL_KIND[unit.level], name: unit.name, adm, fromTags: false,
      osm: -(id + 1), importance: unit.level === 'province' ? 250 : unit.level === 'district' ? 200 : 150,
      category: unit.system === '2025' ? 'admin_2025' : 'admin',
    });
  }
  return out;
}

/** Fills unknown admin units by a majority vote of the nearest places whose own tags named their ward. */
function borrowAdmin(drafts: Draft[]): void {
  const known = drafts.filter((d) => d.fromTags);
  if (known.length === 0) return;
  const index = new KDBush(known.length);
  for (const d of known) index.add(d.lon, d.lat);
  index.finish();
  for (const d of drafts) {
    if (d.fromTags) continue;
    const near = around(index, d.lon, d.lat, 7, NEIGHBOUR_RADIUS_M / 1000) as number[];
    if (near.length === 0) {
      // Far from any tagged place: take only the district and province of the nearest one within a few km.
      const far = around(index, d.lon, d.lat, 1, FAR_RADIUS_M / 1000) as number[];
      if (far.length) {
        const a = known[far[0]!]!.adm;
        d.adm = [-1, a[AdminSlot.district], a[AdminSlot.province], -1, a[AdminSlot.province2025]];
      }
      continue;
    }
    const votes = new Map<number, number>();
    near.forEach((k, rank) => {
      const w = known[k]!.adm[AdminSlot.ward];
      votes.set(w, (votes.get(w) ?? 0) + (7 - rank));
    });
    const best = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    const donor = known[near.find((k) => known[k]!.adm[AdminSlot.ward] === best)!]!;
    d.adm = [...donor.adm] as AdminRef;
  }
}

export { ADMIN_SLOTS };
