/**
 * OSRM's car turn model (profiles/car.lua `process_turn`, applied by osrm-backend
 * src/extractor/edge_based_graph_factory.cpp), used for every vehicle of OSM packs:
 *   duration = (traffic light at the node that stops vehicles arriving this way ? 2 s : 0)
 *            + (number_of_roads > 2 or U-turn ? sigmoid(angle) : 0) + (U-turn ? 20 s : 0)
 *   sigmoid(angle ≥ 0) = 7.5 / (1 + exp(-((13 / bias) · angle / 180 − 6.5 · bias)))
 *   sigmoid(angle < 0) = 7.5 / (1 + exp(-((13 · bias) · −angle / 180 − 6.5 / bias)))
 * with bias 1.075 (right-hand traffic: right turns are cheaper), angle in (−180, 180], 0 = straight on, positive =
 * right, a U-turn at 180. number_of_roads counts the roads at the node the vehicle may drive in some direction,
 * the incoming one included (OSRM: legs on the right + legs on the left + 2 − is_uturn = all connected roads).
 * Angles are measured between perceived bearings as OSRM's intersection analysis does: from the node to the point
 * BEARING_LOOKAHEAD_M along each road (OSRM takes a representative coordinate about 10 m along the road, the far end
 * of shorter segments; 2 m along a roundabout's), here within the edge's own geometry. Bearings are rounded to
 * 1/1024 of a turn and the penalty is looked up per rounded angle, so searches do no trigonometry. A turn's seconds
 * are kept in whole deciseconds, truncated, as OSRM stores them.
 */
import { EARTH_RADIUS_M } from '../geo.js';
import type { RoadGraph } from './graph.js';
import { EdgeFlag } from './profiles.js';

/** Maximum angle penalty, seconds (car.lua `turn_penalty`). */
const TURN_PENALTY_S = 7.5;
/** Right-hand traffic bias (car.lua `turn_bias`). */
const TURN_BIAS = 1.075;
/** Extra seconds of a U-turn (car.lua `u_turn_penalty`). */
const U_TURN_PENALTY_S = 20;
/** Seconds of passing a traffic light (car.lua `traffic_light_penalty`). */
export const TRAFFIC_LIGHT_S = 2;
/**
 * Turn weight (not seconds) of entering a road restricted to local access (access=destination-style) from one that
 * is not: OSRM car.lua gives such turns `constants.max_turn_weight` with its 'routability' weight, which is the
 * largest turn penalty OSRM stores (int16 in tenths: 32767 / 10), so these roads serve only the start or end of a route.
 */
export const RESTRICTED_TURN_WEIGHT = 3276.7;
/** Metres along a road to the point its bearing at a node is measured to. */
const BEARING_LOOKAHEAD_M = 10;
/**
 * Metres along a roundabout's road (junction=roundabout or circular) instead: OSRM's coordinate extractor takes the
 * point 2 m along it (`skipping_inaccuracies_distance`), since 10 m along a small circle turns far from its start.
 */
const ROUNDABOUT_LOOKAHEAD_M = 2;
/** Steps of a full turn that bearings and angles are rounded to. */
export const ANGLE_STEPS = 1024;

/** car.lua's sigmoid penalty in seconds of a turn by `angle` degrees (0 straight, positive right, ±180 back). */
function anglePenalty(angle: number): number {
  return angle >= 0
    ? TURN_PENALTY_S / (1 + Math.exp(-(((13 / TURN_BIAS) * angle) / 180 - 6.5 * TURN_BIAS)))
    : TURN_PENALTY_S / (1 + Math.exp(-((13 * TURN_BIAS * -angle) / 180 - 6.5 / TURN_BIAS)));
}

/**
 * A turn's seconds as OSRM keeps them: whole deciseconds, truncated (edge_based_graph_factory.cpp casts
 * `turn.duration * 10` to an integer), so a turn straight on costs nothing, not 0.007 s at each of a route's hundreds
 * of crossings. The traffic light's and the U-turn's seconds are whole deciseconds, so truncating the angle's part
 * alone truncates the sum.
 */
function stored(seconds: number): number {
  return Math.trunc(seconds * 10) / 10;
}

/** Penalty in seconds per rounded angle step k (angle k · 360 / ANGLE_STEPS, taken in (−180, 180]), as stored. */
export function anglePenaltyTable(): Float64Array {
  const t = new Float64Array(ANGLE_STEPS);
  for (let k = 0; k < ANGLE_STEPS; k++) {
    const deg = (k * 360) / ANGLE_STEPS;
    t[k] = stored(anglePenalty(deg > 180 ? deg - 360 : deg));
  }
  return t;
}

