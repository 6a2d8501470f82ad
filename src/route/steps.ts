import { distanceText, durationText, type TextValue } from '../text/text-value.js';
import type { ArcCosts } from './costs.js';
import { encodePolylines, type PathLine } from './geometry.js';
import { EdgeFlag } from './profiles.js';
import type { ArcPath } from './search.js';
import { ANGLE_STEPS, arcBearings, turnSteps } from './turn-model.js';

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
  /** First and last point of the step in the leg's line (indices in points). */
  first: number;
  last: number;
  dist: number;
  dur: number;
}

/**
 * Splits a path into steps in Vietnamese, where the street name changes or a real turn happens (a change of
 * direction of at least 30° at a node with another way out, 60° when the street stays the same), a U-turn, or a
 * roundabout (one step from entry to exit, with the exit number). The last step is the arrival ("Bạn đã đến điểm
 * đích", zero length). Right-hand traffic: U-turns are "uturn-left", roundabouts "roundabout-right".
 * `line`: the path's line ({@link pathLine}); each step's polyline is a stretch of it.
 */
export function buildSteps(costs: ArcCosts, name: (edge: number) => string, path: ArcPath, travelMode: string, line: PathLine): Step[] {
  const g = costs.graph;
  const arcs = path.arcs;
  const n = arcs.length;
  const { coords, starts } = line;
  const lastPoint = coords.length / 2 - 1;
  // Perceived bearings (as the turn costs use them): 10 m along each road, so a kink at the node is not a turn.
  const bearings = arcBearings(g);
  const drafts: Draft[] = [];
  let cur: Draft | null = null;
  for (let i = 0; i < n; i++) {
    const a = arcs[i]!;
    const from = i === 0 ? path.from : 0;
    const to = i === n - 1 ? path.to : 1;
    const e = a >> 1;
    let dur = (to - from) * costs.dur[a]!;
    const nm = name(e);
    const round = (g.edgeFlags[e]! & EdgeFlag.roundabout) !== 0;
    if (!cur) {
      const compass = Math.round((bearings[a]! * 8) / ANGLE_STEPS) % 8;
      cur = { kind: 'depart', verb: `Bắt đầu đi về hướng <b>${COMPASS[compass]}</b>`, name: nm, exits: 0, first: 0, last: 0, dist: 0, dur: 0 };
      drafts.push(cur);
    } else {
      const prev = arcs[i - 1]!;
      const v = g.edgeNodes[(a & ~1) + (a & 1)]!;
      dur += costs.turnDur(prev, a, v); // The turn onto a counts in the step that a belongs to.
      const wasRound = (g.edgeFlags[prev >> 1]! & EdgeFlag.roundabout) !== 0;
      const choice = costs.outOpen[v]! - (costs.weight[prev ^ 1] !== Infinity ? 1 : 0) >= 2;
      let next: Draft | null = null;
      if (round && !wasRound) {
        next = draft('roundabout', 'roundabout-right', 'Đi vào vòng xuyến', nm);
      } else if (wasRound) {
        if (choice) cur.exits++;
        if (!round) cur.name = nm;
      } else {
        const k = turnSteps(bearings, prev, a);
        const delta = ((k > ANGLE_STEPS / 2 ? k - ANGLE_STEPS : k) * 360) / ANGLE_STEPS;
        const abs = Math.abs(delta);
        if (prev >> 1 === e || abs > 165) {
          next = draft('uturn', 'uturn-left', 'Quay đầu', nm);
        } else if (choice && abs >= TURN_DEG && (nm !== cur.name || abs >= 60)) {
          const side = delta > 0 ? 'phải' : 'trái';
          const dir = delta > 0 ? 'right' : 'left';
          next = abs < 60 ? draft('turn', `turn-slight-${dir}`, `Chếch sang ${side}`, nm) : abs < 140 ? draft('turn', `turn-${dir}`, `Rẽ ${side}`, nm) : draft('turn', `turn-sharp-${dir}`, `Rẽ ngoặt sang ${side}`, nm);
        } else if (nm !== cur.name && nm !== '') {
          next = draft('straight', 'straight', 'Tiếp tục đi thẳng', nm);
        }
      }
      if (next) {
        // The new step starts where the previous one ends: the node between the two arcs.
        cur.last = starts[i]!;
        next.first = starts[i]!;
        cur = next;
        drafts.push(cur);
      }
    }
    cur.dist += (to - from) * g.edgeLen[e]!;
    cur.dur += dur;
  }
  cur!.last = lastPoint;
  // Every step's line, and the arrival's single point, encoded in one go.
  const stretches: number[] = [];
  for (const d of drafts) stretches.push(d.first, d.last > d.first ? d.last + 1 : d.first + 1);
  stretches.push(lastPoint, lastPoint + 1);
  const lines = encodePolylines(coords, stretches);
  const steps = drafts.map((d, i) => toStep(d, coords, lines[i]!, travelMode));
  const lat = coords[2 * lastPoint]!;
  const lng = coords[2 * lastPoint + 1]!;
  steps.push({
    html_instructions: 'Bạn đã đến điểm đích',
    maneuver: 'arrive',
    distance: distanceText(0),
    duration: durationText(0),
    start_location: { lat, lng },
    end_location: { lat, lng },
    polyline: { points: lines[drafts.length]! },
    travel_mode: travelMode,
  });
  return steps;
}

function draft(kind: Draft['kind'], maneuver: string, verb: string, name: string): Draft {
  return { kind, maneuver, verb, name, exits: 0, first: 0, last: 0, dist: 0, dur: 0 };
}

function toStep(d: Draft, coords: readonly number[], points: string, travelMode: string): Step {
  const onto = d.name ? (d.kind === 'depart' ? ` trên <b>${d.name}</b>` : ` vào <b>${d.name}</b>`) : '';
  let html = d.verb + onto;
  if (d.kind === 'roundabout') html = `Tại vòng xuyến, đi theo lối ra thứ ${Math.max(1, d.exits)}${onto}`;
  if (d.kind === 'depart' && !d.name) html = d.verb;
  const step: Step = {
    html_instructions: html,
    distance: distanceText(d.dist),
    duration: durationText(d.dur),
    start_location: { lat: coords[2 * d.first]!, lng: coords[2 * d.first + 1]! },
    end_location: { lat: coords[2 * d.last]!, lng: coords[2 * d.last + 1]! },
    polyline: { points },
    travel_mode: travelMode,
  };
  if (d.maneuver) step.maneuver = d.maneuver;
  return step;
}
