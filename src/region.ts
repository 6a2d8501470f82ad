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

/** The read-only parts of a pack that every region object over it shares, each opened when first needed. */
class PackParts {
  private graphPart?: RoadGraph;
  private stringsPart?: StringTable;
  private placesPart?: PlaceStore | null;
  private basemapPart?: Basemap | null;
  private adminPart?: unknown;
  private wardsPart?: WardPolygons | null;

  constructor(private readonly pack: Pack) {}

  get graph(): RoadGraph {
    return (this.graphPart ??= new RoadGraph(this.pack));
  }
  get strings(): StringTable {
    return (this.stringsPart ??= new StringTable(this.pack));
  }
  get places(): PlaceStore | null {
    if (this.placesPart === undefined) this.placesPart = this.pack.has('place.lat') ? new PlaceStore(this.pack) : null;
    return this.placesPart;
  }
  get basemap(): Basemap | null {
    if (this.basemapPart === undefined) this.basemapPart = this.pack.has('map.kind') ? new Basemap(this.pack) : null;
    return this.basemapPart;
  }
  get admin(): unknown {
    if (this.adminPart === undefined)
      this.adminPart = this.pack.has('admin.units') ? this.pack.json('admin.units') : null;
    return this.adminPart;
  }
  get wards(): WardPolygons | null {
    if (this.wardsPart === undefined) this.wardsPart = WardPolygons.fromPack(this.pack);
    return this.wardsPart;
  }
}

/**
 * One loaded pack: its metadata, strings, road graph and, when the pack has them, places and basemap. Only the
 * metadata is read when the region is made; each other part is opened (its sections viewed and cross-checked) when
 * first used, so loading a country pack costs what its metadata costs and an engine that never draws a map never
 * opens the basemap. A corrupt part is refused then, with a PackError naming the pack, which the endpoints report.
 */
export class Region {
  readonly meta: PackMeta;
  private readonly parts: PackParts;

  /** @param of another region of the same pack whose read-only parts this one shares (see view) */
  constructor(
    readonly pack: Pack,
    of?: Region,
  ) {
    this.meta = of ? of.meta : pack.json<PackMeta>('meta');
    this.parts = of ? of.parts : new PackParts(pack);
  }

  get strings(): StringTable {
    return this.parts.strings;
  }
  get graph(): RoadGraph {
    return this.parts.graph;
  }
  get places(): PlaceStore | null {
    return this.parts.places;
  }
  get basemap(): Basemap | null {
    return this.parts.basemap;
  }
  get admin(): unknown {
    return this.parts.admin;
  }
  /** The official polygons of the 2025 wards around the pack's area, or null (packs without admin data). */
  get wards(): WardPolygons | null {
    return this.parts.wards;
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
