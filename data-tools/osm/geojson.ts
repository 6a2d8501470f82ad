/**
 * GeoJSON reader (RFC 7946): the features of a FeatureCollection, or a single Feature, as places.
 *
 * Each feature gives one place at one point: a Point's position; for any other geometry (MultiPoint, LineString,
 * MultiLineString, Polygon, MultiPolygon, GeometryCollection) the mean of its distinct positions, taking only the
 * outer ring of a polygon: the centre the builder gives an OSM way or area (places/tags.ts `centroid`).
 *
 * Properties are OSM tags (`name`, `name:en`, `amenity`, `tourism`, `addr:housenumber` …). The simple form of files
 * like dalat-tourist-pois.geojson (`name_vi`, `name_en`, `category`) is mapped to them by SIMPLE_NAMES and
 * SIMPLE_CATEGORIES; a property written as an OSM tag wins over a mapped one. A `category` the table does not know
 * stays an unused tag: the place is found by its names, without a kind. Numbers become strings, true/false
 * "yes"/"no"; null, arrays and objects are not tags, except a nested `tags` object (older osmtogeojson output).
 *
 * A feature that names an OSM element (`osm_id` "way/123" or a number beside `osm_type`, osmtogeojson's `@id`, or a
 * feature id "way/123") is that element: the store merges it with the element's version from the other inputs
 * (store.ts `mergeFeatures`), so one element never makes two places.
 *
 * A feature that cannot be a place (no geometry, a position that is not [longitude, latitude] in range, a geometry
 * type GeoJSON does not have, no name and no house number, a malformed OSM id) fails the whole file, with every such
 * feature listed by index and id: a pack silently missing places it was given is worse than a build that stops.
 */
import type { ElementRef, InputInfo, OsmSink, ReadOptions, Tags } from './types.js';
import { nameOf } from '../places/tags.js';

/** Simple-form properties that hold names, and the OSM name tags they are read as. */
const SIMPLE_NAMES = new Map([
  ['name_vi', 'name:vi'],
  ['name_en', 'name:en'],
]);

/**
 * Values of the simple form's `category` (compared in lower case) and the OSM tags they stand for. The general kinds
 * of such files (heritage, landmark …) take the general OSM tag: a museum is `tourism=museum`, but a "transport" place
 * is not claimed to be a railway station.
 */
const SIMPLE_CATEGORIES = new Map<string, Tags>(
  Object.entries<Tags>({
    museum: { tourism: 'museum' },
    gallery: { tourism: 'gallery' },
    attraction: { tourism: 'attraction' },
    tourist_area: { tourism: 'attraction' },
    landmark: { tourism: 'attraction' },
    architecture: { tourism: 'attraction' },
    cultural: { tourism: 'attraction' },
    theme_park: { tourism: 'theme_park' },
    zoo: { tourism: 'zoo' },
    viewpoint: { tourism: 'viewpoint' },
    hotel: { tourism: 'hotel' },
    heritage: { historic: 'yes' },
    monument: { historic: 'monument' },
    memorial: { historic: 'memorial' },
    religious: { amenity: 'place_of_worship' },
    market: { amenity: 'marketplace' },
    restaurant: { amenity: 'restaurant' },
    cafe: { amenity: 'cafe' },
    hospital: { amenity: 'hospital' },
    school: { amenity: 'school' },
    university: { amenity: 'university' },
    transport: { public_transport: 'yes' },
    bus_station: { amenity: 'bus_station' },
    garden: { leisure: 'garden' },
    park: { leisure: 'park' },
    beach: { natural: 'beach' },
    peak: { natural: 'peak' },
    waterfall: { natural: 'waterfall' },
    lake: { natural: 'water', water: 'lake' },
  }),
);

/** Properties that say which OSM element a feature is (read by `elementOf`), never tags; so is any `@…` key. */
const ID_PROPERTIES = new Set(['osm_id', 'osm_type']);

/** An OSM id written as text: "node/123", "way/123", "relation/123". */
const ELEMENT_TEXT = /^(node|way|relation)\/(\d+)$/;
/** `osm_type` values beside a numeric `osm_id` (Nominatim and Photon write N, W, R). */
const OSM_TYPES = new Map<string, ElementRef['type']>([
  ['node', 'node'],
  ['way', 'way'],
  ['relation', 'relation'],
  ['n', 'node'],
  ['w', 'way'],
  ['r', 'relation'],
]);

/** Unusable features listed in the error, at most. */
const MAX_LISTED = 20;

