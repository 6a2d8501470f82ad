import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, inflateSync } from 'node:zlib';
import { PbfReader, PbfWriter } from 'pbf';
import { afterAll, describe, expect, it } from 'vitest';
import { readOverpassJson } from '../data-tools/osm/overpass.js';
import { readPbf } from '../data-tools/osm/pbf.js';
import { detectOsmFormat, readOsmFile } from '../data-tools/osm/read.js';
import type { Center, ElementRef, Member, OsmSink, Tags } from '../data-tools/osm/types.js';
import { decodeEntities } from '../data-tools/osm/xml-scanner.js';
import { readOsmXml } from '../data-tools/osm/xml.js';

const DATA = fileURLToPath(new URL('../../shared/data/osm/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'osm-readers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A sink that keeps everything (element lists are small enough for tests). */
class CollectSink implements OsmSink {
  nodeIds: number[] = [];
  lats: number[] = [];
  lons: number[] = [];
  taggedNodes = new Map<number, Tags>();
  ways: { id: number; refs: number[]; tags: Tags; center?: Center }[] = [];
  relations: { id: number; members: Member[]; tags: Tags; center?: Center }[] = [];
  features: { element: ElementRef | null; lat: number; lon: number; tags: Tags }[] = [];
  node(id: number, lat: number, lon: number, tags: Tags | null): void {
    this.nodeIds.push(id);
    this.lats.push(lat);
    this.lons.push(lon);
    if (tags) this.taggedNodes.set(id, tags);
  }
  way(id: number, refs: number[], tags: Tags, center?: Center): void {
    this.ways.push(center ? { id, refs, tags, center } : { id, refs, tags });
  }
  relation(id: number, members: Member[], tags: Tags, center?: Center): void {
    this.relations.push(center ? { id, members, tags, center } : { id, members, tags });
  }
  feature(element: ElementRef | null, lat: number, lon: number, tags: Tags): void {
    this.features.push({ element, lat, lon, tags });
  }
}

// ---------------------------------------------------------------------------------------------------------
// An independent PBF decoder for cross-checking, built on the `pbf` package and reading the whole file.
interface Scan {
  nodeIds: number[];
  lats: number[];
  lons: number[];
  wayIds: number[];
  highwayWays: number;
  refCount: number;
  refSum: number;
  relationIds: number[];
  memberCount: number;
}

function scanPbfIndependently(file: string): Scan {
  const buf = readFileSync(file);
  const out: Scan = {
    nodeIds: [],
    lats: [],
    lons: [],
    wayIds: [],
    highwayWays: 0,
    refCount: 0,
    refSum: 0,
    relationIds: [],
    memberCount: 0,
  };
  let pos = 0;
  while (pos < buf.length) {
    const hlen = buf.readUInt32BE(pos);
    pos += 4;
    const h = new PbfReader(buf.subarray(pos, pos + hlen)).readFields(
      (tag, r: { type: string; size: number }, p) => {
        if (tag === 1) r.type = p.readString();
        else if (tag === 3) r.size = p.readVarint();
      },
      { type: '', size: 0 },
    );
    pos += hlen;
    const blob = new PbfReader(buf.subarray(pos, pos + h.size)).readFields(
      (tag, r: { raw?: Uint8Array; z?: Uint8Array }, p) => {
        if (tag === 1) r.raw = p.readBytes();
        else if (tag === 3) r.z = p.readBytes();
      },
      {},
    );
    pos += h.size;
    if (h.type !== 'OSMData') continue;
    const data = blob.raw ?? inflateSync(blob.z!);
    const block = new PbfReader(data).readFields(
      (tag, b: { strings: string[]; groups: Uint8Array[]; gran: number; latOff: number; lonOff: number }, p) => {
        if (tag === 1)
          p.readMessage((t, arr: string[], q) => (t === 1 ? arr.push(q.readString()) : q.skip(q.type)), b.strings);
        else if (tag === 2) b.groups.push(p.readBytes());
        else if (tag === 17) b.gran = p.readVarint(true);
        else if (tag === 19) b.latOff = p.readVarint(true);
        else if (tag === 20) b.lonOff = p.readVarint(true);
      },
      { strings: [], groups: [], gran: 100, latOff: 0, lonOff: 0 },
    );
    for (const g of block.groups) {
      new PbfReader(g).readFields((tag, _u: object, p) => {
        if (tag === 2) {
          const d = p.readMessage(
            (t, r: { id: number[]; lat: number[]; lon: number[] }, q) => {
              if (t === 1) q.readPackedSVarint(r.id);
              else if (t === 8) q.readPackedSVarint(r.lat);
              else if (t === 9) q.readPackedSVarint(r.lon);
              else q.skip(q.type);
            },
            { id: [], lat: [], lon: [] },
          );
          let id = 0, lat = 0, lon = 0; // prettier-ignore
          for (let i = 0; i < d.id.length; i++) {
            id += d.id[i]!;
            lat += d.lat[i]!;
            lon += d.lon[i]!;
            out.nodeIds.push(id);
            out.lats.push((block.latOff + block.gran * lat) / 1e9);
            out.lons.push((block.lonOff + block.gran * lon) / 1e9);
          }
        } else if (tag === 3) {
          const w = p.readMessage(
            (t, r: { id: number; keys: number[]; refs: number[] }, q) => {
              if (t === 1) r.id = q.readVarint(true);
              else if (t === 2) q.readPackedVarint(r.keys);
              else if (t === 8) q.readPackedSVarint(r.refs);
              else q.skip(q.type);
            },
            { id: 0, keys: [], refs: [] },
          );
          out.wayIds.push(w.id);
          if (w.keys.some((k) => block.strings[k] === 'highway')) out.highwayWays++;
          let ref = 0;
          for (const delta of w.refs) {
            ref += delta;
            out.refSum += ref;
          }
          out.refCount += w.refs.length;
        } else if (tag === 4) {
          const r = p.readMessage(
            (t, x: { id: number; memids: number[] }, q) => {
              if (t === 1) x.id = q.readVarint(true);
              else if (t === 9) q.readPackedSVarint(x.memids);
              else q.skip(q.type);
            },
            { id: 0, memids: [] },
          );
          out.relationIds.push(r.id);
          out.memberCount += r.memids.length;
        } else if (tag === 1) throw new Error('plain nodes not expected in these extracts');
      }, {});
    }
  }
  return out;
}

function mismatches(a: number[], b: number[]): number {
  let bad = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) bad++;
  return bad;
}

describe('readPbf on real extracts', () => {
  const cases = [
    // Counts from ../shared/data/SOURCES.md; relation ids and place coordinates are well-known OSM facts.
    {
      file: 'monaco.osm.pbf',
      nodes: 180_118,
      highway: 2_927,
      country: 1124039,
      name: 'Monaco',
      iso: 'MC',
      place: 'Monaco',
      at: [43.7311, 7.4197],
    },
    {
      file: 'andorra.osm.pbf',
      nodes: 69_644,
      highway: 1_615,
      country: 9407,
      name: 'Andorra',
      iso: 'ad',
      place: 'Andorra la Vella',
      at: [42.5063, 1.5218],
    },
  ];
  for (const c of cases) {
    it(`${c.file}: elements match SOURCES.md and an independent decoder`, () => {
      const path = DATA + c.file;
      const sink = new CollectSink();
      const t0 = performance.now();
      const info = readPbf(path, sink);
      const ms = performance.now() - t0;
      console.log(
        `readPbf ${c.file}: ${ms.toFixed(0)} ms (${sink.nodeIds.length} nodes, ${sink.ways.length} ways, ${sink.relations.length} relations)`,
      );

      expect(sink.nodeIds.length).toBe(c.nodes);
      expect(sink.ways.filter((w) => w.tags.highway !== undefined).length).toBe(c.highway);

      const ref = scanPbfIndependently(path);
      expect(mismatches(sink.nodeIds, ref.nodeIds)).toBe(0);
      expect(mismatches(sink.lats, ref.lats)).toBe(0);
      expect(mismatches(sink.lons, ref.lons)).toBe(0);
      expect(
        mismatches(
          sink.ways.map((w) => w.id),
          ref.wayIds,
        ),
      ).toBe(0);
      expect(ref.highwayWays).toBe(c.highway);
      let refCount = 0;
      let refSum = 0;
      for (const w of sink.ways) for (const r of w.refs) (refCount++, (refSum += r));
      expect([refCount, refSum]).toEqual([ref.refCount, ref.refSum]);
      expect(
        mismatches(
          sink.relations.map((r) => r.id),
          ref.relationIds,
        ),
      ).toBe(0);
      expect(sink.relations.reduce((s, r) => s + r.members.length, 0)).toBe(ref.memberCount);

      // Extracts are cut with complete ways: every way ref names a node in the file.
      const seen = new Set(sink.nodeIds);
      let missing = 0;
      for (const w of sink.ways) for (const r of w.refs) if (!seen.has(r)) missing++;
      expect(missing).toBe(0);

      const country = sink.relations.find((r) => r.id === c.country)!;
      expect(country.tags).toMatchObject({
        name: c.name,
        admin_level: '2',
        boundary: 'administrative',
        'ISO3166-1': c.iso,
      });
      expect(country.members.some((m) => m.type === 'way' && m.role === 'outer')).toBe(true);
      const placeId = [...sink.taggedNodes].find(([, t]) => t.name === c.place && t.place !== undefined)![0];
      const i = sink.nodeIds.indexOf(placeId);
      expect(Math.abs(sink.lats[i]! - c.at[0]!)).toBeLessThan(0.01);
      expect(Math.abs(sink.lons[i]! - c.at[1]!)).toBeLessThan(0.01);

      expect(info.format).toBe('pbf');
      expect(info.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const [w, s, e, n] = info.bounds!;
      expect(w < e && s < n).toBe(true);
      expect(sink.lats[i]! > s && sink.lats[i]! < n && sink.lons[i]! > w && sink.lons[i]! < e).toBe(true);
    });
  }

  it('skips unwanted kinds and reports progress blob by blob', () => {
    const path = DATA + 'monaco.osm.pbf';
    const sink = new CollectSink();
    const calls: [number, number][] = [];
    readPbf(path, sink, { nodes: false, relations: false, progress: (d, t) => calls.push([d, t]) });
    expect(sink.nodeIds.length).toBe(0);
    expect(sink.relations.length).toBe(0);
    expect(sink.ways.length).toBe(scanPbfIndependently(path).wayIds.length);
    const size = readFileSync(path).length;
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.at(-1)).toEqual([size, size]);
    for (let k = 1; k < calls.length; k++) expect(calls[k]![0]).toBeGreaterThan(calls[k - 1]![0]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Synthetic PBF files built with the `pbf` package's writer.
function message(build: (w: PbfWriter) => void): Uint8Array {
  const w = new PbfWriter();
  build(w);
  return w.finish();
}

function blobFile(blobs: { type: string; blob: Uint8Array }[]): Buffer {
  const parts: Buffer[] = [];
  for (const b of blobs) {
    const header = message((w) => {
      w.writeStringField(1, b.type);
      w.writeVarintField(3, b.blob.length);
    });
    const len = Buffer.alloc(4);
    len.writeUInt32BE(header.length);
    parts.push(len, Buffer.from(header), Buffer.from(b.blob));
  }
  return Buffer.concat(parts);
}

const zlibBlob = (data: Uint8Array): Uint8Array =>
  message((w) => {
    w.writeVarintField(2, data.length);
    w.writeBytesField(3, deflateSync(data));
  });

const osmHeader = (features: string[], extra?: (w: PbfWriter) => void): Uint8Array =>
  message((w) => {
    for (const f of features) w.writeStringField(4, f);
    extra?.(w);
  });

describe('readPbf on synthetic files', () => {
  it('decodes plain nodes, dense nodes, ways and relations with 64-bit ids and negative offsets', () => {
    const big = 2 ** 33 + 7; // beyond int32 and uint32
    const strings = ['', 'name', 'Hồ Gươm', 'highway', 'primary', 'outer', 'type', 'multipolygon'];
    const block = message((w) => {
      w.writeMessage(1, (_: null, s) => strings.forEach((x) => s.writeBytesField(1, Buffer.from(x))), null);
      w.writeMessage(
        2,
        (_: null, g) => {
          g.writeMessage(
            1,
            (_n: null, n) => {
              n.writeSVarintField(1, big);
              n.writePackedVarint(2, [1]);
              n.writePackedVarint(3, [2]);
              n.writeSVarintField(8, 210_287_000); // raw units of granularity 100 nanodegrees
              n.writeSVarintField(9, 1_058_522_000);
            },
            null,
          );
        },
        null,
      );
      w.writeMessage(
        2,
        (_: null, g) => {
          g.writeMessage(
            2,
            (_d: null, d) => {
              d.writePackedSVarint(1, [big + 1, 1, 1]); // deltas
              d.writePackedSVarint(8, [210_000_000, -5, 10]);
              d.writePackedSVarint(9, [1_058_000_000, 3, -4]);
              d.writePackedVarint(10, [0, 1, 2, 0, 0]);
            },
            null,
          );
        },
        null,
      );
      w.writeMessage(
        2,
        (_: null, g) => {
          g.writeMessage(
            3,
            (_w: null, x) => {
              x.writeVarintField(1, big + 100);
              x.writePackedVarint(2, [3]);
              x.writePackedVarint(3, [4]);
              x.writePackedSVarint(8, [big + 1, 1, 1, -2]);
            },
            null,
          );
          g.writeMessage(
            4,
            (_r: null, r) => {
              r.writeVarintField(1, big + 200);
              r.writePackedVarint(2, [6]);
              r.writePackedVarint(3, [7]);
              r.writePackedVarint(8, [5, 0]);
              r.writePackedSVarint(9, [big + 100, -100]);
              r.writePackedVarint(10, [1, 0]);
            },
            null,
          );
        },
        null,
      );
      w.writeVarintField(17, 100);
      w.writeVarintField(19, -1000); // lat_offset, written after the groups as real writers do
      w.writeVarintField(20, 500);
    });
    const file = join(tmp, 'synthetic.osm.pbf');
    const header = osmHeader(['OsmSchema-V0.6', 'DenseNodes'], (w) => {
      w.writeMessage(
        1,
        (_: null, b) => {
          b.writeSVarintField(1, 105_800_000_000);
          b.writeSVarintField(2, 105_900_000_000);
          b.writeSVarintField(3, 21_100_000_000);
          b.writeSVarintField(4, 21_000_000_000);
        },
        null,
      );
      w.writeVarintField(32, 1_700_000_000);
    });
    writeFileSync(
      file,
      blobFile([
        { type: 'OSMHeader', blob: zlibBlob(header) },
        { type: 'OSMData', blob: message((w) => w.writeBytesField(1, block)) },
      ]),
    );
    const sink = new CollectSink();
    const info = readPbf(file, sink);
    expect(info).toEqual({ format: 'pbf', bounds: [105.8, 21, 105.9, 21.1], timestamp: '2023-11-14T22:13:20Z' });
    expect(sink.nodeIds).toEqual([big, big + 1, big + 2, big + 3]);
    expect(sink.lats).toEqual([
      (-1000 + 100 * 210_287_000) / 1e9,
      (-1000 + 100 * 210_000_000) / 1e9,
      (-1000 + 100 * 209_999_995) / 1e9,
      (-1000 + 100 * 210_000_005) / 1e9,
    ]);
    expect(sink.lons).toEqual([
      (500 + 100 * 1_058_522_000) / 1e9,
      (500 + 100 * 1_058_000_000) / 1e9,
      (500 + 100 * 1_058_000_003) / 1e9,
      (500 + 100 * 1_057_999_999) / 1e9,
    ]);
    expect([...sink.taggedNodes]).toEqual([
      [big, { name: 'Hồ Gươm' }],
      [big + 2, { name: 'Hồ Gươm' }],
    ]);
    expect(sink.ways).toEqual([
      { id: big + 100, refs: [big + 1, big + 2, big + 3, big + 1], tags: { highway: 'primary' } },
    ]);
    expect(sink.relations).toEqual([
      {
        id: big + 200,
        members: [
          { type: 'way', ref: big + 100, role: 'outer' },
          { type: 'node', ref: big, role: '' },
        ],
        tags: { type: 'multipolygon' },
      },
    ]);
    expect(readOsmFile(file, new CollectSink())).toEqual(info);
  });

  it('refuses unsupported required features and compression', () => {
    const hist = join(tmp, 'history.osm.pbf');
    writeFileSync(
      hist,
      blobFile([{ type: 'OSMHeader', blob: zlibBlob(osmHeader(['OsmSchema-V0.6', 'HistoricalInformation'])) }]),
    );
    expect(() => readPbf(hist, new CollectSink())).toThrow(/history\.osm\.pbf: blob at byte 0 .*HistoricalInformation/);
    const lzma = join(tmp, 'lzma.osm.pbf');
    writeFileSync(
      lzma,
      blobFile([{ type: 'OSMHeader', blob: message((w) => w.writeBytesField(4, Buffer.from('xx'))) }]),
    );
    expect(() => readPbf(lzma, new CollectSink())).toThrow(/lzma\.osm\.pbf: .*lzma compression/);
    const dataFirst = join(tmp, 'nohead.osm.pbf');
    writeFileSync(dataFirst, blobFile([{ type: 'OSMData', blob: zlibBlob(new Uint8Array(0)) }]));
    expect(() => readPbf(dataFirst, new CollectSink())).toThrow(/nohead\.osm\.pbf: .*no OSMHeader/);
  });

  it('throws an error naming the file for truncated and corrupt copies of monaco.osm.pbf', () => {
    const original = readFileSync(DATA + 'monaco.osm.pbf');
    const truncated = join(tmp, 'monaco.osm.pbf');
    writeFileSync(truncated, original.subarray(0, Math.floor(original.length / 2)));
    expect(() => readPbf(truncated, new CollectSink())).toThrow(/monaco\.osm\.pbf: blob at byte \d+ is truncated/);

    const corrupt = Buffer.from(original);
    for (let i = 0; i < 64; i++) corrupt[200_000 + i] ^= 0x5a;
    const corruptPath = join(tmp, 'corrupt.osm.pbf');
    writeFileSync(corruptPath, corrupt);
    expect(() => readPbf(corruptPath, new CollectSink())).toThrow(/corrupt\.osm\.pbf: blob at byte \d+ /);

    const garbagePbf = join(tmp, 'garbage.osm.pbf');
    writeFileSync(garbagePbf, Buffer.from('this is not a protocol buffer at all, just some text\n'.repeat(20)));
    expect(() => readPbf(garbagePbf, new CollectSink())).toThrow(/garbage\.osm\.pbf: blob at byte 0 is corrupt/);
  });

  it('lets errors thrown by the sink through unchanged', () => {
    const boom = new Error('sink says no');
    const sink = new CollectSink();
    sink.way = () => {
      throw boom;
    };
    expect(() => readPbf(DATA + 'andorra.osm.pbf', sink)).toThrow(boom);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('readOsmXml', () => {
  it('hanoi-quoctugiam.osm matches SOURCES.md and an independent regex scan', () => {
    const path = DATA + 'hanoi-quoctugiam.osm';
    const sink = new CollectSink();
    const info = readOsmXml(path, sink);
    const text = readFileSync(path, 'utf8');
    const count = (re: RegExp): number => text.match(re)?.length ?? 0;
    expect(count(/visible="false"/g)).toBe(0);
    expect(sink.nodeIds.length).toBe(count(/<node /g));
    expect(sink.ways.length).toBe(count(/<way /g));
    expect(sink.relations.length).toBe(count(/<relation /g));
    const wayBlocks = text.match(/<way [^>]*>[\s\S]*?<\/way>/g)!;
    expect(sink.ways.filter((w) => w.tags.highway !== undefined).length).toBe(
      wayBlocks.filter((b) => b.includes('<tag k="highway"')).length,
    );
    expect(sink.ways.reduce((s, w) => s + w.refs.length, 0)).toBe(count(/<nd /g));
    expect(sink.relations.reduce((s, r) => s + r.members.length, 0)).toBe(count(/<member /g));
    // Every element's tags, counted independently.
    const tagged = [
      ...sink.taggedNodes.values(),
      ...sink.ways.map((w) => w.tags),
      ...sink.relations.map((r) => r.tags),
    ];
    expect(tagged.reduce((s, t) => s + Object.keys(t).length, 0)).toBe(count(/<tag /g));
    // Hand-checked facts from SOURCES.md and the file head.
    expect(sink.nodeIds.length).toBe(6_629);
    expect(sink.ways.filter((w) => w.tags.highway !== undefined).length).toBe(527);
    expect(tagged.filter((t) => Object.keys(t).some((k) => k.startsWith('addr:'))).length).toBe(269);
    expect(info.bounds).toEqual([105.82683, 21.02329, 105.83901, 21.03035]);
    const newest = [...text.matchAll(/timestamp="([^"]+)"/g)]
      .map((m) => m[1]!)
      .sort()
      .at(-1);
    expect(info).toMatchObject({ format: 'osm-xml', timestamp: newest });
    const i = sink.nodeIds.indexOf(81803520);
    expect([sink.lats[i], sink.lons[i]]).toEqual([21.0269883, 105.8352972]);
    // Entities: every value containing an escaped character is decoded (&amp; &quot; &#10; occur in the file).
    const escaped = [...text.matchAll(/ v="([^"&]*&[^"]*)"/g)].map((m) => decodeEntities(m[1]!));
    expect(escaped.length).toBeGreaterThan(0);
    const values = new Set(tagged.flatMap((t) => Object.values(t)));
    for (const v of escaped) expect(values.has(v)).toBe(true);
    expect(escaped.some((v) => v.includes('&') || v.includes('"') || v.includes('\n'))).toBe(true);
  });

  it('handles elements split across 1 MiB read chunks, entities, comments and visible="false"', () => {
    const names = ['Phố Hàng Bạc', 'A & B <"x">', "it's", 'line\nbreak', '☃ snow > rain'];
    const esc = (s: string): string =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;')
        .replace(/\n/g, '&#10;');
    const parts = [
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment with <node> inside -->\n<osm version="0.6">\n',
    ];
    parts.push(' <bounds minlat="-1.5" minlon="2" maxlat="3" maxlon="4.25"/>\n');
    const N = 20_000; // ~2.4 MB, so tags straddle chunk boundaries at arbitrary places
    for (let i = 1; i <= N; i++) {
      const name = names[i % names.length]!;
      parts.push(
        `  <node id="${i}" lat="${(i / 1e4).toFixed(7)}" lon='-${(i / 1e3).toFixed(7)}' timestamp="2020-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z"`,
      );
      parts.push(i % 3 === 0 ? `>\n    <tag k="name" v="${esc(name)}"/>\n  </node>\n` : '/>\n');
    }
    parts.push('  <node id="999999" visible="false" lat="1" lon="1"/>\n');
    parts.push('  <way id="7"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>\n');
    parts.push('  <way id="8" visible="false"><nd ref="1"/></way>\n');
    parts.push(
      '  <relation id="9"><member type="way" ref="7" role="outer"/><member type="node" ref="3" role=""/><tag k="type" v="route"/></relation>\n',
    );
    parts.push('  <![CDATA[ <node id="5"/> ]]>\n</osm>\n');
    const path = join(tmp, 'chunks.osm');
    writeFileSync(path, parts.join(''));
    const sink = new CollectSink();
    const info = readOsmXml(path, sink);
    expect(info).toEqual({ format: 'osm-xml', bounds: [2, -1.5, 4.25, 3], timestamp: '2020-01-28T00:00:00Z' });
    expect(sink.nodeIds.length).toBe(N);
    let bad = 0;
    for (let i = 1; i <= N; i++) {
      if (
        sink.nodeIds[i - 1] !== i ||
        sink.lats[i - 1] !== Number((i / 1e4).toFixed(7)) ||
        sink.lons[i - 1] !== -Number((i / 1e3).toFixed(7))
      )
        bad++;
      const tags = sink.taggedNodes.get(i);
      if (i % 3 === 0 ? tags?.name !== names[i % names.length] : tags !== undefined) bad++;
    }
    expect(bad).toBe(0);
    expect(sink.ways).toEqual([{ id: 7, refs: [1, 2], tags: { highway: 'residential' } }]);
    expect(sink.relations).toEqual([
      {
        id: 9,
        members: [
          { type: 'way', ref: 7, role: 'outer' },
          { type: 'node', ref: 3, role: '' },
        ],
        tags: { type: 'route' },
      },
    ]);

    const ways = new CollectSink();
    readOsmXml(path, ways, { nodes: false, relations: false });
    expect([ways.nodeIds.length, ways.ways.length, ways.relations.length]).toEqual([0, 1, 0]);
  });

  it('prefers the root timestamp and reports malformed or truncated XML with file and line', () => {
    const rooted = join(tmp, 'rooted.osm');
    writeFileSync(
      rooted,
      '<osm timestamp="2024-05-01T00:00:00Z">\n<node id="1" lat="1" lon="2" timestamp="2025-01-01T00:00:00Z"/>\n</osm>',
    );
    expect(readOsmXml(rooted, new CollectSink()).timestamp).toBe('2024-05-01T00:00:00Z');

    const full = readFileSync(DATA + 'hanoi-quoctugiam.osm', 'utf8');
    const cut = join(tmp, 'cut.osm');
    writeFileSync(cut, full.slice(0, 1_500_000));
    expect(() => readOsmXml(cut, new CollectSink())).toThrow(/cut\.osm: line \d+: file ends inside/);

    const broken = join(tmp, 'broken.osm');
    writeFileSync(broken, '<osm>\n<node id="1" lat="1" lon="2">\n<tag k="a" v="b"/>\n</way>\n</osm>\n');
    expect(() => readOsmXml(broken, new CollectSink())).toThrow(/broken\.osm: line 4: <\/way> closes <node>/);

    const entity = join(tmp, 'entity.osm');
    writeFileSync(entity, '<osm>\n\n<node id="1" lat="1" lon="2"><tag k="a" v="&nbsp;"/></node></osm>');
    expect(() => readOsmXml(entity, new CollectSink())).toThrow(/entity\.osm: line 3: unknown entity &nbsp;/);

    const badLat = join(tmp, 'badlat.osm');
    writeFileSync(badLat, '<osm><node id="1" lat="north" lon="2"/></osm>');
    expect(() => readOsmXml(badLat, new CollectSink())).toThrow(/badlat\.osm: line 1: <node> has a bad \(north\) lat/);

    const change = join(tmp, 'change.osc');
    writeFileSync(change, '<osmChange><delete><node id="1" lat="1" lon="2"/></delete></osmChange>');
    expect(() => readOsmXml(change, new CollectSink())).toThrow(/change\.osc: line 1: root element is <osmChange>/);
  });

  it('decodes entities', () => {
    expect(decodeEntities('a &amp; b &lt;&gt; &quot;&apos; &#65;&#x1F600;&#xe0;')).toBe('a & b <> "\' A😀à');
    expect(() => decodeEntities('a & b')).toThrow(/bare "&"/);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('readOverpassJson', () => {
  const files = [
    'hanoi-central-drive-2025.overpass.json',
    'hanoi-center-all-2023.overpass.json',
    'hanoi-hospitals-2024.overpass.json',
    'hanoi-restaurants-2024.overpass.json',
    'dalat-drive-2026.overpass.json',
  ];
  for (const f of files) {
    it(`${f} matches JSON.parse`, () => {
      const path = DATA + f;
      const doc = JSON.parse(readFileSync(path, 'utf8')) as {
        osm3s: { timestamp_osm_base: string };
        elements: {
          type: string;
          id: number;
          lat?: number;
          lon?: number;
          tags?: Tags;
          nodes?: number[];
          members?: Member[];
          center?: Center;
        }[];
      };
      const sink = new CollectSink();
      const info = readOverpassJson(path, sink);
      expect(info).toEqual({ format: 'overpass-json', timestamp: doc.osm3s.timestamp_osm_base });
      const nodes = doc.elements.filter((e) => e.type === 'node');
      const ways = doc.elements.filter((e) => e.type === 'way');
      const rels = doc.elements.filter((e) => e.type === 'relation');
      expect(sink.nodeIds).toEqual(nodes.map((e) => e.id));
      expect(sink.lats).toEqual(nodes.map((e) => e.lat));
      expect(sink.lons).toEqual(nodes.map((e) => e.lon));
      expect(sink.taggedNodes.size).toBe(nodes.filter((e) => e.tags && Object.keys(e.tags).length > 0).length);
      expect(sink.ways.map((w) => [w.id, w.refs, w.tags, w.center])).toEqual(
        ways.map((e) => [e.id, e.nodes ?? [], e.tags ?? {}, e.center]),
      );
      expect(sink.relations.map((r) => [r.id, r.members.map((m) => [m.type, m.ref, m.role]), r.center])).toEqual(
        rels.map((e) => [e.id, (e.members ?? []).map((m) => [m.type, m.ref, m.role]), e.center]),
      );
    });
  }

  it('SOURCES.md facts: Hanoi 2025 drive file and the hospitals file with centres', () => {
    const drive = new CollectSink();
    readOverpassJson(DATA + 'hanoi-central-drive-2025.overpass.json', drive);
    expect([drive.nodeIds.length, drive.ways.length]).toEqual([16_980, 3_648]);
    expect(drive.ways.filter((w) => w.tags.name).length).toBe(2_633);
    expect(drive.ways.filter((w) => w.tags.oneway).length).toBe(1_596);
    const hosp = new CollectSink();
    readOverpassJson(DATA + 'hanoi-hospitals-2024.overpass.json', hosp);
    expect(hosp.taggedNodes.size + hosp.ways.length + hosp.relations.length).toBe(252);
    expect(hosp.ways.every((w) => w.center !== undefined && w.center.lat > 20.5 && w.center.lat < 21.5)).toBe(true);
  });

  it('names the file for invalid input', () => {
    const notJson = join(tmp, 'bad.json');
    writeFileSync(notJson, '{"elements": [');
    expect(() => readOverpassJson(notJson, new CollectSink())).toThrow(/bad\.json: not valid JSON/);
    const noElements = join(tmp, 'geo.json');
    writeFileSync(noElements, '{"type": "FeatureCollection", "features": []}');
    expect(() => readOverpassJson(noElements, new CollectSink())).toThrow(/geo\.json: not Overpass JSON/);
    const noLat = join(tmp, 'nolat.json');
    writeFileSync(noLat, '{"elements": [{"type": "node", "id": 5}]}');
    expect(() => readOverpassJson(noLat, new CollectSink())).toThrow(
      /nolat\.json: element 0 \(id 5\) is a node without lat\/lon/,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('readOsmFile / detectOsmFormat', () => {
  it('recognises formats by content, then by extension', () => {
    expect(detectOsmFormat(DATA + 'monaco.osm.pbf')).toBe('pbf');
    expect(detectOsmFormat(DATA + 'hanoi-quoctugiam.osm')).toBe('osm-xml');
    expect(detectOsmFormat(DATA + 'dalat-drive-2026.overpass.json')).toBe('json');
    expect(detectOsmFormat(DATA + 'dalat-tourist-pois.geojson')).toBe('json');
    // Content wins over a misleading name.
    const xmlNamedJson = join(tmp, 'really-xml.json');
    writeFileSync(xmlNamedJson, '\ufeff  <osm version="0.6"><node id="1" lat="1" lon="2"/></osm>');
    const sink = new CollectSink();
    expect(readOsmFile(xmlNamedJson, sink).format).toBe('osm-xml');
    expect(sink.nodeIds).toEqual([1]);
    // Inconclusive content (a leading comment) falls back to the extension.
    const commented = join(tmp, 'commented.osm');
    writeFileSync(commented, '<!-- exported --><osm><node id="2" lat="1" lon="2"/></osm>');
    expect(detectOsmFormat(commented)).toBe('osm-xml');
  });

  it('refuses garbage with an error naming the file', () => {
    const garbage = join(tmp, 'garbage.bin');
    writeFileSync(garbage, Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]));
    expect(detectOsmFormat(garbage)).toBeNull();
    expect(() => readOsmFile(garbage, new CollectSink())).toThrow(/garbage\.bin: not a recognised OSM file/);
    const empty = join(tmp, 'empty.dat');
    writeFileSync(empty, '');
    expect(() => readOsmFile(empty, new CollectSink())).toThrow(/empty\.dat: not a recognised OSM file/);
  });
});
