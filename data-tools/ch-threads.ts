import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { CchOrder } from '../src/route/cch/build.js';
import { contract, hierarchy, type Contracted, type ContractOptions } from './ch-build.js';
import { Partitioned, PARTITION, type CellJob } from './ch-partition.js';
import { contractInWasm } from './ch-wasm.js';
import type { ContractJob, ContractReply, JobResult, OrderPair } from './ch-worker.js';
import type { BaseGraph, Contraction } from './ch-graph.js';

/**
 * Below this many states summed over the jobs, hierarchies are contracted in the builder's thread: starting a worker
 * (and, from TypeScript sources, its loader) costs about a second, more than small packs take to contract.
 */
const THREAD_MIN_STATES = 150_000;

/**
 * Worker script: imports the entry named in workerData (from sources, tests or `node --import tsx`, through tsx's
 * `tsImport`: a worker does not inherit the TypeScript loader), and reports a failed import the way a job error is
 * reported (a worker that dies before answering would otherwise leave the builder waiting).
 */
const BOOT = `const { workerData: d } = require('node:worker_threads');
(d.tsx ? import(d.tsx).then((m) => m.tsImport(d.entry, d.entry)) : import(d.entry)).catch((e) => {
  d.port.postMessage({ id: -1, error: String((e && e.stack) || e) });
  Atomics.add(d.flag, 0, 1);
  Atomics.notify(d.flag, 0);
});`;

/**
 * A round of contractAll, reported as it starts: the instances that run in it (whole hierarchies, or cells and
 * overlays of partitioned ones, ch-partition.ts) and the states they hold, summed. Round 0 takes the base graphs.
 */
export interface Round {
  round: number;
  instances: number;
  states: number;
}

/** A job of contractAll: one hierarchy's graph and options. */
interface HierarchyJob {
  graph: BaseGraph;
  options: ContractOptions;
}

/** What a thread runs: a whole hierarchy, or one instance of a partitioned contraction (it has a `stop`). */
type Task = HierarchyJob | CellJob;

/**
 * The nested-dissection order of the road graph of a pack (src/route/cch/build.ts cchOrder), given as the pack's
 * bytes: one buffer that a worker receives whole, not a structured clone of the graph's objects.
 */
interface OrderJob {
  order: Uint8Array;
  pair?: OrderPair;
}

/** What a worker thread runs. */
type WorkerTask = Task | OrderJob;

/** Whether a hierarchy is contracted cell-wise (ch-partition.ts PARTITION, or forced by its options). */
function partitioned(j: HierarchyJob): Partitioned | null {
  const forced = j.options.cellStates;
  if (forced === undefined && j.graph.states < PARTITION.minStates) return null;
  const cell = forced ?? PARTITION.cellStates;
  const { coreSize = -1, cellCore = PARTITION.cellCore } = j.options;
  return new Partitioned(j.graph, coreSize, cell, forced ?? PARTITION.topStates, cellCore);
}

/**
 * Contracts every graph (ch-build.ts) and returns the hierarchies in job order. With `threads` > 1 the work runs in
 * that many worker threads, each task wholly in one thread and merged in task order, so the result is the same bytes
 * whatever the timing. A task is a whole hierarchy, or a cell of a hierarchy contracted cell-wise (ch-partition.ts):
 * the cells of all hierarchies share the threads, level by level (round by round). Default, when the jobs are big
 * enough: `defaultThreads`. A hierarchy contracted cell-wise is laid out (ch-build.ts
 * `hierarchy`) in the calling thread as soon as its top instance is in, while the workers go on with the other
 * hierarchies' instances. Synchronous: the calling thread blocks until all are done. The
 * graphs' buffers are transferred to the workers (unusable afterwards). `progress` hears states contracted of all,
 * summed over the jobs; `onRound` hears each round as it starts (a stage of its own in the builder's progress).
 *
 * Takes the jobs: `taken` is emptied, and a cell-wise hierarchy's base graph is let go as soon as its first level
 * holds its own copy (in key order), so a caller that keeps no other reference to the graphs frees them during the
 * contraction (on the NY 4 × 4 input, about 0.4 GB per hierarchy).
 *
 * `alongside`, when given, runs once in the calling thread while the workers contract the first round (before it,
 * when the contraction runs in this thread): the pack builder extracts places meanwhile (build-pack.ts). The workers
 * are handed tasks ahead for it (ALONGSIDE_SHARE), since no new task reaches them until it returns.
 */
