import { describe, expect, it } from 'vitest';
import { vietnamAdmin } from '../data-tools/admin-bundle.js';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { createEngine } from '../src/index.js';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { ADMIN, OSM, PACK_INPUTS, testPack } from './helpers/packs.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';

/** Đà Lạt built without hierarchies: the pack routes by the customizable hierarchy over its stored order. */
const noCh = buildOsmPack({
  inputs: PACK_INPUTS.dalat.map((f) => OSM + f),
  name: 'dalat',
  admin: vietnamAdmin(ADMIN),
  hierarchies: false,
});

describe('a pack built without hierarchies (--no-ch)', () => {
  const pack = Pack.from(noCh);
  const g = new RoadGraph(pack);

  it('stores the order and no hierarchy', () => {
    expect(pack.has('route.cch.order')).toBe(true);
    expect([...pack.sections.keys()].some((n) => n.startsWith('ch.'))).toBe(false);
  });

  it('routes and tabulates every vehicle and weighting as a plain Dijkstra does', () => {
    const router = new Router(g, pack);
    for (const [profile, weighting] of [
      [0, 'fastest'],
      [1, 'fastest'],
      [3, 'shortest'],
    ] as const) {
      const plain = new PlainDijkstra(g, profile, weighting);
      const pts = randomEndpoints(g, router, profile, 16, 5 + profile);
      const from = pts.slice(0, 8),
        to = pts.slice(8);
      const t = router.table(from, to, profile, weighting);
      from.forEach((a, i) => {
        const dist = plain.run(a.edge, a.t);
        to.forEach((b, j) => {
          const want = plain.to(dist, a, b.edge, b.t);
          const leg = router.leg(a, b, profile, weighting);
          if (want === Infinity) {
            expect(leg).toBeNull();
            return expect(t.weight[i * 8 + j]).toBe(Infinity);
          }
          expect(leg!.weight).toBeCloseTo(want, 6);
          expect(plain.pathOk(leg!.path.arcs)).toBe(true);
          expect(t.weight[i * 8 + j]).toBeCloseTo(want, 6);
          expect(t.dur[i * 8 + j]).toBeCloseTo(leg!.duration, 4);
          expect(t.dist[i * 8 + j]).toBeCloseTo(leg!.distance, 4);
        });
      });
    }
  });

  it('answers the engine’s routing endpoints as the pack with hierarchies does', async () => {
    const a = await createEngine({ packs: [noCh] });
    const b = await createEngine({ packs: [testPack('dalat', { hierarchies: true })] });
    expect(a.info().packs[0]!.routing).toBe('customizable');
    expect(b.info().packs[0]!.routing).toBe('hierarchies');
    const pts = ['11.9404,108.4373', '11.8970,108.4690', '11.9460,108.4580', '11.9300,108.4200'];
    const m = { origins: pts.join('|'), destinations: pts.join('|') };
    const seconds = (r: ReturnType<typeof a.distanceMatrix>) =>
      r.rows.flatMap((row) => row.elements.map((e) => (e.status === 'OK' ? e.duration.value : e.status)));
    expect(seconds(a.distanceMatrix(m))).toEqual(seconds(b.distanceMatrix(m)));
    const trip = { origin: pts[0], waypoints: pts.slice(1).join(';') };
    const ta = a.trip(trip),
      tb = b.trip(trip);
    expect(ta.code).toBe('Ok');
    if (ta.code === 'Ok' && tb.code === 'Ok') expect(ta.trips[0]!.duration).toBeCloseTo(tb.trips[0]!.duration, 3);
    await Promise.all([a.close(), b.close()]);
  });
});
