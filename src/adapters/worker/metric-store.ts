import type { MetricPart } from '../../route/cch/exchange.js';
import { AVOID_CONTEXTS_KEPT } from '../../route/router.js';
import { PROFILE_COUNT } from '../../route/profiles.js';

/**
 * Parts a store keeps at most: what one router keeps of one pack at most (arcs, measures and arc costs for each
 * vehicle and weighting, and for the AVOID_CONTEXTS_KEPT contexts that avoid road kinds). Parts of contexts no worker
 * keeps any more drop out least recently used first; a worker that needs one again makes it.
 */
export const METRIC_PARTS_KEPT = 3 * (2 * PROFILE_COUNT + AVOID_CONTEXTS_KEPT);

/**
 * The customized metric parts (and arc costs) of a server's engine threads (route/cch/exchange.ts), by exchange key, least recently
 * stored or offered first, at most METRIC_PARTS_KEPT: the serving thread's (which forwards each part to the other
 * workers and gives them all to a replacement worker) and each worker's (what the others made, offered to its router).
 * Topologies are kept apart and never dropped: every worker's router needs its pack's, and there is one per pack a
 * server serves (fixed when it starts). Parts live in shared memory, so every store and router holding a part holds
 * the same bytes.
 */
export class MetricStore {
  private readonly parts = new Map<string, MetricPart>();
  private readonly topologies = new Map<string, MetricPart>();

  /** The part stored under `key` (a metric part marked used last), or undefined. */
  get(key: string): MetricPart | undefined {
    const topology = this.topologies.get(key);
    if (topology) return topology;
    const part = this.parts.get(key);
    if (part) this.put(key, part);
    return part;
  }

  /**
   * Stores `part` under `key` (a metric part used last, dropping the least recently used beyond METRIC_PARTS_KEPT; a
   * topology kept).
   */
  put(key: string, part: MetricPart): void {
    if (part.kind === 'topology') return void this.topologies.set(key, part);
    this.parts.delete(key);
    this.parts.set(key, part);
    for (const old of this.parts.keys()) {
      if (this.parts.size <= METRIC_PARTS_KEPT) break;
      this.parts.delete(old);
    }
  }

  /** True when a part is stored under `key`. */
  has(key: string): boolean {
    return this.topologies.has(key) || this.parts.has(key);
  }

  /** Parts stored, topologies included. */
  get size(): number {
    return this.topologies.size + this.parts.size;
  }

  /** The stored parts: the topologies, then the metric parts least recently used first. */
  *entries(): IterableIterator<[string, MetricPart]> {
    yield* this.topologies.entries();
    yield* this.parts.entries();
  }
}