export function contractAll(
  taken: HierarchyJob[],
  threads?: number,
  progress?: (done: number, total: number) => void,
  onRound?: (round: Round) => void,
  alongside?: () => void,
): Contracted[] {
  const states = taken.map((j) => j.graph.states);
  const total = states.reduce((s, x) => s + x, 0);
  const n = threads ?? (total >= THREAD_MIN_STATES ? defaultThreads(taken.length, availableParallelism()) : 1);
  // A partitioned hierarchy's state until it is finished and laid out (then null, so that its records can go).
  const parts = taken.map(partitioned);
  // Only the hierarchies contracted whole still need their job; the others' levels hold their graphs.
  const jobs = taken.splice(0).map((j, k) => (parts[k] ? null : j));
  const results: Contracted[] = new Array(jobs.length);
  let before = 0;
  for (let round = 0; ; round++) {
    const tasks: Task[] = [];
    const owner: { job: number; i: number }[] = [];
    const add = (t: Task, job: number, i: number) => {
      tasks.push(t);
      owner.push({ job, i });
    };
    jobs.forEach((j, k) => {
      if (j) {
        if (round === 0) add(j, k, -1);
      } else parts[k]?.jobs()?.forEach((t, i) => add(t, k, i));
    });
    if (tasks.length === 0) {
      if (round === 0) alongside?.();
      break;
    }
    onRound?.({ round, instances: tasks.length, states: tasks.reduce((x, t) => x + taskStates(t), 0) });
    const onResult = (t: number, r: JobResult) => {
      const o = owner[t]!;
      if (o.i < 0) {
        results[o.job] = r as Contracted;
        return;
      }
      const p = parts[o.job]!;
      p.take(o.i, r as Contraction);
      if (!p.finished) return;
      // Laid out at once, while other instances still run in the workers, and its records let go: the builder
      // never holds every hierarchy's records and its layout at the same time.
      results[o.job] = hierarchy(states[o.job]!, p.contraction());
      parts[o.job] = null;
    };
    const roundProgress = progress && ((done: number) => progress(Math.min(total, before + done), total));
    before += runTasks(tasks, Math.min(n, tasks.length), onResult, roundProgress, round === 0 ? alongside : undefined);
  }
  return results;
}

/**
 * Threads for `jobs` jobs of about equal size (a pack's vehicles) on `cores` cores: one per job, even beyond the
 * cores, so that all end at about the same time and every core stays busy to the end (three jobs on two cores take
 * 1.5 job-times where two threads take 2, the third job running alone); but when the jobs divide evenly among the
 * cores, one per core: the same time (four jobs on two cores: 2 job-times either way) without the memory of the
 * threads beyond the cores (on whole HCMC about 80 MB each: a worker's contraction memory and its own JS heap).
 */
function defaultThreads(jobs: number, cores: number): number {
  return jobs > cores && jobs % cores === 0 ? cores : jobs;
}

/** Runs one task in this thread. */
function runTask(t: Task, progress?: (done: number) => void): Contracted | Contraction {
  return 'stop' in t ? contractInWasm(t.graph, t.stop, t.tuning, progress) : contract(t.graph, t.options, progress);
}

/** States a task contracts at most (for progress; none for an order). */
function taskStates(t: WorkerTask): number {
  return 'graph' in t ? t.graph.states : 0;
}

/**
 * Runs the tasks in `n` threads (this one when n ≤ 1) and hands each result to `onResult` in task order, while
 * `alongside` runs in this thread (before the tasks when n ≤ 1); returns the states the tasks contracted at most, for
 * progress.
 */
