import type { CchArcs } from './arcs.js';

/**
 * What one router customized for a vehicle, weighting and avoid mask, as another engine's router may adopt it: the
 * kept arcs each way (CchMetric.up / .down), or their seconds and metres (CchMeasures.up / .down, made for distance
 * tables and trips). Its arrays lie in shared memory where the platform has it (scratch.ts), so passing a part to
 * another thread of the process shares it rather than copying it.
 */
export type MetricPart =
  { kind: 'arcs'; up: CchArcs; down: CchArcs } | { kind: 'measures'; up: Float64Array; down: Float64Array };

/**
 * How the routers of several engines of one process (`bando serve`'s worker threads: thread-protocol.ts) share the
 * metrics they customize, so that each exists once per process instead of once per engine (≈ 19 MB for the arcs and
 * 17 MB for the measures of one vehicle and weighting on a whole city, and 1.3 s of CPU). Keys name the pack exactly
 * (Pack.identity, not its file name), the part, the profile (after alike.ts), the weighting and the avoid mask, so
 * equal keys mean equal inputs and, customization being deterministic, bit-identical arrays. A router asks `offer`
 * only when it needs a part it has not made, uses the offer only when it fits its own topology (arcs.ts
 * arcsProblem, measures.ts measuresProblem), and otherwise makes the part itself and `published` it.
 */
export interface MetricExchange {
  /** A part another engine made under `key`, or undefined. */
  offer(key: string): MetricPart | undefined;
  /** The router adopted the part `offer(key)` gave (for counting). */
  adopted(key: string): void;
  /** The router made `part` itself, under `key`. */
  published(key: string, part: MetricPart): void;
}

/** How many metric parts a router made itself, adopted from another engine, or refused (info().packs[i].metrics). */
export interface MetricCounts {
  /** Metrics (kept arcs) customized here, and adopted. */
  metrics: { made: number; adopted: number };
  /** Their measures (for tables and trips) made here, and adopted. */
  measures: { made: number; adopted: number };
  /** Parts offered that did not fit this router's topology or metric: made here instead (and counted made). */
  refused: number;
}
