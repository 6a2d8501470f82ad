import { expose, transfer, type Endpoint } from 'comlink';
import { createEngine } from '../../engine.js';
import { httpStatusOfBody } from '../../api/statuses.js';
import { METHOD_NAMES, type EngineApi, type EngineParams, type MethodName } from '../http/routes.js';
import type { WorkerInitOptions, WorkerRemote } from './protocol.js';

/**
 * Serves an engine over comlink on `endpoint` (a worker's global scope, or a node:worker_threads port wrapped by
 * comlink's node adapter). The engine is created inside the worker by `init`, so the packs are loaded and parsed
 * there and never cross the boundary again.
 */
export function exposeEngine(endpoint: Endpoint): void {
  let engine: EngineApi | null = null;
  const remote: WorkerRemote = {
    async init(options: WorkerInitOptions): Promise<MethodName[]> {
      engine = await createEngine({ packs: options.packs, verify: options.verify, limits: options.limits });
      return METHOD_NAMES.filter((m) => typeof engine![m] === 'function');
    },
    async callJson(method: MethodName, params: EngineParams) {
      const answer = await remote.call(method, params);
      return answer instanceof Uint8Array ? answer : { json: JSON.stringify(answer), status: httpStatusOfBody(answer) };
    },
    async call(method: MethodName, params: EngineParams): Promise<unknown> {
      if (!engine) throw new Error('the worker engine is not initialised (call init first)');
      const fn = engine[method];
      if (typeof fn !== 'function') throw new Error(`this engine has no ${method} method`);
      const answer = await fn.call(engine, params);
      if (answer instanceof Uint8Array) {
        // Transfer only a buffer the bytes own alone: a view into a larger buffer (a pack) would detach it here.
        const own = answer.byteOffset === 0 && answer.byteLength === answer.buffer.byteLength ? answer : answer.slice();
        return transfer(own, [own.buffer as ArrayBuffer]);
      }
      return answer;
    },
  };
  expose(remote, endpoint);
}