/** Why one feature cannot be a place (collected, then thrown for the file). */
class FeatureError extends Error {}

/** A feature read as a place. */
interface FeaturePlace {
  element: ElementRef | null;
  lat: number;
  lon: number;
  tags: Tags;
}

/** True when a parsed JSON document is a GeoJSON object (it has a string `type`), whether or not it holds features. */
export function isGeoJson(doc: unknown): boolean {
  return doc !== null && typeof doc === 'object' && typeof (doc as { type?: unknown }).type === 'string';
}

/**
 * Gives the sink every feature of a parsed GeoJSON document as a place, in file order, when nodes are wanted.
 *
 * @param path the file, for error messages
 * @returns the format (GeoJSON states no data date)
 * @throws Error naming the file when the document is not a FeatureCollection or Feature, or listing (index, id, name
 *   and reason) the features that cannot be places; then no feature reaches the sink
 */
export function geoJsonFeatures(path: string, doc: unknown, sink: OsmSink, opts: ReadOptions = {}): InputInfo {
  const root = doc as { type?: unknown; features?: unknown };
  let features: unknown[];
  if (root.type === 'FeatureCollection') {
    if (!Array.isArray(root.features))
      throw new Error(`${path}: a GeoJSON FeatureCollection without a "features" array`);
    features = root.features;
  } else if (root.type === 'Feature') features = [root];
  else
    throw new Error(`${path}: not a GeoJSON FeatureCollection or Feature (its type is ${JSON.stringify(root.type)})`);
  const places: FeaturePlace[] = [];
  const problems: string[] = [];
  features.forEach((f, i) => {
    try {
      places.push(readFeature(f));
    } catch (e) {
      if (!(e instanceof FeatureError)) throw e;
      problems.push(`feature ${i}${labelOf(f)} ${e.message}`);
    }
  });
  if (problems.length > 0) {
    const more = problems.length > MAX_LISTED ? `\n  … and ${problems.length - MAX_LISTED} more` : '';
    throw new Error(
      `${path}: ${problems.length} of ${features.length} GeoJSON features cannot be places:\n  ${problems.slice(0, MAX_LISTED).join('\n  ')}${more}`,
    );
  }
  if (opts.nodes ?? true) for (const p of places) sink.feature(p.element, p.lat, p.lon, p.tags);
  return { format: 'geojson' };
}

/** One feature as a place; throws FeatureError saying what makes it unusable. */
function readFeature(f: unknown): FeaturePlace {
  if (f === null || typeof f !== 'object' || (f as { type?: unknown }).type !== 'Feature')
    throw new FeatureError('is not a GeoJSON Feature');
  const { geometry, properties } = f as { geometry?: unknown; properties?: unknown };
  if (properties !== undefined && properties !== null && (typeof properties !== 'object' || Array.isArray(properties)))
    throw new FeatureError('has "properties" that are not an object');
  const props = (properties ?? {}) as Record<string, unknown>;
  const tags = tagsOf(props);
  if (!nameOf(tags) && !tags['addr:housenumber']) throw new FeatureError('has no name and no house number');
  const element = elementOf(f as { id?: unknown }, props);
  return { element, ...pointOf(geometry), tags };
}

/** The feature's properties as OSM tags (see the module comment). */
function tagsOf(props: Record<string, unknown>): Tags {
  const mapped: Tags = {};
  const own: Tags = {};
  const put = (entries: Record<string, unknown>) => {
    for (const [k, raw] of Object.entries(entries)) {
      const v = tagValue(raw);
      if (v === undefined || k.startsWith('@') || ID_PROPERTIES.has(k)) continue;
      const name = SIMPLE_NAMES.get(k);
      const category = k === 'category' ? SIMPLE_CATEGORIES.get(v.toLowerCase()) : undefined;
      if (name) mapped[name] = v;
      else if (category) Object.assign(mapped, category);
      else own[k] = v;
    }
  };
  put(props);
  const nested = props.tags;
  if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) put(nested as Record<string, unknown>);
  return { ...mapped, ...own };
}

/** A property value as a tag value: text (non-empty), a number, or true/false as yes/no; undefined otherwise. */
function tagValue(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : undefined;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return undefined;
}

/**
 * The OSM element a feature names: `osm_id` ("way/123", or a number with `osm_type`), else `@id` (osmtogeojson),
 * else the feature's own id when it is written "way/123"; null when none does.
 */
