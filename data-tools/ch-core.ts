import { IndexHeap } from '../src/route/heap.js';
import type { LiveLists, StopRule } from './ch-graph.js';

/**
 * When contraction stops and leaves the rest as a core (searched by the query with landmarks, src/route/ch.ts): once
 * at most `fraction` of the states are left but never more than `maxStates`, at least `minStates` of them, and their
 * mean degree (live in- plus out-edges per state) has reached `degree`. Past that point each contraction adds many
 * shortcuts and needs long witness searches, while the core query gets slower as the core grows. Chosen by
 * measurement on New York as OSM (see bench/build-scale.ts; 666k edge-based states per vehicle): a 5 % core (33k
 * states) made a direction p50 5.5 ms in TypeScript against under 1 ms for a full hierarchy; contracting from 98 % to
 * 99 % of the states costs about 15 % of the whole contraction, which three vehicles' hierarchies could not afford
 * within 3 minutes on two cores. The cap: the 2 × 2 tiled NY (2.67 M states per vehicle) left cores of 47–53 k
 * states, answered in 3.9–6.7 ms (engine.direction p50); 2 % of a 4 × 4 (10.7 M states) would be 213 k states, so
 * past a size the core keeps a fixed size and the rest is contracted. That size: on the 4 × 4 a core of 50 k states
 * took 702 of a leg's 1,115 settled states (NY's 13 k core: 197 of 391); with 25 k the legs' p50 fell by 9–22 % and
 * p99 by 16–30 % (1,024 pairs per vehicle, TypeScript router, same machine), for 87 s more build (1,059 s wall
 * against 972: the tops' round 316 s against 203) and the same pack size. So past 1.25 M states. The district packs
 * that tests build (Hanoi, HCMC, Đà Lạt, Monaco, Andorra) never meet the rule: 2 % of their states is under
 * `minStates`; NY as OSM (666 k states per vehicle) keeps its 2 %.
 */
export const CORE_RULE = {
  fraction: 0.02,
  maxStates: 25_000,
  minStates: 4000,
  degree: 20,
  /** The most states a core of a graph of `states` states keeps. */
  maxLeft(states: number): number {
    return Math.min(Math.floor(this.fraction * states), this.maxStates);
  },
  /** True when contraction stops, with `left` of `states` uncontracted at `meanDegree`. */
  stop(states: number, left: number, meanDegree: number): boolean {
    return left <= this.maxLeft(states) && left >= this.minStates && meanDegree >= this.degree;
  },
  /** The contraction loop's stop (ch-wasm.ts) for a graph of `states` states, or the forced `coreSize` when ≥ 0. */
  stopRule(states: number, coreSize = -1): StopRule {
    return { coreSize, maxLeft: this.maxLeft(states), minStates: this.minStates, degree: this.degree };
  },
};

/** Landmarks of a core (fewer when the core has fewer states). */
export const LANDMARKS = 16;

/**
 * Landmark distances of a core (the uncontracted states and their live edges): `lmFrom[c * L + l]` is the weight
 * from landmark l to core state c, `lmTo[c * L + l]` from c to landmark l (Infinity when there is no path), core
 * states numbered by rank above the contracted ones. Landmarks are chosen farthest-first: each is the core state
 * farthest (to and from) from those chosen, one that none reaches counting as farthest; the first, the one farthest
 * from core state 0. Deterministic: ties go to the lower core number.
 */
export function coreLandmarks(
  core: number,
  coreOf: Int32Array,
  out: LiveLists,
  inn: LiveLists,
): { lmFrom: Float64Array; lmTo: Float64Array } {
  const L = Math.min(LANDMARKS, core);
  const fwd = coreGraph(core, coreOf, out),
    bwd = coreGraph(core, coreOf, inn);
  const lmFrom = new Float64Array(core * L),
    lmTo = new Float64Array(core * L);
  const dF = new Float64Array(core),
    dB = new Float64Array(core);
  const heap = new IndexHeap(core);
  // Separation of each state from the chosen landmarks: min over them of to + from.
  const sep = new Float64Array(core);
  dijkstra(fwd, 0, dF, heap);
  dijkstra(bwd, 0, dB, heap);
  for (let c = 0; c < core; c++) sep[c] = dF[c]! + dB[c]!;
  for (let l = 0; l < L; l++) {
    let best = 0;
    for (let c = 1; c < core; c++) if (sep[c]! > sep[best]!) best = c;
    dijkstra(fwd, best, dF, heap);
    dijkstra(bwd, best, dB, heap);
    for (let c = 0; c < core; c++) {
      lmFrom[c * L + l] = dF[c]!;
      lmTo[c * L + l] = dB[c]!;
      // The first landmark replaces the separation from state 0; a landmark's own separation is 0.
      const s = dF[c]! + dB[c]!;
      sep[c] = l === 0 ? s : Math.min(sep[c]!, s);
    }
    sep[best] = -1;
  }
  return { lmFrom, lmTo };
}

/** A core's edges (one pool's lists: out-edges, or in-edges reversed) as CSR over core numbers. */
interface CoreCsr {
  first: Uint32Array;
  head: Uint32Array;
  w: Float64Array;
}

function coreGraph(core: number, coreOf: Int32Array, pool: LiveLists): CoreCsr {
  const first = new Uint32Array(core + 1);
  const states: number[] = new Array<number>(core);
  for (let s = 0; s < coreOf.length; s++) if (coreOf[s]! >= 0) states[coreOf[s]!] = s;
  for (let c = 0; c < core; c++) first[c + 1] = first[c]! + pool.len[states[c]!]!;
  const head = new Uint32Array(first[core]!),
    w = new Float64Array(first[core]!);
  for (let c = 0; c < core; c++) {
    const s = states[c]!;
    for (let k = 0, i = pool.start[s]!; k < pool.len[s]!; k++, i++) {
      head[first[c]! + k] = coreOf[pool.other[i]!]!;
      w[first[c]! + k] = pool.w[i]!;
    }
  }
  return { first, head, w };
}

/** Plain Dijkstra from `src` over a core graph into `dist` (Infinity where unreached). */
function dijkstra(g: CoreCsr, src: number, dist: Float64Array, heap: IndexHeap): void {
  dist.fill(Infinity);
  dist[src] = 0;
  heap.clear();
  heap.push(src, 0);
  while (heap.size > 0) {
    const d = heap.minKey();
    const u = heap.pop();
    for (let i = g.first[u]!; i < g.first[u + 1]!; i++) {
      const x = g.head[i]!,
        nd = d + g.w[i]!;
      if (nd < dist[x]!) {
        dist[x] = nd;
        heap.push(x, nd);
      }
    }
  }
}
