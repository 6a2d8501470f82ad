import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { contract, type BaseGraph, type Contracted, type ContractOptions } from './ch-build.js';
import type { ContractJob, ContractReply } from './ch-worker.js';

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
 * Contracts every graph (ch-build.ts) and returns the hierarchies in job order. With `threads` > 1 the jobs run in
 * that many worker threads, each job wholly in one thread, so the result is the same bytes whatever the timing.
 * Default, when the jobs are big enough: one thread per job, even beyond the machine's cores. Jobs of about equal
 * size (a pack's vehicles) then all end at about the same time and every core stays busy to the end: three jobs on
 * two cores take 1.5 job-times where two threads take 2 (the third job running alone). Synchronous: the calling
 * thread blocks until all are done. The graphs' buffers are transferred to the workers (unusable afterwards).
 * `progress` hears states contracted of all, summed over the jobs.
 */
export function contractAll(
  jobs: readonly { graph: BaseGraph; options: ContractOptions }[],
  threads?: number,
  progress?: (done: number, total: number) => void,
): Contracted[] {
  const total = jobs.reduce((s, j) => s + j.graph.states, 0);
  const n = Math.min(jobs.length, threads ?? (total >= THREAD_MIN_STATES ? jobs.length : 1));
  if (n <= 1) {
    let before = 0;
    return jobs.map((j) => {
      const ch = contract(j.graph, j.options, progress && ((done) => progress(before + done, total)));
      before += j.graph.states;
      return ch;
    });
  }
  return inWorkers(jobs, n, total, progress);
}

/** Runs the jobs in `n` worker threads, handing the next job to whichever finishes first. */
function inWorkers(
  jobs: readonly { graph: BaseGraph; options: ContractOptions }[],
  n: number,
  total: number,
  progress?: (done: number, total: number) => void,
): Contracted[] {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const fromTs = import.meta.url.endsWith('.ts');
  const entry = new URL(fromTs ? './ch-worker.ts' : './ch-worker.js', import.meta.url).href;
  // tsx ships its API as CommonJS and as an ES module side by side; the ES module works in an eval'd worker.
  const tsx = fromTs
    ? pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs')
    : null;
  const results: (Contracted | undefined)[] = new Array(jobs.length);
  const done = new Float64Array(jobs.length);
  const workers: { worker: Worker; port: MessagePort }[] = [];
  let next = 0,
    finished = 0;
  const send = (port: MessagePort) => {
    if (next >= jobs.length) return;
    const id = next++;
    const { graph, options } = jobs[id]!;
    const job: ContractJob = { id, graph, options };
    port.postMessage(job, [
      graph.first.buffer,
      graph.head.buffer,
      graph.weight.buffer,
      graph.payload.buffer,
    ] as ArrayBuffer[]);
  };
  try {
    for (let i = 0; i < n; i++) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(BOOT, {
        eval: true,
        workerData: { entry, port: port2, flag, tsx },
        transferList: [port2],
      });
      workers.push({ worker, port: port1 });
      send(port1);
    }
    while (finished < jobs.length) {
      const seen = Atomics.load(flag, 0);
      for (const { port } of workers) {
        for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
          const r = m.message as ContractReply;
          if ('error' in r) throw new Error(`contraction worker failed: ${r.error}`);
          if ('done' in r) done[r.id] = r.done;
          else {
            results[r.id] = r.result;
            done[r.id] = jobs[r.id]!.graph.states;
            finished++;
            send(port);
          }
        }
      }
      progress?.(
        done.reduce((s, x) => s + x, 0),
        total,
      );
      if (finished < jobs.length) Atomics.wait(flag, 0, seen, 1000);
    }
  } finally {
    for (const { worker, port } of workers) {
      port.close();
      void worker.terminate();
    }
  }
  return results as Contracted[];
}
