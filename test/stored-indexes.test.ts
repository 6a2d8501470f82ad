/**
 * Indexes stored built in packs (issue 14): the connected components of every vehicle, the snapping grid, the place
 * search index, the places' categories and the order of the reverse-geocoding point tree are written by the builder
 * and opened as views. They equal what the engine computes from the pack at first use; a pack without them (an older
 * pack) answers the same; stored indexes of other costs, another category table or other points are not used;
 * arrays that do not fit are refused naming the section.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { Pack, PackError } from '../src/pack/reader.js';
import { strongComponents } from '../src/route/components.js';
import { RoadGraph } from '../src/route/graph.js';
import { PROFILE_COUNT } from '../src/route/profiles.js';
import { Router } from '../src/route/router.js';
import { SnapIndex } from '../src/route/snap.js';
import { COMPONENTS_INDEX, storedComponents, type ComponentsIndex } from '../src/route/stored-components.js';
import { SNAP_SECTIONS, storedSnapGrid } from '../src/route/stored-snap.js';
import { testPack } from './helpers/packs.js';
import { rewrite } from './helpers/pack-rewrite.js';
import { Region } from '../src/region.js';
import { AdminNames } from '../src/places/admin-names.js';
import { PlaceIndex, PlaceTerms } from '../src/places/search/index.js';
import { probeHash, storedPlaceIndex } from '../src/places/search/stored-index.js';
import { PlaceCategories } from '../src/places/search/place-categories.js';
import { placeCategories } from '../src/places/search/stored-categories.js';
import { pointIndex, pointPlaces } from '../src/places/stored-points.js';
import KDBush from 'kdbush';
import type { Offsets } from '../src/pack/offsets.js';

/** An answer without its timings. */
const untimed = (r: unknown): string =>
  JSON.stringify(r, (k, v: unknown) => (k.startsWith('executed_time') ? undefined : v));

/** Deterministic points around the pack's nodes (degrees). */
function points(g: RoadGraph, n: number): [number, number][] {
  let s = 12345;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => {
    const v = Math.floor(rnd() * g.nodeCount);
    return [g.nodeLat[v]! / 1e7 + (rnd() - 0.5) * 0.004, g.nodeLon[v]! / 1e7 + (rnd() - 0.5) * 0.004];
  });
}

