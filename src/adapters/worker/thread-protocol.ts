import { createEngine } from '../../engine.js';
import { bodyFound, httpStatusOfBody } from '../../api/statuses.js';
import { METHOD_NAMES, type EngineApi, type EngineParams } from '../http/routes.js';
import { callCost } from '../http/cost.js';
import type { WorkerInitOptions } from './protocol.js';
import { lowerThreadPriority } from './thread-priority.js';
import { warmUp } from './warm-up.js';
import { setAbandonTest } from '../../checkpoint.js';
import type { MetricExchange, MetricPart } from '../../route/cch/exchange.js';
import { MetricStore } from './metric-store.js';
import { offerBasemapIndexes, type BasemapIndexStore } from '../../render/basemap-index.js';

/**
 * The server thread protocol (`bando serve --threads`): a leaner wire than comlink, for a serving thread that only
 * writes answers to sockets. The worker is started with `workerData: { bandoThread: init }` and then:
 *
 * - posts `[0, READY, methodNames]` once its engine is built and warmed up (see `warmUp`), or `[0, FAILED, message]`;
 * - receives calls `[id, methodIndex, params]` (`methodIndex` into `METHOD_NAMES`, `id` ≥ 1);
 * - answers each with `[id, httpStatus, jsonBytes, found]` (the body's JSON text in UTF-8, made here and its buffer
 *   transferred, so the serving thread neither stringifies nor encodes bodies: it only writes bytes; `found` 1 when
 *   the body says the call found what it asked for, `bodyFound`, so that it built what its method builds on first
 *   use, else 0), `[id, PNG, bytes, 1]` (the buffer transferred) or `[id, FAILED, message, 0]` when the engine threw;
 * - answers `[id, ABANDONED, '', 0]` for a call the serving thread flagged (its client has gone) by storing its id in
 *   the shared `abandon` flag: the call is skipped if it has not started, else stopped at the engine's next checkpoint
 *   (src/checkpoint.ts: between kicks of the trip search, legs, map layers), its answer, if any, dropped;
 * - shares customized routing metrics and its packs' CCH topologies (route/cch/exchange.ts): posts
 *   `[0, METRIC, [key, part]]` when its engine made a part (its arrays in shared memory: the serving thread gets the
 *   same bytes, not a copy) and `[0, ADOPTED, key]` when its engine adopted one; receives `[0, METRIC, [key, part]]`,
 *   a part another worker made (the serving thread forwards each new part to the other workers, and all it keeps,
 *   METRIC_PARTS_KEPT metric parts at most and each pack's topology, to a worker it starts), kept in a MetricStore
 *   and offered to its engine when that needs the part and has not made it (the engine checks it against its own
 *   states or topology first, and makes its own when it does not fit); an engine that made the same metric part at
 *   the same time (the workers warm up together) lets go of its own copy for it (a topology made twice stays twice).
 *
 * - with `warmWhenTold`, warms up only once it receives `[0, WARM]` (after its packs are loaded): the serving thread
 *   tells it when the first worker is ready, whose warm-up metric (the car's) it has forwarded by then, so the workers
 *   started together do not all customize it at once (each would keep its own copy, ≈ 19 MB on a whole city).
 *
 * Calls run one at a time in arrival order, so the serving thread can time the call at the head of a worker's queue.
 * Answers of small calls are posted together (a message costs both threads more than a route takes): a finished
 * answer waits for the next call only while its batch is younger than {@link BATCH_MS} and that call is estimated
 * under {@link BATCH_UNITS}, never for a geocode, a trip or anything bigger.
 */
type ThreadCall = [id: number, methodIndex: number, params: EngineParams];
/** A metric part made by a worker's engine, under its exchange key (see {@link ThreadCall}). */
export type MetricMessage = [id: 0, status: typeof METRIC, body: [key: string, part: MetricPart]];

/** The message that carries metric part `part` under exchange key `key`, either way. */
export function metricMessage(key: string, part: MetricPart): MetricMessage {
  return [0, METRIC, [key, part]];
}
/** See {@link ThreadCall}. */
export type ThreadAnswer = [id: number, status: number, body: string | Uint8Array | readonly string[], found?: number];
/** Fields of one answer in a batch of them (ThreadAnswer). */
export const ANSWER_FIELDS = 4;

const utf8 = new TextEncoder();

