import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDimacsPack } from '../data-tools/dimacs-pack.js';
import { Pack } from '../src/pack/reader.js';
import { ContractionHierarchy, type ChArrays } from '../src/route/ch.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';
import { DATA, testPack } from './helpers/packs.js';

/**
 * The pack's hierarchy (router with the pack) against A* (router without it) and a plain edge-based Dijkstra:
 * same weights, real paths whose weight is the reported one, and matrix values exactly the direction values.
 */
function compare(pack: Pack, profile: number, kind: 'node' | 'edge', n: number, seed: number): number {
  const g = new RoadGraph(pack);
  const ch = new Router(g, pack);
  const astar = new Router(g);
  const ctx = ch.context(profile);
  expect(ctx.ch).not.toBeNull();
  expect(ctx.ch!.edgeBased).toBe(kind === 'edge');
  expect(astar.context(profile).ch).toBeNull();
  const plain = new PlainDijkstra(g, profile, 'fastest');
  const pts = randomEndpoints(g, ch, profile, n, seed);
  const half = n >> 1;
  const origins = pts.slice(0, half),
    dests = pts.slice(half);
  const table = ch.table(origins, dests, profile);
  const tableA = astar.table(origins, dests, profile);
  let found = 0;
  origins.forEach((a, i) => {
    const dist = plain.run(a.edge, a.t);
    // The reference's early-stopping search (bench/build-scale.ts) gives the full search's weights.
    const many = plain.toMany(a, dests);
    dests.forEach((b, j) => {
      const k = i * dests.length + j;
      const want = plain.to(dist, a, b.edge, b.t);
      expect(many[j]).toBe(want);
      const leg = ch.leg(a, b, profile);
      const ref = astar.leg(a, b, profile);
      if (want === Infinity) {
        expect(leg).toBeNull();
        expect(ref).toBeNull();
        expect(table.weight[k]).toBe(Infinity);
        return;
      }
      found++;
      expect(leg).not.toBeNull();
      expect(leg!.weight).toBeCloseTo(want, 6);
      expect(ref!.weight).toBeCloseTo(want, 6);
      expect(tableA.weight[k]).toBeCloseTo(want, 6);
      // The unpacked path is real (allowed turns, right ends) and adds up to the same weight, duration, distance.
      const arcs = leg!.path.arcs;
      for (let x = 0; x + 1 < arcs.length; x++) expect(plain.turnOk(arcs[x]!, arcs[x + 1]!)).toBe(true);
      expect(arcs[0]! >> 1).toBe(a.edge);
      expect(arcs[arcs.length - 1]! >> 1).toBe(b.edge);
      const sums = ch.measure(leg!.path, ctx);
      expect(sums.weight).toBeCloseTo(want, 6);
      expect(leg!.duration).toBeCloseTo(sums.duration, 6);
      expect(leg!.distance).toBeCloseTo(sums.distance, 6);
      expect(leg!.duration).toBeCloseTo(ref!.duration, 6);
      // The matrix gives exactly the direction's values.
      expect(table.weight[k]).toBe(leg!.weight);
      expect(table.dur[k]).toBe(leg!.duration);
      expect(table.dist[k]).toBe(leg!.distance);
    });
  });
  return found;
}

