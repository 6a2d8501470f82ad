import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { PlainDijkstra } from './helpers/route-reference.js';
import { testPack } from './helpers/packs.js';
import { mulberry32 as rng } from '../src/trip/rng.js';

for (const region of ['hanoi', 'dalat'] as const) {
  describe(`routes on the real ${region} pack match a plain edge-based Dijkstra`, () => {
    const pack = Pack.from(testPack(region));
    const g = new RoadGraph(pack);
    const router = new Router(g, pack);
    let minLat = Infinity,
      maxLat = -Infinity,
      minLon = Infinity,
      maxLon = -Infinity;
    for (let v = 0; v < g.nodeCount; v++) {
      minLat = Math.min(minLat, g.lat(v));
      maxLat = Math.max(maxLat, g.lat(v));
      minLon = Math.min(minLon, g.lon(v));
      maxLon = Math.max(maxLon, g.lon(v));
    }
    for (const [profile, weighting] of [
      [0, 'fastest'],
      [1, 'fastest'],
      [3, 'fastest'],
      [0, 'shortest'],
    ] as const) {
      it(`profile ${profile} ${weighting}`, () => {
        const rand = rng(42 + profile);
        const plain = new PlainDijkstra(g, profile, weighting);
        const ctx = router.context(profile, weighting);
        let found = 0;
        for (let s = 0; s < 6; s++) {
          const a = router.snap(
            minLat + rand() * (maxLat - minLat),
            minLon + rand() * (maxLon - minLon),
            profile,
            5000,
          );
          if (!a) continue;
          const dist = plain.run(a.edge, a.t);
          const dsts = [];
          for (let k = 0; k < 8; k++) {
            const b = router.snap(
              minLat + rand() * (maxLat - minLat),
              minLon + rand() * (maxLon - minLon),
              profile,
              5000,
            );
            if (b) dsts.push(b);
          }
          const table = router.table([a], dsts, profile, weighting);
          dsts.forEach((b, j) => {
            const want = plain.to(dist, a, b.edge, b.t);
            const leg = router.leg(a, b, profile, weighting);
            if (want === Infinity) {
              expect(leg).toBeNull();
              expect(table.weight[j]).toBe(Infinity);
              return;
            }
            found++;
            expect(leg).not.toBeNull();
            expect(leg!.weight).toBeCloseTo(want, 6);
            expect(table.weight[j]).toBeCloseTo(want, 6);
            // The path is a real path: consecutive arcs meet and every turn is allowed.
            const arcs = leg!.path.arcs;
            for (let i = 0; i + 1 < arcs.length; i++) expect(plain.turnOk(arcs[i]!, arcs[i + 1]!)).toBe(true);
            expect(arcs[0]! >> 1).toBe(a.edge);
            expect(arcs[arcs.length - 1]! >> 1).toBe(b.edge);
            expect(router.measure(leg!.path, ctx).weight).toBeCloseTo(want, 6);
            // Matrix values are the direction values.
            expect(Math.round(table.dist[j]!)).toBe(Math.round(leg!.distance));
            expect(Math.round(table.dur[j]!)).toBe(Math.round(leg!.duration));
          });
        }
        expect(found).toBeGreaterThan(10);
      });
    }
  });
}
