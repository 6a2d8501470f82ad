/** Round-trip (asymmetric TSP) solvers over a duration table; see solve.ts for the entry point. */
export { TRIP_LIMITS } from './constants.js';
export { solveTrip } from './solve.js';
export { bruteForce } from './brute-force.js';
export { heldKarp } from './held-karp.js';
export { farthestInsertion } from './farthest-insertion.js';
export { twoOpt } from './two-opt.js';
export { orOpt } from './or-opt.js';
export { segmentSwap } from './segment-swap.js';
export { nearestSuccessors } from './neighbours.js';
export { localSearch } from './local-search.js';
export { iteratedLocalSearch } from './iterated.js';
export { TourState } from './tour-state.js';
export { tourCost } from './tour-cost.js';
export { finiteTable, contractFixedEnds, expandFixedEnds, rotateCycle } from './transform.js';
export { mulberry32 } from './rng.js';