/** Status of the ready message. */
export const READY = -2;
/** Status of a failed start (id 0) or a thrown engine call. */
export const FAILED = -1;
/** Status of a PNG answer. */
export const PNG = 0;
/** Status of a call abandoned because its client has gone. */
export const ABANDONED = -3;
/** Status (id 0) of a metric part made by a worker's engine, or forwarded to a worker. */
export const METRIC = -4;
/** Status (id 0) of a worker's note that its engine adopted a part (its key). */
export const ADOPTED = -5;
/** Status (id 0) of the serving thread's word to a worker started with `warmWhenTold` that it may warm up now. */
export const WARM = -6;
/** See {@link WARM}. */
type WarmMessage = [id: 0, status: typeof WARM];

/** A finished answer waits for the next call only while the first answer of its batch is younger than this (ms)… */
const BATCH_MS = 1;
/** …and the next call is estimated (`callCost`) under this many units (≈ ms: a route, not a geocode). */
const BATCH_UNITS = 4;

/** What a server thread is started with. */
export interface ThreadInit extends WorkerInitOptions {
  /**
   * Nice levels to lower this thread's CPU priority by (Linux; see `lowerThreadPriority`), for threads that run heavy
   * calls: the cores then go first to the serving thread and the threads of light calls. Default 0.
   */
  niceness?: number;
  /** Shared with the serving thread: the id of the call to abandon, else 0 (see ABANDONED). */
  abandon?: Int32Array;
  /** Warm up only when the serving thread posts WARM (see the protocol above); default false: at once. */
  warmWhenTold?: boolean;
  /** Basemap indexes' arrays the serving thread made, used by this thread's indexes (offerBasemapIndexes). */
  basemapIndexes?: readonly BasemapIndexStore[];
}

/** The `workerData` that makes the worker entry speak this protocol. */
export interface ThreadWorkerData {
  bandoThread: ThreadInit;
}

/** True when `data` (a worker's `workerData`) asks for the server thread protocol. */
export function isThreadWorkerData(data: unknown): data is ThreadWorkerData {
  return typeof data === 'object' && data !== null && typeof (data as ThreadWorkerData).bandoThread === 'object';
}

/** The parts of node's `parentPort` this side uses. */
export interface ThreadPort {
  on(event: 'message', listener: (message: ThreadCall | MetricMessage | WarmMessage) => void): unknown;
  postMessage(message: ThreadAnswer | MetricMessage, transfer?: ArrayBuffer[]): void;
}

/**
 * Worker side: builds the engine from `init` (with `create`, by default `createEngine`, given the exchange that
 * shares its metrics with the other workers) and answers calls on `port` until the worker is terminated. Calls that
 * arrive while the packs load wait for them (a replacement worker gets calls before it is ready).
 */