function runTasks(
  tasks: readonly Task[],
  n: number,
  onResult: (i: number, r: JobResult) => void,
  progress?: (done: number) => void,
  alongside?: () => void,
): number {
  const states = tasks.reduce((s, t) => s + taskStates(t), 0);
  if (n <= 1) {
    alongside?.();
    let before = 0;
    tasks.forEach((t, i) => {
      onResult(i, runTask(t, progress && ((done) => progress(before + done))));
      before += taskStates(t);
    });
    return states;
  }
  inWorkers(tasks, n, onResult, progress, alongside);
  return states;
}

/**
 * The share of a round's tasks handed to the workers ahead (in turn) before `alongside` runs: enough to keep them
 * busy through the pack builder's other stages (on the NY 4 × 4 input about 170 s, against about 1,550 s of
 * first-round work per worker), not all of them, so that the workers still end the round together.
 */
const ALONGSIDE_SHARE = 0.25;

/**
 * Runs the tasks in `n` worker threads, handing the next task to whichever has none left (with `alongside`, some
 * are handed ahead: ALONGSIDE_SHARE).
 */
function inWorkers(
  tasks: readonly Task[],
  n: number,
  onResult: (i: number, r: JobResult) => void,
  progress?: (done: number) => void,
  alongside?: () => void,
): void {
  // Workers hear no new task while `alongside` runs: hand them a share ahead, in turn, and at least a second task
  // each (a worker holding one task of several idles from its end until `alongside` returns).
  const ahead = alongside ? Math.min(tasks.length, Math.max(Math.ceil(ALONGSIDE_SHARE * tasks.length), 2 * n)) : n;
  const running = startWorkers(tasks, n, ahead);
  try {
    alongside?.();
    running.join(onResult, progress);
  } finally {
    running.stop();
  }
}

/**
 * Makes the nested-dissection order of the road graph in `graphPack` (the bytes of a pack holding it, e.g.
 * pack-sections.ts writePack of a graph alone; its buffer is transferred, unusable afterwards) in a worker thread,
 * while the calling thread goes on: `join` blocks until the order is made and returns it (the same as cchOrder of
 * that graph in this thread), or throws the worker's error; `stop` ends the thread unjoined (when the caller fails
 * meanwhile: a live thread would keep the process from exiting). Both may be called more than once. With more than
 * one core, two threads make it: a second one, given a copy of the graph, orders the high side of the first cut.
 */
export function orderInWorker(graphPack: Uint8Array): { join(): CchOrder; stop(): void } {
  const tasks: OrderJob[] = [{ order: graphPack }];
  if (availableParallelism() > 1) {
    const { port1, port2 } = new MessageChannel();
    const wake = new Int32Array(new SharedArrayBuffer(4));
    tasks.push({ order: graphPack.slice(), pair: { link: port2, wake, helper: true } });
    tasks[0]!.pair = { link: port1, wake, helper: false };
  }
  const running = startWorkers(tasks, tasks.length, tasks.length);
  let order: CchOrder | undefined;
  return {
    join() {
      if (order) return order;
      try {
        running.join((i, r) => {
          if (i === 0) order = r as CchOrder;
        });
      } finally {
        running.stop();
      }
      return order!;
    },
    stop: running.stop,
  };
}

/** Tasks running in worker threads (startWorkers). */
interface Running {
  /**
   * Blocks until every task is done, handing each result to `onResult` in task order and the states contracted so
   * far to `progress`; throws the first error a worker reports. Hands the tasks not yet sent to whichever worker has
   * none left.
   */
  join(onResult: (i: number, r: JobResult) => void, progress?: (done: number) => void): void;
  /** Ends the threads (idempotent); `join` throws afterwards. */
  stop(): void;
}

