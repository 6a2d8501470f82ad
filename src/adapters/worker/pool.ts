import { METHOD_NAMES, type CallContext, type EngineApi, type EngineParams, type MethodName } from '../http/routes.js';
import { Worker } from 'node:worker_threads';
import { callBudgetMs, callCost, coldKey, HEAVY_UNITS } from '../http/cost.js';
import { SerializedBody } from '../http/responses.js';
import { rawParams } from '../../api/param-types.js';
import { refusal } from '../../api/errors.js';
import type { WorkerInitOptions } from './protocol.js';
import {
  ABANDONED,
  ADOPTED,
  FAILED,
  METRIC,
  PNG,
  READY,
  WARM,
  metricMessage,
  ANSWER_FIELDS,
  type ThreadAnswer,
  type ThreadWorkerData,
} from './thread-protocol.js';
import { MetricStore } from './metric-store.js';
import type { MetricPart } from '../../route/cch/exchange.js';
import type { BasemapIndexStore } from '../../render/basemap-index.js';

/**
 * Young generation of each worker's JavaScript heap, MB (V8's default is 3 × 16 MB semi-spaces on a 64-bit host): an
 * engine's young objects are a request's short-lived labels and answers, so a small nursery costs no measurable CPU
 * (a mixed load of routes, geocodes, tables and trips: within the run-to-run noise) while each worker's committed
 * young generation drops from ≈ 32 MB to ≈ 6 (`bando serve` on whole HCMC: 51 MB less idle with two workers).
 */
const WORKER_YOUNG_GENERATION_MB = 6;

/**
 * Old generation of each worker's JavaScript heap at most, MB. V8 lets an old generation grow past what its last full
 * collection kept alive by a factor it bounds by this limit (heap-controller: 4 from 2 GB up, falling linearly to 1.3
 * at 256 MB on 64-bit Node 20, so ≈ 1.6 here; the default limit is ≈ 4.3 GB on a 24 GB host). So a worker's committed
 * heap stays nearer what it keeps alive (`bando serve` on whole HCMC after the serve-memory load: 35–60 MB less RSS
 * with two workers, the same calls answered in 20 s; at 256 MB the heaps were smaller still but a quarter fewer
 * calls were answered, the collections running that much more often: docs/routing.md). The limit is far above what
 * any call allowed by LIMIT_CAPS keeps alive: the largest, a 500 × 500 DistanceMatrix answer (its object and its 25 MB
 * of JSON), peaks at ≈ 110–155 MB of heap used with the engine's own state (whole HCMC); a call over the limit would
 * end its worker (out of memory), which the pool replaces.
 */
const WORKER_OLD_GENERATION_MB = 1024;

/** Cost units in flight on a reserved worker (≈ ms of queued work) before light calls also go to heavy workers. */
const SPILL_UNITS = 8;

/** Options of {@link createThreadPool}. */
export interface ThreadPoolOptions extends WorkerInitOptions {
  /** Number of worker threads. Default 1. */
  size?: number;
  /**
   * Request time limit (milliseconds): the ceiling of every call's budget. A call runs on a worker for at most its
   * budget, `callBudgetMs(cost)` (1 s plus 20 ms per cost unit, at most this limit; the whole limit until a call of its
   * cold key, `coldKey`, has found what it asked for on that worker, as such a call may build lazy indexes); one still
   * running then is answered with a 504 `ERROR` body (as `createRestHandler` gives at its `timeoutMs`) and its worker
   * is terminated and replaced; the calls queued behind it go to the replacement. Checked every quarter of min(limit,
   * 1 s), so a stuck worker is replaced within its budget plus 250 ms. Default: no limit.
   */
  callTimeoutMs?: number;
  /**
   * Workers that run heavy calls (estimated at `HEAVY_UNITS` or more), one heavy call at a time each; further heavy
   * calls wait in this thread, taken in turn across lanes (`CallContext.lane`, the API key: the lane whose last
   * heavy call started longest ago goes first, a lane's calls in arrival order). The other workers are reserved for
   * light calls (geocode, autocomplete, a route), and a light call is never queued behind a heavy one while a worker
   * without one exists.
   * Default size − 1 (at least 1); with `heavyThreads` ≥ size no worker is reserved.
   */
  heavyThreads?: number;
  /**
   * Nice levels by which the workers of heavy calls run below this process (Linux; elsewhere no change), so that when
   * the cores are short the serving thread and the light workers get them first and a heavy call only takes what
   * is left. Heavy calls are still answered, but slower whenever the cores are busy, also with other processes'
   * work, and the light calls a heavy worker takes when the reserved ones have a queue run at its priority too.
   * Default 0 (every worker at the process's priority): measured on a loaded 2-core machine (HTTP README), 10 cut
   * the light calls' p99 beside 400-stop trips by about a fifth but doubled the route workload's p99. Workers of a
   * pool with no reserved worker are never lowered.
   */
  heavyNiceness?: number;
  /**
   * The serving thread's basemap indexes (BasemapIndex.store), which the workers' static maps use instead of making
   * their own (≈ 7.7 MB each on whole HCMC): see offerBasemapIndexes.
   */
  basemapIndexes?: readonly BasemapIndexStore[];
}

