/** Round-trip (asymmetric TSP) solvers over a duration table; see solve.ts for the entry point. */
export { TRIP_LIMITS } from './constants.js';
export { solveTrip, type TripSolveResult } from './solve.js';
export { bruteForce, type TripEnds } from './brute-force.js';
export { heldKarp } from './held-karp.js';
export { farthestInsertion } from './farthest-insertion.js';
export { twoOpt } from './two-opt.js';
export { orOpt } from './or-opt.js';
export { segmentSwap } from './segment-swap.js';
export { nearestSuccessors, nearestPredecessors } from './neighbours.js';
export { localSearch } from './local-search.js';
export { iteratedLocalSearch } from './iterated.js';
export { QueueSearch, type Candidates } from './queue-search.js';
export { TourState } from './tour-state.js';
export { waypointPlaceId } from './waypoint-id.js';
export { tourCost } from './tour-cost.js';
export { finiteTable, contractFixedEnds, expandFixedEnds, rotateCycle } from './transform.js';
export { findUnreachableStop } from './reachability.js';
export { mulberry32 } from './rng.js';
