import type { TripEnds } from './brute-force.js';
import { checkpoint } from '../checkpoint.js';
import { TRIP_LIMITS } from './constants.js';
import { farthestInsertion } from './farthest-insertion.js';
import { heldKarp } from './held-karp.js';
import { iteratedLocalSearch } from './iterated.js';
import { localSearch } from './local-search.js';
import { findUnreachableStop } from './reachability.js';
import { tourCost } from './tour-cost.js';
import { contractFixedEnds, expandFixedEnds, finiteTable, rotateCycle } from './transform.js';

/** Outcome of {@link solveTrip}; failure codes are the OSRM trip codes the REST endpoint reports. */
export type TripSolveResult =
  | {
      code: 'Ok';
      /** Stops in visiting order; the trip returns from the last one to order[0]. */
      order: number[];
      /** Round-trip cost including the return leg (table unit, e.g. seconds). */
      cost: number;
    }
  | { code: 'InvalidValue' | 'TooBig' | 'NoTrips'; message: string };

/**
 * Shortest round trip over every stop of an asymmetric cost table.
 *
 * Which stop comes first:
 * - `start` given: it is order[0]; `end` given: it is order[n−1] (the trip's last leg is end → start).
 * - only `end` given: the tour is a free cycle, so the start is the stop that follows `end` in it.
 * - neither given: every rotation of the cycle costs the same; the "best" start is defined as the smallest stop
 *   index (stop 0, i.e. the first coordinate given), which keeps the answer stable.
 *
 * Method: unreachable legs become a large finite penalty ({@link finiteTable}); fixed start and end are forced by
 * contracting end → start into one node ({@link contractFixedEnds}); the resulting free cycle of m stops is solved
 * exactly by Held-Karp when m ≤ TRIP_LIMITS.N_EXACT, otherwise by farthest insertion, local search (Or-opt,
 * asymmetric 2-opt, direction-preserving segment exchange) to a local optimum, then a seeded iterated local search
 * with a fixed number of kicks (TRIP_LIMITS.ILS_KICKS_PER_STOP · m) that accepts only shorter tours, so the answer is
 * never longer than plain farthest insertion.
 * Deterministic: the same input always gives the same order.
 *
 * @param table row-major n×n costs (`table[i*n+j]` = cost i→j, e.g. seconds; Infinity = unreachable; the diagonal
 *   is ignored).
 * @param n number of stops, 1 ≤ n ≤ TRIP_LIMITS.N_MAX.
 * @param options optional fixed `start` and `end` stop indices (distinct).
 * @returns `Ok` with the order and its cost, or `InvalidValue` / `TooBig` naming the parameter, or `NoTrips` when no
 *   round trip with only finite legs exists (or, above N_EXACT, none was found). Never throws on bad input.
 */
export function solveTrip(table: Float64Array, n: number, options: TripEnds = {}): TripSolveResult {
  const invalid = validate(table, n, options);
  if (invalid) return invalid;
  const { start, end } = options;
  if (n === 1) return { code: 'Ok', order: [0], cost: 0 };

  const cut = findUnreachableStop(table, n);
  if (cut) {
    const message =
      cut.direction === 'from'
        ? `NoTrips: stop ${cut.stop} cannot be reached from stop 0`
        : `NoTrips: stop ${cut.stop} cannot reach stop 0`;
    return { code: 'NoTrips', message };
  }
  if (start !== undefined && end !== undefined && table[end * n + start] === Infinity) {
    return { code: 'NoTrips', message: `NoTrips: no leg from end (stop ${end}) back to start (stop ${start})` };
  }

  const finite = finiteTable(table, n).table;
  let order: Int32Array;
  if (start !== undefined && end !== undefined) {
    order = expandFixedEnds(solveCycle(contractFixedEnds(finite, n, start, end), n - 1), n, start, end);
  } else if (start !== undefined) {
    order = rotateCycle(solveCycle(finite, n), start, 0);
  } else if (end !== undefined) {
    order = rotateCycle(solveCycle(finite, n), end, n - 1);
  } else {
    order = rotateCycle(solveCycle(finite, n), 0, 0);
  }

  const cost = tourCost(table, n, order);
  if (cost === Infinity) {
    return { code: 'NoTrips', message: 'NoTrips: no round trip with only reachable legs was found' };
  }
  return { code: 'Ok', order: Array.from(order), cost };
}

/** Free-cycle solver choice: exact up to N_EXACT stops, heuristic above. */
function solveCycle(table: Float64Array, m: number): Int32Array {
  if (m <= TRIP_LIMITS.N_EXACT) return heldKarp(table, m);
  const first = farthestInsertion(table, m);
  checkpoint();
  const local = localSearch(table, m, first);
  checkpoint();
  return iteratedLocalSearch(table, m, local);
}

function validate(table: Float64Array, n: number, options: TripEnds): TripSolveResult | null {
  if (!Number.isInteger(n) || n < 1) {
    return { code: 'InvalidValue', message: `InvalidValue: n must be a positive integer, got ${String(n)}` };
  }
  if (n > TRIP_LIMITS.N_MAX) {
    return { code: 'TooBig', message: `TooBig: ${n} stops exceed the limit of ${TRIP_LIMITS.N_MAX}` };
  }
  if (!(table instanceof Float64Array) || table.length !== n * n) {
    return { code: 'InvalidValue', message: `InvalidValue: table must be a Float64Array of n*n = ${n * n} entries` };
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = table[i * n + j] as number;
      if (i !== j && !(v >= 0)) {
        return {
          code: 'InvalidValue',
          message: `InvalidValue: table[${i * n + j}] (${i}→${j}) must be ≥ 0 or Infinity, got ${v}`,
        };
      }
    }
  }
  for (const name of ['start', 'end'] as const) {
    const v = options[name];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v < n)) {
      return {
        code: 'InvalidValue',
        message: `InvalidValue: ${name} must be a stop index in 0..${n - 1}, got ${String(v)}`,
      };
    }
  }
  if (options.start !== undefined && options.start === options.end) {
    return { code: 'InvalidValue', message: 'InvalidValue: end must differ from start (the trip returns to start)' };
  }
  return null;
}
