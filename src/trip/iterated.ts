import { TRIP_LIMITS } from './constants.js';
import { nearestPredecessors, nearestSuccessors } from './neighbours.js';
import { QueueSearch } from './queue-search.js';
import { mulberry32 } from './rng.js';
import { TourState } from './tour-state.js';
import { checkpoint } from '../checkpoint.js';

/**
 * Iterated local search, deterministic: from `order`, a queue-driven local search (Or-opt, asymmetric 2-opt,
 * segment exchange; see {@link QueueSearch}) to a local optimum, then `kicks` rounds of: a seeded random local
 * "double bridge" (three consecutive short runs B C D of the tour reordered as D C B, directions kept, so no single
 * move of the local search undoes it), local search from the stops it touched, and acceptance only when the tour
 * got shorter (otherwise the previous tour is restored). The number of rounds is fixed by the caller, never by a
 * clock, so the same input always gives the same answer; the result is never costlier than `order`.
 *
 * @param table row-major n×n costs (cost i→j at `i*n+j`, e.g. seconds), finite.
 * @param n number of stops.
 * @param order a cyclic order over all n stops.
 * @param options `kicks` (default TRIP_LIMITS.ILS_KICKS_PER_STOP · n), `seed` (default TRIP_LIMITS.ILS_SEED).
 * @returns the improved cyclic order (a new array).
 */
export function iteratedLocalSearch(
  table: Float64Array,
  n: number,
  order: ArrayLike<number>,
  options: { kicks?: number; seed?: number } = {},
): Int32Array {
  if (n < 5) return Int32Array.from(order);
  const k = TRIP_LIMITS.ILS_NEIGHBOURS;
  const cand = {
    succ: nearestSuccessors(table, n, k).list,
    pred: nearestPredecessors(table, n, k).list,
    k: Math.min(k, n - 1),
  };
  const current = new TourState(table, n, order);
  const best = new TourState(table, n, order);
  const search = new QueueSearch(current, cand);
  const tolerance = TRIP_LIMITS.RELATIVE_EPSILON * Math.abs(current.cost);
  search.pushAll();
  search.run(tolerance);
  if (current.cost < best.cost) best.copyFrom(current);
  const rnd = mulberry32(options.seed ?? TRIP_LIMITS.ILS_SEED);
  const kicks = options.kicks ?? TRIP_LIMITS.ILS_KICKS_PER_STOP * n;
  // Runs of 1…span stops: local kicks keep the rest of a good tour intact.
  const span = Math.max(1, Math.min(TRIP_LIMITS.ILS_KICK_SPAN, Math.floor((n - 1) / 3)));
  for (let round = 0; round < kicks; round++) {
    checkpoint();
    const s = Math.floor(rnd() * n);
    const l1 = 1 + Math.floor(rnd() * span);
    const l2 = 1 + Math.floor(rnd() * span);
    const l3 = 1 + Math.floor(rnd() * span);
    const l = l1 + l2 + l3;
    // The stops at the four cut arcs become active.
    search.push(current.at(s - 1));
    search.push(current.at(s));
    search.push(current.at(s + l1 - 1));
    search.push(current.at(s + l1));
    search.push(current.at(s + l1 + l2 - 1));
    search.push(current.at(s + l1 + l2));
    search.push(current.at(s + l - 1));
    search.push(current.at(s + l));
    current.begin();
    current.piece(s + l1 + l2, l3);
    current.piece(s + l1, l2);
    current.piece(s, l1);
    current.commit(s);
    search.run(tolerance);
    if (current.cost < best.cost - tolerance) best.copyFrom(current);
    else current.copyFrom(best);
  }
  return Int32Array.from(best.order);
}
