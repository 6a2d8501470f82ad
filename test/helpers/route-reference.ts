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
 * OSRM car.lua `process_turn`, re-typed from the profile: seconds of a turn by `angle` degrees (0 straight, positive
 * right) at a node with `roads` usable roads, with or without a traffic light, U-turn or not.
 */
export function osrmTurnSeconds(angle: number, roads: number, light: boolean, uturn: boolean): number {
  const bias = 1.075;
  let d = light ? 2 : 0;
  if (roads > 2 || uturn) {
    d += angle >= 0 ? 7.5 / (1 + Math.exp(-((13 / bias) * angle / 180 - 6.5 * bias))) : 7.5 / (1 + Math.exp(-((13 * bias) * -angle / 180 - 6.5 / bias)));
    if (uturn) d += 20;
  }
  return d;
}

/**
 * Bearing in degrees (clockwise from north) from the start of a polyline to the point 10 m along it (its end when
 * shorter), in a flat projection at the first point (metres: radius 6372797.560856 m, longitude scaled by the
 * cosine of the first point's latitude), rounded to 1/1024 turn (the documented turn model of src/route/costs.ts).
 */
function lookaheadBearing(pts: [number, number][]): number {
  const R = 6372797.560856, rad = Math.PI / 180;
  const c = Math.cos(pts[0]![0] * rad);
  const xy = pts.map(([lat, lon]) => [lon * rad * R * c, lat * rad * R] as const);
  let target = xy[xy.length - 1]!;
  let left = 10;
  for (let i = 1; i < xy.length; i++) {
    const seg = Math.hypot(xy[i]![0] - xy[i - 1]![0], xy[i]![1] - xy[i - 1]![1]);
    if (seg > 0 && seg >= left) {
      const f = left / seg;
      target = [xy[i - 1]![0] + f * (xy[i]![0] - xy[i - 1]![0]), xy[i - 1]![1] + f * (xy[i]![1] - xy[i - 1]![1])];
      break;
    }
    left -= seg;
  }
  const deg = Math.atan2(target[0] - xy[0]![0], target[1] - xy[0]![1]) / rad;
  return (((Math.round(deg * 1024 / 360) % 1024) + 1024) % 1024) * 360 / 1024;
}

/**
 * Plain edge-based Dijkstra from a point on an edge to all arcs, then the cost to a point on an edge: no U-turn
 * except where a node has a single open way out, no passing barrier nodes, via-node turn restrictions (no_* forbids
 * the pair, only_* allows only the listed pairs from that arc). Each allowed turn costs OSRM's car turn seconds
 * (osrmTurnSeconds with the angle between the rounded lookahead bearings; as weight for fastest, 0 for shortest;
 * none in DIMACS packs). A lazy-deletion queue, nothing else.
 */
export class PlainDijkstra {
  private readonly w: number[];
  private readonly dur: number[];
  private readonly banned = new Set<string>();
  private readonly only = new Map<number, Set<number>>();
  private readonly weighted: boolean;
  constructor(private readonly g: RoadGraph, private readonly profile: number, weighting: 'fastest' | 'shortest') {
    ({ w: this.w, dur: this.dur } = plainCosts(g, profile, weighting));
    this.weighted = weighting === 'fastest';
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
  /** Points of arc a in driving order, degrees. */
  arcLine(a: number): [number, number][] {
    const e = Math.floor(a / 2);
    const pts: [number, number][] = [[this.g.nodeLat[this.g.edgeNodes[2 * e]!]! / 1e7, this.g.nodeLon[this.g.edgeNodes[2 * e]!]! / 1e7]];
    for (let s = this.g.edgeShape[e]!; s < this.g.edgeShape[e + 1]!; s++) pts.push([this.g.shapeLat[s]! / 1e7, this.g.shapeLon[s]! / 1e7]);
    pts.push([this.g.nodeLat[this.g.edgeNodes[2 * e + 1]!]! / 1e7, this.g.nodeLon[this.g.edgeNodes[2 * e + 1]!]! / 1e7]);
    return a % 2 ? pts.reverse() : pts;
  }
  /** Roads at node v the vehicle may drive in some direction (an edge per end at v). */
  roads(v: number): number {
    let n = 0;
    for (let e = 0; e < this.g.edgeCount; e++) {
      const open = this.w[2 * e] !== Infinity || this.w[2 * e + 1] !== Infinity;
      if (!open) continue;
      if (this.g.edgeNodes[2 * e] === v) n++;
      if (this.g.edgeNodes[2 * e + 1] === v) n++;
    }
    return n;
  }
  private roadCache = new Map<number, number>();
  /** Seconds of the allowed turn from arc a to arc b (OSRM's car model; none for DIMACS packs). */
  turnSeconds(a: number, b: number): number {
    if (!this.g.fromOsm) return 0;
    const v = this.head(a);
    const uturn = Math.floor(a / 2) === Math.floor(b / 2);
    // Leaving bearing of b at v, and entering bearing of a at v (the reverse of a's edge leaving v, turned round).
    const out = lookaheadBearing(this.arcLine(b));
    const inb = (lookaheadBearing(this.arcLine(a % 2 ? a - 1 : a + 1)) + 180) % 360;
    let angle = (((out - inb) % 360) + 360) % 360;
    if (angle > 180) angle -= 360;
    if (uturn) angle = 180;
    let roads = this.roadCache.get(v);
    if (roads === undefined) this.roadCache.set(v, (roads = this.roads(v)));
    return osrmTurnSeconds(angle, roads, (this.g.nodeFlags[v]! & 1) !== 0, uturn);
  }
  /** Search weight of the allowed turn from a to b. */
  turnWeight(a: number, b: number): number {
    return this.weighted ? this.turnSeconds(a, b) : 0;
  }
  turnOk(a: number, b: number): boolean {
    const v = this.head(a);
    if (this.g.nodeBlock[v]! & (1 << this.profile)) return false;
    if (Math.floor(a / 2) === Math.floor(b / 2) && this.outArcs(v).length !== 1) return false;
    if (this.banned.has(`${a}>${b}`)) return false;
    const only = this.only.get(a);
    return !only || only.has(b);
  }
  /** Weight from (edge, t) to every arc head (`durs`, when given, gets the seconds along each best path). */
  run(edge: number, t: number, durs?: Map<number, number>): Map<number, number> {
    const dist = new Map<number, number>();
    const q = new TinyQueue<[number, number, number]>([], (x, y) => x[0] - y[0]);
    if (this.w[2 * edge] !== Infinity) q.push([(1 - t) * this.w[2 * edge]!, 2 * edge, (1 - t) * this.dur[2 * edge]!]);
    if (this.w[2 * edge + 1] !== Infinity) q.push([t * this.w[2 * edge + 1]!, 2 * edge + 1, t * this.dur[2 * edge + 1]!]);
    while (q.length) {
      const [d, a, s] = q.pop()!;
      if (dist.has(a)) continue;
      dist.set(a, d);
      durs?.set(a, s);
      for (const b of this.outArcs(this.head(a))) {
        if (!dist.has(b) && this.turnOk(a, b)) q.push([d + this.turnWeight(a, b) + this.w[b]!, b, s + this.turnSeconds(a, b) + this.dur[b]!]);
      }
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
      for (const [a, d] of dist) if (this.head(a) === u && this.turnOk(a, b)) best = Math.min(best, d + this.turnWeight(a, b) + f * this.w[b]!);
    }
    return best;
  }
}