function elementOf(f: { id?: unknown }, props: Record<string, unknown>): ElementRef | null {
  const osmId = props.osm_id;
  if (typeof osmId === 'number' || (typeof osmId === 'string' && /^\d+$/.test(osmId))) {
    const type = typeof props.osm_type === 'string' ? OSM_TYPES.get(props.osm_type.toLowerCase()) : undefined;
    const id = Number(osmId);
    if (!type) throw new FeatureError(`has osm_id ${osmId} without an osm_type of node, way or relation`);
    if (!Number.isSafeInteger(id) || id <= 0) throw new FeatureError(`has osm_id ${osmId}, not an OSM id`);
    return { type, id };
  }
  for (const [key, v] of [
    ['osm_id', osmId],
    ['@id', props['@id']],
  ] as const) {
    if (v === undefined || v === null) continue;
    const ref = typeof v === 'string' ? elementText(v) : null;
    if (!ref) throw new FeatureError(`has ${key} ${JSON.stringify(v)}, not "node/…", "way/…" or "relation/…"`);
    return ref;
  }
  return typeof f.id === 'string' ? elementText(f.id) : null;
}

/** "way/123" as an element, or null when the text is not of that form. */
function elementText(s: string): ElementRef | null {
  const m = ELEMENT_TEXT.exec(s);
  const id = m ? Number(m[2]) : 0;
  return m && Number.isSafeInteger(id) && id > 0 ? { type: m[1] as ElementRef['type'], id } : null;
}

/** The place's point (degrees): see the module comment. */
function pointOf(geometry: unknown): { lat: number; lon: number } {
  const seen = new Set<string>();
  let lat = 0;
  let lon = 0;
  for (const [x, y] of positionsOf(geometry)) {
    const key = `${x},${y}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lon += x;
    lat += y;
  }
  if (seen.size === 0) throw new FeatureError('has a geometry without positions');
  return { lat: lat / seen.size, lon: lon / seen.size };
}

/** The positions that place a geometry: all of them, but only the outer ring of a polygon. */
function positionsOf(g: unknown): [number, number][] {
  if (g === undefined || g === null) throw new FeatureError('has no geometry');
  if (typeof g !== 'object') throw new FeatureError('has a "geometry" that is not an object');
  const { type, coordinates: c, geometries } = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  const outer = (polygon: unknown) =>
    list(polygon)
      .slice(0, 1)
      .flatMap((ring) => list(ring).map(position));
  switch (type) {
    case 'Point':
      return [position(c)];
    case 'MultiPoint':
    case 'LineString':
      return list(c).map(position);
    case 'MultiLineString':
      return list(c).flatMap((line) => list(line).map(position));
    case 'Polygon':
      return outer(c);
    case 'MultiPolygon':
      return list(c).flatMap(outer);
    case 'GeometryCollection':
      return list(geometries).flatMap(positionsOf);
    default:
      throw new FeatureError(`has a geometry of type ${JSON.stringify(type)}, which GeoJSON does not have`);
  }
}

/** An array of a geometry's coordinates, or FeatureError. */
function list(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw new FeatureError(`has coordinates that are not nested arrays (${preview(v)})`);
  return v;
}

/** A position [longitude, latitude] in degrees (an altitude after them is allowed and ignored), or FeatureError. */
function position(p: unknown): [number, number] {
  if (!Array.isArray(p) || p.length < 2 || !p.every((x) => typeof x === 'number' && Number.isFinite(x)))
    throw new FeatureError(`has a position that is not [longitude, latitude] (${preview(p)})`);
  const [lon, lat] = p as number[];
  if (lon! < -180 || lon! > 180 || lat! < -90 || lat! > 90)
    throw new FeatureError(
      `has a position out of range, ${preview(p)} (GeoJSON positions are [longitude, latitude] in degrees)`,
    );
  return [lon!, lat!];
}

/** A short rendering of a value for an error message. */
function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** How an error names a feature besides its index: its id, OSM id and name, those it has. */
function labelOf(f: unknown): string {
  if (f === null || typeof f !== 'object') return '';
  const { id, properties } = f as { id?: unknown; properties?: unknown };
  const props = (properties !== null && typeof properties === 'object' ? properties : {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (id !== undefined && id !== null) parts.push(`id ${preview(id)}`);
  for (const k of ['osm_id', '@id'])
    if (props[k] !== undefined && props[k] !== null) parts.push(`${k} ${preview(props[k])}`);
  const name = nameOf(tagsOf(props));
  if (name !== undefined) parts.push(preview(name));
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
