import type { CchMetric } from './customize.js';
import type { CchTopology } from './topology.js';

/** Lower end of topology arc i (the vertex whose up arcs hold it). */
export function lowerEnd(topo: CchTopology, i: number): number {
  const f = topo.upFirst;
  let lo = 0,
    hi = f.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (f[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** First index of downTail[lo .. hi - 1] (ascending) holding `v` or more; hi when none. */
function lowerBound(t: Uint32Array, v: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * What made the metric's weight of topology arc i (lower end `lo`) driven up (lower → higher end) or down: false
 * when its own link weighs that weight; else true, with `tri` set to the lower triangle v < lo whose two arcs add up
 * to it, the lowest such v: tri[0] the arc v–lo, tri[1] the arc v–hi. This is the one rule every unpacking and every
 * measure of a shortcut follows (query.ts, measures.ts), so a shortcut's seconds and metres are those of the path
 * a route through it unpacks to. Throws when no triangle weighs the arc's weight (a metric not customized).
 */
export function lowerTriangle(m: CchMetric, i: number, lo: number, upward: boolean, tri: Int32Array): boolean {
  const { upHead, downFirst, downTail, downArc, stateOf } = m.topo;
  const { up, down } = m;
  const hi = upHead[i]!;
  const weight = upward ? up[i]! : down[i]!;
  const from = stateOf[upward ? lo : hi]!,
    to = stateOf[upward ? hi : lo]!;
  if (m.link(from, to) === weight) return false;
  // Lower neighbours v of both ends: arcs v–lo (a) and v–hi (b). The shorter row is walked, the other searched.
  const loA = downFirst[lo]!,
    loB = downFirst[lo + 1]!,
    hiA = downFirst[hi]!,
    hiB = downFirst[hi + 1]!;
  const walkLo = loB - loA <= hiB - hiA;
  const wA = walkLo ? loA : hiA,
    wB = walkLo ? loB : hiB,
    sB = walkLo ? hiB : loB;
  // Both rows ascend: each search starts where the last one ended.
  let at = walkLo ? hiA : loA;
  for (let k = wA; k < wB && at < sB; k++) {
    const j = (at = lowerBound(downTail, downTail[k]!, at, sB));
    if (j === sB || downTail[j] !== downTail[k]) continue;
    const a = downArc[walkLo ? k : j]!,
      b = downArc[walkLo ? j : k]!;
    if (upward ? down[a]! + up[b]! === weight : down[b]! + up[a]! === weight) {
      tri[0] = a;
      tri[1] = b;
      return true;
    }
  }
  throw new Error(`CCH arc ${i} has no triangle of its weight`);
}
