import { EARTH_RADIUS_M } from '../geo.js';
import { AVOID_FACTOR, avoidedEdges } from './avoid.js';
import { Scratch, scratchBytes } from './cch/scratch.js';
import { PREF_AT, SPEED_ROW, type RoadGraph } from './graph.js';
import { SegmentLengths } from './segment-seconds.js';
import {
  ANGLE_STEPS,
  anglePenaltyTable,
  arcBearings,
  RESTRICTED_TURN_WEIGHT,
  TRAFFIC_LIGHT_S,
  turnSteps,
  uTurnSeconds,
} from './turn-model.js';

/**
 * Node flag bits of a traffic light, and of one that only vehicles arriving along its ways' direction (forward) or
 * against it (backward) stop at (data-tools/graph.ts NodeFlag).
 */
const TRAFFIC_SIGNALS = 1;
const SIGNALS_FORWARD = 8;
const SIGNALS_BACKWARD = 16;

/** Route preference: `fastest` minimises the "routability" weight (duration / preference), `shortest` metres. */
export type Weighting = 'fastest' | 'shortest';

/** Safety factor on the A* lower bound, so rounding in the projection never makes it inadmissible. */
const BOUND_SAFETY = 0.99;

/**
 * Weight added per metre to an OSM pack's fastest weights, which OSRM's way comes in whole deciseconds: among routes
 * of one weight the shorter wins, and one route is the best (a table and a leg, two searches, meet on the same). At
 * most a millisecond over 1,000 km, it never reorders routes a decisecond apart.
 */
export const TIE_PER_METRE = 1e-9;

/**
 * Per-arc costs of one vehicle and weighting, derived once from the pack (arc = edge * 2 + dir).
 * `weight` is what searches minimise (Infinity = closed); `dur` is seconds, distances are `graph.edgeLen` metres.
 * Fastest weight = duration × 100 / preference (OSRM-style "routability"); shortest weight = length. On OSM packs both
 * seconds and fastest weights are counted as OSRM's extractor counts them, segment by segment in whole deciseconds
 * (segment-seconds.ts), so a route weighs what OSRM's does; packs with stored durations (DIMACS) take those.
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
  /** Per node: 1 when the vehicle may not pass the node (barrier; it may turn round before it, see openTurn). */
  readonly blocked: Uint8Array;
  /** Weight per metre of straight-line distance that no arc beats (A* bound), already with a safety margin. */
  readonly boundPerMetre: number;
  /** Metres per degree of longitude / latitude in the projection the A* bound measures in (CostBasis.projection). */
  readonly mPerLon: number;
  readonly mPerLat: number;
  /** True when transitions cost something (OSM packs); false for DIMACS packs. */
  readonly turnCosts: boolean;
  /** Per arc: bearing leaving its tail in 1/1024 turns (turn-model.ts arcBearings); zeros without turn costs. */
  readonly bearing: Uint16Array;
  /** Per arc: 1 when it stops at a traffic light on entering its head (TRAFFIC_LIGHT_S seconds), else 0. */
  readonly signal: Uint8Array;
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
  /** What every vehicle's costs of the graph share (CostBasis). */
  private readonly basis: CostBasis;

  /**
   * @param bearings the graph's perceived bearings per arc (turn-model.ts arcBearings), asked for only when needed;
   *   the owner passes its kept copy so the costs of its vehicles and weightings share one (default: computed here)
   * @param basis what every vehicle's costs of the graph share (costBasis), asked for once: the owner passes its
   *   kept copy likewise (default: computed here)
   * @param avoid the road kinds to keep away from (avoid.ts AVOID_KINDS bits; default 0, none): their arcs weigh
   *   AVOID_FACTOR times as much (durations unchanged; the A* bound stays that of the usual weights, still a bound)
   * @param arrays `made`: the arrays of these costs as another thread computed them for the same graph, vehicle,
   *   weighting and avoid mask (exchange.ts; the caller checked them with costArraysProblem), taken as they are;
   *   else computed here, in shared memory when `shared` (scratch.ts), so that other threads may adopt them; `same`:
   *   the arrays of the same graph and vehicle's costs for another weighting or avoid mask, whose seconds and node
   *   and edge flags (which neither changes) these costs then share, computing their weights alone
   */
  constructor(
    readonly graph: RoadGraph,
    readonly profile: number,
    readonly weighting: Weighting,
    readonly bearings: () => Uint16Array = () => arcBearings(graph),
    basis: () => CostBasis = () => costBasis(graph),
    readonly avoid = 0,
    arrays: { made?: CostArrays; shared?: boolean; same?: CostArrays } = {},
  ) {
    const g = graph;
    const b = (this.basis = basis());
    this.mPerLon = b.mPerLon;
    this.mPerLat = b.mPerLat;
    this.signal = b.signal;
    this.turnCosts = g.fromOsm;
    this.turnWeightFactor = weighting === 'fastest' ? 1 : 0;
    this.restrictedTurn = this.turnCosts ? RESTRICTED_TURN_WEIGHT : 0;
    const a = arrays.made ?? computeCostArrays(g, profile, weighting, b, avoid, arrays.shared ?? false, arrays.same);
    this.weight = a.weight;
    this.dur = a.dur;
    this.outOpen = a.outOpen;
    this.blocked = a.blocked;
    this.cross = a.cross;
    this.restricted = a.restricted;
    this.boundPerMetre = a.boundPerMetre;
    if (this.turnCosts) {
      this.bearing = bearings();
      this.anglePenalty = anglePenaltyTable();
      this.uTurn = uTurnSeconds();
    } else {
      this.bearing = new Uint16Array(2 * g.edgeCount);
      this.anglePenalty = new Float64Array(ANGLE_STEPS);
      this.uTurn = 0;
    }
  }
  /**
   * True when no barrier or U-turn rule keeps the vehicle from going from arc a (entering node v) on to arc b
   * (leaving v): at a barrier only the U-turn, elsewhere U-turns only at dead ends. Restrictions are TurnTable.next's part.
   */
  openTurn(a: number, b: number, v: number): boolean {
    if (this.blocked[v]) return a >> 1 === b >> 1;
    return a >> 1 !== b >> 1 || this.outOpen[v] === 1;
  }

  /**
   * Seconds of the transition from arc a (entering node v) on to arc b (leaving v): traffic light, then the angle
   * penalty where more than two roads meet, or the U-turn cost when b runs back along a's edge. Allowed or not is
   * decided by openTurn and TurnTable.next. The wasm core (layout.rs `turn_dur`) computes the same sum.
   */
  turnDur(a: number, b: number, v: number): number {
    const s = this.signal[a] ? TRAFFIC_LIGHT_S : 0;
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

  /** The nodes' projected coordinates, metres (CostBasis.projection: made at the first A* search and kept). */
  projection(): Projection {
    return this.basis.projection();
  }
}

