import { EARTH_RADIUS_M } from '../geo.js';
import type { RoadGraph } from './graph.js';
import { PROFILE_COUNT } from './profiles.js';

/** Route preference: `fastest` minimises the "routability" weight (duration / preference), `shortest` metres. */
export type Weighting = 'fastest' | 'shortest';

/** Safety factor on the A* lower bound, so rounding in the projection never makes it inadmissible. */
const BOUND_SAFETY = 0.99;

/**
 * Per-arc costs of one vehicle and weighting, derived once from the pack (arc = edge * 2 + dir).
 * `weight` is what searches minimise (Infinity = closed); `dur` is seconds, distances are `graph.edgeLen` metres.
 * Fastest weight = duration × 100 / preference (OSRM-style "routability"); shortest weight = length.
 */
export class ArcCosts {
  /** Search weight per arc; Infinity when the vehicle may not drive the arc. */
  readonly weight: Float64Array;
  /** Duration per arc in seconds (Infinity when closed). */
  readonly dur: Float64Array;
  /** Per node: number of open arcs leaving it (capped at 255). A U-turn is allowed only where this is 1. */
  readonly outOpen: Uint8Array;
  /** Per node: bit set when the vehicle may not pass the node (barrier). */
  readonly blocked: Uint8Array;
  /** Weight per metre of straight-line distance that no arc beats (A* bound), already with a safety margin. */
  readonly boundPerMetre: number;
  /** Projected node coordinates in metres (equirectangular at the graph's highest latitude, never overestimating). */
  readonly nodeX: Float64Array;
  readonly nodeY: Float64Array;
  /** Metres per degree of longitude / latitude in that projection. */
  readonly mPerLon: number;
  readonly mPerLat: number;

  constructor(readonly graph: RoadGraph, readonly profile: number, readonly weighting: Weighting) {
    const g = graph;
    const E = g.edgeCount;
    this.weight = new Float64Array(2 * E);
    this.dur = new Float64Array(2 * E);
    const N = g.nodeCount;
    let maxAbsLat = 0;
    for (let v = 0; v < N; v++) maxAbsLat = Math.max(maxAbsLat, Math.abs(g.nodeLat[v]! / 1e7));
    this.mPerLat = (EARTH_RADIUS_M * Math.PI) / 180;
    this.mPerLon = this.mPerLat * Math.cos((Math.min(89, maxAbsLat + 0.01) * Math.PI) / 180);
    this.nodeX = new Float64Array(N);
    this.nodeY = new Float64Array(N);
    for (let v = 0; v < N; v++) {
      this.nodeX[v] = (g.nodeLon[v]! / 1e7) * this.mPerLon;
      this.nodeY[v] = (g.nodeLat[v]! / 1e7) * this.mPerLat;
    }
    let bound = Infinity;
    for (let e = 0; e < E; e++) {
      const len = g.edgeLen[e]!;
      const pref = g.edgePref[e * PROFILE_COUNT + profile]!;
      const u = g.edgeNodes[2 * e]!;
      const v = g.edgeNodes[2 * e + 1]!;
      const chord = Math.hypot(this.nodeX[u]! - this.nodeX[v]!, this.nodeY[u]! - this.nodeY[v]!);
      const reach = Math.max(len, chord);
      for (let dir = 0; dir < 2; dir++) {
        const a = 2 * e + dir;
        const speed = g.edgeSpeed[e * PROFILE_COUNT * 2 + profile * 2 + dir]!;
        if (speed === 0) {
          this.weight[a] = Infinity;
          this.dur[a] = Infinity;
          continue;
        }
        const d = g.edgeDuration ? g.edgeDuration[e]! : (len * 3.6) / speed;
        this.dur[a] = d;
        const w = weighting === 'fastest' ? (d * 100) / pref : len;
        this.weight[a] = w;
        if (reach > 0) bound = Math.min(bound, w / reach);
      }
    }
    this.boundPerMetre = Number.isFinite(bound) ? bound * BOUND_SAFETY : 0;
    this.outOpen = new Uint8Array(N);
    this.blocked = new Uint8Array(N);
    const bit = 1 << profile;
    for (let v = 0; v < N; v++) {
      let n = 0;
      for (let i = g.adjFirst[v]!; i < g.adjFirst[v + 1]!; i++) if (this.weight[g.adjArc[i]!] !== Infinity) n++;
      this.outOpen[v] = Math.min(255, n);
      this.blocked[v] = g.nodeBlock[v]! & bit ? 1 : 0;
    }
  }

  /** Lower bound of the weight between node v and a projected point (x, y) in metres. */
  bound(v: number, x: number, y: number): number {
    const dx = this.nodeX[v]! - x;
    const dy = this.nodeY[v]! - y;
    return Math.sqrt(dx * dx + dy * dy) * this.boundPerMetre;
  }
}

/** First node of arc a (where it starts). */
export function arcTail(g: RoadGraph, a: number): number {
  return g.edgeNodes[(a & ~1) + (a & 1)]!;
}

/** Second node of arc a (where it ends). */
export function arcHead(g: RoadGraph, a: number): number {
  return g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
}
