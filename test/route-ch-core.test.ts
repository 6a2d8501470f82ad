import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { Pack } from '../src/pack/reader.js';
import { CH_LAYOUT_VERSION } from '../src/route/ch.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import type { Endpoint } from '../src/route/search.js';
import { wasmModule } from '../src/route/wasm/load.js';
import { createEngine } from '../src/engine.js';
import { bruteForce, mulberry32 } from '../src/trip/index.js';
import { asciiMapPack } from './helpers/ascii-map.js';
import { RESTRICTED_GRID } from './helpers/ch-maps.js';
import { OSM, PACK_INPUTS, testPack } from './helpers/packs.js';
import { checkPairs, checkVehicles } from './helpers/ch-check.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';

/** Index entries of a pack's hierarchies (layout in src/route/ch.ts). */
function index(pack: Pack): { version: number; list: { id: number; states: number; core?: number }[] } {
  return pack.json('ch.index');
}

describe('a hierarchy with a core (contraction stopped early) gives plain Dijkstra distances', () => {
  const map = RESTRICTED_GRID;
  /** Points on every edge (two per edge, at 0.3 and 0.8 of it). */
  const points = (g: RoadGraph, router: Router): Endpoint[] => {
    const out: Endpoint[] = [];
    for (let e = 0; e < g.edgeCount; e++)
      for (const t of [0.3, 0.8]) {
        const [u, v] = [g.edgeNodes[2 * e]!, g.edgeNodes[2 * e + 1]!];
        const s = router.snap(g.lat(u) + t * (g.lat(v) - g.lat(u)), g.lon(u) + t * (g.lon(v) - g.lon(u)), 0, 50);
        if (s && s.edge === e) out.push(s);
      }
    return out;
  };
  const full = asciiMapPack(map, 'full', true).pack;
  const states = index(full).list[0]!.states;
  for (const coreSize of [2, Math.floor(states / 2), states]) {
    it(`all pairs, core of ${coreSize} of ${states} states, TypeScript and WebAssembly routers`, () => {
      const { pack } = asciiMapPack(map, 'core', { coreSize });
      const e = index(pack).list[0]!;
      expect(index(pack).version).toBe(CH_LAYOUT_VERSION);
      expect(e.core).toBe(coreSize);
      const g = new RoadGraph(pack);
      for (const wasm of [false, true]) {
        const router = new Router(g, pack, { wasm });
        expect(router.context(0).ch!.core).toBe(coreSize);
        const pts = points(g, router);
        expect(pts.length).toBeGreaterThan(40);
        expect(checkPairs(g, router, 0, pts, pts)).toBeGreaterThan(1000);
      }
    });
  }

  it('the fully contracted hierarchy has no core (small packs never meet the core rule)', () => {
    expect(index(full).list.every((e) => e.core === 0)).toBe(true);
    for (const region of ['hanoi', 'hcmc', 'dalat', 'monaco', 'andorra'] as const)
      expect(index(Pack.from(testPack(region, { hierarchies: true }))).list.every((e) => e.core === 0)).toBe(true);
  });
});

