import { METHOD_NAMES, type EngineApi, type EngineParams, type MethodName } from '../http/routes.js';
import { Worker } from 'node:worker_threads';
import { SerializedBody } from '../http/responses.js';
import type { WorkerInitOptions } from './protocol.js';
import { FAILED, PNG, READY, type ThreadAnswer, type ThreadWorkerData } from './thread-protocol.js';

/** Options of {@link createThreadPool}. */
export interface ThreadPoolOptions extends WorkerInitOptions {
  /** Number of worker threads. Default 1. */
  size?: number;
  /**
   * A call running longer than this (milliseconds) is answered with a 504 `ERROR` body (the one `createRestHandler`
   * gives at its `timeoutMs`) and its worker is terminated and replaced; the calls queued behind it go to the
   * replacement. Checked every quarter of the limit (at most every second), so a stuck
   * worker is replaced within 1.25 × the limit. Default: no limit.
   */
  callTimeoutMs?: number;
}

/** A call sent to a worker thread and not yet answered. */
interface ThreadCallState {
  method: MethodName;
  params: EngineParams;
  resolve(value: SerializedBody | Uint8Array): void;
  reject(err: Error): void;
}

/** One worker thread and its calls, in the order sent (the worker answers them in that order). */
interface Thread {
  worker: Worker;
  calls: Map<number, ThreadCallState>;
  /** Calls not yet posted, as flat `ThreadCall` triples. */
  outbox: unknown[];
  /** Date.now() when the call at the head of `calls` started: its send time, or the previous answer's time. */
  since: number;
  /** True once its engine is built. */
  ready: boolean;
  /** Why the worker cannot answer (its engine failed to start), or null. */
  failed: string | null;
  stopped: boolean;
}

/**
 * Engines in node worker threads (started from the worker bundle `script` with the server thread protocol of
 * `thread-protocol.ts`) behind one EngineApi whose methods resolve to {@link SerializedBody} (JSON text and HTTP
 * status, made in the worker) or PNG bytes: the form `createRestHandler` writes out without touching the body.
 * For `bando serve --threads`: HTTP parsing, keys, quotas and usage stay in the serving thread (exact accounting
 * in one process), the engine runs on other cores, and the request time limit becomes real.
 */
export function createThreadPool(script: string | URL, opts: ThreadPoolOptions = {}): { ready: Promise<EngineApi>; close(): void } {
  const workerData: ThreadWorkerData = { bandoThread: { packs: opts.packs, verify: opts.verify, limits: opts.limits } };
  let nextId = 1;
  let closed = false;
  let announce: ((methods: readonly MethodName[]) => void) | null = null;
  let refuse: ((err: Error) => void) | null = null;
  const ready = new Promise<readonly MethodName[]>((resolve, reject) => {
    announce = resolve;
    refuse = reject;
  });

  /** One answer (or the ready/failed message, id 0) from `thread`. */
  function settle(thread: Thread, id: number, status: number, body: unknown): void {
    if (id === 0) {
      if (status === READY) {
        // The time limit counts from here: a replacement's pack loading is not its calls' fault.
        thread.ready = true;
        thread.since = Date.now();
        return announce?.(body as readonly MethodName[]);
      }
      thread.failed = body as string;
      refuse?.(new Error(thread.failed));
      for (const c of thread.calls.values()) c.reject(new Error(thread.failed));
      thread.calls.clear();
      return;
    }
    const call = thread.calls.get(id);
    if (!call) return;
    thread.calls.delete(id);
    thread.since = Date.now();
    if (status === FAILED) call.reject(new Error(body as string));
    else call.resolve(status === PNG ? (body as Uint8Array) : new SerializedBody(body as Uint8Array, status));
  }

  function start(): Thread {
    const thread: Thread = { worker: new Worker(script, { workerData }), calls: new Map(), outbox: [], since: 0, ready: false, failed: null, stopped: false };
    thread.worker.on('message', (answers: ThreadAnswer) => {
      for (let i = 0; i < answers.length; i += 3) settle(thread, answers[i] as number, answers[i + 1] as number, answers[i + 2]!);
    });
    // A worker that dies (an uncaught error, out of memory) fails its calls and is replaced.
    const died = (err: Error) => {
      if (thread.stopped || closed) return;
      replace(thread);
      for (const c of thread.calls.values()) c.reject(err);
      thread.calls.clear();
    };
    thread.worker.on('error', died);
    thread.worker.on('exit', (code) => died(new Error(`the engine worker exited (code ${code})`)));
    return thread;
  }

  const threads = Array.from({ length: Math.max(1, opts.size ?? 1) }, start);

  /** Puts a new worker in `old`'s place and stops `old`; returns the new one. `old.calls` stay for the caller. */
  function replace(old: Thread): Thread {
    old.stopped = true;
    void old.worker.terminate();
    const fresh = start();
    const i = threads.indexOf(old);
    if (i >= 0) threads[i] = fresh;
    return fresh;
  }

  /**
   * Queues a call for `thread`. Calls are posted in one message per thread and event-loop turn (the requests read
   * from all sockets in one poll): each message costs both threads far more than the few hundred bytes it carries.
   */
  function send(thread: Thread, id: number, call: ThreadCallState): void {
    if (thread.calls.size === 0) thread.since = Date.now();
    thread.calls.set(id, call);
    thread.outbox.push(id, METHOD_NAMES.indexOf(call.method), call.params);
    if (!flushing) {
      flushing = true;
      setImmediate(flush);
    }
  }

  let flushing = false;
  function flush(): void {
    flushing = false;
    for (const t of threads) {
      if (t.outbox.length === 0) continue;
      t.worker.postMessage(t.outbox);
      t.outbox = [];
    }
  }

  const limit = opts.callTimeoutMs;
  const watchdog =
    limit === undefined
      ? undefined
      : setInterval(() => {
          const now = Date.now();
          for (const t of [...threads]) {
            if (!t.ready || t.calls.size === 0 || now - t.since <= limit) continue;
            const [stuck, head] = t.calls.entries().next().value!;
            const fresh = replace(t);
            for (const [id, c] of t.calls) if (id !== stuck) send(fresh, id, c);
            t.calls.clear();
            // The answer the handler gives at its own limit: which timer fires first must not change the reply.
            head.resolve(new SerializedBody(JSON.stringify({ status: 'ERROR', error_message: `The ${head.method} request took longer than ${limit} ms.` }), 504));
          }
        }, Math.max(1, Math.min(limit / 4, 1000)));
  watchdog?.unref();

  function call(method: MethodName, params: EngineParams): Promise<SerializedBody | Uint8Array> {
    let thread: Thread | undefined;
    // The least busy worker; one still loading its packs (a replacement) only when no other can take the call.
    const load = (t: Thread) => t.calls.size + (t.ready ? 0 : 1e9);
    for (const t of threads) if (!t.failed && (!thread || load(t) < load(thread))) thread = t;
    if (!thread) return Promise.reject(new Error(`no engine worker is running: ${threads[0]!.failed}`));
    const chosen = thread;
    return new Promise((resolve, reject) => send(chosen, nextId++, { method, params, resolve, reject }));
  }

  return {
    ready: ready.then((methods) => {
      const api: EngineApi = {};
      for (const m of methods) api[m] = (params) => call(m, params);
      return api;
    }),
    close() {
      closed = true;
      clearInterval(watchdog);
      for (const t of threads) {
        t.stopped = true;
        void t.worker.terminate();
      }
    },
  };
}
