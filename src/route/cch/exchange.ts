import type { CostArrays } from '../costs.js';
import type { CchArcs, Slots } from './arcs.js';
import type { ArcMeasures } from './measures.js';
import type { TopologyArrays } from './topology.js';

/**
 * What one router customized for a vehicle, weighting and avoid mask, as another engine's router may adopt it: the
 * kept arcs each way (CchMetric.up / .down) and the context key of the metric whose rows they leave to it (`base`:
 * CchMetric.base; '' for none), or their seconds and metres (CchMeasures.up / .down, made for distance
 * tables and trips); or what every metric of a pack customizes, its CCH's shortcut topology (CchTopology: 12 MB on a
 * whole city, made at a router's first customizable route); or the arc costs (costs.ts CostArrays) of a vehicle,
 * weighting and avoid mask, which every search of that context reads (2.7 MB on a whole city). Its arrays lie in shared memory where the platform has
 * it (scratch.ts), so passing a part to another thread of the process shares it rather than copying it.
 */
export type MetricPart =
  | { kind: 'arcs'; up: CchArcs; down: CchArcs; base: string }
  | { kind: 'measures'; up: ArcMeasures; down: ArcMeasures }
  | ({ kind: 'costs' } & CostArrays)
  | ({ kind: 'topology' } & TopologyArrays);

/**
 * How the routers of several engines of one process (`bando serve`'s worker threads: thread-protocol.ts) share the
 * metrics they customize, so that each exists once per process instead of once per engine (≈ 13 MB for the arcs and
 * 6 MB for the measures of one vehicle and weighting on a whole city, and 1.3 s of CPU), and the topology every
 * metric of a pack shares (12 MB). Keys name the pack exactly (Pack.identity, not its file name), the part, and for
 * a metric the profile (after alike.ts), the weighting and the avoid mask, so equal keys mean equal inputs and, the
 * topology and customization being deterministic, bit-identical arrays. A router asks `offer` only when it needs a
 * part it has not made, uses the offer only when it fits (topology.ts topologyProblem against its own states, arcs.ts
 * arcsProblem and measures.ts measuresProblem against its topology), and otherwise makes the part itself and
 * `published` it.
 */
export interface MetricExchange {
  /** A part another engine made under `key`, or undefined. */
  offer(key: string): MetricPart | undefined;
  /** The router adopted the part `offer(key)` gave (for counting). */
  adopted(key: string): void;
  /** The router made `part` itself, under `key`. */
  published(key: string, part: MetricPart): void;
  /**
   * Registers `arrived`, to be called with each part another engine made (under `key`) as it arrives, between calls.
   * Two engines asked for one part at once both make it (a server's workers warm up together, and a burst of
   * requests reaches both): the one whose own copy is not the one kept lets go of it for the part that arrives
   * (Router.arrived), so the process holds it once. Optional: without it each engine keeps what it made.
   */
  listen?(arrived: (key: string, part: MetricPart) => void): void;
}

/**
 * True when metric parts `a` and `b` (arcs or measures) hold the same bytes (of the same kind): either may stand for
 * the other. Topologies are not compared (false): a router keeps the one it made (Router.arrived).
 */
export function samePart(a: MetricPart, b: MetricPart): boolean {
  if (a.kind === 'arcs' && b.kind === 'arcs')
    return (
      a.base === b.base &&
      (['up', 'down'] as const).every((d) =>
        (['rowBase', 'rowOff', 'slot', 'weight', 'viaMid', 'midRank', 'mid', 'far', 'own'] as const).every((f) =>
          sameBytes(a[d][f], b[d][f]),
        ),
      )
    );
  return (
    a.kind === 'measures' &&
    b.kind === 'measures' &&
    (['up', 'down'] as const).every((d) =>
      (['stored', 'storedRank', 'values'] as const).every((f) => sameBytes(a[d][f], b[d][f])),
    )
  );
}

/**
 * True when two typed arrays of one type hold the same bytes (NaN payloads and the sign of zero included): by 4-byte
 * words (the arrays of a part start 8-aligned in their block: scratch.ts), then the last bytes of a byte array.
 */
function sameBytes(a: Slots | Float64Array, b: Slots | Float64Array): boolean {
  if (a.constructor !== b.constructor || a.length !== b.length) return false;
  const words = a.byteLength >> 2;
  const x = new Int32Array(a.buffer, a.byteOffset, words),
    y = new Int32Array(b.buffer, b.byteOffset, words);
  for (let i = 0; i < words; i++) if (x[i] !== y[i]) return false;
  const p = new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
    q = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 4 * words; i < p.length; i++) if (p[i] !== q[i]) return false;
  return true;
}

/** How many metric parts a router made itself, adopted from another engine, or refused (info().packs[i].metrics). */
export interface MetricCounts {
  /** Metrics (kept arcs) customized here, and adopted. */
  metrics: { made: number; adopted: number };
  /** Their measures (for tables of seconds and metres: DistanceMatrix) made here, and adopted. */
  measures: { made: number; adopted: number };
  /** The CCH's shortcut topology (one per pack at most) made here, and adopted. */
  topology: { made: number; adopted: number };
  /** Arc costs of a vehicle, weighting and avoid mask (in shared memory, for other engines) made here, and adopted. */
  costs: { made: number; adopted: number };
  /** Parts offered that did not fit this router's states, topology or metric: made here instead (and counted made). */
  refused: number;
}
