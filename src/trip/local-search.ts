import { TRIP_LIMITS } from './constants.js';
import { nearestSuccessors } from './neighbours.js';
import { orOptPass } from './or-opt.js';
import { segmentSwapPass } from './segment-swap.js';
import { twoOptPass } from './two-opt.js';
import { untilStable } from './until-stable.js';

/**
 * Alternates Or-opt, asymmetric 2-opt and segment-exchange (direction-preserving 3-opt on candidate lists) sweeps
 * until none improves.
 * Deterministic; pure: the input order is not modified.
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`, e.g. seconds), finite.
 * @param n number of stops.
 * @param order a cyclic order over all n stops.
 * @returns the improved cyclic order (a new array), never costlier than the input.
 */
export function localSearch(table: Float64Array, n: number, order: ArrayLike<number>): Int32Array {
  const tour = Int32Array.from(order);
  const m = tour.length;
  const fwd = new Float64Array(m + 1);
  const bwd = new Float64Array(m + 1);
  const scratch = new Int32Array(m);
  const pos = new Int32Array(n);
  const candidates = nearestSuccessors(table, n, TRIP_LIMITS.NEIGHBOURS);
  return untilStable(table, n, tour, (tolerance) => {
    const moved = orOptPass(table, n, tour, scratch, tolerance);
    const flipped = twoOptPass(table, n, tour, fwd, bwd, tolerance);
    const swapped = segmentSwapPass(table, n, tour, candidates, pos, scratch, tolerance);
    return moved || flipped || swapped;
  });
}