/**
 * The per-arc, per-node and per-edge arrays of one vehicle's ArcCosts for a weighting and avoid mask (see its fields),
 * as one thread hands them to another (exchange.ts MetricPart), and the A* bound computed with them.
 */
export interface CostArrays {
  weight: Float64Array;
  dur: Float64Array;
  outOpen: Uint8Array;
  blocked: Uint8Array;
  cross: Uint8Array;
  restricted: Uint8Array;
  boundPerMetre: number;
}

/**
 * Computes the CostArrays of vehicle `profile` on graph `g` (see ArcCosts); when `shared`, carved from one block of
 * shared memory (scratch.ts Scratch) that other threads may adopt. Given `same` (the vehicle's arrays for another
 * weighting or avoid mask), its seconds and node and edge flags are taken as they are (a weighting and an avoid mask
 * change weights alone: an arc is closed, Infinity, in both or in neither) and only the weights are computed.
 */
function computeCostArrays(
  g: RoadGraph,
  profile: number,
  weighting: Weighting,
  b: CostBasis,
  avoid: number,
  shared: boolean,
  same?: CostArrays,
): CostArrays {
  const E = g.edgeCount;
  const N = g.nodeCount;
  // Shared: one block for all of them, which another thread adopts whole. Not shared: arrays of their own (a Scratch
  // block of its own would be at least 32 MiB).
  const block = shared
    ? new Scratch(
        same ? scratchBytes([2 * E, 8]) : scratchBytes([2 * E, 8], [2 * E, 8], [N, 1], [N, 1], [N, 1], [E, 1]),
        { shared },
      )
    : null;
  const f64 = (n: number) => (block ? block.f64(n) : new Float64Array(n));
  const u8 = (n: number) => (block ? block.u8(n) : new Uint8Array(n));
  const weight = f64(2 * E),
    dur = same?.dur ?? f64(2 * E);
  const outOpen = same?.outOpen ?? u8(N),
    blocked = same?.blocked ?? u8(N),
    cross = same?.cross ?? u8(N),
    restricted = same?.restricted ?? u8(E);
  const { row, rows } = g.speeds();
  const lens = g.edgeLen,
    en = g.edgeNodes,
    lat = g.nodeLat,
    lon = g.nodeLon,
    { mPerLon, mPerLat } = b,
    fixed = g.edgeDuration;
  const fastest = weighting === 'fastest';
  // An OSM graph's seconds and weights as OSRM counts them, segment by segment (segment-seconds.ts).
  const segments = g.fromOsm && !fixed ? new SegmentLengths(g) : null;
  let bound = Infinity;
  // One pass over the edges, reading the graph's arrays through locals (the hot loop of a vehicle's first use).
  for (let e = 0; e < E; e++) {
    const len = lens[e]!;
    const o = row[e]! * SPEED_ROW;
    const pref = rows[o + PREF_AT + profile]!;
    // The edge's reach: the longer of its length and the projected chord between its nodes, metres (the
    // straight-line distance its weight covers at most, which the A* bound divides by).
    const u = en[2 * e]!,
      v = en[2 * e + 1]!;
    const dx = (lon[u]! / 1e7) * mPerLon - (lon[v]! / 1e7) * mPerLon,
      dy = (lat[u]! / 1e7) * mPerLat - (lat[v]! / 1e7) * mPerLat;
    // sqrt, not Math.hypot (ten times slower in V8): projected city-scale metres neither overflow nor underflow.
    const r = Math.max(len, Math.sqrt(dx * dx + dy * dy));
    for (let dir = 0; dir < 2; dir++) {
      const a = 2 * e + dir;
      const kmh = rows[o + profile * 2 + dir]!;
      if (kmh === 0) {
        weight[a] = Infinity;
        if (!same) dur[a] = Infinity;
        continue;
      }
      if (segments && segments.edge !== e) segments.read(e);
      const d = fixed ? fixed[e]! : segments ? segments.seconds(kmh / 3.6) : (len * 3.6) / kmh;
      if (!same) dur[a] = d;
      const w = !fastest
        ? len
        : segments
          ? segments.seconds((kmh * (pref / 100)) / 3.6) + len * TIE_PER_METRE
          : (d * 100) / pref;
      weight[a] = w;
      if (r > 0) bound = Math.min(bound, w / r);
    }
  }
  // The bound is that of the usual weights (avoiding only raises weights, so it stays a bound).
  const boundPerMetre = Number.isFinite(bound) ? bound * BOUND_SAFETY : 0;
  if (avoid !== 0) {
    const avoided = avoidedEdges(g, avoid);
    for (let a = 0; a < 2 * E; a++) if (avoided[a >> 1]) weight[a] = weight[a]! * AVOID_FACTOR;
  }
  if (same) {
    // The flags count the open arcs: shared only while the same arcs are open (a preference of 0, which no pack
    // builder writes, would close an arc to the fastest weighting alone).
    let a = 0;
    while (a < 2 * E && (weight[a] === Infinity) === (dur[a] === Infinity)) a++;
    if (a === 2 * E) return { weight, dur, outOpen, blocked, cross, restricted, boundPerMetre };
    block?.release();
    return computeCostArrays(g, profile, weighting, b, avoid, shared);
  }
  const bit = 1 << profile;
  const adjFirst = g.adjFirst,
    adjArc = g.adjArc,
    nodeBlock = g.nodeBlock;
  // One pass over the nodes: open arcs leaving each (U-turn rule), barriers, and where more than two roads meet.
  for (let v = 0; v < N; v++) {
    let open = 0;
    let roads = 0;
    for (let i = adjFirst[v]!; i < adjFirst[v + 1]!; i++) {
      const a = adjArc[i]!;
      if (weight[a] !== Infinity) open++;
      // Roads = edges open one way or the other (an edge appears once per direction leaving v; a loop twice).
      if (weight[a] !== Infinity || weight[a ^ 1] !== Infinity) roads++;
    }
    outOpen[v] = Math.min(255, open);
    blocked[v] = nodeBlock[v]! & bit ? 1 : 0;
    if (g.fromOsm) cross[v] = roads > 2 ? 1 : 0;
  }
  if (g.fromOsm) {
    const access = g.edgeRestricted;
    for (let e = 0; e < E; e++) restricted[e] = (access[e]! >> profile) & 1;
  }
  return { weight, dur, outOpen, blocked, cross, restricted, boundPerMetre };
}

