/**
 * A worker entry for pool tests: the real engine behind the real server thread protocol, except that any call with a
 * `hold` parameter first blocks its thread (as a runaway computation does) until the file named by `hold` exists, or
 * until the call is abandoned.
 * The test decides when, or whether, a call ends, so time-limit tests never race the engine's speed.
 */
import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { checkpoint } from '../../src/checkpoint.js';
import { createEngine } from '../../src/engine.js';
import { METHOD_NAMES, type EngineApi, type EngineParams } from '../../src/adapters/http/routes.js';
import { isThreadWorkerData, serveEngineThread, type ThreadPort } from '../../src/adapters/worker/thread-protocol.js';

if (!parentPort || !isThreadWorkerData(workerData)) throw new Error('holding-worker runs under createThreadPool');

const tick = new Int32Array(new SharedArrayBuffer(4));

/**
 * Blocks this thread until `path` exists, checking every 5 ms (Atomics.wait: no busy loop, and terminate() works),
 * as a long computation with a checkpoint (src/checkpoint.ts) every 5 ms: an abandoned call stops there.
 */
function holdUntil(path: string): void {
  while (!existsSync(path)) {
    checkpoint();
    Atomics.wait(tick, 0, 0, 5);
  }
}

serveEngineThread(parentPort as unknown as ThreadPort, workerData.bandoThread, async (init, metrics) => {
  const engine = await createEngine({ packs: init.packs, verify: init.verify, limits: init.limits, metrics });
  const held: EngineApi = {};
  for (const m of METHOD_NAMES) {
    const fn = engine[m] as ((params: EngineParams) => unknown) | undefined;
    if (typeof fn !== 'function') continue;
    held[m] = ((params: EngineParams) => {
      const { hold, ...rest } = params;
      if (typeof hold === 'string') holdUntil(hold);
      return fn.call(engine, rest);
    }) as never;
  }
  // The engine's info lets the worker warm up as the shipped one does (see warm-up.ts).
  return Object.assign(held, { info: () => engine.info() });
});
