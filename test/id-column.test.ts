// The pack's OSM ids as varint columns (src/pack/id-column.ts, osm-ids.ts): every id reads back as written, damaged
// bytes are named and never read past, the real Hanoi graph's and places' ids agree with the OSM source, and packs
// from before the columns (one double per id) still load and answer the same.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ID_BLOCK, IdColumn } from '../src/pack/id-column.js';
import { addOsmIds, OSM_IDS } from '../src/pack/osm-ids.js';
import { PackWriter } from '../src/pack/writer.js';
import { Pack, PackError } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { OsmType } from '../src/places/kinds.js';
import { PlaceStore } from '../src/places/store.js';
import { createEngine } from '../src/engine.js';
import { HANOI_INPUTS } from '../data-tools/hanoi-inputs.js';
import { overpassWays } from './helpers/osm-json.js';
import { osmElements } from './helpers/osm-elements.js';
import { OSM, testPack } from './helpers/packs.js';
import { rewrite } from './helpers/pack-rewrite.js';

/** Ids of every magnitude a column holds (to 2^50), runs of near neighbours among them, as OSM's ids come. */
const idsArb = fc
  .array(
    fc.oneof(
      fc.bigInt({ min: -(2n ** 50n), max: 2n ** 50n }).map(Number),
      fc.integer({ min: 0, max: 1000 }).map((d) => 2_677_187_920 + d),
    ),
    { maxLength: 3 * ID_BLOCK + 5 },
  )
  .map((a) => Float64Array.from(a));

describe('id columns', () => {
  it('read every id back as written, and check clean', () => {
    fc.assert(
      fc.property(idsArb, (ids) => {
        const c = IdColumn.encode(ids);
        expect(c.problem(ids.length)).toBeNull();
        expect(Array.from({ length: ids.length }, (_, i) => c.at(i))).toEqual([...ids]);
        expect([c.at(-1), c.at(ids.length), c.at(-ids.length - 1)]).toEqual([ids.at(-1), undefined, undefined]);
      }),
    );
  });

  it('refuse an id that is no whole number of magnitude ≤ 2^50, naming it', () => {
    expect(() => IdColumn.encode([1, 2.5])).toThrow(/id 1 \(2.5\)/);
    expect(() => IdColumn.encode([2 ** 51])).toThrow(/id 0/);
    expect(() => IdColumn.encode([0, NaN])).toThrow(/id 1/);
    // The pack builder names the section.
    expect(() => addOsmIds(new PackWriter(), OSM_IDS.place, [3, 2 ** 52])).toThrow(/section "place\.osmIds": id 1/);
  });

  it('name damaged bytes, a wrong count and a cut, and never read past the bytes', () => {
    fc.assert(
      fc.property(
        idsArb.filter((ids) => ids.length > 0),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        (ids, at, byte) => {
          const c = IdColumn.encode(ids);
          const bytes = c.bytes.slice();
          bytes[at % bytes.length] = byte;
          const damaged = new IdColumn(bytes, c.blockAt, ids.length);
          const why = damaged.problem(ids.length);
          // Either it says what is wrong, or every id reads as a number within range.
          if (why === null)
            for (let i = 0; i < ids.length; i++) expect(Math.abs(damaged.at(i)!)).toBeLessThanOrEqual(2 ** 50);
          else expect(why).toMatch(/id|block|bytes/);
          expect(
            new IdColumn(c.bytes.subarray(0, c.bytes.length - 1), c.blockAt, ids.length).problem(ids.length),
          ).not.toBeNull();
          expect(c.problem(ids.length + ID_BLOCK)).toMatch(/ids where/);
        },
      ),
    );
  });

  it('take about a byte or two an id where ids follow one another', () => {
    const ids = Float64Array.from({ length: 10_000 }, (_, i) => 9_000_000_000 + 3 * i);
    expect(IdColumn.encode(ids).bytes.length).toBeLessThan(ids.length * 1.2);
  });
});

