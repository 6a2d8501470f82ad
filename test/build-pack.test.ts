import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vietnamAdmin } from '../data-tools/admin-bundle.js';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { orderInWorker } from '../data-tools/ch-threads.js';
import { HANOI_INPUTS } from '../data-tools/hanoi-inputs.js';
import { buildDimacsPack } from '../data-tools/dimacs-pack.js';
import { createEngine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph, speedOf } from '../src/route/graph.js';
import { strongComponents } from '../src/route/components.js';
import { PROFILE_COUNT } from '../src/route/profiles.js';
import { Router } from '../src/route/router.js';
import { SnapIndex } from '../src/route/snap.js';
import { storedComponents } from '../src/route/stored-components.js';
import { storedSnapGrid } from '../src/route/stored-snap.js';
import { cchOrder } from '../src/route/cch/build.js';
import { storedOrder } from '../src/route/cch/stored-order.js';
import { ADMIN, DATA, OSM, buildTestPack, testPack, type TestRegion } from './helpers/packs.js';

describe('pack builder', () => {
  it('is deterministic: the same inputs give the same bytes', () => {
    const a = buildTestPack('hcmc');
    const b = buildTestPack('hcmc');
    expect(a.length).toBeGreaterThan(10_000);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const m1 = buildOsmPack({ inputs: [OSM + 'monaco.osm.pbf'], name: 'monaco' });
    const m2 = buildOsmPack({ inputs: [OSM + 'monaco.osm.pbf'], name: 'monaco' });
    expect(Buffer.from(m1).equals(Buffer.from(m2))).toBe(true);
  });

  it('lets a later input win over an earlier one for the same element', () => {
    // The 2025 drive extract retags some ways of the 2023 extract; both orders give different graphs.
    const newer = buildOsmPack({
      inputs: [OSM + 'hanoi-center-all-2023.overpass.json', OSM + 'hanoi-central-drive-2025.overpass.json'],
      name: 'x',
    });
    const older = buildOsmPack({
      inputs: [OSM + 'hanoi-central-drive-2025.overpass.json', OSM + 'hanoi-center-all-2023.overpass.json'],
      name: 'x',
    });
    expect(Buffer.from(newer).equals(Buffer.from(older))).toBe(false);
    const meta = Pack.from(newer).json<{ dataDate: string; inputs: { file: string; timestamp: string }[] }>('meta');
    expect(meta.dataDate).toBe('2025-05-21T03:49:15Z');
    expect(meta.inputs.map((i) => i.file)).toEqual([
      'hanoi-center-all-2023.overpass.json',
      'hanoi-central-drive-2025.overpass.json',
    ]);
  });

  for (const region of ['hcmc', 'dalat', 'monaco', 'andorra'] as TestRegion[]) {
    it(`builds a loadable ${region} pack with roads, places and map features`, async () => {
      const engine = await createEngine({ packs: [testPack(region)] });
      const info = engine.info().packs[0]!;
      expect(info.name).toBe(region);
      expect(info.counts.nodes).toBeGreaterThan(300);
      expect(info.counts.edges).toBeGreaterThan(300);
      expect(info.attribution).toBe('© OpenStreetMap contributors');
      expect(info.counts.mapFeatures).toBeGreaterThan(region === 'dalat' ? 100 : 300);
      if (region !== 'dalat') expect(info.counts.places).toBeGreaterThan(50);
      const g = engine.regions[0]!.graph;
      const [minLon, minLat, maxLon] = info.bbox!;
      for (let v = 0; v < g.nodeCount; v++) {
        expect(g.lat(v)).toBeGreaterThanOrEqual(minLat);
        expect(g.lon(v)).toBeLessThanOrEqual(maxLon);
      }
      expect(minLon).toBeLessThan(maxLon);
    });
  }

  it('reads the DIMACS New York graph into a routing-only pack', async () => {
    const bytes = await buildDimacsPack(`${DATA}dimacs/USA-road-d.NY.gr.gz`, `${DATA}dimacs/USA-road-d.NY.co.gz`, 'ny');
    const pack = Pack.from(bytes);
    const g = new RoadGraph(pack);
    expect(g.nodeCount).toBe(264_346);
    // Every DIMACS arc is one direction of an edge: two-way edges count twice.
    let arcs = 0;
    const speeds = g.speeds();
    for (let e = 0; e < g.edgeCount; e++)
      arcs += (speedOf(speeds, e, 0, 0) > 0 ? 1 : 0) + (speedOf(speeds, e, 0, 1) > 0 ? 1 : 0);
    expect(arcs).toBe(733_846);
    expect(pack.has('place.lat')).toBe(false);
    const meta = pack.json<{ weights: string; counts: { nodes: number } }>('meta');
    expect(meta.weights).toBe('distance');
    // Its stored indexes are the ones this code computes (so they are used, not built again at first use).
    const router = new Router(g, null, { wasm: false });
    for (let p = 0; p < PROFILE_COUNT; p++) {
      const { costs, turns } = router.context(p);
      const stored = storedComponents(pack, p, costs, turns);
      expect(stored).not.toBeNull();
      if (p === 0) expect(Array.from(stored!.edgeComp)).toEqual(Array.from(strongComponents(costs, turns).edgeComp));
    }
    const built = new SnapIndex(g);
    expect(Array.from(storedSnapGrid(pack, built.layout)!.seg)).toEqual(Array.from(built.grid.seg));
  });
});

