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
  /** Candidate successors and predecessors per stop in the iterated local search. */
  ILS_NEIGHBOURS: 6,
  /**
   * Kicks of the iterated local search per stop (fixed work, so results never depend on the clock). Measured on
   * real road tables (12 instances each: whole HCMC at 50, 100 and 200 stops, Hanoi and Đà Lạt at 100), tours
   * after 4 kicks per stop cost on average 1.0000–1.0010 times the best of 30 kicks per stop (worst instance
   * 1.0074), after 7 per stop 1.0000–1.0007 (worst 1.0064): 7 buys at most 0.04 % on average for 1.7× the time.
   */
  ILS_KICKS_PER_STOP: 4,
  /** Longest run (stops) that one kick of the iterated local search moves. */
  ILS_KICK_SPAN: 8,
  /** Seed of the iterated local search's kicks. */
  ILS_SEED: 0x7219,
  /**
   * A local-search move is taken only when it shortens the tour by more than this fraction of the tour cost.
   * Guards termination against rounding in prefix-sum deltas.
   */
  RELATIVE_EPSILON: 1e-12,
} as const;
