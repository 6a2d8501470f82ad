/**
 * The element stream every OSM reader produces. Readers call the sink once per element, in file order;
 * merging of several inputs (later input wins by type + id) happens in the store that implements the sink.
 * GeoJSON inputs give features instead: places that may name the OSM element they describe.
 */
export type Tags = Record<string, string>;

export interface Member {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

/** A centre point that some inputs (Overpass `out center`) give for ways and relations, in degrees. */
export interface Center {
  lat: number;
  lon: number;
}

/** An OSM element by type and id (ids are global in OSM: the same element in two files is one element). */
export interface ElementRef {
  type: 'node' | 'way' | 'relation';
  id: number;
}

export interface OsmSink {
  /** Called for every node; `tags` is null for untagged nodes so readers can skip building an object. */
  node(id: number, lat: number, lon: number, tags: Tags | null): void;
  way(id: number, refs: number[], tags: Tags, center?: Center): void;
  relation(id: number, members: Member[], tags: Tags, center?: Center): void;
  /**
   * A place that is not an OSM element of the file (a GeoJSON feature): a point in degrees and OSM-style tags, and
   * the OSM element it describes when it names one (null: a place of its own).
   */
  feature(element: ElementRef | null, lat: number, lon: number, tags: Tags): void;
}

/** Which element kinds a pass wants; readers may skip decoding the rest (PBF two-pass streaming). */
export interface ReadOptions {
  /** Nodes, and the features of a GeoJSON input (places given as points). */
  nodes?: boolean;
  ways?: boolean;
  relations?: boolean;
  /** Called with (bytesRead, totalBytes) now and then, for a progress display. */
  progress?: (done: number, total: number) => void;
}

/** What a reader learned about the input beyond its elements (for pack metadata). */
export interface InputInfo {
  format: 'pbf' | 'osm-xml' | 'overpass-json' | 'geojson';
  /** Data timestamp when the file states one (Overpass `osm3s.timestamp_osm_base`, PBF header replication timestamp), ISO 8601. */
  timestamp?: string;
  /** Bounds when the file states them, [minLon, minLat, maxLon, maxLat]. */
  bounds?: [number, number, number, number];
}