describe('createEngine', () => {
  it('loads the embedded default pack with no arguments', async () => {
    const engine = await createEngine();
    const info = engine.info();
    expect(info.packs).toHaveLength(1);
    expect(info.packs[0]!.name).toBe('hanoi');
    expect(info.packs[0]!.counts.nodes).toBeGreaterThan(5000);
    expect(info.packs[0]!.counts.places).toBeGreaterThan(1000);
  });

  it('loads several packs from paths and bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bando-'));
    const file = join(dir, 'monaco.pack');
    writeFileSync(file, testPack('monaco'));
    const engine = await createEngine({ packs: [file, testPack('andorra')] });
    expect(engine.info().packs.map((p) => p.name)).toEqual(['monaco', 'andorra']);
    expect(engine.regionAt(43.7384, 7.4246)?.meta.name).toBe('monaco');
    expect(engine.regionAt(42.5063, 1.5218)?.meta.name).toBe('andorra');
    expect(engine.regionAt(21.03, 105.85)).toBeNull();
  });

  it('refuses missing, truncated and corrupt packs with the file and the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bando-'));
    await expect(createEngine({ packs: [join(dir, 'nope.pack')] })).rejects.toThrow(/nope\.pack: file does not exist/);
    const bytes = testPack('monaco');
    const truncated = join(dir, 'truncated.pack');
    writeFileSync(truncated, bytes.subarray(0, bytes.length >> 1));
    await expect(createEngine({ packs: [truncated] })).rejects.toThrow(/truncated\.pack: truncated/);
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 100]! ^= 0xff;
    const corruptFile = join(dir, 'corrupt.pack');
    writeFileSync(corruptFile, corrupt);
    // A pack this size is checked whole at load by default (and with verify: true).
    for (const verify of [undefined, true])
      await expect(createEngine({ packs: [corruptFile], verify })).rejects.toThrow(
        /corrupt\.pack: corrupt: checksum of section/,
      );
    // Checked lazily, the corrupt section fails the request that reads it, naming the file.
    const lazy = await createEngine({ packs: [corruptFile], verify: 'lazy', wasm: false });
    expect(lazy.geocode({ latlng: '43.7384,7.4246' })).toMatchObject({
      status: 'ERROR',
      error_message: expect.stringMatching(/corrupt\.pack: corrupt: checksum of section/),
    });
  });
});

describe('the order of the customizable hierarchy made in a worker thread (--no-ch)', () => {
  const build = (orderThread: boolean) =>
    buildOsmPack({
      inputs: HANOI_INPUTS.map((f) => OSM + f),
      name: 'hanoi',
      admin: vietnamAdmin(ADMIN),
      hierarchies: false,
      orderThread,
    });
  let hanoi: Uint8Array | undefined;
  const aside = () => (hanoi ??= build(true));

  it('builds the same bytes as the order made in the builder thread, storing the order of the graph', () => {
    expect(Buffer.from(aside()).equals(Buffer.from(build(false)))).toBe(true);
    const pack = Pack.from(aside());
    const { rank, topology } = cchOrder(new RoadGraph(pack));
    expect(rank.length).toBeGreaterThan(10_000);
    expect(Array.from(storedOrder(pack, topology)!)).toEqual(Array.from(rank));
  }, 120_000);

  it('equals the order made in this thread for the graph of a real pack, its bytes transferred', () => {
    const bytes = aside().slice();
    const worker = orderInWorker(bytes);
    const here = cchOrder(new RoadGraph(Pack.from(aside())));
    const there = worker.join();
    // Transferred, not copied: the worker received the buffer itself.
    expect(bytes.byteLength).toBe(0);
    expect(Array.from(there.rank)).toEqual(Array.from(here.rank));
    expect(Array.from(there.topology.first)).toEqual(Array.from(here.topology.first));
    expect(Array.from(there.topology.adj)).toEqual(Array.from(here.topology.adj));
    expect(worker.join()).toBe(there);
  }, 120_000);

  it('fails with the error of the worker when the worker fails, and never waits on a stopped worker', () => {
    const worker = orderInWorker(new Uint8Array(64));
    expect(() => worker.join()).toThrow(/^nested-dissection order worker failed: .*PackError/s);
    expect(() => worker.join()).toThrow(/the worker threads were stopped/);
    const stopped = orderInWorker(aside().slice());
    stopped.stop();
    expect(() => stopped.join()).toThrow(/the worker threads were stopped/);
  }, 60_000);

  it('fails the build with the error of the builder thread while the worker makes the order', () => {
    const failing = () =>
      buildOsmPack({
        inputs: HANOI_INPUTS.map((f) => OSM + f),
        name: 'hanoi',
        admin: vietnamAdmin(`${DATA}no-such-admin/`),
        hierarchies: false,
        orderThread: true,
      });
    expect(failing).toThrow(/no-such-admin/);
  }, 60_000);
});
