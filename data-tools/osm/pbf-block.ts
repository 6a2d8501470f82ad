/**
 * Decodes one inflated OSM PBF `PrimitiveBlock` (osmformat.proto) and feeds its elements to a sink.
 * Field numbers below are those of osmformat.proto. Malformed data throws a {@link ProtoError}.
 */
import { ProtoError, ProtoReader, WIRE_BYTES, WIRE_VARINT } from './protobuf.js';
import type { Member, OsmSink, Tags } from './types.js';

/** Which element kinds to decode; the rest are skipped without being parsed. */
export interface BlockWants {
  nodes: boolean;
  ways: boolean;
  relations: boolean;
}

const MEMBER_TYPES: readonly Member['type'][] = ['node', 'way', 'relation'];

/**
 * Reusable decoding state: one instance serves a whole file so that per-block work allocates only the
 * elements handed to the sink (tag objects, way refs, relation members).
 */
export class BlockDecoder {
  private readonly r = new ProtoReader(new Uint8Array(0));
  private readonly g = new ProtoReader(new Uint8Array(0));
  private readonly ids = new ProtoReader(new Uint8Array(0));
  private readonly lats = new ProtoReader(new Uint8Array(0));
  private readonly lons = new ProtoReader(new Uint8Array(0));
  private readonly kvs = new ProtoReader(new Uint8Array(0));
  private readonly keys = new ProtoReader(new Uint8Array(0));
  private readonly vals = new ProtoReader(new Uint8Array(0));
  private data: Buffer = Buffer.alloc(0);
  /** String table entries as [start, end) byte ranges into `data`, decoded lazily into `strings`. */
  private strStart = new Int32Array(1024);
  private strEnd = new Int32Array(1024);
  private strCount = 0;
  private strings: (string | undefined)[] = [];
  /** Start/end byte ranges of the block's PrimitiveGroups (they precede the granularity fields on the wire). */
  private groupRanges = new Int32Array(64);
  private granularity = 100;
  private latOffset = 0;
  private lonOffset = 0;

  /** Decodes `data` (an inflated PrimitiveBlock) and calls the sink for every wanted element, in order. */
  decode(data: Buffer, sink: OsmSink, wants: BlockWants): void {
    this.data = data;
    this.strCount = 0;
    this.strings.length = 0;
    this.granularity = 100;
    this.latOffset = 0;
    this.lonOffset = 0;
    let groups = 0;
    const r = this.r.reset(data, 0, data.length);
    while (!r.done()) {
      const key = r.varint();
      const field = key >>> 3;
      const wire = key & 7;
      if (field === 1 && wire === WIRE_BYTES) this.readStringTable(r.lengthEnd());
      else if (field === 2 && wire === WIRE_BYTES) {
        const end = r.lengthEnd();
        if (groups * 2 + 2 > this.groupRanges.length) this.groupRanges = grow(this.groupRanges, groups * 4 + 4);
        this.groupRanges[groups * 2] = r.pos;
        this.groupRanges[groups * 2 + 1] = end;
        groups++;
        r.pos = end;
      } else if (field === 17 && wire === WIRE_VARINT) this.granularity = r.int64();
      else if (field === 19 && wire === WIRE_VARINT) this.latOffset = r.int64();
      else if (field === 20 && wire === WIRE_VARINT) this.lonOffset = r.int64();
      else r.skip(wire); // 18 date_granularity: we read no timestamps from elements
    }
    if (this.granularity <= 0) throw new ProtoError(`granularity ${this.granularity} is not positive`);
    for (let g = 0; g < groups; g++)
      this.readGroup(this.groupRanges[g * 2]!, this.groupRanges[g * 2 + 1]!, sink, wants);
  }

  private readStringTable(end: number): void {
    const r = this.r;
    while (r.pos < end) {
      const key = r.varint();
      if (key === ((1 << 3) | WIRE_BYTES)) {
        const e = r.lengthEnd();
        const n = this.strCount;
        if (n === this.strStart.length) {
          this.strStart = grow(this.strStart, n * 2);
          this.strEnd = grow(this.strEnd, n * 2);
        }
        this.strStart[n] = r.pos;
        this.strEnd[n] = e;
        this.strCount = n + 1;
        r.pos = e;
      } else r.skip(key & 7);
    }
    if (r.pos !== end) throw new ProtoError('string table overruns its length');
  }

