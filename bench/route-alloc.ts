/**
 * Bytes allocated per route answer in an engine thread (issue 13: each scavenge that these bytes cause is a pause in
 * which the thread answers nothing): the engine's answer object, then its JSON text, then the UTF-8 bytes posted to
 * the serving thread, over the 500 random Hanoi routes of bench/ops.ts part 1. Counted by V8's sampling heap
 * profiler (every 128 bytes on average, objects freed by any collection included), so the count does not depend on
 * when collections happen. With BENCH_ALLOC_BASELINE=<another checkout with node_modules>, that checkout's engine is
 * measured the same way in the same process, interleaved.
 * Run: npx tsx bench/route-alloc.ts
 */
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { createEngine } from '../src/engine.js';
import type { EngineApi } from '../src/adapters/http/routes.js';
import { median, table } from './stats.js';

const BASELINE = process.env.BENCH_ALLOC_BASELINE;
const ROUNDS = 3;

let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pt = () => `${(21.005 + rnd() * 0.04).toFixed(5)},${(105.815 + rnd() * 0.05).toFixed(5)}`;
const ROUTES = Array.from({ length: 500 }, () => ({ origin: pt(), destination: pt() }));
const utf8 = new TextEncoder();

const engines: [string, EngineApi][] = [['this checkout', await createEngine()]];
if (BASELINE) {
  const old = (await import(join(BASELINE, 'src/engine.ts'))) as { createEngine: typeof createEngine };
  engines.push(['baseline', await old.createEngine()]);
}
const session = new Session();
session.connect();

/** Sampled bytes allocated while `work` runs once per route, per route. */
async function allocated(work: (q: (typeof ROUTES)[number]) => unknown): Promise<number> {
  for (const q of ROUTES) work(q); // warm: lazy indexes, JIT
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 128,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (const q of ROUTES) work(q);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  type Node = (typeof profile)['head'];
  const total = (n: Node): number => n.children.reduce((sum, c) => sum + total(c), n.selfSize);
  return total(profile.head) / ROUTES.length;
}

const kb: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++)
  for (const [name, e] of engines) {
    const parts: [string, (q: (typeof ROUTES)[number]) => unknown][] = [
      ['answer object', (q) => e.direction!(q)],
      ['+ JSON text', (q) => JSON.stringify(e.direction!(q))],
      ['+ UTF-8 bytes (as posted)', (q) => utf8.encode(JSON.stringify(e.direction!(q)))],
    ];
    for (const [part, work] of parts) (kb[`${name}|${part}`] ??= []).push((await allocated(work)) / 1024);
  }
table(
  `KB allocated per route answer (500 random Hanoi routes, sampling heap profiler, median of ${ROUNDS} interleaved rounds)`,
  Object.entries(kb).map(([k, v]) => {
    const [engine, part] = k.split('|');
    return { engine: engine!, part: part!, KB: Math.round(median(v) * 10) / 10 };
  }),
);
session.disconnect();