/**
 * Why `made` cannot be the CostArrays of a vehicle on graph `g` (another thread's, offered for adoption: exchange.ts),
 * or null when it can: the arrays' types and lengths, and a finite bound. Equal exchange keys mean equal inputs, and
 * the costs are deterministic, so their values are not compared.
 */
export function costArraysProblem(made: CostArrays, g: RoadGraph): string | null {
  const E = g.edgeCount,
    N = g.nodeCount;
  const want: [keyof CostArrays, new (n: number) => ArrayLike<number>, number][] = [
    ['weight', Float64Array, 2 * E],
    ['dur', Float64Array, 2 * E],
    ['outOpen', Uint8Array, N],
    ['blocked', Uint8Array, N],
    ['cross', Uint8Array, N],
    ['restricted', Uint8Array, E],
  ];
  for (const [f, type, n] of want) {
    const a = made[f] as ArrayLike<number> | undefined;
    if (!(a instanceof type) || a.length !== n) return `${f} is not a ${type.name} of ${n}`;
  }
  return Number.isFinite(made.boundPerMetre) && made.boundPerMetre >= 0 ? null : 'the bound is not a finite number';
}

/**
 * What the costs of every vehicle and weighting of one graph share, computed once per graph (a Router keeps it): the
 * projection the A* bound measures in, and which arcs stop at a traffic light.
 */