describe("the real Hanoi pack's OSM ids", () => {
  let bytes: Uint8Array;
  let g: RoadGraph;
  beforeAll(() => {
    bytes = testPack('hanoi');
    g = new RoadGraph(Pack.from(bytes));
  });

  it('name, for each edge, a way of the source whose nodes hold both its ends', () => {
    const ways = overpassWays(HANOI_INPUTS.filter((f) => f.endsWith('.json')).map((f) => OSM + f));
    let checked = 0;
    for (let e = 0; e < g.edgeCount; e++) {
      const way = ways.get(g.edgeWay.at(e)!);
      if (!way) continue;
      checked++;
      for (const end of [0, 1]) expect(way.nodes).toContain(g.nodeOsm.at(g.edgeNodes[2 * e + end]!));
    }
    // Nearly every edge comes from these files (the others from the PBF inputs, where there are any).
    expect(checked).toBeGreaterThan(0.9 * g.edgeCount);
  });

  it("name each place's own element of the source (id × 4 + type), where it lies, or its admin unit", () => {
    const elements = new Map(osmElements('hanoi').map((e) => [e.id, e]));
    const p = new PlaceStore(Pack.from(bytes));
    const types = ['node', 'way'];
    let checked = 0,
      units = 0;
    for (let i = 0; i < p.count; i++) {
      const osm = p.osm.at(i)!;
      if (osm < 0) units++;
      // Relations are not among the elements (no position without their members), streets are the pack's own.
      if (osm < 0 || osm % 4 > OsmType.way) continue;
      const e = elements.get(`${types[osm % 4]}/${Math.floor(osm / 4)}`);
      expect(e, `place ${i}`).toBeDefined();
      if (osm % 4 === OsmType.node) expect(Math.abs(e!.lat - p.lat[i]! / 1e7)).toBeLessThan(1e-6);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    expect(units).toBeGreaterThan(0);
  });

  it('read the same from a pack of one double per id (before the columns)', () => {
    const doubles = (ids: { at(i: number): number | undefined; length: number }) =>
      Float64Array.from({ length: ids.length }, (_, i) => ids.at(i)!);
    const old = rewrite(bytes, {
      [OSM_IDS.node.bytes]: null,
      [OSM_IDS.node.blocks]: null,
      [OSM_IDS.way.bytes]: null,
      [OSM_IDS.way.blocks]: null,
      [OSM_IDS.place.bytes]: null,
      [OSM_IDS.place.blocks]: null,
      [OSM_IDS.node.doubles]: doubles(g.nodeOsm),
      [OSM_IDS.way.doubles]: doubles(g.edgeWay),
      [OSM_IDS.place.doubles]: doubles(new PlaceStore(Pack.from(bytes)).osm),
    });
    const before = new RoadGraph(Pack.from(old));
    expect(before.nodeOsm).toBeInstanceOf(Float64Array);
    expect(doubles(before.edgeWay)).toEqual(doubles(g.edgeWay));
    expect(doubles(before.nodeOsm)).toEqual(doubles(g.nodeOsm));
    expect(doubles(new PlaceStore(Pack.from(old)).osm)).toEqual(doubles(new PlaceStore(Pack.from(bytes)).osm));
  });

  it('answer places the same from a pack of one double per id (ids apart from the pack tag and check)', async () => {
    const old = rewrite(bytes, {
      [OSM_IDS.place.bytes]: null,
      [OSM_IDS.place.blocks]: null,
      [OSM_IDS.place.doubles]: Float64Array.from({ length: new PlaceStore(Pack.from(bytes)).count }, (_, i) =>
        new PlaceStore(Pack.from(bytes)).osm.at(i)!,
      ),
    });
    const [now, before] = await Promise.all([createEngine({ packs: [bytes] }), createEngine({ packs: [old] })]);
    // Place ids carry a tag of the pack's place sections and a check over it: the rest must be the same.
    const plain = (x: unknown) =>
      JSON.stringify(x, (k, v: unknown) =>
        k === 'executed_time' || k === 'executed_time_all'
          ? undefined
          : typeof v === 'string' && /^[0-9a-z]{6}\..*\.[0-9a-z]{3}$/.test(v)
            ? v.slice(7, -4)
            : v,
      );
    for (const q of ['phở hàng trống', 'bệnh viện bạch mai', 'hồ gươm', 'phường hàng bạc', 'nhà thờ lớn hà nội']) {
      expect(plain(before.geocode({ address: q }))).toBe(plain(now.geocode({ address: q })));
      expect(plain(before.autocomplete({ input: q }))).toBe(plain(now.autocomplete({ input: q })));
    }
    await Promise.all([now.close(), before.close()]);
  });

  it('fail their first use, naming the pack and section, when their bytes are damaged', () => {
    const pack = Pack.from(bytes);
    const wayBytes = pack.array<Uint8Array>(OSM_IDS.way.bytes).slice();
    // A varint that never ends: every byte's high bit set.
    wayBytes.fill(0xff, wayBytes.length - 40);
    const damaged = new RoadGraph(
      Pack.from(rewrite(pack, { [OSM_IDS.way.bytes]: wayBytes }), { source: 'hanoi.pack' }),
    );
    expect(() => damaged.edgeWay).toThrow(PackError);
    expect(() => damaged.edgeWay).toThrow(/hanoi\.pack.*graph\.edge\.wayIds.*runs past/);
    // A wrong count of blocks is found when the graph is opened.
    const short = rewrite(pack, { [OSM_IDS.node.blocks]: pack.array<Uint32Array>(OSM_IDS.node.blocks).subarray(1) });
    expect(() => new RoadGraph(Pack.from(short))).toThrow(/OSM ids differ in length/);
  });
});