  private str(i: number): string {
    const cached = this.strings[i];
    if (cached !== undefined) return cached;
    if (i >= this.strCount)
      throw new ProtoError(`string index ${i} outside the string table (${this.strCount} entries)`);
    const s = this.data.toString('utf8', this.strStart[i]!, this.strEnd[i]!);
    this.strings[i] = s;
    return s;
  }

  /** Degrees from a raw PBF coordinate: (offset + granularity * raw) nanodegrees. Division keeps it correctly rounded. */
  private lat(raw: number): number {
    return (this.latOffset + this.granularity * raw) / 1e9;
  }

  private lon(raw: number): number {
    return (this.lonOffset + this.granularity * raw) / 1e9;
  }

  private readGroup(start: number, end: number, sink: OsmSink, wants: BlockWants): void {
    // The group loop has its own reader so that element decoders can reuse `this.r` freely.
    const g = this.g.reset(this.data, start, end);
    while (!g.done()) {
      const key = g.varint();
      const field = key >>> 3;
      const wire = key & 7;
      if (wire !== WIRE_BYTES) {
        g.skip(wire);
        continue;
      }
      const e = g.lengthEnd();
      if (field === 2 && wants.nodes) this.readDense(g.pos, e, sink);
      else if (field === 1 && wants.nodes) this.readNode(g.pos, e, sink);
      else if (field === 3 && wants.ways) this.readWay(g.pos, e, sink);
      else if (field === 4 && wants.relations) this.readRelation(g.pos, e, sink);
      g.pos = e;
    }
  }

  /** DenseNodes: parallel packed arrays id(1), lat(8), lon(9) of deltas and keys_vals(10); denseinfo(5) is skipped. */
  private readDense(start: number, end: number, sink: OsmSink): void {
    const r = this.r.reset(this.data, start, end);
    const ids = this.ids.reset(this.data, 0, 0);
    const lats = this.lats.reset(this.data, 0, 0);
    const lons = this.lons.reset(this.data, 0, 0);
    const kvs = this.kvs.reset(this.data, 0, 0);
    while (!r.done()) {
      const key = r.varint();
      const field = key >>> 3;
      const wire = key & 7;
      if (wire === WIRE_BYTES && (field === 1 || field === 8 || field === 9 || field === 10)) {
        const e = r.lengthEnd();
        const target = field === 1 ? ids : field === 8 ? lats : field === 9 ? lons : kvs;
        target.pos = r.pos;
        target.end = e;
        r.pos = e;
      } else if (field === 1 || field === 8 || field === 9 || field === 10) {
        throw new ProtoError(`dense nodes field ${field} is not packed`);
      } else r.skip(wire);
    }
    const hasTags = !kvs.done();
    let id = 0;
    let lat = 0;
    let lon = 0;
    while (!ids.done()) {
      if (lats.done() || lons.done()) throw new ProtoError('dense nodes have fewer lat/lon values than ids');
      id += ids.svarint();
      lat += lats.svarint();
      lon += lons.svarint();
      let tags: Tags | null = null;
      if (hasTags) {
        let k = kvs.varint();
        if (k !== 0) {
          tags = {};
          while (k !== 0) {
            tags[this.str(k)] = this.str(kvs.varint());
            k = kvs.varint();
          }
        }
      }
      sink.node(id, this.lat(lat), this.lon(lon), tags);
    }
    if (!lats.done() || !lons.done()) throw new ProtoError('dense nodes have more lat/lon values than ids');
  }

  /** Reads the packed or repeated keys(2)/vals(3) of a Node, Way or Relation into a tags object. */
  private tagsFrom(keys: ProtoReader, vals: ProtoReader): Tags {
    const tags: Tags = {};
    while (!keys.done()) {
      if (vals.done()) throw new ProtoError('element has more tag keys than values');
      tags[this.str(keys.varint())] = this.str(vals.varint());
    }
    if (!vals.done()) throw new ProtoError('element has more tag values than keys');
    return tags;
  }

  /** Points `target` at a packed field's bytes. Unpacked (repeated varint) encoding is refused: PBF writers always pack these. */
  private packedRange(r: ProtoReader, wire: number, target: ProtoReader, what: string): void {
    if (wire !== WIRE_BYTES) throw new ProtoError(`${what} is not packed`);
    const e = r.lengthEnd();
    target.reset(this.data, r.pos, e);
    r.pos = e;
  }

