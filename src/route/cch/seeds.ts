import { arcTail } from '../costs.js';
import { posOnArc, type Endpoint } from '../search.js';
import type { CchMetric } from './customize.js';

/**
 * One seed of an endpoint on a CCH: vertex `r` (a rank) with its label `weight`; `arc` the endpoint's arc of the
 * road graph and `f` the fraction of it the route drives; `from` the arc the route turns from onto `arc` at a
 * target's seed (the turn's cost is in the label), -1 at a source's.
 */
export type SeedVisit = (r: number, weight: number, from: number, arc: number, f: number) => void;

/**
 * The forward seeds of a source point, labelled as ArcSearch's: each open arc of its edge (only `src.only` when
 * set), weighing the rest of the arc ahead of the point.
 */
export function sourceSeeds(m: CchMetric, src: Endpoint, visit: SeedVisit): void {
  const w = m.costs.weight,
    rankOf = m.topo.rankOf;
  for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
    if (w[a] === Infinity || (src.only !== undefined && a !== src.only)) continue;
    const f = 1 - posOnArc(src, a);
    visit(rankOf[a]!, f * w[a]!, -1, a, f);
  }
}

/**
 * The backward seeds of a target point: for each open arc b of its edge, every state that may turn onto b at b's
 * tail (the arcs entering it and the vehicle's copies of them whose turn table allows the turn), weighing the turn
 * and the part of b up to the point.
 */
export function targetSeeds(m: CchMetric, dst: Endpoint, visit: SeedVisit): void {
  const c = m.costs,
    g = c.graph,
    w = c.weight,
    T = m.turns,
    rankOf = m.topo.rankOf;
  for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
    if (w[b] === Infinity) continue;
    const u = arcTail(g, b);
    const f = posOnArc(dst, b);
    const d = f * w[b]!;
    for (let i = g.adjFirst[u]!; i < g.adjFirst[u + 1]!; i++) {
      const a = g.adjArc[i]! ^ 1;
      if (w[a] === Infinity || !c.openTurn(a, b, u)) continue;
      const da = c.turnWeight(a, b, u) + d;
      // Arc a and the vehicle's copies of it, those from which the turn onto b is allowed.
      const n = T.copyCount(a),
        c0 = n > 0 ? T.firstCopy(a) : 0;
      for (let k = -1; k < n; k++) {
        const s = k < 0 ? a : T.arcs + c0 + k;
        if (T.next(s, b) >= 0) visit(rankOf[m.states.shared(c.profile, s)]!, da, a, b, f);
      }
    }
  }
}