/** The error a worker reported, naming what failed: its task (by id), or its start (id -1, BOOT). */
function workerError(tasks: readonly WorkerTask[], r: { id: number; error: string }): Error {
  const t = tasks[r.id];
  const what = !t
    ? 'a worker thread failed to start'
    : `${'order' in t ? 'nested-dissection order' : 'contraction'} worker failed`;
  return new Error(`${what}: ${r.error}`);
}

/**
 * Starts `n` worker threads (ch-worker.ts) and sends them the first `ahead` ≥ n tasks, in turn; the calling thread is
 * free until it calls `join`.
 */
function startWorkers(tasks: readonly WorkerTask[], n: number, ahead: number): Running {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const fromTs = import.meta.url.endsWith('.ts');
  const entry = new URL(fromTs ? './ch-worker.ts' : './ch-worker.js', import.meta.url).href;
  // tsx ships its API as CommonJS and as an ES module side by side; the ES module works in an eval'd worker.
  const tsx = fromTs
    ? pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs')
    : null;
  const done = new Float64Array(tasks.length);
  // Per worker, the tasks it was sent and has not answered.
  const workers: { worker: Worker; port: MessagePort; queued: number }[] = [];
  let next = 0;
  /** Sends the next task to a worker; false when none is left. */
  const send = (w: { port: MessagePort; queued: number }): boolean => {
    if (next >= tasks.length) return false;
    const id = next++;
    const t = tasks[id]!;
    let job: ContractJob, buffers: ArrayBufferView[];
    let ports: MessagePort[] = [];
    if ('order' in t) {
      job = { id, order: t.order, pair: t.pair };
      buffers = [t.order];
      ports = t.pair ? [t.pair.link] : [];
    } else {
      const g = t.graph;
      job = 'stop' in t ? { id, graph: g, stop: t.stop, tuning: t.tuning } : { id, graph: g, options: t.options };
      buffers = [g.first, g.head, g.weight, g.payload, g.hops, g.keep].filter((x) => x !== undefined);
    }
    w.port.postMessage(job, [...new Set(buffers.map((x) => x.buffer as ArrayBuffer)), ...ports]);
    w.queued++;
    return true;
  };
  const stop = () => {
    for (const { worker, port } of workers.splice(0)) {
      port.close();
      void worker.terminate();
    }
  };
  try {
    for (let i = 0; i < n; i++) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(BOOT, {
        eval: true,
        workerData: { entry, port: port2, flag, tsx },
        transferList: [port2],
      });
      workers.push({ worker, port: port1, queued: 0 });
      send(workers[i]!);
    }
    for (let i = 0; next < ahead; i++) send(workers[i % n]!);
  } catch (err) {
    stop();
    throw err;
  }
  const join = (onResult: (i: number, r: JobResult) => void, progress?: (done: number) => void) => {
    // Stopped threads answer nothing: waiting for them would never end.
    if (workers.length === 0) throw new Error('the worker threads were stopped before their tasks were done');
    // Results wait here until every earlier task's result has been handed on.
    const waiting = new Map<number, JobResult>();
    let handed = 0,
      finished = 0;
    while (finished < tasks.length) {
      const seen = Atomics.load(flag, 0);
      for (const w of workers) {
        const { worker, port } = w;
        for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
          const r = m.message as ContractReply;
          if ('error' in r) throw workerError(tasks, r);
          if ('done' in r) done[r.id] = r.done;
          else {
            waiting.set(r.id, r.result);
            done[r.id] = taskStates(tasks[r.id]!);
            finished++;
            // A worker with no task left stops at once: the memory of its last instance (a top's can be gigabytes)
            // would otherwise stay resident, with nothing in that thread to collect it, until the round ends.
            if (--w.queued === 0 && !send(w)) void worker.terminate();
          }
        }
      }
      for (let r = waiting.get(handed); r; r = waiting.get(handed)) {
        waiting.delete(handed);
        onResult(handed++, r);
      }
      progress?.(done.reduce((s, x) => s + x, 0));
      if (finished < tasks.length) Atomics.wait(flag, 0, seen, 1000);
    }
  };
  return { join, stop };
}