describe('a real pack with a forced core', () => {
  const inputs = PACK_INPUTS.dalat.map((f) => OSM + f);
  const build = (threads: number) =>
    buildOsmPack({ inputs, name: 'dalat', admin: null, contraction: { coreSize: 1500, threads } });
  const bytes = build(2);

  it('is built to the same bytes in two worker threads as in one thread', () => {
    expect(Buffer.from(build(1)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('500 seeded pairs per vehicle equal plain Dijkstra, direction and matrix, in both routers', () => {
    const pack = Pack.from(bytes);
    expect(index(pack).list.every((e) => e.core === 1500)).toBe(true);
    const g = new RoadGraph(pack);
    for (const wasm of [false, true]) {
      const router = new Router(g, pack, { wasm });
      // Car: a 30 × 30 matrix (900 directions); the others 20 × 25.
      for (const profile of [0, 1, 3]) {
        const n = profile === 0 ? 30 : 20;
        const pts = randomEndpoints(g, router, profile, profile === 0 ? 60 : 45, 11 + profile);
        expect(checkPairs(g, router, profile, pts.slice(0, n), pts.slice(n))).toBeGreaterThan(450);
      }
      // The WebAssembly core searches hierarchies with a core too.
      if (wasm && wasmModule()) expect(router.coreInfo()).toEqual({ core: 'wasm', reason: null });
    }
  });

  it('a trip is the best order by plain Dijkstra, and the same in both routers', async () => {
    const pack = Pack.from(bytes);
    const g = new RoadGraph(pack);
    const router = new Router(g, pack, { wasm: false });
    const plain = new PlainDijkstra(g, 0, 'fastest');
    // Seeded points (as the API writes them) whose snaps are mutually reachable with the first by plain Dijkstra.
    const rand = mulberry32(5);
    const stops: { text: string; snap: Endpoint; dist: Map<string, number> }[] = [];
    while (stops.length < 9) {
      const v = Math.floor(rand() * g.nodeCount);
      const text = `${g.lat(v).toFixed(6)},${g.lon(v).toFixed(6)}`;
      const [lat, lon] = text.split(',').map(Number);
      const snap = router.snap(lat!, lon!, 0);
      if (!snap) continue;
      const dist = plain.run(snap.edge, snap.t);
      const first = stops[0] ?? { snap, dist };
      if (plain.to(first.dist, first.snap, snap.edge, snap.t) === Infinity) continue;
      if (plain.to(dist, snap, first.snap.edge, first.snap.t) === Infinity) continue;
      stops.push({ text, snap, dist });
    }
    const n = stops.length;
    const weight = new Float64Array(n * n);
    stops.forEach((a, i) =>
      stops.forEach((b, j) => (weight[i * n + j] = plain.to(a.dist, a.snap, b.snap.edge, b.snap.t))),
    );
    const best = bruteForce(weight, n, { start: 0 }).cost;
    const answers = [];
    for (const wasm of [false, true]) {
      const engine = await createEngine({ packs: [bytes], wasm });
      expect(engine.info().packs[0]!.routeCore.core).toBe(wasm && wasmModule() ? 'wasm' : 'typescript');
      const r = engine.trip({
        origin: stops[0]!.text,
        waypoints: stops
          .slice(1)
          .map((s) => s.text)
          .join(';'),
      });
      if (r.code !== 'Ok') throw new Error(r.code);
      expect(Math.abs(r.trips[0]!.weight - best)).toBeLessThan(0.06 + 1e-9 * best);
      answers.push(r);
    }
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe('Hanoi with a forced core of 5,000 states (a quarter: the core search does most of the work)', () => {
  it('500 seeded pairs per vehicle equal plain Dijkstra, direction and matrix, in both routers', () => {
    const inputs = PACK_INPUTS.hanoi.map((f) => OSM + f);
    const pack = Pack.from(buildOsmPack({ inputs, name: 'hanoi', admin: null, contraction: { coreSize: 5000 } }));
    expect(index(pack).list.every((e) => e.core === 5000)).toBe(true);
    const g = new RoadGraph(pack);
    for (const wasm of [false, true]) {
      const router = new Router(g, pack, { wasm });
      for (const found of checkVehicles(g, router, 31)) expect(found).toBeGreaterThan(300);
      if (wasm && wasmModule()) expect(router.coreInfo()).toEqual({ core: 'wasm', reason: null });
    }
  }, 300_000);
});

describe('the committed default pack routes by its customizable hierarchy', () => {
  it('in both routers, equal to plain Dijkstra', () => {
    const pack = Pack.from(new Uint8Array(readFileSync(new URL('../packs/hanoi.pack', import.meta.url))));
    const g = new RoadGraph(pack);
    for (const wasm of [false, true]) {
      const router = new Router(g, pack, { wasm });
      expect(router.structure()).toBe('customizable');
      expect(router.context(0).ch).toBeNull();
      const pts = randomEndpoints(g, router, 0, 30, 5);
      expect(checkPairs(g, router, 0, pts.slice(0, 10), pts.slice(10))).toBeGreaterThan(150);
    }
  });
});
