/**
 * Every threshold of the trip solver, in one place.
 *
 * Sizes count stops (rows of the duration table). Tolerances are relative to a tour cost (same unit as the table,
 * e.g. seconds).
 */
export const TRIP_LIMITS = {
  /** Largest cycle (after the fixed-ends contraction) solved exactly by Held-Karp; above it, heuristics. */
  N_EXACT: 13,
  /** Largest n that {@link bruteForce} accepts (n! / n permutations; 9 stops = 40 320 tours). */
  N_BRUTE_FORCE: 9,
  /** Largest number of stops `solveTrip` accepts; above it the answer is `TooBig`. */
  N_MAX: 500,
  /** Candidate successors per stop for the segment-exchange (direction-preserving 3-opt) move. */
  NEIGHBOURS: 10,
  /**
   * A local-search move is taken only when it shortens the tour by more than this fraction of the tour cost.
   * Guards termination against rounding in prefix-sum deltas.
   */
  RELATIVE_EPSILON: 1e-12,
} as const;
