/**
 * Overpass API JSON reader (`[out:json]`). Overpass JSON files are small query results, so the file is
 * parsed whole with JSON.parse (json-file.ts); elements are then handed to the sink one by one in file order.
 */
import { readJsonFile } from './json-file.js';
import type { Center, InputInfo, Member, OsmSink, ReadOptions, Tags } from './types.js';

/**
 * Reads an Overpass JSON file and calls the sink for every node, way and relation in `elements`.
 * Ways and relations pass on a `center` (from `out center`) when present; `geometry`/`bounds` are ignored;
 * other element types (area, count) are skipped.
 *
 * @param path file to read
 * @param sink receives nodes (degrees), ways and relations
 * @param opts element kinds wanted (default all); progress is reported once, after parsing (bytes, bytes)
 * @returns format and the timestamp from `osm3s.timestamp_osm_base` when present
 * @throws Error naming the file (and the element index) for invalid JSON or malformed elements
 */
export function readOverpassJson(path: string, sink: OsmSink, opts: ReadOptions = {}): InputInfo {
  const { doc, length } = readJsonFile(path);
  opts.progress?.(length, length);
  return overpassElements(path, doc, sink, opts);
}

/** True when a parsed JSON document is Overpass JSON (it has an `elements` array). */
export function isOverpassJson(doc: unknown): boolean {
  return doc !== null && typeof doc === 'object' && Array.isArray((doc as { elements?: unknown }).elements);
}

/**
 * The elements of a parsed Overpass JSON document, as {@link readOverpassJson} reads them.
 *
 * @param path the file, for error messages
 * @throws Error naming the file (and the element index) for a document that is not Overpass JSON or malformed elements
 */
export function overpassElements(path: string, doc: unknown, sink: OsmSink, opts: ReadOptions = {}): InputInfo {
  if (!isOverpassJson(doc)) throw new Error(`${path}: not Overpass JSON (no "elements" array)`);
  const root = doc as { elements: unknown[]; osm3s?: { timestamp_osm_base?: unknown } };
  const wantNodes = opts.nodes ?? true;
  const wantWays = opts.ways ?? true;
  const wantRelations = opts.relations ?? true;
  const elements = root.elements;
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i] as Record<string, unknown> | null;
    const bad = (what: string): Error =>
      new Error(`${path}: element ${i}${e && 'id' in e ? ` (id ${String(e.id)})` : ''} ${what}`);
    if (e === null || typeof e !== 'object') throw bad('is not an object');
    const type = e.type;
    if (type !== 'node' && type !== 'way' && type !== 'relation') continue;
    if (type === 'node' ? !wantNodes : type === 'way' ? !wantWays : !wantRelations) continue;
    const id = e.id;
    if (!Number.isSafeInteger(id)) throw bad('has no integer id');
    const tags = readTags(e.tags, bad);
    if (type === 'node') {
      if (typeof e.lat !== 'number' || typeof e.lon !== 'number') throw bad('is a node without lat/lon');
      sink.node(id as number, e.lat, e.lon, tags);
      continue;
    }
    const center = readCenter(e.center, bad);
    if (type === 'way') {
      const nodes = e.nodes ?? [];
      if (!Array.isArray(nodes) || !nodes.every(Number.isSafeInteger))
        throw bad('has "nodes" that are not integer ids');
      sink.way(id as number, nodes as number[], tags ?? {}, center);
    } else {
      sink.relation(id as number, readMembers(e.members, bad), tags ?? {}, center);
    }
  }
  const info: InputInfo = { format: 'overpass-json' };
  const ts = root.osm3s?.timestamp_osm_base;
  if (typeof ts === 'string') info.timestamp = ts;
  return info;
}

/** Element tags, or null when there are none (so untagged nodes allocate nothing). */
function readTags(raw: unknown, bad: (what: string) => Error): Tags | null {
  if (raw === undefined) return null;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad('has "tags" that is not an object');
  const tags = raw as Record<string, unknown>;
  let count = 0;
  for (const k in tags) {
    if (typeof tags[k] !== 'string') throw bad(`has a non-string value for tag "${k}"`);
    count++;
  }
  return count > 0 ? (tags as Tags) : null;
}

function readCenter(raw: unknown, bad: (what: string) => Error): Center | undefined {
  if (raw === undefined) return undefined;
  const c = raw as { lat?: unknown; lon?: unknown } | null;
  if (c === null || typeof c.lat !== 'number' || typeof c.lon !== 'number') throw bad('has a malformed "center"');
  return { lat: c.lat, lon: c.lon };
}

function readMembers(raw: unknown, bad: (what: string) => Error): Member[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw bad('has "members" that is not an array');
  return raw.map((m: { type?: unknown; ref?: unknown; role?: unknown } | null) => {
    const type = m?.type;
    if (type !== 'node' && type !== 'way' && type !== 'relation') throw bad(`has a member of type "${String(type)}"`);
    if (!Number.isSafeInteger(m!.ref)) throw bad('has a member without an integer ref');
    return { type, ref: m!.ref as number, role: typeof m!.role === 'string' ? m!.role : '' };
  });
}
