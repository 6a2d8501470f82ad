import { expect } from 'vitest';
import { baseGraph } from '../../data-tools/ch-pack.js';
import type { Pack } from '../../src/pack/reader.js';
import { ArcCosts } from '../../src/route/costs.js';
import { RoadGraph } from '../../src/route/graph.js';
import { arcBearings } from '../../src/route/turn-model.js';
import { TurnTable } from '../../src/route/turns.js';
import type { Router } from '../../src/route/router.js';
import type { Endpoint } from '../../src/route/search.js';
import { PlainDijkstra, randomEndpoints } from './route-reference.js';
import type { BaseGraph } from '../../data-tools/ch-graph.js';

/**
 * Every origin to every destination through `router` (direction and matrix) against a plain edge-based Dijkstra:
 * the same weight, a path whose weight adds up to it, and matrix values the direction's (exactly with hierarchies, up
 * to rounding by the customizable hierarchy). Returns the pairs
 * with a route.
 */
export function checkPairs(
  g: RoadGraph,
  router: Router,
  profile: number,
  origins: Endpoint[],
  dests: Endpoint[],
): number {
  const plain = new PlainDijkstra(g, profile, 'fastest');
  const ctx = router.context(profile);
  const table = router.table(origins, dests, profile);
  let found = 0;
  origins.forEach((a, i) => {
    const dist = plain.run(a.edge, a.t);
    dests.forEach((b, j) => {
      const want = plain.to(dist, a, b.edge, b.t);
      const leg = router.leg(a, b, profile);
      const k = i * dests.length + j;
      if (want === Infinity) {
        expect(leg).toBeNull();
        expect(table.weight[k]).toBe(Infinity);
        return;
      }
      found++;
      expect(leg!.weight).toBeCloseTo(want, 6);
      const arcs = leg!.path.arcs;
      for (let x = 0; x + 1 < arcs.length; x++) expect(plain.turnOk(arcs[x]!, arcs[x + 1]!)).toBe(true);
      expect(router.measure(leg!.path, ctx).weight).toBeCloseTo(want, 6);
      if (ctx.ch) {
        // A hierarchy's table adds each cell as its leg does.
        expect(table.weight[k]).toBe(leg!.weight);
        expect(table.dur[k]).toBe(leg!.duration);
        expect(table.dist[k]).toBe(leg!.distance);
      } else {
        // The customizable hierarchy's table gives its search's sums, a leg its path's in path order (cch/table.ts).
        expect(table.weight[k]).toBeCloseTo(leg!.weight, 6);
        expect(table.dur[k]).toBeCloseTo(leg!.duration, 6);
        expect(table.dist[k]).toBeCloseTo(leg!.distance, 6);
      }
    });
  });
  return found;
}

/**
 * checkPairs for each distinct vehicle (car, bike, truck) on 20 × 25 seeded endpoints (seed `seed` + profile);
 * returns the pairs with a route per vehicle.
 */
export function checkVehicles(g: RoadGraph, router: Router, seed: number): number[] {
  return [0, 1, 3].map((profile) => {
    const pts = randomEndpoints(g, router, profile, 45, seed + profile);
    return checkPairs(g, router, profile, pts.slice(0, 20), pts.slice(20));
  });
}

/** Base graphs of a pack's distinct vehicles (car, bike, truck: taxi and hd weigh as car). */
export function vehicleGraphs(pack: Pack): BaseGraph[] {
  const g = new RoadGraph(pack);
  let bearings: Uint16Array | undefined;
  return [0, 1, 3].map(
    (profile) =>
      baseGraph(new ArcCosts(g, profile, 'fastest', () => (bearings ??= arcBearings(g))), new TurnTable(g, profile))
        .graph,
  );
}
