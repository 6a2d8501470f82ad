/**
 * Place search latency as a user meets it, shared by bench/places.ts: the place machinery's build on a freshly
 * loaded pack (time and heap growth), the first query of a fresh engine, and warm forward geocodes and autocompletes
 * (every prefix of a query, as typed): p50, p99 and the slowest. Heap figures need `node --expose-gc` (else they are
 * left out).
 */
import { createEngine, type Engine } from '../src/engine';
import { quantile } from './stats';

/** Queries to time: whole addresses for geocode, texts typed letter by letter for autocomplete. */
export interface LatencyQueries {
  geocode: string[];
  typed: string[];
  /** Queries each timed alone as the first request of a fresh engine (places already built). */
  first: string[];
}

/** One row of timings in milliseconds. */
export interface Timing {
  calls: number;
  p50: number;
  p99: number;
  max: number;
  /** The query of the slowest call. */
  slowest: string;
}

/** What placeLatency measured: milliseconds and MB. */
export interface LatencyReport {
  /** Building the place machinery of a freshly loaded pack (the search index opened or built, its scratch state). */
  placesBuildMs: number;
  /** Heap and array-buffer growth of that build, MB (NaN without --expose-gc). */
  placesMb: number;
  /** Heap growth after the warm runs (lookup caches and indexes built at first use), MB. */
  warmMb: number;
  /** The first geocode of fresh engines: the slowest of `first`, and its query. */
  first: Timing;
  geocode: Timing;
  autocomplete: Timing;
}

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = (): number => {
  if (!gc) return NaN;
  gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1e6;
};

function timing(times: number[], queries: string[]): Timing {
  let worst = 0;
  times.forEach((t, k) => t > times[worst]! && (worst = k));
  return {
    calls: times.length,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    max: times[worst] ?? NaN,
    slowest: queries[worst] ?? '',
  };
}

/** Times `fn` on each query, in order. */
function timeEach(queries: string[], fn: (q: string) => unknown): number[] {
  return queries.map((q) => {
    const t = performance.now();
    fn(q);
    return performance.now() - t;
  });
}

/**
 * Measures place search on one pack (see the file comment). Warm runs follow a warm-up of `warmUp` geocodes.
 * @param engineOf builds an engine of the pack (another checkout's createEngine, to compare)
 */
export async function placeLatency(
  pack: Uint8Array,
  queries: LatencyQueries,
  warmUp = 200,
  engineOf: typeof createEngine = createEngine,
): Promise<LatencyReport> {
  const open = async (): Promise<Engine> => engineOf({ packs: [pack] });
  const engine = await open();
  const before = heapMb();
  const t0 = performance.now();
  void engine.places;
  const placesBuildMs = performance.now() - t0;
  const placesMb = heapMb() - before;

  const firstTimes: number[] = [];
  for (const q of queries.first) {
    const fresh = await open();
    void fresh.places;
    const t = performance.now();
    fresh.geocode({ address: q });
    firstTimes.push(performance.now() - t);
  }

  for (const q of queries.geocode.slice(0, warmUp)) engine.geocode({ address: q });
  const measured = queries.geocode.slice(warmUp);
  const geoTimes = timeEach(measured, (q) => engine.geocode({ address: q }));
  const prefixes = queries.typed.flatMap((q) => [...q].map((_, n) => [...q].slice(0, n + 1).join('')));
  const acTimes = timeEach(prefixes, (q) => engine.autocomplete({ input: q }));
  const warmMb = heapMb() - before;
  return {
    placesBuildMs,
    placesMb,
    warmMb,
    first: timing(firstTimes, queries.first),
    geocode: timing(geoTimes, measured),
    autocomplete: timing(acTimes, prefixes),
  };
}

/** The report as console.table rows. */
export function latencyRows(r: LatencyReport): Record<string, Record<string, string | number>> {
  const row = (t: Timing) => ({
    calls: t.calls,
    p50: +t.p50.toFixed(3),
    p99: +t.p99.toFixed(3),
    max: +t.max.toFixed(1),
    slowest: t.slowest,
  });
  return {
    'first geocode, fresh engine': row(r.first),
    'forward geocode (warm)': row(r.geocode),
    'autocomplete, every prefix (warm)': row(r.autocomplete),
  };
}
