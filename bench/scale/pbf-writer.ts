/**
 * A small streaming OSM PBF writer (dense nodes, ways, relations; zlib blobs) for the synthetic inputs of
 * bench/build-scale.ts. Elements are buffered per kind and written in blocks of BLOCK elements, so memory stays
 * bounded whatever the file size. Element order is the caller's (nodes, then ways, then relations, by id, as
 * OSM files are ordered).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PbfWriter } from 'pbf';
import type { Member, Tags } from '../../data-tools/osm/types.js';

/** Elements per PrimitiveBlock (the usual figure of osmium and osmosis). */
const BLOCK = 8000;
const MEMBER_TYPE = { node: 0, way: 1, relation: 2 } as const;

interface NodeRec {
  id: number;
  lat: number;
  lon: number;
  tags: Tags | null;
}
interface WayRec {
  id: number;
  refs: number[];
  tags: Tags;
}
interface RelRec {
  id: number;
  members: Member[];
  tags: Tags;
}

/** Writes one OSM PBF file. Coordinates are given in 1e-7 degrees (the PBF granularity of 100 nanodegrees). */
export class PbfFileWriter {
  private readonly fd: number;
  private nodes: NodeRec[] = [];
  private ways: WayRec[] = [];
  private rels: RelRec[] = [];
  /** Bytes written so far. */
  bytes = 0;

  /** `bbox`: [minLon, minLat, maxLon, maxLat] in degrees, written to the header. */
  constructor(path: string, bbox: [number, number, number, number]) {
    this.fd = openSync(path, 'w');
    const header = new PbfWriter();
    header.writeMessage(
      1,
      (_: null, w: PbfWriter) => {
        w.writeSVarintField(1, Math.round(bbox[0] * 1e9));
        w.writeSVarintField(2, Math.round(bbox[2] * 1e9));
        w.writeSVarintField(3, Math.round(bbox[3] * 1e9));
        w.writeSVarintField(4, Math.round(bbox[1] * 1e9));
      },
      null,
    );
    header.writeStringField(4, 'OsmSchema-V0.6');
    header.writeStringField(4, 'DenseNodes');
    header.writeStringField(16, 'bando bench/build-scale');
    this.blob('OSMHeader', header.finish());
  }

  node(id: number, latE7: number, lonE7: number, tags: Tags | null): void {
    this.nodes.push({ id, lat: latE7, lon: lonE7, tags });
    if (this.nodes.length === BLOCK) this.flushNodes();
  }

  way(id: number, refs: number[], tags: Tags): void {
    this.flushNodes();
    this.ways.push({ id, refs, tags });
    if (this.ways.length === BLOCK) this.flushWays();
  }

  relation(id: number, members: Member[], tags: Tags): void {
    this.flushNodes();
    this.flushWays();
    this.rels.push({ id, members, tags });
    if (this.rels.length === BLOCK) this.flushRelations();
  }

  /** Writes what is buffered and closes the file. */
  close(): void {
    this.flushNodes();
    this.flushWays();
    this.flushRelations();
    closeSync(this.fd);
  }

  private flushNodes(): void {
    const list = this.nodes;
    if (list.length === 0) return;
    this.nodes = [];
    const st = new StringTable();
    const kv: number[] = [];
    let tagged = false;
    for (const n of list) {
      if (n.tags)
        for (const [k, v] of Object.entries(n.tags)) {
          kv.push(st.id(k), st.id(v));
          tagged = true;
        }
      kv.push(0);
    }
    this.block(st, (g) =>
      g.writeMessage(
        2,
        (_: null, d: PbfWriter) => {
          d.writePackedSVarint(1, deltas(list.map((n) => n.id)));
          d.writePackedSVarint(8, deltas(list.map((n) => n.lat)));
          d.writePackedSVarint(9, deltas(list.map((n) => n.lon)));
          if (tagged) d.writePackedVarint(10, kv);
        },
        null,
      ),
    );
  }

  private flushWays(): void {
    const list = this.ways;
    if (list.length === 0) return;
    this.ways = [];
    const st = new StringTable();
    const keys = list.map((w) => Object.entries(w.tags).map(([k, v]) => [st.id(k), st.id(v)] as const));
    this.block(st, (g) =>
      list.forEach((w, i) =>
        g.writeMessage(
          3,
          (_: null, m: PbfWriter) => {
            m.writeVarintField(1, w.id);
            m.writePackedVarint(
              2,
              keys[i]!.map((x) => x[0]),
            );
            m.writePackedVarint(
              3,
              keys[i]!.map((x) => x[1]),
            );
            m.writePackedSVarint(8, deltas(w.refs));
          },
          null,
        ),
      ),
    );
  }

  private flushRelations(): void {
    const list = this.rels;
    if (list.length === 0) return;
    this.rels = [];
    const st = new StringTable();
    const keys = list.map((r) => Object.entries(r.tags).map(([k, v]) => [st.id(k), st.id(v)] as const));
    const roles = list.map((r) => r.members.map((m) => st.id(m.role)));
    this.block(st, (g) =>
      list.forEach((r, i) =>
        g.writeMessage(
          4,
          (_: null, m: PbfWriter) => {
            m.writeVarintField(1, r.id);
            m.writePackedVarint(
              2,
              keys[i]!.map((x) => x[0]),
            );
            m.writePackedVarint(
              3,
              keys[i]!.map((x) => x[1]),
            );
            m.writePackedVarint(8, roles[i]!);
            m.writePackedSVarint(9, deltas(r.members.map((x) => x.ref)));
            m.writePackedVarint(
              10,
              r.members.map((x) => MEMBER_TYPE[x.type]),
            );
          },
          null,
        ),
      ),
    );
  }

  /** One PrimitiveBlock: string table, one group, granularity 100 nanodegrees, no offsets. */
  private block(st: StringTable, group: (g: PbfWriter) => void): void {
    const w = new PbfWriter();
    w.writeMessage(
      1,
      (_: null, s: PbfWriter) => {
        for (const x of st.list) s.writeBytesField(1, Buffer.from(x, 'utf8'));
      },
      null,
    );
    w.writeMessage(2, (_: null, g: PbfWriter) => group(g), null);
    this.blob('OSMData', w.finish());
  }

  private blob(type: string, data: Uint8Array): void {
    const blob = new PbfWriter();
    blob.writeVarintField(2, data.length);
    blob.writeBytesField(3, deflateSync(data));
    const body = blob.finish();
    const header = new PbfWriter();
    header.writeStringField(1, type);
    header.writeVarintField(3, body.length);
    const head = header.finish();
    const len = Buffer.alloc(4);
    len.writeUInt32BE(head.length);
    for (const part of [len, head, body]) this.bytes += writeSync(this.fd, part);
  }
}

/** A block's string table; entry 0 is the empty string, as the format reserves it. */
class StringTable {
  readonly list: string[] = [''];
  private readonly ids = new Map<string, number>();
  id(s: string): number {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.ids.set(s, i);
    }
    return i;
  }
}

function deltas(xs: number[]): number[] {
  const out = new Array<number>(xs.length);
  let prev = 0;
  for (let i = 0; i < xs.length; i++) {
    out[i] = xs[i]! - prev;
    prev = xs[i]!;
  }
  return out;
}
