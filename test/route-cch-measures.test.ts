import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { arcTail, ArcCosts } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { keptIndex, LINK, midOf, rowStart, type CchArcs } from '../src/route/cch/arcs.js';
import { buildCch } from '../src/route/cch/build.js';
import { CchMetric } from '../src/route/cch/customize.js';
import { CchMeasures, measuresProblem } from '../src/route/cch/measures.js';
import { testPack } from './helpers/packs.js';

/**
 * Seconds and metres of kept arc k of `metric` (up or down, between its lower end lo and higher end hi), added up
 * from its links as the measures define them (the arc down from the middle vertex first), nothing stored.
 */
function reference(metric: CchMetric, up: boolean, k: number, lo: number, hi: number): [number, number] {
  const { upFirst, upHead, stateOf } = metric.topo;
  const mid = midOf(up ? metric.up : metric.down, k, lo);
  if (mid === LINK) {
    const [from, to] = up ? [lo, hi] : [hi, lo];
    const c = metric.costs,
      g = c.graph;
    const a = metric.states.arcOf(stateOf[from]!),
      b = metric.states.arcOf(stateOf[to]!);
    return [c.turnDur(a, b, arcTail(g, b)) + c.dur[b]!, g.edgeLen[b >> 1]!];
  }
  const [first, second] = up ? [lo, hi] : [hi, lo];
  const a = reference(metric, false, keptIndex(metric.down, upFirst, upHead, mid, first), mid, first);
  const b = reference(metric, true, keptIndex(metric.up, upFirst, upHead, mid, second), mid, second);
  return [a[0] + b[0], a[1] + b[1]];
}

describe('CCH measures on the real Da Lat pack', () => {
  const g = new RoadGraph(Pack.from(testPack('dalat')));
  const cch = buildCch(g);

  for (const [p, weighting] of [
    [0, 'fastest'],
    [2, 'shortest'],
  ] as const)
    it(`profile ${p} ${weighting}: every kept arc's seconds and metres, stored or added up when read, bit for bit`, () => {
      const metric = new CchMetric(cch.topo, cch.states, new ArcCosts(g, p, weighting));
      const measures = new CchMeasures(metric);
      expect(measuresProblem(metric, measures)).toBeNull();
      const { upFirst, upHead } = metric.topo;
      let stored = 0,
        arcs = 0;
      for (const [up, a] of [
        [true, metric.up],
        [false, metric.down],
      ] as [boolean, CchArcs][]) {
        const m = up ? measures.up : measures.down;
        for (let lo = 0; lo < metric.topo.size; lo++)
          for (let k = rowStart(a, lo); k < rowStart(a, lo + 1); k++) {
            const hi = upHead[upFirst[lo]! + a.slot[k]!]!;
            const dur = measures.read(up, k, lo, hi);
            expect([dur, measures.len]).toEqual(reference(metric, up, k, lo, hi));
            arcs++;
            if (m.stored[k >> 5]! & (1 << (k & 31))) stored++;
          }
      }
      // Some arcs of either kind: the long ones stored, the short ones added up.
      expect(stored).toBeGreaterThan(0);
      expect(stored).toBeLessThan(arcs / 2);
      expect(measures.byteLength).toBeLessThan(16 * arcs * 0.5);
    });
});
