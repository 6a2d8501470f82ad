import type { Leg, Router, RouteContext } from './router.js';
import type { ArcPath, Endpoint } from './search.js';
import { snapPoint } from './snap.js';

/** An alternative is at most this much heavier than the best route. */
export const ALT_MAX_STRETCH = 1.25;
/** An alternative shares at most this fraction of the best route's weight (and of other alternatives'). */
export const ALT_MAX_SHARED = 0.75;
/** Local optimality: the stretch of an alternative around its via arc of this fraction of the best weight on each side
 * must itself be a shortest path (the T-test). */
const ALT_LOCAL = 0.25;
/** Via candidates examined at most (bounds the work). */
const MAX_TRIES = 400;

/** Weight of each piece of a path (partial first and last arcs), keyed by arc; an arc met twice adds up. */
function pieceWeights(p: ArcPath, w: Float64Array): Map<number, number> {
  const m = new Map<number, number>();
  const n = p.arcs.length;
  p.arcs.forEach((a, i) => {
    const f = n === 1 ? p.to - p.from : i === 0 ? 1 - p.from : i === n - 1 ? p.to : 1;
    m.set(a, (m.get(a) ?? 0) + f * w[a]!);
  });
  return m;
}

/** Weight shared by two paths (arcs in both, counting the smaller piece). */
export function sharedWeight(p: ArcPath, q: ArcPath, w: Float64Array): number {
  const a = pieceWeights(p, w);
  const b = pieceWeights(q, w);
  let s = 0;
  for (const [arc, x] of a) {
    const y = b.get(arc);
    if (y !== undefined) s += Math.min(x, y);
  }
  return s;
}

/**
 * Up to `max` alternatives to the best leg by the via-arc method: each goes through an arc where the forward and
 * backward search trees meet, weighs at most 1.25 × best, shares at most 75 % with the best and with every
 * alternative kept before it, visits no arc twice, and passes the T-test (the part within 25 % of the best weight
 * on both sides of its via arc is a shortest path). Ordered by weight.
 */
export function alternatives(
  router: Router,
  ctx: RouteContext,
  src: Endpoint,
  dst: Endpoint,
  best: Leg,
  max = 2,
): Leg[] {
  const w = ctx.costs.weight;
  const search = ctx.search;
  const limit = best.weight * ALT_MAX_STRETCH;
  const cands = search.viaCandidates(src, dst, limit);
  const covered = new Set(best.path.arcs);
  const paths: ArcPath[] = [];
  let tries = 0;
  for (const c of cands) {
    if (covered.has(c.arc)) continue;
    if (++tries > MAX_TRIES || paths.length >= 12) break;
    const p = search.joinAt(c.state, src, dst, c.weight);
    for (const a of p.arcs) covered.add(a);
    if (new Set(p.arcs).size !== p.arcs.length) continue;
    paths.push(p);
  }
  const kept: Leg[] = [];
  for (const p of paths) {
    if (kept.length >= max) break;
    const leg = router.measure(p, ctx);
    if (leg.weight > limit) continue;
    if (sharedWeight(p, best.path, w) > ALT_MAX_SHARED * best.weight) continue;
    if (kept.some((k) => sharedWeight(p, k.path, w) > ALT_MAX_SHARED * Math.min(k.weight, leg.weight))) continue;
    if (!locallyOptimal(ctx, p, best.weight * ALT_LOCAL)) continue;
    kept.push(leg);
  }
  return kept;
}

/**
 * T-test around the middle of the path: the stretch from `reach` weight before its middle arc to `reach` after
 * (whole arcs) must be a shortest path between its ends.
 */
function locallyOptimal(ctx: RouteContext, p: ArcPath, reach: number): boolean {
  const w = ctx.costs.weight;
  const arcs = p.arcs;
  const n = arcs.length;
  if (n < 3) return true;
  const mid = n >> 1;
  let i = mid;
  let before = 0;
  while (i > 1 && before < reach) before += w[arcs[--i]!]!;
  let j = mid;
  let after = 0;
  while (j < n - 2 && after < reach) after += w[arcs[++j]!]!;
  const c = ctx.costs,
    g = c.graph;
  // Whole arcs i..j with the turn weights between them, as a search adds them.
  let sub = w[arcs[i]!]!;
  for (let k = i + 1; k <= j; k++)
    sub += c.turnWeight(arcs[k - 1]!, arcs[k]!, g.edgeNodes[(arcs[k]! & ~1) + (arcs[k]! & 1)]!) + w[arcs[k]!]!;
  const at = (a: number, end: boolean): Endpoint => {
    const node = g.edgeNodes[(a & ~1) + (end ? 1 - (a & 1) : a & 1)]!;
    // Endpoint exactly at the arc's start (or end) node, on that arc's edge.
    const t = (a & 1) === (end ? 1 : 0) ? 0 : 1;
    return snapPoint(a >> 1, t, g.lat(node), g.lon(node), 0, undefined, undefined);
  };
  const from = at(arcs[i]!, false);
  const to = at(arcs[j]!, true);
  const q = ctx.search.route(from, to);
  if (!q) return false;
  return q.weight >= sub * (1 - 1e-9);
}
