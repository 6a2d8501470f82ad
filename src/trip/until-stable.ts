import { TRIP_LIMITS } from './constants.js';
import { tourCost } from './tour-cost.js';
import { checkpoint } from '../checkpoint.js';

/**
 * Repeats an improvement sweep on `tour` (in place) while it reports a change AND the recomputed tour cost drops by
 * more than the tolerance. The second condition is a termination guarantee independent of the sweeps' own delta
 * arithmetic: the loop can never cycle, even on rounding ties.
 *
 * @param sweep one improvement sweep over `tour`, given the move tolerance (table unit); returns whether it moved.
 * @returns `tour`.
 */
export function untilStable(
  table: Float64Array,
  n: number,
  tour: Int32Array,
  sweep: (tolerance: number) => boolean,
): Int32Array {
  let cost = tourCost(table, n, tour);
  // Fixed from the starting cost: every accepted move shortens the tour by more than this.
  const tolerance = TRIP_LIMITS.RELATIVE_EPSILON * Math.abs(cost);
  while (sweep(tolerance)) {
    checkpoint();
    const next = tourCost(table, n, tour);
    if (!(next < cost - tolerance)) break;
    cost = next;
  }
  return tour;
}