  /** Node: id(1) sint64, keys(2), vals(3), info(4), lat(8) sint64, lon(9) sint64. */
  private readNode(start: number, end: number, sink: OsmSink): void {
    const r = this.r.reset(this.data, start, end);
    const keys = this.keys.reset(this.data, 0, 0);
    const vals = this.vals.reset(this.data, 0, 0);
    let id = 0;
    let lat = 0;
    let lon = 0;
    while (!r.done()) {
      const key = r.varint();
      const field = key >>> 3;
      const wire = key & 7;
      if (field === 1 && wire === WIRE_VARINT) id = r.svarint();
      else if (field === 8 && wire === WIRE_VARINT) lat = r.svarint();
      else if (field === 9 && wire === WIRE_VARINT) lon = r.svarint();
      else if (field === 2) this.packedRange(r, wire, keys, 'node keys');
      else if (field === 3) this.packedRange(r, wire, vals, 'node vals');
      else r.skip(wire);
    }
    const tags = keys.done() && vals.done() ? null : this.tagsFrom(keys, vals);
    sink.node(id, this.lat(lat), this.lon(lon), tags);
  }

  /** Way: id(1) int64, keys(2), vals(3), info(4), refs(8) packed sint64 deltas; lat/lon(9/10) are ignored. */
  private readWay(start: number, end: number, sink: OsmSink): void {
    const r = this.r.reset(this.data, start, end);
    const keys = this.keys.reset(this.data, 0, 0);
    const vals = this.vals.reset(this.data, 0, 0);
    const refsR = this.ids.reset(this.data, 0, 0);
    let id = 0;
    while (!r.done()) {
      const key = r.varint();
      const field = key >>> 3;
      const wire = key & 7;
      if (field === 1 && wire === WIRE_VARINT) id = r.int64();
      else if (field === 2) this.packedRange(r, wire, keys, 'way keys');
      else if (field === 3) this.packedRange(r, wire, vals, 'way vals');
      else if (field === 8) this.packedRange(r, wire, refsR, 'way refs');
      else r.skip(wire);
    }
    const refs: number[] = [];
    let ref = 0;
    while (!refsR.done()) {
      ref += refsR.svarint();
      refs.push(ref);
    }
    sink.way(id, refs, this.tagsFrom(keys, vals));
  }

  /** Relation: id(1) int64, keys(2), vals(3), info(4), roles_sid(8) packed int32, memids(9) packed sint64 deltas, types(10) packed enum. */
  private readRelation(start: number, end: number, sink: OsmSink): void {
    const r = this.r.reset(this.data, start, end);
    const keys = this.keys.reset(this.data, 0, 0);
    const vals = this.vals.reset(this.data, 0, 0);
    const roles = this.lats.reset(this.data, 0, 0);
    const memids = this.ids.reset(this.data, 0, 0);
    const types = this.lons.reset(this.data, 0, 0);
    let id = 0;
    while (!r.done()) {
      const key = r.varint();
      const field = key >>> 3;
      const wire = key & 7;
      if (field === 1 && wire === WIRE_VARINT) id = r.int64();
      else if (field === 2) this.packedRange(r, wire, keys, 'relation keys');
      else if (field === 3) this.packedRange(r, wire, vals, 'relation vals');
      else if (field === 8) this.packedRange(r, wire, roles, 'relation roles');
      else if (field === 9) this.packedRange(r, wire, memids, 'relation member ids');
      else if (field === 10) this.packedRange(r, wire, types, 'relation member types');
      else r.skip(wire);
    }
    const members: Member[] = [];
    let ref = 0;
    while (!memids.done()) {
      if (roles.done() || types.done()) throw new ProtoError(`relation ${id} has fewer roles/types than member ids`);
      ref += memids.svarint();
      const role = this.str(roles.int64());
      const t = types.varint();
      const type = MEMBER_TYPES[t];
      if (type === undefined) throw new ProtoError(`relation ${id} has member type ${t}`);
      members.push({ type, ref, role });
    }
    if (!roles.done() || !types.done()) throw new ProtoError(`relation ${id} has more roles/types than member ids`);
    sink.relation(id, members, this.tagsFrom(keys, vals));
  }
}

function grow(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
