import { wrap, type Endpoint, type Remote } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { SerializedBody } from '../http/responses.js';
import type { EngineParams, MethodName } from '../http/routes.js';
import type { WorkerInitOptions, WorkerRemote } from './protocol.js';

/** The engine running in a worker: the seven endpoint methods, each returning a Promise. */
export interface WorkerEngine {
  geocode(params: EngineParams): Promise<unknown>;
  autocomplete(params: EngineParams): Promise<unknown>;
  placeDetail(params: EngineParams): Promise<unknown>;
  direction(params: EngineParams): Promise<unknown>;
  distanceMatrix(params: EngineParams): Promise<unknown>;
  trip(params: EngineParams): Promise<unknown>;
  /** PNG bytes (transferred from the worker), or the JSON error body for bad input. */
  staticRoute(params: EngineParams): Promise<Uint8Array | unknown>;
  /** Calls a method and gets a body back as JSON text with its HTTP status (for servers), or PNG bytes. */
  callSerialized(method: MethodName, params: EngineParams): Promise<SerializedBody | Uint8Array>;
  /** Resolves to the methods the worker's engine has once its packs are loaded; rejects if loading failed. */
  ready: Promise<MethodName[]>;
  /** Stops the worker. */
  terminate(): void;
}

/** A browser/Deno Worker, or a node:worker_threads Worker. */
export type AnyWorker = Endpoint | { postMessage(message: unknown, transfer?: readonly unknown[]): void; on(event: string, listener: (...args: unknown[]) => void): unknown; terminate(): unknown };

/**
 * Talks to a worker started from the `bando/worker` entry (dist/worker.js). The worker loads `options.packs` (URL
 * strings, file paths in Node, or bytes, which are copied) and builds its engine; calls made before it is ready
 * wait for it. A method the worker's engine does not have rejects with an Error naming it.
 */
export function createWorkerEngine(worker: AnyWorker, options: WorkerInitOptions = {}): WorkerEngine {
  // Node's Worker is an EventEmitter; comlink speaks EventTarget, so it gets comlink's node adapter.
  const endpoint = 'addEventListener' in worker ? (worker as Endpoint) : nodeEndpoint(worker);
  const remote: Remote<WorkerRemote> = wrap<WorkerRemote>(endpoint);
  const ready = remote.init(options);
  // A failed start is reported by every call; this keeps it from being an unhandled rejection meanwhile.
  ready.catch(() => {});
  const call = (method: MethodName) => async (params: EngineParams) => {
    await ready;
    return remote.call(method, params);
  };
  return {
    geocode: call('geocode'),
    autocomplete: call('autocomplete'),
    placeDetail: call('placeDetail'),
    direction: call('direction'),
    distanceMatrix: call('distanceMatrix'),
    trip: call('trip'),
    staticRoute: call('staticRoute'),
    async callSerialized(method, params) {
      await ready;
      const r = await remote.callJson(method, params);
      return r instanceof Uint8Array ? r : new SerializedBody(r.json, r.status);
    },
    ready,
    terminate: () => void (worker as { terminate(): unknown }).terminate(),
  };
}
