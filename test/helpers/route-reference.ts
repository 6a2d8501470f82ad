import TinyQueue from 'tinyqueue';
import type { RoadGraph } from '../../src/route/graph.js';

/** Plain per-arc costs, written independently of src/route/costs.ts: seconds and routability weight. */
export function plainCosts(g: RoadGraph, profile: number, weighting: 'fastest' | 'shortest'): { w: number[]; dur: number[] } {
  const w: number[] = [];
  const dur: number[] = [];
  for (let e = 0; e < g.edgeCount; e++) {
    for (const dir of [0, 1]) {
      const speed = g.edgeSpeed[e * 10 + profile * 2 + dir]!;
      if (!speed) {
        w.push(Infinity);
        dur.push(Infinity);
        continue;
      }
      const d = g.edgeDuration ? g.edgeDuration[e]! : (g.edgeLen[e]! / speed) * 3.6;
      dur.push(d);
      w.push(weighting === 'shortest' ? g.edgeLen[e]! : d / (g.edgePref[e * 5 + profile]! / 100));
    }
  }
  return { w, dur };
}

/**
 * Plain edge-based Dijkstra from a point on an edge to all arcs, then the cost to a point on an edge: no U-turn
 * except where a node has a single open way out, no passing barrier nodes, via-node turn restrictions (no_* forbids
 * the pair, only_* allows only the listed pairs from that arc). A lazy-deletion queue, nothing else.
 */
export class PlainDijkstra {
  private readonly w: number[];
  private readonly banned = new Set<string>();
  private readonly only = new Map<number, Set<number>>();
  constructor(private readonly g: RoadGraph, private readonly profile: number, weighting: 'fastest' | 'shortest') {
    this.w = plainCosts(g, profile, weighting).w;
    for (let r = 0; r + 1 < g.turnFirst.length; r++) {
      if (!(g.turnMask[r]! & (1 << profile)) || g.turnFirst[r + 1]! - g.turnFirst[r]! !== 2) continue;
      const e1 = g.turnEdges[g.turnFirst[r]!]!;
      const e2 = g.turnEdges[g.turnFirst[r]! + 1]!;
      for (const d1 of [0, 1]) {
        for (const d2 of [0, 1]) {
          const a = e1 * 2 + d1;
          const b = e2 * 2 + d2;
          if (this.head(a) !== this.tail(b)) continue;
          if (g.turnKind[r] === 0) this.banned.add(`${a}>${b}`);
          else {
            if (!this.only.has(a)) this.only.set(a, new Set());
            this.only.get(a)!.add(b);
          }
        }
      }
    }
  }
  tail(a: number): number {
    return this.g.edgeNodes[2 * Math.floor(a / 2) + (a % 2)]!;
  }
  head(a: number): number {
    return this.g.edgeNodes[2 * Math.floor(a / 2) + 1 - (a % 2)]!;
  }
  private outs(v: number): number[] {
    const r: number[] = [];
    for (let e = 0; e < this.g.edgeCount; e++) {
      for (const d of [0, 1]) if (this.tail(e * 2 + d) === v && this.w[e * 2 + d] !== Infinity && !r.includes(e * 2 + d)) r.push(e * 2 + d);
    }
    return r;
  }
  private outCache = new Map<number, number[]>();
  private outArcs(v: number): number[] {
    let r = this.outCache.get(v);
    if (!r) {
      r = this.outs(v);
      this.outCache.set(v, r);
    }
    return r;
  }
  turnOk(a: number, b: number): boolean {
    const v = this.head(a);
    if (this.g.nodeBlock[v]! & (1 << this.profile)) return false;
    if (Math.floor(a / 2) === Math.floor(b / 2) && this.outArcs(v).length !== 1) return false;
    if (this.banned.has(`${a}>${b}`)) return false;
    const only = this.only.get(a);
    return !only || only.has(b);
  }
  /** Weight from (edge, t) to every arc head. */
  run(edge: number, t: number): Map<number, number> {
    const dist = new Map<number, number>();
    const q = new TinyQueue<[number, number]>([], (x, y) => x[0] - y[0]);
    if (this.w[2 * edge] !== Infinity) q.push([(1 - t) * this.w[2 * edge]!, 2 * edge]);
    if (this.w[2 * edge + 1] !== Infinity) q.push([t * this.w[2 * edge + 1]!, 2 * edge + 1]);
    while (q.length) {
      const [d, a] = q.pop()!;
      if (dist.has(a)) continue;
      dist.set(a, d);
      for (const b of this.outArcs(this.head(a))) if (!dist.has(b) && this.turnOk(a, b)) q.push([d + this.w[b]!, b]);
    }
    return dist;
  }
  /** Best weight from the source of `dist` to (edge, t) on the target side. */
  to(dist: Map<number, number>, src: { edge: number; t: number }, edge: number, t: number): number {
    let best = Infinity;
    for (const b of [2 * edge, 2 * edge + 1]) {
      if (this.w[b] === Infinity) continue;
      const f = b % 2 ? 1 - t : t;
      if (src.edge === edge) {
        const s = b % 2 ? 1 - src.t : src.t;
        if (f >= s) best = Math.min(best, (f - s) * this.w[b]!);
      }
      const u = this.tail(b);
      for (const [a, d] of dist) if (this.head(a) === u && this.turnOk(a, b)) best = Math.min(best, d + f * this.w[b]!);
    }
    return best;
  }
}
