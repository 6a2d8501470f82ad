/**
 * Everything the place endpoints need of one region, built once when the engine first answers a place request:
 * the admin table, the search index with its scratch state and the places' categories, a great-circle spatial
 * index for reverse geocoding, the street pieces by name, the address gazetteer and the region's place_id tag.
 */
import type KDBush from 'kdbush';
import { areaUnits, gazetteerFor } from '../admin/resolve';
import type { Region } from '../region';
import { COORD_SCALE } from '../pack/format';
import { AdminNames } from './admin-names';
import { BuildingIndex } from './buildings';
import { AdminSlot, PlaceKind, unitOfPlace } from './kinds';
import { packTag } from './place-id';
import { firstAtLeast, PlaceIndex, PlaceTerms } from './search/index';
import { probeHash, storedPlaceIndex } from './search/stored-index';
import type { PlaceCategories } from './search/place-categories';
import { placeCategories } from './search/stored-categories';
import { pointIndex, pointPlaces } from './stored-points';
import { StreetPieces } from './street-pieces';
import { Searcher } from './search/search';
import { storedTermsOf, streetInitials } from './search/terms';
import type { PlaceStore } from './store';
import type { Gazetteer } from './text/address';
import { districtInitials } from './text/district-initials';
import { fold } from './text/fold';
import { storedHouseKey, streetAlleyPath } from './text/house-path';
import { withoutLeadingType } from './text/street-words';

/** House keys and folded names kept per region (a street's houses are looked at again while the user types). */
const MAX_HOUSE_KEYS = 50_000;

/** The key of a street name in `streetKeys`: its words without type and category words, folded. */
export function streetKey(name: string): string {
  return storedTermsOf(name)
    .filter((t) => !t.optional)
    .map((t) => t.folded)
    .join(' ');
}

/** The text kept for `id` in `cache`, made by `make` at the first ask; the cache is emptied past MAX_HOUSE_KEYS. */
function cachedText(cache: Map<number, string>, id: number, make: () => string): string {
  let t = cache.get(id);
  if (t === undefined) {
    if (cache.size >= MAX_HOUSE_KEYS) cache.clear();
    cache.set(id, (t = make()));
  }
  return t;
}

/** The place machinery of one region that has places. */
export class PlacesRegion {
  readonly places: PlaceStore;
  readonly admin: AdminNames;
  readonly index: PlaceIndex;
  readonly searcher: Searcher;
  readonly categories: PlaceCategories;
  readonly tag: string;
  /** The admin units of the region's area (its 2025 wards, and the legacy units they came from); undefined without. */
  readonly areaUnits: ReadonlySet<number> | undefined;
  /** Confirms ward/district/province names for the address parser; undefined without admin units. */
  readonly gazetteer: Gazetteer | undefined;
  /** District initials the region's text may hold ("PN" → "Quận Phú Nhuận"; see district-initials.ts). */
  readonly districtInitials: ReadonlyMap<string, string>;
  /**
   * Whether folded words name a street of the region: by streetKey, or whole (a street whose first word folds like a
   * type word: "ngo quyen" is Phố Ngô Quyền).
   */
  readonly isStreet = (foldedName: string): boolean =>
    this.streetKeys.has(streetKey(foldedName)) || this.streetKeys.has(foldedName);
  /**
   * Whether folded words name a street as its own name, not only as what a street of a kind is named after ("Cầu
   * Datanla" is the bridge named after the falls: "datanla" names the falls).
   */
  readonly namesStreet = (foldedName: string): boolean =>
    this.isStreet(foldedName) && !this.kindLedKeys.has(streetKey(foldedName));
  /** Street keys that only names led by a kind's word give ("Cầu Datanla" → "datanla"). */
  private readonly kindLedKeys = new Set<string>();
  /** Points of the POIs, addresses and street places, as kdbush ids into `pointPlace`. */
  readonly points: KDBush;
  readonly pointPlace: Int32Array;
  /** True when streets are found on the road graph's geometry (reverse geocoding), not by their place points. */
  readonly streetsOnGraph: boolean;
  /** Bounding box [minLon, minLat, maxLon, maxLat] of the point places and the road graph, degrees. */
  readonly bbox: [number, number, number, number];
  /** Admin unit id → the place that stands for it. */
  readonly unitPlace = new Map<number, number>();
  /** Street name string id → its street places (one per piece of the street in a ward). */
  readonly streetPieces: StreetPieces;
  /** Folded street names without their type word ("ba trieu" for "Phố Bà Triệu"), and their initials ("nkkn"). */
  readonly streetKeys = new Set<string>();

