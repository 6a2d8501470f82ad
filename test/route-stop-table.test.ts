/**
 * Router.stopTable (what GET /trip routes with): its weights are snapTable's from the stops to themselves (by the
 * customizable hierarchy a table of weights alone, against snapTable's measured one), and every leg it gives is
 * snapLeg's for the same pair, field for field (path arcs included): unpacked from the table's walks when
 * the context routes by the customizable hierarchy (avoiding road kinds, on a pack with hierarchies), searched
 * otherwise. Real Hanoi stops, among them points beside small components (the pair rule's local points).
 */
import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { AVOID_KINDS } from '../src/route/avoid.js';
import { routerOf, type Snapped } from '../src/route/router.js';
import type { Snap } from '../src/route/snap.js';
import { mulberry32 as rng } from '../src/trip/rng.js';
import { testPack } from './helpers/packs.js';

const region = new Region(Pack.from(testPack('hanoi')));
const g = region.graph;
const router = routerOf(region);

/** Snaps of random intersections (seeded), each moved up to ~100 m. */
function randomStops(n: number, seed: number): Snap[] {
  const rand = rng(seed);
  const out: Snap[] = [];
  while (out.length < n) {
    const v = Math.floor(rand() * g.nodeCount);
    const s = router.snap(g.lat(v) + (rand() - 0.5) * 0.002, g.lon(v) + (rand() - 0.5) * 0.002, 0);
    if (s) out.push(s);
  }
  return out;
}

/**
 * Snaps of the mid-points of the edges of small components (straight scan over the edges) that keep their small
 * road as `local`: up to `n` of the first component with at least two such points, and one of another component.
 */
function smallPieceStops(n: number): Snap[] {
  const comps = router.components(0);
  const byComp = new Map<number, Snap[]>();
  for (let e = 0; e < g.edgeCount; e++) {
    const c = comps.edgeComp[e]!;
    if (c < 0 || comps.big[e]) continue;
    const a = g.edgeNodes[2 * e]!,
      b = g.edgeNodes[2 * e + 1]!;
    const s = router.snap((g.lat(a) + g.lat(b)) / 2, (g.lon(a) + g.lon(b)) / 2, 0);
    if (!s?.local) continue;
    if (!byComp.has(c)) byComp.set(c, []);
    byComp.get(c)!.push(s);
  }
  const groups = [...byComp.values()];
  const pair = groups.find((list) => list.length >= 2)!;
  const other = groups.find((list) => list !== pair)!;
  return [...pair.slice(0, n), other[0]!];
}

describe('Router.stopTable', () => {
  const stops: Snapped<Snap>[] = [...randomStops(30, 7), ...smallPieceStops(4)];
  const highways = AVOID_KINDS.find((k) => k.name === 'highways')!.bit;

  it('the stops include pairs that route within a small component', () => {
    const within = stops.flatMap((a) => stops.filter((b) => a !== b && router.ends(a, b, 0)[0] !== a));
    expect(within.length).toBeGreaterThanOrEqual(2);
  });

  for (const [name, avoid] of [
    ['hierarchy (avoiding nothing)', 0],
    ['customizable hierarchy (avoiding highways)', highways],
  ] as const)
    it(`${name}: snapTable's values, snapLeg's legs for every pair`, () => {
      const { table, leg } = router.stopTable(stops, 0, 'fastest', avoid);
      expect(table.weight).toEqual(router.snapTable(stops, stops, 0, 'fastest', avoid).weight);
      let found = 0;
      stops.forEach((a, i) =>
        stops.forEach((b, j) => {
          const mine = leg(i, j);
          expect(mine).toEqual(router.snapLeg(a, b, 0, 'fastest', avoid));
          if (mine) found++;
        }),
      );
      expect(found).toBeGreaterThan(stops.length * stops.length * 0.8);
    });

  it("legs of an earlier table stay snapLeg's once a later table has taken the kept walks", () => {
    const first = router.stopTable(stops, 0, 'fastest', highways);
    // More stops than the first table: the kept buffers are refilled and their per-stop parts grown.
    const more: Snapped<Snap>[] = [...randomStops(40, 11), ...stops];
    const second = router.stopTable(more, 0, 'fastest', highways);
    for (const [{ leg }, list] of [
      [first, stops],
      [second, more],
    ] as const)
      list.forEach((a, i) =>
        list.forEach((b, j) => {
          if ((i * 7 + j) % 5 === 0) expect(leg(i, j)).toEqual(router.snapLeg(a, b, 0, 'fastest', highways));
        }),
      );
  });

  it("makes no measures (seconds and metres of the metric's arcs): a trip's tables carry weights alone", () => {
    // A router of its own, so that the tables above have made nothing in it.
    const own = routerOf(new Region(Pack.from(testPack('hanoi'))));
    const { table, leg } = own.stopTable(stops, 0);
    for (let i = 0; i < stops.length; i++) for (let j = 0; j < stops.length; j++) leg(i, j);
    expect(own.structure()).toBe('customizable');
    expect(own.metricCounts().measures.made).toBe(0);
    // A measured table of the same stops makes them, and gives the same weights.
    expect(table.weight).toEqual(own.snapTable(stops, stops, 0).weight);
    expect(own.metricCounts().measures.made).toBe(1);
  });
});