/** Counters of a pool at one moment (for `/metrics`). */
interface ThreadPoolStats {
  /** Worker threads, and how many have their engine loaded. */
  threads: number;
  ready: number;
  /** Calls sent to workers and not yet answered (running or queued there). */
  inFlight: number;
  /** Heavy calls sent to workers, and heavy calls waiting in this thread for a free heavy slot. */
  heavyRunning: number;
  heavyWaiting: number;
  /** Workers replaced since the start (over their budget, or died). */
  replaced: number;
  /** Since the start: heavy calls sent to a worker, and those a worker stopped at a checkpoint (client gone). */
  heavyStarted: number;
  heavyAbandoned: number;
  /** Since the start: calls dropped before they started because their client had gone. */
  dropped: number;
  /**
   * Since the start: customized metric parts (route/cch/exchange.ts: a vehicle's kept arcs, or their measures, or a
   * pack's CCH topology) the workers made, and those they adopted from another worker instead of making them; and
   * the parts kept now for the workers to come (at most METRIC_PARTS_KEPT, and a topology per pack).
   */
  metricsMade: number;
  metricsAdopted: number;
  metricsKept: number;
}

/** A pool of engine threads behind one EngineApi. */
export interface ThreadPool {
  /**
   * The engine API, once every worker has loaded its packs (so no call waits behind a worker still loading, nor
   * finds only one worker for both heavy and light calls); rejects when a worker fails to load them.
   */
  ready: Promise<EngineApi>;
  /** Null while a worker can answer, else why none can (for `/healthz`). */
  problem(): string | null;
  stats(): ThreadPoolStats;
  /** Terminates the workers; calls in flight are left unanswered. */
  close(): void;
}

/** A call sent to a worker thread (or waiting for a heavy slot) and not yet answered. */
interface ThreadCallState {
  method: MethodName;
  params: EngineParams;
  /** Estimated cost units (see cost.ts) and whether that makes it heavy. */
  units: number;
  heavy: boolean;
  /** Longest run on a worker before it is stopped, milliseconds (Infinity: no limit). */
  budgetMs: number;
  /** Whose call it is (heavy calls wait in turn across lanes), and the signal aborted when nobody waits for it. */
  lane: string;
  signal: AbortSignal | undefined;
  resolve(value: SerializedBody | Uint8Array): void;
  reject(err: Error): void;
}

/** One worker thread and its calls, in the order sent (the worker answers them in that order). */
interface Thread {
  worker: Worker;
  /** True when this worker runs heavy calls (at most one at a time); false for one reserved for light calls. */
  takesHeavy: boolean;
  calls: Map<number, ThreadCallState>;
  /** Calls not yet posted, as flat `ThreadCall` triples. */
  outbox: unknown[];
  /** Date.now() when the call at the head of `calls` started: its send time, or the previous answer's time. */
  since: number;
  /** Cost units of `calls`, and how many of them are heavy. */
  units: number;
  heavy: number;
  /** coldKey of the calls this worker has answered (warm: their lazy state is built). */
  warm: Set<string>;
  /** True once its engine is built. */
  ready: boolean;
  /** Why the worker cannot answer (its engine failed to start), or null. */
  failed: string | null;
  stopped: boolean;
  /** Shared with the worker: the id of its call to abandon (see thread-protocol.ts), else 0. */
  abandon: Int32Array;
  /** True while the worker waits for WARM before it warms up (see `start`). */
  waiting: boolean;
}

