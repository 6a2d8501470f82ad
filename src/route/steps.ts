import { distanceText, durationText, type TextValue } from '../api/text-value.js';
import type { ArcCosts } from './costs.js';
import { appendPoints, arcInBearing, arcOutBearing, arcPart, encodePolyline, pieceOf, type LatLon } from './geometry.js';
import { EdgeFlag } from './profiles.js';
import type { ArcPath } from './search.js';

/** One Google-style route step. */
export interface Step {
  html_instructions: string;
  /** Absent on the first step, as in Google's answers. */
  maneuver?: string;
  distance: TextValue;
  duration: TextValue;
  start_location: { lat: number; lng: number };
  end_location: { lat: number; lng: number };
  polyline: { points: string };
  travel_mode: string;
}

/** Angle (degrees) from which a change of direction at an intersection is a turn rather than going straight on. */
const TURN_DEG = 30;
const COMPASS = ['Bắc', 'Đông Bắc', 'Đông', 'Đông Nam', 'Nam', 'Tây Nam', 'Tây', 'Tây Bắc'];

interface Draft {
  kind: 'depart' | 'turn' | 'roundabout' | 'uturn' | 'straight';
  maneuver?: string;
  verb: string;
  name: string;
  exits: number;
  pts: LatLon[];
  dist: number;
  dur: number;
}

/**
 * Splits a path into steps in Vietnamese, where the street name changes or a real turn happens (a change of
 * direction of at least 30° at a node with another way out, 60° when the street stays the same), a U-turn, or a roundabout (one step from entry to
 * exit, with the exit number). The last step is the arrival ("Bạn đã đến điểm đích", zero length).
 * Right-hand traffic: U-turns are "uturn-left", roundabouts "roundabout-right".
 * `parts`: the path's arc pieces as {@link pathParts} gives them, when the caller already has them (read only).
 */
export function buildSteps(costs: ArcCosts, name: (edge: number) => string, path: ArcPath, travelMode: string, parts?: readonly LatLon[][]): Step[] {
  const g = costs.graph;
  const drafts: Draft[] = [];
  let cur: Draft | null = null;
  path.arcs.forEach((a, i) => {
    const [from, to] = pieceOf(path, i);
    const e = a >> 1;
    const pts = parts ? parts[i]! : arcPart(g, a, from, to);
    const dist = (to - from) * g.edgeLen[e]!;
    let dur = (to - from) * costs.dur[a]!;
    const nm = name(e);
    const round = (g.edgeFlags[e]! & EdgeFlag.roundabout) !== 0;
    if (!cur) {
      const b = pts.length > 1 ? arcOutBearing(g, a) : 0;
      cur = { kind: 'depart', verb: `Bắt đầu đi về hướng <b>${COMPASS[Math.round(b / 45) % 8]}</b>`, name: nm, exits: 0, pts: [], dist: 0, dur: 0 };
      drafts.push(cur);
    } else {
      const prev = path.arcs[i - 1]!;
      const v = g.edgeNodes[(a & ~1) + (a & 1)]!;
      dur += costs.turnDur(prev, a, v); // The turn onto a counts in the step that a belongs to.
      const wasRound = (g.edgeFlags[prev >> 1]! & EdgeFlag.roundabout) !== 0;
      let delta = arcOutBearing(g, a) - arcInBearing(g, prev);
      delta = ((delta + 540) % 360) - 180;
      const choice = costs.outOpen[v]! - (costs.weight[prev ^ 1] !== Infinity ? 1 : 0) >= 2;
      let next: Draft | null = null;
      if (round && !wasRound) {
        next = { kind: 'roundabout', maneuver: 'roundabout-right', verb: 'Đi vào vòng xuyến', name: nm, exits: 0, pts: [], dist: 0, dur: 0 };
      } else if (wasRound) {
        if (choice) cur.exits++;
        if (!round) cur.name = nm;
      } else if (prev >> 1 === e || Math.abs(delta) > 165) {
        next = { kind: 'uturn', maneuver: 'uturn-left', verb: 'Quay đầu', name: nm, exits: 0, pts: [], dist: 0, dur: 0 };
      } else if (choice && Math.abs(delta) >= TURN_DEG && (nm !== cur.name || Math.abs(delta) >= 60)) {
        const side = delta > 0 ? 'phải' : 'trái';
        const dir = delta > 0 ? 'right' : 'left';
        const abs = Math.abs(delta);
        const [maneuver, verb] = abs < 60 ? [`turn-slight-${dir}`, `Chếch sang ${side}`] : abs < 140 ? [`turn-${dir}`, `Rẽ ${side}`] : [`turn-sharp-${dir}`, `Rẽ ngoặt sang ${side}`];
        next = { kind: 'turn', maneuver, verb, name: nm, exits: 0, pts: [], dist: 0, dur: 0 };
      } else if (nm !== cur.name && nm !== '') {
        next = { kind: 'straight', maneuver: 'straight', verb: 'Tiếp tục đi thẳng', name: nm, exits: 0, pts: [], dist: 0, dur: 0 };
      }
      if (next) {
        next.pts.push(cur.pts[cur.pts.length - 1]!);
        cur = next;
        drafts.push(cur);
      }
    }
    appendPoints(cur.pts, pts);
    cur.dist += dist;
    cur.dur += dur;
  });
  const steps = drafts.map((d) => toStep(d, travelMode));
  const end = drafts[drafts.length - 1]!.pts;
  const last = end[end.length - 1]!;
  steps.push({
    html_instructions: 'Bạn đã đến điểm đích',
    maneuver: 'arrive',
    distance: distanceText(0),
    duration: durationText(0),
    start_location: { lat: last[0], lng: last[1] },
    end_location: { lat: last[0], lng: last[1] },
    polyline: { points: encodePolyline([last, last]) },
    travel_mode: travelMode,
  });
  return steps;
}

function toStep(d: Draft, travelMode: string): Step {
  const onto = d.name ? (d.kind === 'depart' ? ` trên <b>${d.name}</b>` : ` vào <b>${d.name}</b>`) : '';
  let html = d.verb + onto;
  if (d.kind === 'roundabout') html = `Tại vòng xuyến, đi theo lối ra thứ ${Math.max(1, d.exits)}${onto}`;
  if (d.kind === 'depart' && !d.name) html = d.verb;
  const first = d.pts[0]!;
  const last = d.pts[d.pts.length - 1]!;
  const step: Step = {
    html_instructions: html,
    distance: distanceText(d.dist),
    duration: durationText(d.dur),
    start_location: { lat: first[0], lng: first[1] },
    end_location: { lat: last[0], lng: last[1] },
    polyline: { points: encodePolyline(d.pts.length > 1 ? d.pts : [first, first]) },
    travel_mode: travelMode,
  };
  if (d.maneuver) step.maneuver = d.maneuver;
  return step;
}
