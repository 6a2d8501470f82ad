/**
 * Reads any supported input (OSM PBF, OSM XML, Overpass JSON, GeoJSON), recognising the format by content first and
 * by file extension second.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { geoJsonFeatures, isGeoJson } from './geojson.js';
import { readJsonFile } from './json-file.js';
import { isOverpassJson, overpassElements } from './overpass.js';
import { readPbf } from './pbf.js';
import { readOsmXml } from './xml.js';
import type { InputInfo, OsmSink, ReadOptions } from './types.js';

/** Kinds of file that {@link readOsmFile} understands; a JSON file is Overpass JSON or GeoJSON, told apart once parsed. */
export type OsmFormat = 'pbf' | 'osm-xml' | 'json';

const SNIFF_BYTES = 64;

/**
 * Tells the format of a file from its first bytes: PBF (a 4-byte big-endian header length followed by a
 * BlobHeader of type "OSMHeader"), XML (`<?xml` or `<osm`, after an optional BOM and whitespace) or JSON
 * (`{`). Falls back to the extension (.pbf, .osm/.xml, .json/.geojson) when the content is not conclusive.
 *
 * @returns the format, or null when neither content nor extension identifies one
 */
export function detectOsmFormat(path: string): OsmFormat | null {
  const head = Buffer.alloc(SNIFF_BYTES);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, SNIFF_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const bytes = head.subarray(0, n);
  if (isPbfStart(bytes)) return 'pbf';
  const text = bytes.toString('latin1').replace(/^(\xef\xbb\xbf)?\s*/, '');
  if (text.startsWith('<?xml') || text.startsWith('<osm')) return 'osm-xml';
  if (text.startsWith('{')) return 'json';
  const lower = path.toLowerCase();
  if (lower.endsWith('.pbf')) return 'pbf';
  if (lower.endsWith('.osm') || lower.endsWith('.xml')) return 'osm-xml';
  if (lower.endsWith('.json') || lower.endsWith('.geojson')) return 'json';
  return null;
}

/** First blob header: length prefix, then field 1 (type, wire type 2) holding the 9 bytes "OSMHeader". */
function isPbfStart(b: Buffer): boolean {
  if (b.length < 15) return false;
  const len = b.readUInt32BE(0);
  return len > 0 && len <= 64 * 1024 && b[4] === 0x0a && b[5] === 9 && b.toString('latin1', 6, 15) === 'OSMHeader';
}

/**
 * Reads an input of any supported format and calls the sink for every element (or GeoJSON feature) in file order.
 *
 * @param path file to read
 * @param sink receives nodes (degrees), ways, relations and features
 * @param opts element kinds wanted (default all) and a progress callback (bytes read, total bytes)
 * @returns what the file states about itself (format, timestamp, bounds)
 * @throws Error naming the file when its format is not recognised or its content is malformed
 */
export function readOsmFile(path: string, sink: OsmSink, opts: ReadOptions = {}): InputInfo {
  const format = detectOsmFormat(path);
  switch (format) {
    case 'pbf':
      return readPbf(path, sink, opts);
    case 'osm-xml':
      return readOsmXml(path, sink, opts);
    case 'json':
      return readJsonInput(path, sink, opts);
    default:
      throw new Error(`${path}: not a recognised OSM file (expected OSM PBF, OSM XML, Overpass JSON or GeoJSON)`);
  }
}

/** A JSON input: Overpass JSON when it has `elements`, else GeoJSON when it has a `type`. */
function readJsonInput(path: string, sink: OsmSink, opts: ReadOptions): InputInfo {
  const { doc, length } = readJsonFile(path);
  opts.progress?.(length, length);
  if (isOverpassJson(doc)) return overpassElements(path, doc, sink, opts);
  if (isGeoJson(doc)) return geoJsonFeatures(path, doc, sink, opts);
  throw new Error(`${path}: neither Overpass JSON (no "elements" array) nor GeoJSON (no "type")`);
}
