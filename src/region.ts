import type { Pack } from './pack/reader.js';
import { StringTable } from './pack/strings.js';
import { Basemap } from './map/basemap.js';
import { PlaceStore } from './places/store.js';
import { RoadGraph } from './route/graph.js';
import { WardPolygons } from './admin/ward-polygons.js';

/** Pack metadata as written by the builder. */
export interface PackMeta {
  name: string;
  format: number;
  bbox: [number, number, number, number] | null;
  dataDate: string | null;
  inputs: { file: string; format: string; timestamp?: string; bytes: number; sha256: string }[];
  counts: Record<string, number>;
  vehicles: string[];
  attribution: string;
  license: string;
}

/** One loaded pack: its metadata, strings, road graph and, when the pack has them, places and basemap. */
export class Region {
  readonly meta: PackMeta;
  readonly strings: StringTable;
  readonly graph: RoadGraph;
  readonly places: PlaceStore | null;
  readonly basemap: Basemap | null;
  readonly admin: unknown;
  /** The official polygons of the 2025 wards around the pack's area, or null (packs without admin data). */
  readonly wards: WardPolygons | null;

  /** @param of another region of the same pack whose read-only parts this one shares (see view) */
  constructor(
    readonly pack: Pack,
    of?: Region,
  ) {
    this.meta = of ? of.meta : pack.json<PackMeta>('meta');
    this.strings = of ? of.strings : new StringTable(pack);
    this.graph = of ? of.graph : new RoadGraph(pack);
    this.places = of ? of.places : pack.has('place.lat') ? new PlaceStore(pack) : null;
    this.basemap = of ? of.basemap : pack.has('map.kind') ? new Basemap(pack) : null;
    this.admin = of ? of.admin : pack.has('admin.units') ? pack.json('admin.units') : null;
    this.wards = of ? of.wards : WardPolygons.fromPack(pack);
  }

  /**
   * Another region object over the same pack: the read-only parts (metadata, strings, graph, places, basemap, admin
   * units, ward polygons) shared, the state kept per region object (its router and search state, its WebAssembly
   * instance) its own. Each engine routes over views of its own, so engines built on the same regions never affect
   * each other.
   */
  view(): Region {
    return new Region(this.pack, this);
  }

  /** True when the point (degrees) lies inside the pack's bounding box, grown by `marginDeg`. */
  contains(lat: number, lon: number, marginDeg = 0.01): boolean {
    const b = this.meta.bbox;
    return (
      !!b && lon >= b[0] - marginDeg && lat >= b[1] - marginDeg && lon <= b[2] + marginDeg && lat <= b[3] + marginDeg
    );
  }
}