describe('stored indexes', () => {
  for (const region of ['monaco', 'dalat'] as const) {
    it(`${region}: stored components and snapping grid equal those computed from the graph`, () => {
      const pack = Pack.from(testPack(region));
      expect(pack.has(COMPONENTS_INDEX) && pack.has(SNAP_SECTIONS.index)).toBe(true);
      const g = new RoadGraph(pack);
      const router = new Router(g, null, { wasm: false });
      for (let p = 0; p < PROFILE_COUNT; p++) {
        const { costs, turns } = router.context(p);
        const stored = storedComponents(pack, p, costs, turns)!;
        const computed = strongComponents(costs, turns);
        expect(stored).not.toBeNull();
        expect(Array.from(stored.edgeComp)).toEqual(Array.from(computed.edgeComp));
        expect(Array.from(stored.size)).toEqual(Array.from(computed.size));
      }
      const built = new SnapIndex(g);
      const grid = storedSnapGrid(pack, built.layout)!;
      expect(entries(grid.first)).toEqual(entries(built.grid.first));
      expect(Array.from(grid.seg)).toEqual(Array.from(built.grid.seg));
      const viaStored = new SnapIndex(g, () => grid);
      for (const [lat, lon] of points(g, 300))
        expect(viaStored.nearest(lat, lon, () => true, 500)).toEqual(built.nearest(lat, lon, () => true, 500));
    });
  }

  it('hanoi: the stored place index equals the one built from the places', () => {
    const pack = Pack.from(testPack('hanoi'));
    const region = new Region(pack);
    const places = region.places!;
    const admin = new AdminNames(region.admin);
    const terms = new PlaceTerms(places, region.strings, admin);
    const stored = storedPlaceIndex(pack, places.count, () => probeHash(terms, places.count))!;
    expect(stored).not.toBeNull();
    const built = new PlaceIndex(places, region.strings, admin);
    for (const key of Object.keys(stored) as (keyof typeof stored)[])
      if (key !== 'postings')
        expect(Array.from(stored[key] as ArrayLike<unknown>), key).toEqual(
          Array.from(built[key] as ArrayLike<unknown>),
        );
    expect(stored.postings.count).toBeGreaterThan(0);
    expect([...stored.postings.bytes], 'postings').toEqual([...built.postings.bytes]);
    expect([...stored.postings.blockAt], 'posting blocks').toEqual([...built.postings.blockAt]);
    // Postings whose last number runs past their bytes.
    const runOn = stored.postings.bytes.slice();
    runOn[runOn.length - 1]! |= 0x80;
    // Another way of splitting or folding words (a different probe) builds the index again.
    expect(storedPlaceIndex(pack, places.count, () => probeHash(terms, places.count) ^ 1)).toBeNull();
    const bad = Pack.from(rewrite(testPack('hanoi'), { 'place.ix.post': runOn }), {
      source: 'bad.pack',
    });
    expect(() => storedPlaceIndex(bad, places.count, () => probeHash(terms, places.count))).toThrow(
      /bad\.pack: corrupt: section "place\.ix\.post/,
    );
  });

  it('hanoi: the stored categories and point order equal those built from the places', () => {
    const pack = Pack.from(testPack('hanoi'));
    const region = new Region(pack);
    const places = region.places!;
    expect(pack.has('place.cat') && pack.has('place.pts')).toBe(true);
    // Without the sections, as a pack from before them: read and sorted here.
    const bare = Pack.from(rewrite(testPack('hanoi'), { 'place.cat': null, 'place.pts': null }));
    const built = placeCategories(bare, places, region.strings);
    const stored = placeCategories(pack, places, region.strings);
    expect(stored.rowPlaces.length).toBeGreaterThan(100);
    expect(Array.from(stored.rowStart)).toEqual(Array.from(built.rowStart));
    expect(Array.from(stored.rowPlaces)).toEqual(Array.from(built.rowPlaces));
    expect(Array.from(stored.bits)).toEqual(Array.from(built.bits));
    const points = pointPlaces(places);
    const tree = pointIndex(pack, places, points);
    // The reference tree: kdbush over the same points, added one by one as the engine did before the section.
    const ref = new KDBush(points.length);
    for (const i of points) ref.add(places.lon[i]! / 1e7, places.lat[i]! / 1e7);
    ref.finish();
    expect(Array.from(tree.ids)).toEqual(Array.from(ref.ids));
    expect(Array.from(tree.coords)).toEqual(Array.from(ref.coords));
    expect(tree.within(105.85, 21.03, 0.01)).toEqual(ref.within(105.85, 21.03, 0.01));
  });

  it('a pack without them answers as one with them', async () => {
    for (const region of ['dalat', 'hanoi'] as const) await sameWithout(region);
  }, 120_000);

  it('a pack storing every edge its speeds and every place its units (before distinct rows) answers as one with rows', async () => {
    for (const region of ['dalat', 'hanoi'] as const) {
      const bytes = testPack(region);
      const pack = Pack.from(bytes);
      // The arrays whole, as packs stored them before: each edge's 10 speeds and 5 preferences, each place's 5 units.
      const ids = pack.array<Uint8Array | Uint16Array>('graph.edge.speedRow');
      const rows = pack.array<Uint8Array>('graph.speedRows');
      expect(rows.length / 15).toBeLessThan(ids.length / 20);
      const speed = new Uint8Array(ids.length * 10),
        pref = new Uint8Array(ids.length * 5);
      ids.forEach((r, e) => {
        for (let j = 0; j < 10; j++) speed[e * 10 + j] = rows[r * 15 + j]!;
        for (let j = 0; j < 5; j++) pref[e * 5 + j] = rows[r * 15 + 10 + j]!;
      });
      const set = pack.array<Uint8Array | Uint16Array>('place.admSet');
      const sets = pack.array<Int32Array>('place.admSets');
      expect(sets.length / 5).toBeLessThan(set.length / 5);
      const adm = new Int32Array(set.length * 5);
      set.forEach((k, i) => adm.set(sets.subarray(k * 5, k * 5 + 5), i * 5));
      const before = rewrite(bytes, {
        'graph.edge.speedRow': null,
        'graph.speedRows': null,
        'place.admSet': null,
        'place.admSets': null,
        'graph.edge.speed': speed,
        'graph.edge.pref': pref,
        'place.adm': adm,
      });
      await sameAnswers(before, bytes);
    }
  }, 120_000);
});

/** Answers of the region's pack with and without its stored indexes are the same. */
async function sameWithout(region: 'dalat' | 'hanoi'): Promise<void> {
  const bytes = testPack(region);
  const stored = [...Pack.from(bytes).sections.keys()].filter(
    (n) => n.startsWith('route.') || /^place\.(ix|cat|pts)(\.|$)/.test(n),
  );
  expect(stored.length).toBeGreaterThan(5);
  const without = rewrite(bytes, Object.fromEntries(stored.map((n) => [n, null])));
  expect(Pack.from(without).has(COMPONENTS_INDEX)).toBe(false);
  await sameAnswers(without, bytes);
}

