import { wrap, type Endpoint, type Remote } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { SerializedBody } from '../http/responses.js';
import type { EngineParams, MethodName } from '../http/routes.js';
import type { WorkerInitOptions, WorkerRemote } from './protocol.js';
import { rawParams, type Query } from '../../api/param-types.js';
import type { AutocompleteParams } from '../../api/autocomplete.js';
import type { DirectionParams, DirectionResponse } from '../../api/direction.js';
import type { GeocodeParams } from '../../api/geocode.js';
import type { MatrixParams, MatrixResponse } from '../../api/matrix.js';
import type { PlaceDetailParams } from '../../api/place-detail.js';
import type { AutocompleteResponse, GeocodeResponse, PlaceDetailResponse } from '../../api/place-shapes.js';
import type { StaticRouteError, StaticRouteQuery } from '../../api/static-route.js';
import type { TripParams, TripResponse } from '../../api/trip.js';

/** The engine running in a worker: the seven endpoint methods of `Engine`, each returning a Promise. */
export interface WorkerEngine {
  geocode(params: Query<GeocodeParams>): Promise<GeocodeResponse>;
  autocomplete(params: Query<AutocompleteParams>): Promise<AutocompleteResponse>;
  placeDetail(params: Query<PlaceDetailParams>): Promise<PlaceDetailResponse>;
  direction(params: Query<DirectionParams>): Promise<DirectionResponse>;
  distanceMatrix(params: Query<MatrixParams>): Promise<MatrixResponse>;
  trip(params: Query<TripParams>): Promise<TripResponse>;
  /** PNG bytes (transferred from the worker), or the JSON error body for bad input. */
  staticRoute(params: Query<StaticRouteQuery>): Promise<Uint8Array | StaticRouteError>;
  /** Calls a method and gets a body back as JSON text with its HTTP status (for servers), or PNG bytes. */
  callSerialized(method: MethodName, params: EngineParams): Promise<SerializedBody | Uint8Array>;
  /** Resolves to the methods the worker's engine has once its packs are loaded; rejects if loading failed. */
  ready: Promise<MethodName[]>;
  /** Stops the worker. */
  terminate(): void;
}

/**
 * A browser/Deno Worker (what comlink calls an Endpoint, spelt out here: the package bundles comlink, so its published
 * declarations cannot import comlink's).
 */
interface WebWorker {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: object): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: object): void;
  start?: () => void;
}

/** A browser/Deno Worker, or a node:worker_threads Worker. */
export type AnyWorker =
  | WebWorker
  | {
      postMessage(message: unknown, transfer?: readonly unknown[]): void;
      on(event: string, listener: (...args: unknown[]) => void): unknown;
      terminate(): unknown;
    };

/**
 * Talks to a worker started from the `bando/worker` entry. The worker loads `options.packs` (URL strings, file paths
 * in Node, or bytes, which are copied) and builds its engine; calls made before it is ready wait for it. A method
 * the worker's engine does not have rejects with an Error naming it. A worker that cannot start (its script not
 * found or not loadable, a pack that fails to load) or that stops rejects `ready` and every call with the reason,
 * instead of leaving them pending or crashing the process.
 */
export function createWorkerEngine(worker: AnyWorker, options: WorkerInitOptions = {}): WorkerEngine {
  // Node's Worker is an EventEmitter; comlink speaks EventTarget, so it gets comlink's node adapter.
  const endpoint: Endpoint = 'addEventListener' in worker ? worker : nodeEndpoint(worker);
  const remote: Remote<WorkerRemote> = wrap<WorkerRemote>(endpoint);
  const stopped = workerStopped(worker);
  const ready = Promise.race([remote.init(options), stopped]);
  // A failed start is reported by every call; these keep it from being an unhandled rejection meanwhile.
  ready.catch(() => {});
  stopped.catch(() => {});
  // The worker's engine checks the parameters and answers as `Engine` does; the typed signatures are WorkerEngine's.
  const call = <M extends Exclude<keyof WorkerEngine, 'callSerialized' | 'ready' | 'terminate'>>(method: M) =>
    (async (params: EngineParams | URLSearchParams) => {
      await ready;
      return Promise.race([remote.call(method, sendable(params)), stopped]);
    }) as unknown as WorkerEngine[M];
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
      const r = await Promise.race([remote.callJson(method, params), stopped]);
      return r instanceof Uint8Array ? r : new SerializedBody(r.json, r.status);
    },
    ready,
    terminate: () => void (worker as { terminate(): unknown }).terminate(),
  };
}

/**
 * The parameters as they can cross to the worker (structured clone): a URLSearchParams as its entries (rawParams), and
 * a value that cannot be cloned (a function, a symbol, an object holding one) as an empty object, which every
 * endpoint refuses naming the parameter, as it refuses the value itself in process, where the call would otherwise
 * reject with a DataCloneError.
 */
function sendable(params: unknown): EngineParams {
  const cloneable = (v: unknown): boolean => {
    if (typeof v === 'function' || typeof v === 'symbol') return false;
    if (typeof v !== 'object' || v === null) return true;
    try {
      structuredClone(v);
      return true;
    } catch {
      return false;
    }
  };
  return Object.fromEntries(
    Object.entries(rawParams(params)).map(([name, v]) => [name, cloneable(v) ? v : {}]),
  ) as EngineParams;
}

/**
 * Rejects once the worker can no longer answer: an error it did not handle (in a browser also a script that could not
 * be loaded, which reports no message) or, in Node, its exit. Never resolves.
 */
function workerStopped(worker: AnyWorker): Promise<never> {
  return new Promise((_, reject) => {
    const fail = (why: string) => reject(new Error(`the bando worker stopped: ${why}`));
    if ('on' in worker) {
      worker.on('error', (err) => fail((err as Error)?.message ?? String(err)));
      worker.on('exit', (code) => fail(`it exited with code ${code}`));
      return;
    }
    (worker as unknown as EventTarget).addEventListener('error', (event) => {
      // Handled here: the page's console and error handlers need not report it too.
      event.preventDefault();
      const message = (event as ErrorEvent).message;
      fail(
        message ||
          'its script could not be loaded (check its URL, that it is served as JavaScript, and { type: "module" })',
      );
    });
  });
}
