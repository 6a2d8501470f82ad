import { EARTH_RADIUS_M } from '../geo.js';
import type { RoadGraph } from './graph.js';
import { PROFILE_COUNT } from './profiles.js';
import {
  ANGLE_STEPS,
  anglePenalty,
  anglePenaltyTable,
  arcBearings,
  RESTRICTED_TURN_WEIGHT,
  TRAFFIC_LIGHT_S,
  turnSteps,
  U_TURN_PENALTY_S,
} from './turn-model.js';

/** Node flag bit of a traffic light (data-tools/graph.ts NodeFlag.trafficSignals). */
const TRAFFIC_SIGNALS = 1;

/** Route preference: `fastest` minimises the "routability" weight (duration / preference), `shortest` metres. */
export type Weighting = 'fastest' | 'shortest';

/** Safety factor on the A* lower bound, so rounding in the projection never makes it inadmissible. */
const BOUND_SAFETY = 0.99;

/**
 * Per-arc costs of one vehicle and weighting, derived once from the pack (arc = edge * 2 + dir).
 * `weight` is what searches minimise (Infinity = closed); `dur` is seconds, distances are `graph.edgeLen` metres.
 * Fastest weight = duration × 100 / preference (OSRM-style "routability"); shortest weight = length.
 * Transitions between arcs cost OSRM's car turn model (turn-model.ts) on OSM packs: `turnDur` seconds, and as
 * weight `turnWeight` (the seconds unscaled for fastest, as OSRM adds turn weight, plus RESTRICTED_TURN_WEIGHT when
 * turning from a road open to all onto one restricted to local access, as OSRM's 'routability' weight does; 0 for
 * shortest, as OSRM's distance weighting does). Routing-only benchmark packs (DIMACS, RoadGraph.fromOsm false) have
 * no turn costs.
 */
export class ArcCosts {
  /** Search weight per arc; Infinity when the vehicle may not drive the arc. */
  readonly weight: Float64Array;
  /** Duration per arc in seconds (Infinity when closed). */
  readonly dur: Float64Array;
  /** Per node: number of open arcs leaving it (capped at 255). A U-turn is allowed only where this is 1. */
  readonly outOpen: Uint8Array;
  /** Per node: 1 when the vehicle may not pass the node (barrier; it may turn round before it, see ArcSearch.openTurn). */
  readonly blocked: Uint8Array;
  /** Weight per metre of straight-line distance that no arc beats (A* bound), already with a safety margin. */
  readonly boundPerMetre: number;
  /** Projected node coordinates in metres (equirectangular at the graph's highest latitude, never overestimating). */
  readonly nodeX: Float64Array;
  readonly nodeY: Float64Array;
  /** Metres per degree of longitude / latitude in that projection. */
  readonly mPerLon: number;
  readonly mPerLat: number;
  /** True when transitions cost something (OSM packs); false for DIMACS packs. */
  readonly turnCosts: boolean;
  /** Per arc: bearing leaving its tail in 1/1024 turns (turn-model.ts arcBearings); zeros without turn costs. */
  readonly bearing: Uint16Array;
  /** Per node: seconds of its traffic light (0 without one). */
  readonly signal: Float64Array;
  /** Per node: 1 when more than two roads the vehicle may use meet there (OSRM number_of_roads > 2). */
  readonly cross: Uint8Array;
  /** Angle penalty in seconds per rounded angle step (all zeros without turn costs). */
  readonly anglePenalty: Float64Array;
  /** Seconds of a U-turn: the angle penalty at 180° plus OSRM's u_turn_penalty (0 without turn costs). */
  readonly uTurn: number;
  /** 1 when turn seconds count as weight (fastest), 0 when not (shortest). */
  readonly turnWeightFactor: number;
  /** Per edge: 1 when the vehicle may drive it only for local access (RoadGraph.edgeRestricted); zeros without turn costs. */
  readonly restricted: Uint8Array;
  /** Turn weight of entering a restricted edge from an unrestricted one (RESTRICTED_TURN_WEIGHT; 0 without turn costs). */
  readonly restrictedTurn: number;

  /**
   * @param bearings the graph's perceived bearings per arc (turn-model.ts arcBearings), asked for only when needed;
   *   the owner passes its kept copy so the costs of its vehicles and weightings share one (default: computed here)
   */
  constructor(
    readonly graph: RoadGraph,
    readonly profile: number,
    readonly weighting: Weighting,
    readonly bearings: () => Uint16Array = () => arcBearings(graph),
  ) {
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
    this.turnCosts = g.fromOsm;
    this.turnWeightFactor = weighting === 'fastest' ? 1 : 0;
    this.signal = new Float64Array(N);
    this.cross = new Uint8Array(N);
    this.restricted = new Uint8Array(E);
    this.restrictedTurn = this.turnCosts ? RESTRICTED_TURN_WEIGHT : 0;
    if (this.turnCosts) {
      for (let e = 0; e < E; e++) this.restricted[e] = (g.edgeRestricted[e]! >> profile) & 1;
      this.bearing = bearings();
      this.anglePenalty = anglePenaltyTable();
      this.uTurn = anglePenalty(180) + U_TURN_PENALTY_S;
      for (let v = 0; v < N; v++) {
        if (g.nodeFlags[v]! & TRAFFIC_SIGNALS) this.signal[v] = TRAFFIC_LIGHT_S;
        // Roads = edges open one way or the other (an edge appears once per direction leaving v; a loop twice).
        let roads = 0;
        for (let i = g.adjFirst[v]!; i < g.adjFirst[v + 1]!; i++) {
          const b = g.adjArc[i]!;
          if (this.weight[b] !== Infinity || this.weight[b ^ 1] !== Infinity) roads++;
        }
        this.cross[v] = roads > 2 ? 1 : 0;
      }
    } else {
      this.bearing = new Uint16Array(2 * E);
      this.anglePenalty = new Float64Array(ANGLE_STEPS);
      this.uTurn = 0;
    }
  }

  /**
   * Seconds of the transition from arc a (entering node v) on to arc b (leaving v): traffic light, then the angle
   * penalty where more than two roads meet, or the U-turn cost when b runs back along a's edge. Allowed or not is
   * decided elsewhere (ArcSearch.canTurn). The wasm core (layout.rs `turn_dur`) computes the same sum.
   */
  turnDur(a: number, b: number, v: number): number {
    const s = this.signal[v]!;
    if (a >> 1 === b >> 1) return s + this.uTurn;
    if (this.cross[v] === 0) return s;
    return s + this.anglePenalty[turnSteps(this.bearing, a, b)]!;
  }

  /**
   * Search weight of the transition from arc a to arc b at node v: for fastest its seconds, plus `restrictedTurn`
   * when b's edge is restricted to local access and a's is not; 0 for shortest. The wasm core (layout.rs
   * `turn_weight`) computes the same sum.
   */
  turnWeight(a: number, b: number, v: number): number {
    return this.turnWeightFactor === 0 ? 0 : this.turnDur(a, b, v) + this.accessWeight(a, b);
  }

  /** turnWeight of the transition from arc a to arc b when its seconds `td` (turnDur) are known. */
  turnWeightOf(td: number, a: number, b: number): number {
    return this.turnWeightFactor === 0 ? 0 : td + this.accessWeight(a, b);
  }

  /** Weight of entering b's edge from a's when only b's is restricted to local access (else 0). */
  private accessWeight(a: number, b: number): number {
    return this.restricted[b >> 1] === 1 && this.restricted[a >> 1] === 0 ? this.restrictedTurn : 0;
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