describe('edge-based hierarchies of real OSM packs equal A* and plain Dijkstra', () => {
  for (const [region, profiles] of [
    ['hanoi', [0, 1, 3]],
    ['dalat', [0, 1]],
    ['monaco', [0, 3]],
  ] as const) {
    for (const profile of profiles) {
      it(`${region}, profile ${profile}`, () => {
        expect(
          compare(Pack.from(testPack(region, { hierarchies: true })), profile, 'edge', 40, 7 + profile),
        ).toBeGreaterThan(150);
      });
    }
  }

  it('dedupes identical cost vectors: car and hd share one hierarchy; fastest only', () => {
    const pack = Pack.from(testPack('hanoi', { hierarchies: true }));
    const index = pack.json<{ list: { profiles: number[]; weighting: string }[] }>('ch.index');
    const car = index.list.find((e) => e.profiles.includes(0))!;
    // The taxi has its own: Ngõ 35 Cát Linh is psv:forward=no (taxis are psv), open to cars both ways.
    expect(car.profiles).toEqual([0, 4]);
    expect(index.list.every((e) => e.weighting === 'fastest')).toBe(true);
    expect(new Router(new RoadGraph(pack), pack).context(0, 'shortest').ch).toBeNull();
  });

  it('refuses corrupt hierarchy arrays by its first query (a child out of range, offsets that do not add up)', () => {
    const pack = Pack.from(testPack('monaco', { hierarchies: true }));
    const router = new Router(new RoadGraph(pack), pack);
    const ctx = router.context(0);
    const ch = ctx.ch!;
    const [p, q] = randomEndpoints(router.graph, router, 0, 2, 9);
    const make = (edit: (x: ChArrays) => void) => {
      const x: ChArrays = { ...ch.ch, a: ch.ch.a.slice(), b: ch.ch.b.slice(), first: ch.ch.first.slice() };
      edit(x);
      return () => new ContractionHierarchy(x, ctx.costs, true, ctx.turns).route(p!, q!);
    };
    expect(make(() => {})).not.toThrow();
    const sc = ch.ch.a.findIndex((v) => v >= 0);
    expect(
      make((x) => {
        x.b[sc] = x.node.length;
      }),
    ).toThrow(/corrupt contraction hierarchy/);
    expect(
      make((x) => {
        x.first[x.first.length - 1]! -= 1;
      }),
    ).toThrow(/corrupt contraction hierarchy/);
  });

  it('a leg that must leave along a given arc (no U-turn at a via point) equals A*', () => {
    const pack = Pack.from(testPack('hanoi', { hierarchies: true }));
    const g = new RoadGraph(pack);
    const ch = new Router(g, pack);
    const astar = new Router(g);
    const pts = randomEndpoints(g, ch, 0, 40, 3);
    let compared = 0;
    for (let i = 0; i + 1 < pts.length; i++) {
      const p = pts[i]!;
      for (const only of [2 * p.edge, 2 * p.edge + 1]) {
        const a = ch.leg({ ...p, only }, pts[i + 1]!, 0);
        const b = astar.leg({ ...p, only }, pts[i + 1]!, 0);
        expect(a === null).toBe(b === null);
        if (!a || !b) continue;
        compared++;
        expect(a.path.arcs[0]).toBe(only);
        expect(a.weight).toBeCloseTo(b.weight, 6);
      }
    }
    expect(compared).toBeGreaterThan(30);
  });
});

describe('node-based hierarchy of a DIMACS graph (a window of New York) equals A* and plain Dijkstra', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'ch-dimacs-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('on seeded random pairs', async () => {
    const lines = (f: string) =>
      gunzipSync(readFileSync(`${DATA}dimacs/${f}`))
        .toString('latin1')
        .split('\n');
    const co = lines('USA-road-d.NY.co.gz')
      .filter((l) => l.startsWith('v '))
      .map((l) => l.split(' ').map(Number));
    // A window around Manhattan, in DIMACS micro-degrees.
    const keep = new Map<number, number>();
    for (const [, id, lon, lat] of co)
      if (lon! > -74000000 && lon! < -73940000 && lat! > 40720000 && lat! < 40780000) keep.set(id!, keep.size + 1);
    const arcs = lines('USA-road-d.NY.gr.gz')
      .filter((l) => l.startsWith('a '))
      .map((l) => l.split(' ').map(Number))
      .filter(([, u, v]) => keep.has(u!) && keep.has(v!));
    const coOut = [
      `p aux sp co ${keep.size}`,
      ...co.filter(([, id]) => keep.has(id!)).map(([, id, lon, lat]) => `v ${keep.get(id!)} ${lon} ${lat}`),
    ];
    const grOut = [
      `p sp ${keep.size} ${arcs.length}`,
      ...arcs.map(([, u, v, w]) => `a ${keep.get(u!)} ${keep.get(v!)} ${w}`),
    ];
    writeFileSync(join(tmp, 'w-d.co.gz'), gzipSync(coOut.join('\n') + '\n'));
    writeFileSync(join(tmp, 'w-d.gr.gz'), gzipSync(grOut.join('\n') + '\n'));
    expect(keep.size).toBeGreaterThan(1000);
    const pack = Pack.from(await buildDimacsPack(join(tmp, 'w-d.gr.gz'), join(tmp, 'w-d.co.gz'), 'window'));
    const index = pack.json<{ list: { kind: string; profiles: number[] }[] }>('ch.index');
    expect(index.list).toHaveLength(1);
    expect(index.list[0]!.profiles).toEqual([0, 1, 2, 3, 4]);
    expect(compare(pack, 0, 'node', 60, 5)).toBeGreaterThan(600);
  });
});