/** Seconds of a U-turn, as stored: the angle penalty of 180° and U_TURN_PENALTY_S. */
export function uTurnSeconds(): number {
  return stored(anglePenalty(180)) + U_TURN_PENALTY_S;
}

/**
 * Angle of the turn from arc a (entering a node) on to arc b (leaving it) in steps of 1/ANGLE_STEPS turn, in
 * 0..ANGLE_STEPS − 1: 0 straight on, ANGLE_STEPS / 4 a right angle to the right, ANGLE_STEPS / 2 back, 3/4 left.
 * `bearings`: {@link arcBearings}.
 */
export function turnSteps(bearings: Uint16Array, a: number, b: number): number {
  return (bearings[b]! - bearings[a ^ 1]! + ANGLE_STEPS / 2) & (ANGLE_STEPS - 1);
}

/** The graph arrays a bearing needs: nodes, edge ends and shapes (a RoadGraph, or the builder's GraphArrays). */
export type BearingGraph = Pick<
  RoadGraph,
  'nodeLat' | 'nodeLon' | 'edgeNodes' | 'edgeShape' | 'shapeLat' | 'shapeLon' | 'edgeFlags'
>;

/**
 * Per arc (edge * 2 + dir): the bearing with which it leaves its tail (see computeArcBearings). Packs store them
 * (section `graph.arc.bearing`, written by the builder), so a big graph does not spend seconds on them at its first
 * route; for packs without the section they are computed here: the owner keeps the result (a Router for its engine,
 * the pack builder for its build).
 */
export function arcBearings(g: RoadGraph): Uint16Array {
  return g.arcBearing ?? computeArcBearings(g);
}

/**
 * Per arc (edge * 2 + dir): the bearing with which it leaves its tail, from the tail to the point
 * BEARING_LOOKAHEAD_M along it (ROUNDABOUT_LOOKAHEAD_M on a roundabout; its head when shorter), in steps of
 * 1/ANGLE_STEPS turn clockwise from north.
 * The bearing with which arc a enters its head is that of a ^ 1 turned by half a turn (linear in the graph's points).
 */
export function computeArcBearings(g: BearingGraph): Uint16Array<ArrayBuffer> {
  const edgeCount = g.edgeNodes.length >> 1;
  const out = new Uint16Array(2 * edgeCount);
  const lat: number[] = [],
    lon: number[] = [];
  for (let e = 0; e < edgeCount; e++) {
    const u = g.edgeNodes[2 * e]!,
      v = g.edgeNodes[2 * e + 1]!;
    lat.length = 0;
    lon.length = 0;
    lat.push(g.nodeLat[u]! / 1e7);
    lon.push(g.nodeLon[u]! / 1e7);
    for (let s = g.edgeShape.at(e); s < g.edgeShape.at(e + 1); s++) {
      lat.push(g.shapeLat[s]! / 1e7);
      lon.push(g.shapeLon[s]! / 1e7);
    }
    lat.push(g.nodeLat[v]! / 1e7);
    lon.push(g.nodeLon[v]! / 1e7);
    const metres = g.edgeFlags[e]! & EdgeFlag.roundabout ? ROUNDABOUT_LOOKAHEAD_M : BEARING_LOOKAHEAD_M;
    out[2 * e] = lookahead(lat, lon, 1, metres);
    out[2 * e + 1] = lookahead(lat, lon, -1, metres);
  }
  return out;
}

/**
 * Rounded bearing from the first point (step 1) or last point (step −1) of a line (degrees) to the point `metres`
 * along it, in a flat projection at that point (metres, longitude scaled by its latitude's cosine).
 */
function lookahead(lat: number[], lon: number[], step: 1 | -1, metres: number): number {
  const n = lat.length;
  const rad = Math.PI / 180;
  const i0 = step === 1 ? 0 : n - 1;
  const cos = Math.cos(lat[i0]! * rad);
  const x = (i: number) => lon[i]! * rad * EARTH_RADIUS_M * cos;
  const y = (i: number) => lat[i]! * rad * EARTH_RADIUS_M;
  const x0 = x(i0),
    y0 = y(i0);
  let left = metres;
  let tx = x(n - 1 - i0),
    ty = y(n - 1 - i0);
  for (let i = i0; i + step >= 0 && i + step < n; i += step) {
    const dx = x(i + step) - x(i),
      dy = y(i + step) - y(i);
    const d = Math.hypot(dx, dy);
    if (d > 0 && d >= left) {
      tx = x(i) + (left / d) * dx;
      ty = y(i) + (left / d) * dy;
      break;
    }
    left -= d;
  }
  const deg = Math.atan2(tx - x0, ty - y0) / rad;
  return Math.round((deg * ANGLE_STEPS) / 360) & (ANGLE_STEPS - 1);
}