/** Routes, tables, reverse and forward geocodes and autocompletes of pack `without` are those of pack `bytes`. */
async function sameAnswers(without: Uint8Array, bytes: Uint8Array): Promise<void> {
  const a = await createEngine({ packs: [bytes], wasm: false });
  const b = await createEngine({ packs: [without], wasm: false });
  const g = new RoadGraph(Pack.from(bytes));
  const pts = points(g, 24).map(([lat, lon]) => `${lat.toFixed(6)},${lon.toFixed(6)}`);
  for (let i = 0; i + 1 < pts.length; i += 2) {
    for (const vehicle of ['car', 'bike'] as const) {
      const q = { origin: pts[i]!, destination: pts[i + 1]!, vehicle };
      expect(b.direction(q)).toEqual(a.direction(q));
    }
    expect(untimed(b.geocode({ latlng: pts[i]! }))).toEqual(untimed(a.geocode({ latlng: pts[i]! })));
  }
  const side = (from: number) => pts.slice(from, from + 6).join('|');
  for (const vehicle of ['car', 'truck'] as const) {
    const q = { origins: side(0), destinations: side(6), vehicle };
    expect(b.distanceMatrix(q)).toEqual(a.distanceMatrix(q));
  }
  for (const input of ['Nguyễn Trãi', 'chợ', 'ben xe', 'Hoan Kiem', 'Phường 1, Đà Lạt']) {
    expect(untimed(b.autocomplete({ input }))).toEqual(untimed(a.autocomplete({ input })));
    expect(untimed(b.geocode({ address: input }))).toEqual(untimed(a.geocode({ address: input })));
  }
}

