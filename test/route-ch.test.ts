import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { ContractionHierarchy } from '../src/route/ch.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { pathSum } from '../src/route/search.js';
import { testPack } from './helpers/packs.js';

describe('contraction hierarchy on the real Đà Lạt pack (no turn restrictions there)', () => {
  const g = new RoadGraph(Pack.from(testPack('dalat')));
  const router = new Router(g);
  it('gives the same weights as the edge-based search, point to point and many to many', () => {
    const ctx = router.context(0);
    expect(ctx.turns.count).toBe(0);
    const ch = new ContractionHierarchy(ctx.costs);
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pts = [];
    while (pts.length < 30) {
      const v = Math.floor(rand() * g.nodeCount);
      const s = router.snap(g.lat(v) + (rand() - 0.5) * 0.002, g.lon(v) + (rand() - 0.5) * 0.002, 0);
      if (s) pts.push(s);
    }
    const blocked = ctx.costs.blocked.includes(1);
    let compared = 0;
    const table = new Map<string, number>();
    ch.table(pts.slice(0, 10), pts.slice(10), (i, j, p) => table.set(`${i},${j}`, pathSum(p, ctx.costs.weight)));
    for (let i = 0; i < 10; i++) {
      for (let j = 10; j < 30; j++) {
        const a = ctx.search.route(pts[i]!, pts[j]!);
        const b = ch.route(pts[i]!, pts[j]!);
        if (blocked && (!a || !b || Math.abs(a.weight - b.weight) > 1e-6)) continue; // barriers make CH inexact
        expect(b === null).toBe(a === null);
        if (!a || !b) continue;
        compared++;
        expect(b.weight).toBeCloseTo(a.weight, 6);
        expect(pathSum(b, ctx.costs.weight)).toBeCloseTo(a.weight, 6);
        expect(table.get(`${i},${j - 10}`)).toBeCloseTo(a.weight, 6);
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
