import type { ArcCosts } from './costs.js';
import { encodePolylines, type PathLine } from './geometry.js';
import { EdgeFlag } from './profiles.js';
import type { ArcPath } from './search.js';
import { ANGLE_STEPS, turnSteps } from './turn-model.js';

/**
 * What a driver does at the start of a step (the word tables of src/api/guidance.ts key on it).
 * @public
 */
export type ManeuverKind = 'depart' | 'turn' | 'roundabout' | 'uturn' | 'straight' | 'arrive';

/** Which way a turn goes, and how sharply. */
export type TurnModifier = 'slight-left' | 'left' | 'sharp-left' | 'slight-right' | 'right' | 'sharp-right';

/**
 * One step of a route without words: what happens where it starts, the street it follows, its length, time and
 * line. Wording (in Vietnamese, or any other language) is the API's (src/api/guidance.ts).
 */
export interface Maneuver {
  kind: ManeuverKind;
  /** For a turn: its side and sharpness. */
  modifier?: TurnModifier;
  /** For the departure: the compass direction of the first road, 0 = north, 1 = north-east, … 7 = north-west. */
  compass?: number;
  /** For a roundabout: the exit taken, counted from 1. */
  exit?: number;
  /** The street the step follows ('' when the road has no name). */
  name: string;
  /** Metres and seconds (the turn onto the step's road counts in it; 0 for the arrival). */
  distance: number;
  duration: number;
  /** First and last point, degrees. */
  start: { lat: number; lng: number };
  end: { lat: number; lng: number };
  /** The step's stretch of the leg's line, as an encoded polyline. */
  polyline: string;
}

/** Angle (degrees) from which a change of direction at an intersection is a turn rather than going straight on. */
const TURN_DEG = 30;

interface Draft {
  kind: ManeuverKind;
  modifier?: TurnModifier;
  compass?: number;
  name: string;
  exits: number;
  /** First and last point of the step in the leg's line (indices in points). */
  first: number;
  last: number;
  dist: number;
  dur: number;
}

/**
 * Splits a path into manoeuvres where the street name changes or a real turn happens (a change of direction of at
 * least 30° at a node with another way out, 60° when the street stays the same), a U-turn, or a roundabout (one step
 * from entry to exit, with the exit number). The last one is the arrival (zero length).
 * `line`: the path's line ({@link pathLine} / legLine); each manoeuvre's polyline is a stretch of it.
 */
export function buildManeuvers(
  costs: ArcCosts,
  name: (edge: number) => string,
  path: ArcPath,
  line: PathLine,
): Maneuver[] {
  const g = costs.graph;
  const arcs = path.arcs;
  const n = arcs.length;
  const { coords, starts } = line;
  const lastPoint = coords.length / 2 - 1;
  // Perceived bearings (as the turn costs use them): 10 m along each road, so a kink at the node is not a turn.
  const bearings = costs.bearings();
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
      cur = draft('depart', nm);
      cur.compass = Math.round((bearings[a]! * 8) / ANGLE_STEPS) % 8;
      drafts.push(cur);
    } else {
      const prev = arcs[i - 1]!;
      const v = g.edgeNodes[(a & ~1) + (a & 1)]!;
      dur += costs.turnDur(prev, a, v); // The turn onto a counts in the step that a belongs to.
      const wasRound = (g.edgeFlags[prev >> 1]! & EdgeFlag.roundabout) !== 0;
      const choice = costs.outOpen[v]! - (costs.weight[prev ^ 1] !== Infinity ? 1 : 0) >= 2;
      let next: Draft | null = null;
      if (round && !wasRound) {
        next = draft('roundabout', nm);
      } else if (wasRound) {
        if (choice) cur.exits++;
        if (!round) cur.name = nm;
      } else {
        const k = turnSteps(bearings, prev, a);
        const delta = ((k > ANGLE_STEPS / 2 ? k - ANGLE_STEPS : k) * 360) / ANGLE_STEPS;
        const abs = Math.abs(delta);
        if (prev >> 1 === e || abs > 165) {
          next = draft('uturn', nm);
        } else if (choice && abs >= TURN_DEG && (nm !== cur.name || abs >= 60)) {
          const side = delta > 0 ? 'right' : 'left';
          next = draft('turn', nm);
          next.modifier = abs < 60 ? `slight-${side}` : abs < 140 ? side : `sharp-${side}`;
        } else if (nm !== cur.name && nm !== '') {
          next = draft('straight', nm);
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
  const arrival = draft('arrive', '');
  arrival.first = arrival.last = lastPoint;
  drafts.push(arrival);
  // Every step's line, and the arrival's single point, encoded in one go.
  const stretches: number[] = [];
  for (const d of drafts) stretches.push(d.first, d.last > d.first ? d.last + 1 : d.first + 1);
  const lines = encodePolylines(coords, stretches);
  const at = (k: number) => ({ lat: coords[2 * k]!, lng: coords[2 * k + 1]! });
  // One fixed shape, the optional fields always present (undefined when absent) and last, where they were added
  // before (so JSON answers are unchanged): a property added to some manoeuvres only gave them maps of their own,
  // and the code reading them was deoptimized and compiled again. Pushed, not `drafts.map`, as encodePolylines.
  const out: Maneuver[] = [];
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i]!;
    out.push({
      kind: d.kind,
      name: d.name,
      distance: d.dist,
      duration: d.dur,
      start: at(d.first),
      end: at(d.last),
      polyline: lines[i]!,
      modifier: d.modifier,
      compass: d.compass,
      exit: d.kind === 'roundabout' ? Math.max(1, d.exits) : undefined,
    });
  }
  return out;
}

/** A draft of one fixed shape (see the manoeuvres above): modifier and compass are set later on some. */
function draft(kind: ManeuverKind, name: string): Draft {
  return { kind, modifier: undefined, compass: undefined, name, exits: 0, first: 0, last: 0, dist: 0, dur: 0 };
}