describe('stored indexes that do not fit', () => {
  it('refuses a row number past the speed or admin rows, naming the section', () => {
    const bytes = testPack('dalat');
    const pack = Pack.from(bytes);
    const rows = pack.array<Uint8Array>('graph.speedRows').length / 15;
    const speedRow = pack.array<Uint8Array | Uint16Array>('graph.edge.speedRow').slice();
    speedRow[speedRow.length >> 1] = rows;
    const badSpeeds = Pack.from(rewrite(bytes, { 'graph.edge.speedRow': speedRow }), { source: 'bad.pack' });
    expect(() => new RoadGraph(badSpeeds)).toThrow(/bad\.pack: corrupt road graph: section "graph\.edge\.speedRow"/);
    const sets = pack.array<Int32Array>('place.admSets');
    const admSet = pack.array<Uint8Array | Uint16Array>('place.admSet').slice();
    admSet[0] = sets.length / 5;
    const badUnits = Pack.from(rewrite(bytes, { 'place.admSet': admSet }), { source: 'bad.pack' });
    expect(() => new Region(badUnits).places).toThrow(/bad\.pack: corrupt places: admin references/);
    // A table whose length is no whole number of rows.
    const cut = Pack.from(rewrite(bytes, { 'place.admSets': sets.slice(1) }), { source: 'bad.pack' });
    expect(() => new Region(cut).places).toThrow(/bad\.pack: corrupt places: admin references/);
  });

  it('stored components of other costs are not used, and arrays that do not fit are refused', () => {
    const bytes = testPack('monaco');
    const pack = Pack.from(bytes);
    const index = pack.json<ComponentsIndex>(COMPONENTS_INDEX);
    const router = new Router(new RoadGraph(pack), null, { wasm: false });
    const { costs, turns } = router.context(0);
    const stale = rewrite(bytes, {
      [COMPONENTS_INDEX]: { ...index, profiles: index.profiles.map((e) => ({ ...e, check: e.check ^ 1 })) },
    });
    expect(storedComponents(Pack.from(stale), 0, costs, turns)).toBeNull();
    const set = index.profiles[0]!.set;
    const of = pack.array<Int32Array>(`route.comp.${set}.of`).slice();
    of[of.length >> 1] = 1e6; // a component that does not exist
    const bad = Pack.from(rewrite(bytes, { [`route.comp.${set}.of`]: of }), { source: 'bad.pack' });
    expect(() => storedComponents(bad, 0, costs, turns)).toThrow(PackError);
    expect(() => storedComponents(bad, 0, costs, turns)).toThrow(/bad\.pack: corrupt: section "route\.comp\.\d+\.of"/);
    // Runs that do not cover the edges in order.
    const run = pack.array<Uint32Array>(`route.comp.${set}.run`).slice();
    run.reverse();
    const unordered = Pack.from(rewrite(bytes, { [`route.comp.${set}.run`]: run }), { source: 'bad.pack' });
    expect(() => storedComponents(unordered, 0, costs, turns)).toThrow(
      /bad\.pack: corrupt: section "route\.comp\.\d+\.run"/,
    );
    const g = new RoadGraph(pack);
    const layout = new SnapIndex(g).layout;
    // Every byte marked as going on: each cell's varints run past its end.
    const seg = pack.array<Uint8Array>(SNAP_SECTIONS.seg).slice().fill(0xff);
    const badSnap = Pack.from(rewrite(bytes, { [SNAP_SECTIONS.seg]: seg }), { source: 'bad.pack' });
    expect(() => storedSnapGrid(badSnap, layout)).toThrow(/bad\.pack: corrupt: section "route\.snap\.seg".*cell \d+/);
    expect(storedSnapGrid(pack, { ...layout, nx: layout.nx + 1 })).toBeNull();
    // A grid of the layout before (segments as u32) is built at first use instead.
    const before = { ...pack.json<object>(SNAP_SECTIONS.index), version: 1 };
    expect(storedSnapGrid(Pack.from(rewrite(bytes, { [SNAP_SECTIONS.index]: before })), layout)).toBeNull();
  });

  it('stored categories of another table or that this code does not read are read again; rows that do not fit are refused', () => {
    const bytes = testPack('hanoi');
    const pack = Pack.from(bytes);
    const region = new Region(pack);
    const places = region.places!;
    const built = new PlaceCategories(places, region.strings);
    const same = (c: PlaceCategories) => expect(Array.from(c.rowPlaces)).toEqual(Array.from(built.rowPlaces));
    const info = pack.json<{ version: number; table: number }>('place.cat');
    same(
      placeCategories(
        Pack.from(rewrite(bytes, { 'place.cat': { ...info, table: info.table ^ 1 } })),
        places,
        region.strings,
      ),
    );
    // A row that claims a place this code does not put in it (as its first place): the sample sees it.
    const start = pack.array<Uint32Array>('place.cat.start');
    const rows = pack.array<Int32Array>('place.cat.places').slice();
    let row = 0;
    while (start[row + 1]! - start[row]! < 2) row++;
    let p = 0;
    while (built.has(p, row)) p++;
    expect(p).toBeLessThan(rows[start[row]!]!);
    rows[start[row]!] = p;
    const lying = placeCategories(Pack.from(rewrite(bytes, { 'place.cat.places': rows })), places, region.strings);
    same(lying);
    expect(lying.has(p, row)).toBe(false);
    const out = rows.slice();
    out[start[row]!] = places.count;
    expect(() =>
      placeCategories(
        Pack.from(rewrite(bytes, { 'place.cat.places': out }), { source: 'bad.pack' }),
        places,
        region.strings,
      ),
    ).toThrow(/bad\.pack: corrupt: section "place\.cat\.places"/);
  });

  it('a stored point order of other points is sorted again; an order that is not one is refused', () => {
    const bytes = testPack('hanoi');
    const pack = Pack.from(bytes);
    const places = new Region(pack).places!;
    const points = pointPlaces(places);
    const bare = Pack.from(rewrite(bytes, { 'place.pts': null }));
    const ref = Array.from(pointIndex(bare, places, points).ids);
    const info = pack.json<{ version: number; nodeSize: number; check: number }>('place.pts');
    const order = pack.array<Uint32Array>('place.pts.order').slice();
    // Reversed: a valid permutation, but not this tree's order; with a stale hash it is not used.
    order.reverse();
    const stale = Pack.from(
      rewrite(bytes, { 'place.pts': { ...info, check: info.check ^ 1 }, 'place.pts.order': order }),
    );
    expect(Array.from(pointIndex(stale, places, points).ids)).toEqual(ref);
    // Fewer points than the pack's (another selection of places) hash differently: sorted again.
    const fewer = points.subarray(1);
    expect(Array.from(pointIndex(pack, places, fewer).ids)).toEqual(Array.from(pointIndex(bare, places, fewer).ids));
    order[0] = order[1]!;
    const dup = Pack.from(rewrite(bytes, { 'place.pts.order': order }), { source: 'bad.pack' });
    expect(() => pointIndex(dup, places, points)).toThrow(/bad\.pack: corrupt: section "place\.pts\.order"/);
  });
});

/** Every entry of an offsets column. */
function entries(column: Offsets): number[] {
  return Array.from({ length: column.length }, (_, i) => column.at(i));
}
