/**
 * Worker-thread entry of the pack builder's threads (see ch-threads.ts): runs the jobs it is sent, one at a time —
 * contractions and the customizable hierarchy's nested-dissection order — and answers each with its result's arrays
 * (transferred, not copied). Every message it posts is followed by a bump of the shared counter, which wakes the
 * builder thread blocked in Atomics.wait.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { Pack } from '../src/pack/reader.js';
import { cchOrder, type CchOrder } from '../src/route/cch/build.js';
import { RoadGraph } from '../src/route/graph.js';
import { contract, type Contracted, type ContractOptions } from './ch-build.js';
import { contractInWasm } from './ch-wasm.js';
import type { BaseGraph, Contraction, StopRule, Tuning } from './ch-graph.js';

/**
 * A job: its index among the builder's tasks and either a graph with the options of a whole hierarchy or the stop
 * rule and tuning of one instance of a partitioned contraction (ch-partition.ts), or the bytes of a pack holding a
 * road graph (its buffer transferred) whose nested-dissection order to make (src/route/cch/build.ts cchOrder).
 */
export type ContractJob = { id: number } & (
  | { graph: BaseGraph; options: ContractOptions }
  | { graph: BaseGraph; stop: StopRule; tuning: Tuning }
  | { order: Uint8Array }
);

/** What a job gives: a hierarchy, an instance's contraction or an order. */
export type JobResult = Contracted | Contraction | CchOrder;

/** What a worker posts: progress (states contracted), a finished job's result, or the error that ended a job. */
export type ContractReply =
  { id: number; done: number } | { id: number; result: JobResult } | { id: number; error: string };

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };

/** Posts one reply and wakes the builder. */
function post(reply: ContractReply, transfer: ArrayBufferView[] = []): void {
  port.postMessage(reply, [...new Set(transfer.map((x) => x.buffer as ArrayBuffer))]);
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
    if ('order' in job) {
      const result = cchOrder(new RoadGraph(Pack.from(job.order)));
      post({ id: job.id, result }, [result.rank, result.topology.first, result.topology.adj]);
    } else if ('stop' in job) {
      const result = contractInWasm(job.graph, job.stop, job.tuning, progress);
      const { records: R, out, inn } = result;
      post({ id: job.id, result }, [
        R.tail,
        R.head,
        R.a,
        R.b,
        result.hops,
        result.rank,
        ...Object.values(out),
        ...Object.values(inn),
      ]);
    } else {
      const result = contract(job.graph, job.options, progress);
      post({ id: job.id, result }, Object.values(result.ch));
    }
  } catch (err) {
    post({ id: job.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
