/**
 * Worker-thread entry of parallel contraction (see ch-threads.ts): contracts the jobs it is sent, one at a time, and
 * answers each with the hierarchy's arrays (transferred, not copied). Every message it posts is followed by a bump
 * of the shared counter, which wakes the builder thread blocked in Atomics.wait.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { contract, type Contracted, type ContractOptions } from './ch-build.js';
import { contractInWasm } from './ch-wasm.js';
import type { BaseGraph, Contraction, StopRule, Tuning } from './ch-graph.js';

/**
 * A contraction job: its index among the builder's tasks, the graph and either the options of a whole hierarchy or
 * the stop rule and tuning of one instance of a partitioned contraction (ch-partition.ts).
 */
export type ContractJob = { id: number; graph: BaseGraph } & (
  { options: ContractOptions } | { stop: StopRule; tuning: Tuning }
);

/**
 * What a worker posts: progress (states contracted), a finished hierarchy or instance, or the error that ended a
 * job.
 */
export type ContractReply =
  { id: number; done: number } | { id: number; result: Contracted | Contraction } | { id: number; error: string };

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };

/** Posts one reply and wakes the builder. */
function post(reply: ContractReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(reply, transfer);
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
}

port.on('message', (job: ContractJob) => {
  let last = 0;
  try {
    const progress = (done: number) => {
      // At most about ten progress messages a second.
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      post({ id: job.id, done });
    };
    if ('stop' in job) {
      const result = contractInWasm(job.graph, job.stop, job.tuning, progress);
      const { records: R, out, inn } = result;
      const views = [R.tail, R.head, R.a, R.b, result.hops, result.rank, ...Object.values(out), ...Object.values(inn)];
      post(
        { id: job.id, result },
        views.map((x: ArrayBufferView) => x.buffer as ArrayBuffer),
      );
    } else {
      const result = contract(job.graph, job.options, progress);
      const buffers = Object.values(result.ch).map((x: ArrayBufferView) => x.buffer as ArrayBuffer);
      post({ id: job.id, result }, buffers);
    }
  } catch (err) {
    post({ id: job.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
