import { createEngine } from '../../engine.js';
import { httpStatusOfBody } from '../../api/statuses.js';
import { METHOD_NAMES, type EngineApi, type EngineParams } from '../http/routes.js';
import type { WorkerInitOptions } from './protocol.js';

/**
 * The server thread protocol (`bando serve --threads`): a leaner wire than comlink, for a serving thread that only
 * writes answers to sockets. The worker is started with `workerData: { bandoThread: init }` and then:
 *
 * - posts `[0, READY, methodNames]` once its engine is built, or `[0, FAILED, message]`;
 * - receives calls `[id, methodIndex, params]` (`methodIndex` into `METHOD_NAMES`, `id` ≥ 1);
 * - answers each with `[id, httpStatus, jsonBytes]` (the body's JSON text in UTF-8, made here and its buffer
 *   transferred, so the serving thread neither stringifies nor encodes bodies: it only writes bytes),
 *   `[id, PNG, bytes]` (the buffer transferred) or `[id, FAILED, message]` when the engine threw.
 *
 * Calls run one at a time in arrival order, so the serving thread can time the call at the head of a worker's queue.
 */
type ThreadCall = [id: number, methodIndex: number, params: EngineParams];
/** See {@link ThreadCall}. */
export type ThreadAnswer = [id: number, status: number, body: string | Uint8Array | readonly string[]];

const utf8 = new TextEncoder();

/** Status of the ready message. */
export const READY = -2;
/** Status of a failed start (id 0) or a thrown engine call. */
export const FAILED = -1;
/** Status of a PNG answer. */
export const PNG = 0;

/** The `workerData` that makes the worker entry speak this protocol. */
export interface ThreadWorkerData {
  bandoThread: WorkerInitOptions;
}

/** True when `data` (a worker's `workerData`) asks for the server thread protocol. */
export function isThreadWorkerData(data: unknown): data is ThreadWorkerData {
  return typeof data === 'object' && data !== null && typeof (data as ThreadWorkerData).bandoThread === 'object';
}

/** The parts of node's `parentPort` this side uses. */
export interface ThreadPort {
  on(event: 'message', listener: (message: ThreadCall) => void): unknown;
  postMessage(message: ThreadAnswer, transfer?: ArrayBuffer[]): void;
}

/**
 * Worker side: builds the engine from `init` (with `create`, by default `createEngine`) and answers calls on `port`
 * until the worker is terminated. Calls that arrive while the packs load wait for them (a replacement worker gets
 * calls before it is ready).
 */
export function serveEngineThread(
  port: ThreadPort,
  init: WorkerInitOptions,
  create: (init: WorkerInitOptions) => Promise<EngineApi> = (o) =>
    createEngine({ packs: o.packs, verify: o.verify, limits: o.limits }),
): void {
  let engine: EngineApi | null = null;
  const queue: ThreadCall[] = [];
  let busy = true; // until the engine is built
  port.on('message', (calls) => {
    for (let i = 0; i < calls.length; i += 3) queue.push(calls.slice(i, i + 3) as ThreadCall);
    if (!busy) pump();
  });
  /** Answers not yet posted (flat triples) and the buffers they transfer. */
  let out: unknown[] = [];
  let transfer: ArrayBuffer[] = [];
  const flush = () => {
    if (out.length === 0) return;
    port.postMessage(out as ThreadAnswer, transfer);
    out = [];
    transfer = [];
  };
  create(init).then(
    (e) => {
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
      const pending = answer(queue.shift()!);
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
      out.push(id, PNG, own);
      transfer.push(own.buffer as ArrayBuffer);
    } else {
      // encode() gives bytes that own their buffer: safe to transfer.
      const bytes = utf8.encode(JSON.stringify(value));
      out.push(id, httpStatusOfBody(value), bytes);
      transfer.push(bytes.buffer as ArrayBuffer);
    }
  }

  /** Runs one call; returns a promise only for an asynchronous engine method. */
  function answer([id, index, params]: ThreadCall): Promise<void> | void {
    const fail = (err: unknown) => void out.push(id, FAILED, (err as Error)?.message ?? String(err));
    try {
      const method = METHOD_NAMES[index];
      const fn = method && engine![method];
      if (typeof fn !== 'function') return fail(new Error(`this engine has no ${method ?? `#${index}`} method`));
      const value = fn.call(engine, params);
      if (typeof (value as { then?: unknown } | null)?.then === 'function')
        return Promise.resolve(value).then((v) => {
          try {
            post(id, v);
          } catch (err) {
            fail(err);
          }
        }, fail);
      post(id, value);
    } catch (err) {
      fail(err);
    }
  }
}