export function serveEngineThread(
  port: ThreadPort,
  init: ThreadInit,
  create: (init: WorkerInitOptions, metrics: MetricExchange) => Promise<EngineApi> = (o, metrics) =>
    createEngine({ packs: o.packs, verify: o.verify, limits: o.limits, metrics }),
): void {
  if (init.niceness) lowerThreadPriority(init.niceness);
  if (init.basemapIndexes) offerBasemapIndexes(init.basemapIndexes);
  let engine: EngineApi | null = null;
  const queue: ThreadCall[] = [];
  let busy = true; // until the engine is built
  // Parts the other workers made. A message is handled between calls (this thread runs one thing at a time), so
  // an engine never sees a part arrive in the middle of a call, and it asks for a part only when it lacks one.
  const others = new MetricStore();
  const arrivals: ((key: string, part: MetricPart) => void)[] = [];
  const metrics: MetricExchange = {
    offer: (key) => others.get(key),
    adopted: (key) => port.postMessage([0, ADOPTED, key]),
    published: (key, part) => port.postMessage(metricMessage(key, part)),
    listen: (arrived) => void arrivals.push(arrived),
  };
  let told = () => {};
  const warmTold = init.warmWhenTold ? new Promise<void>((resolve) => (told = resolve)) : Promise.resolve();
  port.on('message', (calls) => {
    if (calls[0] === 0 && calls[1] === WARM) return told();
    if (calls[0] === 0 && calls[1] === METRIC) {
      const [key, part] = (calls as MetricMessage)[2];
      others.put(key, part);
      // The serving thread forwards the first part made under a key: a router that made its own at the same time
      // lets go of it for this one (Router.arrived).
      for (const arrived of arrivals) arrived(key, part);
      return;
    }
    for (let i = 0; i < calls.length; i += 3) queue.push(calls.slice(i, i + 3) as ThreadCall);
    if (!busy) pump();
  });
  /** Answers not yet posted (flat, ANSWER_FIELDS each), the buffers they transfer, and when the first was ready. */
  let out: unknown[] = [];
  let transfer: ArrayBuffer[] = [];
  let since = 0;
  /** True when the answers waiting must go before `call` runs. */
  const due = ([, index, params]: ThreadCall) => {
    if (out.length === 0) return false;
    const method = METHOD_NAMES[index];
    return (
      performance.now() - since >= BATCH_MS || (method !== undefined && callCost(method, params).units >= BATCH_UNITS)
    );
  };
  const flush = () => {
    if (out.length === 0) return;
    port.postMessage(out as ThreadAnswer, transfer);
    out = [];
    transfer = [];
  };
  create(init, metrics).then(
    async (e) => {
      // Lazy indexes are built before the worker says it is ready, so no request pays for them (seconds each).
      await warmTold;
      // Parts offered before the engine was made (a replacement worker's) wait as messages: one turn of this thread's
      // loop takes them in, so the warm-up adopts them instead of making its own (the engine may be made without
      // yielding to the loop: in Node the WebAssembly files are compiled at once).
      await new Promise((resolve) => setTimeout(resolve, 0));
      await warmUp(e);
      engine = e;
      port.postMessage([0, READY, METHOD_NAMES.filter((m) => typeof e[m] === 'function')]);
      busy = false;
      pump();
    },
    (err: Error) => port.postMessage([0, FAILED, err?.message ?? String(err)]),
  );

  /** Answers queued calls in order; an asynchronous call holds the queue until it settles. */
  function pump(): void {
    while (queue.length > 0) {
      const call = queue.shift()!;
      if (due(call)) flush();
      const first = out.length === 0;
      const pending = answer(call);
      if (first) since = performance.now();
      if (pending) {
        busy = true;
        flush();
        pending.then(() => {
          busy = false;
          pump();
        });
        return;
      }
    }
    flush();
  }

  function post(id: number, value: unknown): void {
    if (value instanceof Uint8Array) {
      // Transfer only a buffer the bytes own alone: a view into a larger buffer (a pack) would detach it here.
      const own = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
      out.push(id, PNG, own, 1);
      transfer.push(own.buffer as ArrayBuffer);
    } else {
      // encode() gives bytes that own their buffer: safe to transfer.
      const bytes = utf8.encode(JSON.stringify(value));
      out.push(id, httpStatusOfBody(value), bytes, bodyFound(value) ? 1 : 0);
      transfer.push(bytes.buffer as ArrayBuffer);
    }
  }

  const flag = init.abandon;

  /**
   * Runs one call; returns a promise only for an asynchronous engine method. While it runs, the engine's checkpoints
   * test the shared flag (one call runs at a time here, so the test installed is always the running call's).
   */
  function answer([id, index, params]: ThreadCall): Promise<void> | void {
    const abandoned = flag ? () => Atomics.load(flag, 0) === id : () => false;
    const fail = (err: unknown) =>
      void (abandoned()
        ? out.push(id, ABANDONED, '', 0)
        : out.push(id, FAILED, (err as Error)?.message ?? String(err), 0));
    const done = (v: unknown) => {
      setAbandonTest(null);
      try {
        if (abandoned()) out.push(id, ABANDONED, '', 0);
        else post(id, v);
      } catch (err) {
        fail(err);
      }
    };
    if (abandoned()) return void out.push(id, ABANDONED, '', 0);
    try {
      const method = METHOD_NAMES[index];
      const fn = method && engine![method];
      if (typeof fn !== 'function') return fail(new Error(`this engine has no ${method ?? `#${index}`} method`));
      setAbandonTest(abandoned);
      const value = fn.call(engine, params);
      if (typeof (value as { then?: unknown } | null)?.then === 'function')
        return Promise.resolve(value).then(done, (err: unknown) => {
          setAbandonTest(null);
          fail(err);
        });
      done(value);
    } catch (err) {
      setAbandonTest(null);
      fail(err);
    }
  }
}
