import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { Pack } from '../src/pack/reader.js';
import { AVOID_FACTOR } from '../src/route/avoid.js';
import type { Weighting } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { AVOID_CONTEXTS_KEPT, Router } from '../src/route/router.js';
import { testPack } from './helpers/packs.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';

/** The test's own reading of what each kind covers, from the raw edge arrays (OSM toll=*, highway=*, route=ferry). */
const KINDS = {
  tolls: { bit: 1, edge: (g: RoadGraph, e: number) => (g.edgeFlags[e]! & 8) !== 0 },
  // motorway, motorway_link, trunk, trunk_link in the pack's road class numbering.
  highways: { bit: 2, edge: (g: RoadGraph, e: number) => g.edgeClass[e]! >= 1 && g.edgeClass[e]! <= 4 },
  ferries: { bit: 4, edge: (g: RoadGraph, e: number) => (g.edgeFlags[e]! & 32) !== 0 },
};

function avoidedBy(g: RoadGraph, mask: number): (e: number) => boolean {
  const kinds = Object.values(KINDS).filter((k) => mask & k.bit);
  return (e) => kinds.some((k) => k.edge(g, e));
}

/** Metres of a path's arcs on edges `avoided` covers. */
function avoidedMetres(g: RoadGraph, arcs: readonly number[], avoided: (e: number) => boolean): number {
  return arcs.reduce((m, a) => m + (avoided(a >> 1) ? g.edgeLen[a >> 1]! : 0), 0);
}

/** Routes per vehicle and weighting checked, and whether random pairs there cross the avoided kinds often. */
const REGIONS = [
  { region: 'dalat', crossed: true },
  // Hanoi's motorways lie at the edge of the extract: random pairs seldom use them.
  { region: 'hanoi', crossed: false },
] as const;

describe('routes that avoid tolls, highways and ferries', () => {
  // Đà Lạt has toll roads and trunk roads (QL20, the airport road); Hanoi has motorways, trunks and a ferry.
  for (const { region, crossed } of REGIONS) {
    const pack = Pack.from(testPack(region));
    const g = new RoadGraph(pack);

    it(`${region}: every leg weighs what a plain Dijkstra gives with avoided edges ${AVOID_FACTOR} times as heavy`, () => {
      const router = new Router(g, pack);
      let changed = 0,
        compared = 0;
      for (const [mask, profile, weighting] of [
        [KINDS.highways.bit, 0, 'fastest'],
        [KINDS.tolls.bit | KINDS.highways.bit | KINDS.ferries.bit, 1, 'fastest'],
        [KINDS.highways.bit, 3, 'shortest'],
      ] as const) {
        const avoided = avoidedBy(g, mask);
        const plain = new PlainDijkstra(g, profile, weighting, (e) => (avoided(e) ? AVOID_FACTOR : 1));
        const pts = randomEndpoints(g, router, profile, 24, 7 + mask + profile);
        for (let i = 0; i + 1 < pts.length; i += 2) {
          const a = pts[i]!,
            b = pts[i + 1]!;
          const want = plain.to(plain.run(a.edge, a.t), a, b.edge, b.t);
          const got = router.leg(a, b, profile, weighting, mask);
          const base = router.leg(a, b, profile, weighting);
          if (want === Infinity) {
            expect(got).toBeNull();
            continue;
          }
          compared++;
          expect(got).not.toBeNull();
          expect(got!.weight).toBeCloseTo(want, 5);
          expect(plain.pathOk(got!.path.arcs)).toBe(true);
          // The usual route is no lighter than the best one under the usual weights.
          expect(base!.weight).toBeLessThanOrEqual(got!.weight + 1e-6);
          if (avoidedMetres(g, base!.path.arcs, avoided) > avoidedMetres(g, got!.path.arcs, avoided)) changed++;
        }
      }
      expect(compared).toBeGreaterThan(20);
      // The random pairs do cross avoided roads, and avoiding takes them off some: the test is not vacuous.
      if (crossed) expect(changed).toBeGreaterThan(3);
    });

    it(`${region}: tables agree with legs when avoiding`, () => {
      const router = new Router(g, pack);
      const mask = KINDS.highways.bit | KINDS.tolls.bit;
      const pts = randomEndpoints(g, router, 0, 12, 99);
      const t = router.table(pts.slice(0, 6), pts.slice(6), 0, 'fastest', mask);
      pts.slice(0, 6).forEach((a, i) =>
        pts.slice(6).forEach((b, j) => {
          const leg = router.leg(a, b, 0, 'fastest', mask);
          const k = i * 6 + j;
          if (!leg) return expect(t.weight[k]).toBe(Infinity);
          expect(t.weight[k]).toBeCloseTo(leg.weight, 5);
          expect(t.dur[k]).toBeCloseTo(leg.duration, 3);
          expect(t.dist[k]).toBeCloseTo(leg.distance, 3);
        }),
      );
    });
  }

  it(`keeps at most ${AVOID_CONTEXTS_KEPT} avoiding contexts, and a kind the graph lacks changes nothing`, () => {
    const pack = Pack.from(testPack('dalat'));
    const g = new RoadGraph(pack);
    const router = new Router(g, pack);
    const base = router.context(0, 'fastest');
    // Đà Lạt has no ferry: avoiding ferries is the usual context itself.
    expect(router.context(0, 'fastest', KINDS.ferries.bit)).toBe(base);
    const first = router.context(0, 'fastest', KINDS.tolls.bit);
    expect(router.context(0, 'fastest', KINDS.tolls.bit)).toBe(first);
    // As many other avoiding contexts of the motorbike (a vehicle of its own: no other routes alike, alike.ts).
    const others = (['fastest', 'shortest'] as const).flatMap((w): [Weighting, number][] => [
      [w, KINDS.highways.bit],
      [w, KINDS.tolls.bit | KINDS.highways.bit],
    ]);
    expect(others.length).toBe(AVOID_CONTEXTS_KEPT);
    for (const [w, avoid] of others) router.context(1, w, avoid);
    // The least recently used one was dropped and is made again.
    expect(router.context(0, 'fastest', KINDS.tolls.bit)).not.toBe(first);
    expect(router.context(0, 'fastest')).toBe(base);
  });
});