export interface CostBasis {
  /** Metres per degree of longitude / latitude in the projection (equirectangular at the graph's highest latitude). */
  mPerLon: number;
  mPerLat: number;
  /**
   * Per arc: 1 when it stops at the traffic light at its head (TRAFFIC_LIGHT_S seconds), else 0 (and for graphs
   * without turn costs): every arc entering a light, or only those arriving along (forward) or against (backward)
   * the edge's way. A byte, not the seconds: lights are at a tenth of a city's nodes, on most pages of the array.
   */
  signal: Uint8Array;
  /**
   * The nodes' projected coordinates (16 B per node), made at the first call and kept: only A* searches read them
   * (ArcSearch, the WebAssembly core), not the customizable hierarchy.
   */
  projection(): Projection;
}

/** Projected node coordinates in metres (equirectangular at the graph's highest latitude, never overestimating). */
export interface Projection {
  nodeX: Float64Array;
  nodeY: Float64Array;
}

/** The CostBasis of a graph (linear in its edges; the projection, when asked for, in its nodes). */
export function costBasis(g: RoadGraph): CostBasis {
  const N = g.nodeCount;
  const E = g.edgeCount;
  const lat = g.nodeLat,
    lon = g.nodeLon;
  let maxAbsLat = 0;
  for (let v = 0; v < N; v++) maxAbsLat = Math.max(maxAbsLat, Math.abs(lat[v]! / 1e7));
  const mPerLat = (EARTH_RADIUS_M * Math.PI) / 180;
  const mPerLon = mPerLat * Math.cos((Math.min(89, maxAbsLat + 0.01) * Math.PI) / 180);
  let projected: Projection | undefined;
  const projection = () => {
    if (projected) return projected;
    const nodeX = new Float64Array(N);
    const nodeY = new Float64Array(N);
    for (let v = 0; v < N; v++) {
      nodeX[v] = (lon[v]! / 1e7) * mPerLon;
      nodeY[v] = (lat[v]! / 1e7) * mPerLat;
    }
    return (projected = { nodeX, nodeY });
  };
  const signal = new Uint8Array(2 * E);
  // An edge runs along its way from its first node to its second: arc 2e arrives at the second node going forward.
  if (g.fromOsm)
    for (let a = 0; a < 2 * E; a++) {
      const f = g.nodeFlags[arcHead(g, a)]!;
      if (!(f & TRAFFIC_SIGNALS)) continue;
      if (a & 1 ? !(f & SIGNALS_FORWARD) : !(f & SIGNALS_BACKWARD)) signal[a] = 1;
    }
  return { mPerLon, mPerLat, signal, projection };
}

/** First node of arc a (where it starts). */
export function arcTail(g: RoadGraph, a: number): number {
  return g.edgeNodes[(a & ~1) + (a & 1)]!;
}

/** Second node of arc a (where it ends). */
export function arcHead(g: RoadGraph, a: number): number {
  return g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
}