/**
 * Engines in node worker threads (started from the worker bundle `script` with the server thread protocol of
 * `thread-protocol.ts`) behind one EngineApi whose methods resolve to {@link SerializedBody} (JSON text and HTTP
 * status, made in the worker) or PNG bytes: the form `createRestHandler` writes out without touching the body.
 * For `bando serve --threads`: HTTP parsing, keys, quotas and usage stay in the serving thread, the engine runs on
 * other cores, and the request time limit becomes real. The workers share the routing metrics they customize
 * (route/cch/exchange.ts): this thread keeps the parts made (METRIC_PARTS_KEPT at most, and each pack's CCH
 * topology) and forwards each to the
 * other workers and all of them to a worker it starts, so each exists once per process (see thread-protocol.ts); the
 * workers of the first start warm up one after the other's metric is made (WARM), so they do not make it each.
 *
 * Scheduling is cost-aware (see cost.ts). Heavy calls (a 400-stop trip, a large static map) run only on the last
 * `heavyThreads` workers, one at a time each (optionally at a lower CPU priority); the other workers are reserved
 * for light calls. A light call goes to a worker not running a heavy call (see `pick`), so light calls never wait
 * behind seconds of work.
 *
 * Calls whose `CallContext.signal` aborts (the client has gone) are dropped: a waiting heavy call leaves the queue
 * unstarted, any call is refused before it is sent, and a running heavy call is abandoned at the engine's next
 * checkpoint (src/checkpoint.ts) through a flag shared with its worker; such calls reject with the signal's reason.
 */
