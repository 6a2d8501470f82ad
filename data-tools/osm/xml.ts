/**
 * OSM XML reader (API 0.6 exports, osmium/osmosis output, Overpass XML), streaming via {@link scanXmlFile}.
 */
import { XmlError, scanXmlFile, type XmlAttrs, type XmlHandler } from './xml-scanner.js';
import type { InputInfo, Member, OsmSink, ReadOptions, Tags } from './types.js';

type Kind = 'node' | 'way' | 'relation';

/**
 * Reads an OSM XML file and calls the sink for every visible element in file order.
 *
 * @param path file to read
 * @param sink receives nodes (degrees), ways and relations; elements with visible="false" are skipped
 * @param opts element kinds wanted (default all) and a progress callback (bytes read, file size in bytes)
 * @returns format; bounds from `<bounds>` as [minLon, minLat, maxLon, maxLat] in degrees; timestamp from the
 *   root's `timestamp` attribute (or Overpass `<meta osm_base>`), else the newest element timestamp
 * @throws Error naming the file and line for malformed, truncated or non-OSM XML
 */
export function readOsmXml(path: string, sink: OsmSink, opts: ReadOptions = {}): InputInfo {
  const reader = new OsmXmlHandler(sink, opts);
  scanXmlFile(path, reader, opts.progress);
  const info: InputInfo = { format: 'osm-xml' };
  const timestamp = reader.rootTimestamp ?? reader.newestTimestamp;
  if (timestamp !== undefined) info.timestamp = timestamp;
  if (reader.bounds) info.bounds = reader.bounds;
  return info;
}

class OsmXmlHandler implements XmlHandler {
  rootTimestamp: string | undefined;
  newestTimestamp: string | undefined;
  bounds: [number, number, number, number] | undefined;
  /** The element being read (between its start and end tags), or null. */
  private kind: Kind | null = null;
  private emit = false;
  private id = 0;
  private lat = 0;
  private lon = 0;
  private tags: Tags = {};
  private tagCount = 0;
  private refs: number[] = [];
  private members: Member[] = [];
  private readonly wants: Record<Kind, boolean>;

  constructor(
    private readonly sink: OsmSink,
    opts: ReadOptions,
  ) {
    this.wants = { node: opts.nodes ?? true, way: opts.ways ?? true, relation: opts.relations ?? true };
  }

  open(name: string, attrs: XmlAttrs, selfClosing: boolean, depth: number): void {
    if (depth === 0) {
      if (name !== 'osm') throw new XmlError(`root element is <${name}>, expected <osm>`);
      this.rootTimestamp = attrs.get('timestamp');
      return;
    }
    switch (name) {
      case 'node':
      case 'way':
      case 'relation':
        this.start(name, attrs);
        if (selfClosing) this.finish();
        return;
      case 'tag':
        if (this.kind) {
          const k = attrs.get('k');
          const v = attrs.get('v');
          if (k === undefined || v === undefined) throw new XmlError(`<tag> without k or v in ${this.kind} ${this.id}`);
          if (this.emit) {
            this.tags[k] = v;
            this.tagCount++;
          }
        }
        return;
      case 'nd':
        if (this.kind === 'way' && this.emit) this.refs.push(intAttr(attrs, 'ref', 'nd'));
        return;
      case 'member':
        if (this.kind === 'relation' && this.emit) this.members.push(member(attrs));
        return;
      case 'bounds':
        this.bounds = [
          numAttr(attrs, 'minlon', 'bounds'),
          numAttr(attrs, 'minlat', 'bounds'),
          numAttr(attrs, 'maxlon', 'bounds'),
          numAttr(attrs, 'maxlat', 'bounds'),
        ];
        return;
      case 'meta': {
        // Overpass XML states its data time here instead of on the root.
        const base = attrs.get('osm_base');
        if (base !== undefined && this.rootTimestamp === undefined) this.rootTimestamp = base;
        return;
      }
      default:
        return; // note, changeset, area and other elements carry nothing we read
    }
  }

  close(name: string): void {
    if (name === this.kind) this.finish();
  }

  private start(kind: Kind, attrs: XmlAttrs): void {
    if (this.kind) throw new XmlError(`<${kind}> inside <${this.kind}>`);
    this.kind = kind;
    this.id = intAttr(attrs, 'id', kind);
    const ts = attrs.get('timestamp');
    if (ts !== undefined && (this.newestTimestamp === undefined || ts > this.newestTimestamp))
      this.newestTimestamp = ts;
    this.emit = this.wants[kind] && attrs.get('visible') !== 'false';
    if (!this.emit) return;
    this.tags = {};
    this.tagCount = 0;
    if (kind === 'node') {
      this.lat = numAttr(attrs, 'lat', 'node');
      this.lon = numAttr(attrs, 'lon', 'node');
    } else if (kind === 'way') this.refs = [];
    else this.members = [];
  }

  private finish(): void {
    const kind = this.kind;
    this.kind = null;
    if (!this.emit) return;
    const tags = this.tags;
    if (kind === 'node') {
      this.sink.node(this.id, this.lat, this.lon, this.tagCount > 0 ? tags : null);
    } else if (kind === 'way') this.sink.way(this.id, this.refs, tags);
    else this.sink.relation(this.id, this.members, tags);
  }
}

function numAttr(attrs: XmlAttrs, name: string, where: string): number {
  const s = attrs.get(name);
  const v = s === undefined || s.trim() === '' ? NaN : Number(s);
  if (!Number.isFinite(v))
    throw new XmlError(`<${where}> has ${s === undefined ? 'no' : `a bad (${s})`} ${name} attribute`);
  return v;
}

function intAttr(attrs: XmlAttrs, name: string, where: string): number {
  const v = numAttr(attrs, name, where);
  if (!Number.isSafeInteger(v)) throw new XmlError(`<${where}> ${name} ${v} is not an integer`);
  return v;
}

function member(attrs: XmlAttrs): Member {
  const type = attrs.get('type');
  if (type !== 'node' && type !== 'way' && type !== 'relation') throw new XmlError(`<member> has type "${type}"`);
  return { type, ref: intAttr(attrs, 'ref', 'member'), role: attrs.get('role') ?? '' };
}