  constructor(readonly region: Region) {
    this.places = region.places!;
    this.admin = new AdminNames(region.admin);
    const stored = storedPlaceIndex(region.pack, this.places.count, () =>
      probeHash(new PlaceTerms(this.places, region.strings, this.admin), this.places.count),
    );
    this.index = new PlaceIndex(this.places, region.strings, this.admin, stored);
    this.searcher = new Searcher(this.index);
    this.categories = placeCategories(region.pack, this.places, region.strings);
    this.tag = packTag(region);
    // Bare ward and district names are those of the pack's area when it has one: the wards it keeps polygons of, and
    // those its places lie in (a pack of a city's centre may hold the city's hospitals: "Bệnh viện Quân y 105 Sơn Tây").
    this.areaUnits =
      this.admin.table && region.wards && region.wards.count > 0
        ? areaUnits(this.admin.table, [...region.wards.unit, ...placeWards(this.places)])
        : undefined;
    this.gazetteer = this.admin.table ? gazetteerFor(this.admin.table, this.areaUnits) : undefined;
    this.districtInitials = this.admin.table ? districtInitials(this.admin.table, this.areaUnits) : new Map();
    const p = this.places;
    this.streetsOnGraph = region.graph.edgeCount > 0;
    this.streetPieces = new StreetPieces(p.name, (i) => p.kind[i] === PlaceKind.street);
    const plainKeys = new Set<string>();
    for (const id of this.streetPieces.keys()) {
      const name = region.strings.get(id);
      const key = streetKey(name);
      this.streetKeys.add(key);
      (key === withoutLeadingType(fold(name)) ? plainKeys : this.kindLedKeys).add(key);
      for (const initials of streetInitials(name)) this.streetKeys.add(initials);
    }
    for (let i = 0; i < p.count; i++) {
      const k = p.kind[i];
      if (k !== PlaceKind.street && k !== PlaceKind.poi && k !== PlaceKind.address && p.osm.at(i)! < 0)
        this.unitPlace.set(unitOfPlace(p.osm.at(i)!), i);
    }
    for (const key of plainKeys) this.kindLedKeys.delete(key);
    this.pointPlace = pointPlaces(p);
    const b: [number, number, number, number] = region.meta.bbox
      ? [...region.meta.bbox]
      : [Infinity, Infinity, -Infinity, -Infinity];
    for (const i of this.pointPlace) {
      const lat = p.lat[i]! / COORD_SCALE,
        lon = p.lon[i]! / COORD_SCALE;
      if (lon < b[0]) b[0] = lon;
      if (lat < b[1]) b[1] = lat;
      if (lon > b[2]) b[2] = lon;
      if (lat > b[3]) b[3] = lat;
    }
    this.bbox = b;
    this.points = pointIndex(region.pack, p, this.pointPlace);
  }

  /** True when the point (degrees) lies in `bbox` grown by `marginDeg`. */
  near(lat: number, lon: number, marginDeg: number): boolean {
    const b = this.bbox;
    return lon >= b[0] - marginDeg && lat >= b[1] - marginDeg && lon <= b[2] + marginDeg && lat <= b[3] + marginDeg;
  }

  /** Latitude of place `i` in degrees. */
  lat(i: number): number {
    return this.places.lat[i]! / COORD_SCALE;
  }

  /** Longitude of place `i` in degrees. */
  lon(i: number): number {
    return this.places.lon[i]! / COORD_SCALE;
  }

  /**
   * The string ids of the street names that share street `name`'s key (spelt alike but for tone placement, case or a
   * type word: "Cộng Hòa" and "Cộng Hoà"), `name` among them.
   */
  streetNamesLike(name: number): ReadonlySet<number> {
    if (!this.namesByKey) {
      this.namesByKey = new Map();
      for (const id of this.streetPieces.keys()) {
        const k = streetKey(this.region.strings.get(id));
        const set = this.namesByKey.get(k);
        if (set) set.add(id);
        else this.namesByKey.set(k, new Set([id]));
      }
    }
    return this.namesByKey.get(streetKey(this.region.strings.get(name))) ?? new Set([name]);
  }

