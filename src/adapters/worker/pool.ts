import { METHOD_NAMES, type EngineApi, type EngineParams, type MethodName } from '../http/routes.js';
import { createWorkerEngine, type AnyWorker, type WorkerEngine } from './client.js';
import type { WorkerInitOptions } from './protocol.js';

/** Options of {@link createEnginePool}. */
export interface EnginePoolOptions extends WorkerInitOptions {
  /** Number of workers. Default 2. */
  size?: number;
  /**
   * A call running longer than this (milliseconds) rejects, and its worker is terminated and replaced, so a stuck
   * computation cannot hold a thread. Default: no limit.
   */
  callTimeoutMs?: number;
  /**
   * Answer with `SerializedBody` (JSON text and HTTP status, made in the worker) instead of body objects: for a
   * server, whose thread then neither clones nor stringifies bodies. Default false.
   */
  serialized?: boolean;
}

/** Engines in several workers behind one EngineApi. */
export interface EnginePool {
  /** Resolves to an EngineApi holding exactly the methods the workers' engines have (each returns a Promise). */
  ready: Promise<EngineApi>;
  /** Terminates every worker. */
  close(): void;
}

interface Slot {
  engine: WorkerEngine;
  /** Rejecters of the calls running or queued on this worker. */
  pending: Set<(err: Error) => void>;
}

/**
 * Runs `size` engines in workers made by `makeWorker` (each loads the packs itself) and sends every call to the
 * least busy one. Lets `bando serve` use every core for the engine while one thread does HTTP and accounting, and
 * makes the request time limit real: a synchronous computation cannot be interrupted in-process, a worker can.
 */
export function createEnginePool(makeWorker: () => AnyWorker, opts: EnginePoolOptions = {}): EnginePool {
  const init: WorkerInitOptions = { packs: opts.packs, verify: opts.verify };
  const start = (): Slot => ({ engine: createWorkerEngine(makeWorker(), init), pending: new Set() });
  const slots = Array.from({ length: Math.max(1, opts.size ?? 2) }, start);

  /** Replaces a stuck worker; every call on it fails with `err` (a terminated worker never answers). */
  function restart(slot: Slot, err: Error): void {
    const i = slots.indexOf(slot);
    if (i < 0) return;
    slots[i] = start();
    slot.engine.terminate();
    for (const reject of slot.pending) reject(err);
    slot.pending.clear();
  }

  function call(method: MethodName, params: EngineParams): Promise<unknown> {
    let slot = slots[0]!;
    for (const s of slots) if (s.pending.size < slot.pending.size) slot = s;
    const chosen = slot;
    return new Promise<unknown>((resolve, reject) => {
      chosen.pending.add(reject);
      let timer: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      // The limit counts from when the worker is ready: a replacement's pack loading is not the call's fault.
      if (opts.callTimeoutMs !== undefined)
        chosen.engine.ready.then(() => {
          if (!settled)
            timer = setTimeout(() => restart(chosen, new Error(`${method} took longer than ${opts.callTimeoutMs} ms; its worker was restarted`)), opts.callTimeoutMs);
        }, () => {});
      (opts.serialized ? chosen.engine.callSerialized(method, params) : chosen.engine[method](params))
        .then(resolve, reject)
        .finally(() => {
          settled = true;
          clearTimeout(timer);
          chosen.pending.delete(reject);
        });
    });
  }

  const ready = Promise.all(slots.map((s) => s.engine.ready)).then(([methods]) => {
    const api: EngineApi = {};
    for (const m of METHOD_NAMES) if (methods!.includes(m)) api[m] = (params) => call(m, params);
    return api;
  });
  return { ready, close: () => slots.forEach((s) => s.engine.terminate()) };
}