describe('avoid through the engine', () => {
  it('answers Direction, DistanceMatrix, trip and the static map with avoid, and refuses an unknown kind naming avoid', async () => {
    const engine = await createEngine({ packs: [testPack('dalat')] });
    // The centre of Đà Lạt and a point south of it: the best way runs down the trunk road (QL20).
    const origin = '11.9404,108.4373';
    const destination = '11.8970,108.4690';
    const plain = engine.direction({ origin, destination });
    const avoid = engine.direction({ origin, destination, avoid: 'highways|tolls' });
    expect(plain.status).toBe('OK');
    expect(avoid.status).toBe('OK');
    // Going round the trunk road takes longer.
    expect(avoid.routes[0]!.legs[0]!.duration.value).toBeGreaterThan(plain.routes[0]!.legs[0]!.duration.value);
    const m = engine.distanceMatrix({ origins: origin, destinations: destination, avoid: 'highways|tolls' });
    expect(m.status).toBe('OK');
    const el = m.rows[0]!.elements[0]!;
    expect(el.status).toBe('OK');
    if (el.status === 'OK') expect(el.duration.value).toBe(avoid.routes[0]!.legs[0]!.duration.value);
    const t = engine.trip({ origin, waypoints: destination, avoid: 'highways' });
    expect(t.code).toBe('Ok');

    const bad = engine.direction({ origin, destination, avoid: 'tolls|bridges' });
    expect(bad.status).toBe('BAD_REQUEST');
    expect(bad.error_message).toMatch(/^avoid: unknown road kind "bridges"/);
    expect(engine.distanceMatrix({ origins: origin, destinations: destination, avoid: 'x' }).status).toBe(
      'BAD_REQUEST',
    );
    const badTrip = engine.trip({ origin, waypoints: destination, avoid: 'x' });
    expect(badTrip.code).toBe('BAD_REQUEST');
    const img = await engine.staticRoute({ origin, destination, avoid: 'nope' });
    expect('status' in img && img.status).toBe('BAD_REQUEST');
    await engine.close();
  });
});