export function createThreadPool(script: string | URL, opts: ThreadPoolOptions = {}): ThreadPool {
  const size = Math.max(1, opts.size ?? 1);
  const heavyThreads = Math.min(size, Math.max(1, opts.heavyThreads ?? size - 1));
  // Lowering the heavy workers' priority only helps when other workers take the light calls.
  const niceness = heavyThreads < size ? (opts.heavyNiceness ?? 0) : 0;
  const workerData = (takesHeavy: boolean, abandon: Int32Array, warmWhenTold: boolean): ThreadWorkerData => ({
    bandoThread: {
      packs: opts.packs,
      verify: opts.verify,
      limits: opts.limits,
      niceness: takesHeavy ? niceness : 0,
      abandon,
      warmWhenTold,
      basemapIndexes: opts.basemapIndexes,
    },
  });
  let nextId = 1;
  let closed = false;
  let replaced = 0;
  let announce: ((methods: readonly MethodName[]) => void) | null = null;
  let refuse: ((err: Error) => void) | null = null;
  const ready = new Promise<readonly MethodName[]>((resolve, reject) => {
    announce = resolve;
    refuse = reject;
  });
  /** Heavy calls waiting for a free heavy worker, per lane, each lane's in arrival order (no empty lanes). */
  const heavyQueue = new Map<string, [number, ThreadCallState][]>();
  let heavyWaiting = 0;
  /** Lanes with heavy calls running or waiting: how many, and when the last one started (`starts` then), 0: never. */
  const lanes = new Map<string, { calls: number; started: number }>();
  let starts = 0;
  let heavyAbandoned = 0;
  let dropped = 0;
  /** Workers of the first start that have loaded their packs; `ready` resolves when all have. */
  let loaded = 0;
  /** The metric parts the workers made (the first made under each key), forwarded to the others; see stats. */
  const metrics = new MetricStore();
  let metricsMade = 0;
  let metricsAdopted = 0;

  /**
   * One answer (or the ready/failed message, id 0) from `thread`; `found`: its body says it found what it asked for
   * (see ThreadAnswer).
   */
  function settle(thread: Thread, id: number, status: number, body: unknown, found: boolean): void {
    if (id === 0 && status === METRIC) return shareMetric(thread, ...(body as [string, MetricPart]));
    if (id === 0 && status === ADOPTED) return void metricsAdopted++;
    if (id === 0) {
      // The first worker is ready (its warm-up metric forwarded before this message) or failed: the others warm up.
      for (const t of threads) if (t.waiting) tellWarm(t);
      if (status === READY) {
        // The time limit counts from here: a replacement's pack loading is not its calls' fault.
        thread.ready = true;
        thread.since = Date.now();
        if (++loaded === size) announce?.(body as readonly MethodName[]);
        return;
      }
      thread.failed = body as string;
      refuse?.(new Error(thread.failed));
      for (const c of thread.calls.values()) c.reject(new Error(thread.failed));
      forget(thread);
      return;
    }
    const call = thread.calls.get(id);
    if (!call) return;
    thread.calls.delete(id);
    thread.units -= call.units;
    if (call.heavy) thread.heavy--;
    thread.since = Date.now();
    if (status === ABANDONED) {
      heavyAbandoned++;
      call.reject(abortReason(call.signal));
    } else if (status === FAILED) call.reject(new Error(body as string));
    else call.resolve(status === PNG ? (body as Uint8Array) : new SerializedBody(body as Uint8Array, status));
    // Only a call that found what it asked for surely built the lazy state its method needs: an abandoned one may have
    // stopped first, and one answered NOT_FOUND (an endpoint that snaps to no road) before customizing the vehicle's
    // metric, which the next call of the vehicle then does, on the whole limit rather than its own budget.
    if (found) thread.warm.add(coldKey(call.method, call.params));
    if (call.heavy) startHeavy();
  }

  /**
   * A part `from` made: kept and forwarded to the other workers, unless one made under the same key is kept already
   * (two workers made it at once: they keep their own, and the workers to come get the first).
   */
  function shareMetric(from: Thread, key: string, part: MetricPart): void {
    metricsMade++;
    if (metrics.has(key)) return;
    metrics.put(key, part);
    const message = metricMessage(key, part);
    for (const t of threads) if (t !== from && !t.stopped) t.worker.postMessage(message);
  }

  /** Drops a thread's calls from the books (they were answered or rejected by the caller). */
  function forget(thread: Thread): void {
    thread.calls.clear();
    thread.units = 0;
    thread.heavy = 0;
    startHeavy();
  }

  /** Lets a worker started with `warmWhenTold` warm up. */
  function tellWarm(thread: Thread): void {
    thread.waiting = false;
    thread.worker.postMessage([0, WARM]);
  }

  /**
   * Starts a worker; with `waits`, it warms up only when told (tellWarm), once another has made the metric its
   * warm-up needs (see thread-protocol.ts WARM).
   */
  function start(takesHeavy: boolean, waits = false): Thread {
    const abandon = new Int32Array(new SharedArrayBuffer(4));
    const thread: Thread = {
      worker: new Worker(script, {
        workerData: workerData(takesHeavy, abandon, waits),
        resourceLimits: {
          maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
          maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB,
        },
      }),
      takesHeavy,
      calls: new Map(),
      outbox: [],
      since: 0,
      units: 0,
      heavy: 0,
      warm: new Set(),
      ready: false,
      failed: null,
      stopped: false,
      abandon,
      waiting: waits,
    };
    thread.worker.on('message', (answers: ThreadAnswer) => {
      for (let i = 0; i < answers.length; i += ANSWER_FIELDS)
        settle(thread, answers[i] as number, answers[i + 1] as number, answers[i + 2]!, answers[i + 3] === 1);
    });
    // A worker that dies (an uncaught error, out of memory) fails its calls and is replaced.
    const died = (err: Error) => {
      if (thread.stopped || closed) return;
      replace(thread);
      for (const c of thread.calls.values()) c.reject(err);
      forget(thread);
    };
    thread.worker.on('error', died);
    thread.worker.on('exit', (code) => died(new Error(`the engine worker exited (code ${code})`)));
    // A worker started later (a replacement) gets the parts the others made; it reads them once its engine needs them.
    for (const [key, part] of metrics.entries()) thread.worker.postMessage(metricMessage(key, part));
    return thread;
  }

  // The last `heavyThreads` workers take heavy calls; the first ones are reserved for light calls. All but the first
  // warm up once the first is ready, adopting the metric its warm-up made rather than each making its own.
  const threads = Array.from({ length: size }, (_, i) => start(i >= size - heavyThreads, i > 0));

  /** Puts a new worker in `old`'s place and stops `old`; returns the new one. `old.calls` stay for the caller. */
  function replace(old: Thread): Thread {
    old.stopped = true;
    replaced++;
    void old.worker.terminate();
    const fresh = start(old.takesHeavy);
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
    thread.units += call.units;
    if (call.heavy) {
      thread.heavy++;
      lanes.get(call.lane)!.started = ++starts;
    }
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

  /**
   * The worker for a call, or undefined when none may take it now: for a heavy call, a heavy worker not running one;
   * for a light call, a worker not running a heavy call (any worker when every one is). Among those, the one with the
   * fewest cost units in flight; one still loading its packs (a replacement) only when no other can take it. A light
   * call stays on a reserved worker while one has less than `SPILL_UNITS` in flight: heavy workers may run at a
   * lower priority (`heavyNiceness`), and a heavy call sent to one must not find light calls ahead of it.
   */
  function pick(call: ThreadCallState): Thread | undefined {
    const load = (t: Thread) => t.units + (t.ready ? 0 : 1e9);
    const free = (t: Thread) => !t.failed && t.heavy === 0 && (t.takesHeavy || !call.heavy);
    let thread: Thread | undefined;
    let reserved: Thread | undefined;
    for (const t of threads) {
      if (!free(t)) continue;
      if (!thread || load(t) < load(thread)) thread = t;
      if (!t.takesHeavy && (!reserved || load(t) < load(reserved))) reserved = t;
    }
    if (reserved && load(reserved) < SPILL_UNITS) return reserved;
    if (thread || call.heavy) return thread;
    for (const t of threads) if (!t.failed && (!thread || load(t) < load(thread))) thread = t;
    return thread;
  }

  /**
   * Sends a call to its worker (see `pick`), or queues a heavy call until a heavy worker is free. A heavy call joins
   * its lane's queue behind the calls already waiting there, never passes them; a call whose client has gone is
   * dropped.
   */
  function dispatch(id: number, call: ThreadCallState): void {
    if (call.signal?.aborted) {
      dropped++;
      return call.reject(abortReason(call.signal));
    }
    const queued = call.heavy ? heavyQueue.get(call.lane) : undefined;
    const thread = queued ? undefined : pick(call);
    if (thread) return send(thread, id, call);
    if (threads.every((t) => t.failed))
      return call.reject(new Error(`no engine worker is running: ${threads[0]!.failed}`));
    if (queued) queued.push([id, call]);
    else heavyQueue.set(call.lane, [[id, call]]);
    heavyWaiting++;
  }

  const heavyRunning = () => threads.reduce((n, t) => n + t.heavy, 0);

  /**
   * The lane whose waiting heavy call goes next: the one whose last heavy call started longest ago (a lane with
   * none started yet first; ties in the order the lanes began waiting). A client with many calls waiting thus
   * takes one heavy worker turn in each round, and another client's call waits for at most one call of each lane
   * ahead of it per heavy worker.
   */
  function nextLane(): [number, ThreadCallState][] | undefined {
    let best: [number, ThreadCallState][] | undefined;
    let bestStarted = Infinity;
    for (const [lane, queue] of heavyQueue) {
      const started = lanes.get(lane)!.started;
      if (started < bestStarted) [best, bestStarted] = [queue, started];
    }
    return best;
  }

  /** Sends waiting heavy calls, lane by lane in turn (see `nextLane`), while heavy workers are free. */
  function startHeavy(): void {
    for (let queue = nextLane(); queue; queue = nextLane()) {
      const thread = pick(queue[0]![1]);
      if (!thread) return;
      const [id, call] = queue.shift()!;
      if (queue.length === 0) heavyQueue.delete(call.lane);
      heavyWaiting--;
      send(thread, id, call);
    }
  }

  /**
   * The client of call `id` has gone: a waiting heavy call leaves the queue unstarted; one sent to a worker is
   * flagged there, and the worker stops it at its next checkpoint (or before it starts) and answers ABANDONED.
   */
  function abandon(id: number, call: ThreadCallState): void {
    const queue = heavyQueue.get(call.lane);
    const at = queue?.findIndex(([queuedId]) => queuedId === id) ?? -1;
    if (at >= 0) {
      queue!.splice(at, 1);
      if (queue!.length === 0) heavyQueue.delete(call.lane);
      heavyWaiting--;
      dropped++;
      call.reject(abortReason(call.signal));
      return;
    }
    const thread = threads.find((t) => t.calls.get(id) === call);
    if (thread) Atomics.store(thread.abandon, 0, id);
  }

  const limit = opts.callTimeoutMs;
  const watchdog =
    limit === undefined
      ? undefined
      : setInterval(
          () => {
            const now = Date.now();
            for (const t of [...threads]) {
              if (!t.ready || t.calls.size === 0) continue;
              const [stuck, head] = t.calls.entries().next().value!;
              // A method's first call on a worker (for routing, a metric's) may build lazy indexes (places, a region's
              // graph, a vehicle's metric): that cold work is no call's fault, so it gets the whole limit; calls after
              // one that found what it asked for (see settle) get their own budget.
              const budgetMs = t.warm.has(coldKey(head.method, head.params)) ? head.budgetMs : limit;
              if (now - t.since <= budgetMs) continue;
              replace(t);
              // The calls queued behind the stuck one go where they are answered soonest, not to a worker loading.
              const waiting = [...t.calls].filter(([id]) => id !== stuck);
              t.calls.clear();
              t.units = 0;
              t.heavy = 0;
              for (const [id, c] of waiting) dispatch(id, c);
              // The answer the handler gives at its own limit: which timer fires first must not change the reply.
              const late = refusal('callTimeout', { what: head.method, ms: budgetMs });
              head.resolve(new SerializedBody(JSON.stringify(late.body), late.http));
              startHeavy();
            }
          },
          Math.max(1, Math.min(limit, 1000) / 4),
        );
  watchdog?.unref();

  function call(
    method: MethodName,
    params: EngineParams,
    context: CallContext = {},
  ): Promise<SerializedBody | Uint8Array> {
    const { units } = callCost(method, params);
    const heavy = units >= HEAVY_UNITS;
    const budgetMs = limit === undefined ? Infinity : callBudgetMs(units, limit);
    const { signal, lane = '' } = context;
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const c: ThreadCallState = { method, params, units, heavy, budgetMs, lane, signal, resolve, reject };
      if (heavy && !signal?.aborted) {
        // Only heavy calls are followed after they are sent: a light one is over in milliseconds anyway.
        const onAbort = () => abandon(id, c);
        signal?.addEventListener('abort', onAbort, { once: true });
        const entry = lanes.get(lane) ?? { calls: 0, started: 0 };
        entry.calls++;
        lanes.set(lane, entry);
        const done = () => {
          signal?.removeEventListener('abort', onAbort);
          if (--entry.calls === 0) lanes.delete(lane);
        };
        c.resolve = (v) => (done(), resolve(v));
        c.reject = (err) => (done(), reject(err));
      }
      dispatch(id, c);
    });
  }

  return {
    ready: ready.then((methods) => {
      const api: EngineApi = {};
      for (const m of methods) api[m] = (params, context) => call(m, rawParams(params) as EngineParams, context);
      return api;
    }),
    problem() {
      if (threads.some((t) => t.ready && !t.failed)) return null;
      const failed = threads.find((t) => t.failed)?.failed;
      return failed ? `no engine worker is running: ${failed}` : 'no engine worker has loaded its packs yet';
    },
    stats: () => ({
      threads: threads.length,
      ready: threads.filter((t) => t.ready).length,
      inFlight: threads.reduce((n, t) => n + t.calls.size, 0),
      heavyRunning: heavyRunning(),
      heavyWaiting,
      replaced,
      heavyStarted: starts,
      heavyAbandoned,
      dropped,
      metricsMade,
      metricsAdopted,
      metricsKept: metrics.size,
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

/** Why a call whose client has gone is rejected: the signal's reason (an AbortError), or one like it. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('the client has gone', 'AbortError');
}
