/**
 * `bando/worker`: the worker entry. Start it as a module Worker in a browser (`new Worker(url, { type: 'module' })`)
 * or with node:worker_threads, then talk to it with `createWorkerEngine(worker, { packs })`.
 */
import type { Endpoint } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { exposeEngine } from './adapters/worker/expose.js';
import { isThreadWorkerData, serveEngineThread, type ThreadPort } from './adapters/worker/thread-protocol.js';
import { nodeBuiltin } from './node-builtin.js';

declare const WorkerGlobalScope: unknown;

if (typeof WorkerGlobalScope !== 'undefined') {
  exposeEngine(globalThis as unknown as Endpoint);
} else {
  const { parentPort, workerData } = nodeBuiltin('node:worker_threads') ?? {};
  if (!parentPort) throw new Error('bando/worker must run inside a Worker (browser) or a node:worker_threads Worker');
  // `bando serve --threads` starts the worker with the lean server thread protocol (see thread-protocol.ts).
  if (isThreadWorkerData(workerData)) serveEngineThread(parentPort as unknown as ThreadPort, workerData.bandoThread);
  else exposeEngine(nodeEndpoint(parentPort));
}