  private namesByKey: Map<string, Set<number>> | null = null;

  /** fold() of string `id` of the region (a name), cached: ranking looks at the same names query after query. */
  folded(id: number): string {
    return cachedText(this.foldedNames, id, () => fold(this.region.strings.get(id)));
  }

  private readonly foldedNames = new Map<number, string>();

  /** streetKey of string `id` of the region (a name), cached: the fallback asks it of every candidate street. */
  streetKeyOf(id: number): string {
    return cachedText(this.streetKeysById, id, () => streetKey(this.region.strings.get(id)));
  }

  private readonly streetKeysById = new Map<number, string>();

  /** The key of place `i`'s house number in its street's alley tree (see house-path.ts; '' without one), cached. */
  houseKeyOf(i: number): string {
    let k = this.houseKeys.get(i);
    if (k === undefined) {
      const s = this.region.strings;
      const house = this.places.house[i]!;
      k = '';
      if (house !== 0) {
        const street = this.places.street.at(i);
        let path = this.alleyPaths.get(street);
        if (path === undefined) this.alleyPaths.set(street, (path = streetAlleyPath(s.get(street))));
        k = storedHouseKey(s.get(house), s.get(street), path);
      }
      if (this.houseKeys.size >= MAX_HOUSE_KEYS) this.houseKeys.clear();
      this.houseKeys.set(i, k);
    }
    return k;
  }

  private readonly houseKeys = new Map<number, string>();
  /** streetAlleyPath of each street string id met (streets are far fewer than houses). */
  private readonly alleyPaths = new Map<number, string | null>();

  /** The 2025 ward (admin unit id) whose official polygon holds the point (degrees), or -1 (none, or no polygons). */
  wardAt(lat: number, lng: number): number {
    return this.region.wards?.unitAt(lat, lng) ?? -1;
  }

  /** The 2025 ward (admin unit id) of place `i` (the polygon holding its point at build time), or -1. */
  ward2025Of(i: number): number {
    return this.places.unit(i, AdminSlot.ward2025);
  }

  /** The area's wards, districts and provinces by folded name, sorted by it; made on first use. */
  private unitNames: { names: string[]; ids: number[] } | undefined;
  private get unitsByName(): { names: string[]; ids: number[] } {
    if (!this.unitNames) {
      const { table } = this.admin;
      const byName = [...(table && this.areaUnits ? this.areaUnits : [])].map(
        (id) => [fold(table!.byId.get(id)!.name), id] as const,
      );
      byName.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
      this.unitNames = { names: byName.map((x) => x[0]), ids: byName.map((x) => x[1]) };
    }
    return this.unitNames;
  }

  /** Whether a folded word begins the name of a ward, district or province of the region's area ("go": Gò Vấp). */
  readonly beginsUnitName = (start: string): boolean => {
    const { names } = this.unitsByName;
    return names[firstAtLeast(names, start)]?.startsWith(start) === true;
  };

  /** The ids of the wards, districts and provinces of the region's area whose folded name begins with `start`. */
  unitsBegun(start: string): number[] {
    const { names, ids } = this.unitsByName;
    const out: number[] = [];
    for (let k = firstAtLeast(names, start); k < names.length && names[k]!.startsWith(start); k++) out.push(ids[k]!);
    return out;
  }

  /** Whether place `i` lies in one of `units` (ids), by its legacy ward or district or its 2025 ward. */
  liesIn(i: number, units: ReadonlySet<number>): boolean {
    const p = this.places;
    return (
      units.has(p.unit(i, AdminSlot.ward)) ||
      units.has(p.unit(i, AdminSlot.district)) ||
      units.has(p.unit(i, AdminSlot.ward2025))
    );
  }

  private buildingIndex: BuildingIndex | null | undefined;
  /** The building outlines of the region's basemap, indexed on first use; null for a pack without a basemap. */
  get buildings(): BuildingIndex | null {
    if (this.buildingIndex === undefined) {
      const map = this.region.basemap;
      this.buildingIndex = map ? new BuildingIndex(map) : null;
    }
    return this.buildingIndex;
  }
}

/** The 2025 wards the places lie in (table ids). */
function placeWards(p: PlaceStore): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < p.count; i++) {
    const w = p.unit(i, AdminSlot.ward2025);
    if (w >= 0) out.add(w);
  }
  return out;
}
