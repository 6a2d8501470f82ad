/**
 * Worker-thread entry of parallel contraction (see ch-threads.ts): contracts the jobs it is sent, one at a time, and
 * answers each with the hierarchy's arrays (transferred, not copied). Every message it posts is followed by a bump
 * of the shared counter, which wakes the builder thread blocked in Atomics.wait.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { contract, type BaseGraph, type Contracted, type ContractOptions } from './ch-build.js';

/** A contraction job: its index among the builder's jobs, the graph and the options. */
export interface ContractJob {
  id: number;
  graph: BaseGraph;
  options: ContractOptions;
}

/** What a worker posts: progress (states contracted), a finished hierarchy, or the error that ended a job. */
export type ContractReply =
  { id: number; done: number } | { id: number; result: Contracted } | { id: number; error: string };

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
    const result = contract(job.graph, job.options, (done) => {
      // At most about ten progress messages a second.
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      post({ id: job.id, done });
    });
    const buffers = Object.values(result.ch).map((x: ArrayBufferView) => x.buffer as ArrayBuffer);
    post({ id: job.id, result }, buffers);
  } catch (err) {
    post({ id: job.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
