/**
 * Worker-thread entry of the pack builder's threads (see ch-threads.ts): runs the jobs it is sent, one at a time —
 * contractions and the customizable hierarchy's nested-dissection order — and answers each with its result's arrays
 * (transferred, not copied). Every message it posts is followed by a bump of the shared counter, which wakes the
 * builder thread blocked in Atomics.wait.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { Pack } from '../src/pack/reader.js';
import { cchOrder, partOrderer, type CchOrder } from '../src/route/cch/build.js';
import type { Part } from '../src/route/cch/order.js';
import { RoadGraph } from '../src/route/graph.js';
import { contract, type Contracted, type ContractOptions } from './ch-build.js';
import { contractInWasm } from './ch-wasm.js';
import type { BaseGraph, Contraction, StopRule, Tuning } from './ch-graph.js';

/**
 * A job: its index among the builder's tasks and either a graph with the options of a whole hierarchy or the stop
 * rule and tuning of one instance of a partitioned contraction (ch-partition.ts), or the bytes of a pack holding a
 * road graph (its buffer transferred) whose nested-dissection order to make (src/route/cch/build.ts cchOrder), with
 * its `pair` when two threads make it.
 */
export type ContractJob = { id: number } & (
  | { graph: BaseGraph; options: ContractOptions }
  | { graph: BaseGraph; stop: StopRule; tuning: Tuning }
  | { order: Uint8Array; pair?: OrderPair }
);

/**
 * Two threads making one order: the first makes the first cut and sends the second its high side over `link`, the
 * second orders that side and sends back its states in order; `wake` counts the messages, so each can block on it.
 */
export interface OrderPair {
  link: MessagePort;
  wake: Int32Array;
  /** True in the thread that orders the high side. */
  helper: boolean;
}

/** What a job gives: a hierarchy, an instance's contraction, an order, or (a pair's helper) the states it ordered. */
export type JobResult = Contracted | Contraction | CchOrder | { helped: number };

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

/** Sends `message` to the other thread of an order pair (its arrays' buffers transferred) and wakes it. */
function send(link: MessagePort, wake: Int32Array, message: unknown, transfer: ArrayBufferView[]): void {
  link.postMessage(
    message,
    transfer.map((x) => x.buffer as ArrayBuffer),
  );
  Atomics.add(wake, 0, 1);
  Atomics.notify(wake, 0);
}

/** Blocks until the other thread of an order pair sends a message, and returns it. */
function receive(link: MessagePort, wake: Int32Array): unknown {
  for (;;) {
    const seen = Atomics.load(wake, 0);
    const m = receiveMessageOnPort(link);
    if (m) return m.message;
    Atomics.wait(wake, 0, seen, 1000);
  }
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
    if ('order' in job && job.pair?.helper) {
      const { link, wake } = job.pair;
      const orderPart = partOrderer(new RoadGraph(Pack.from(job.order)));
      // Null: the graph was not cut (too small), nothing is handed aside.
      const high = receive(link, wake) as Part | null;
      const part = high ? orderPart(high) : new Uint32Array(0);
      if (high) send(link, wake, part, [part]);
      post({ id: job.id, result: { helped: part.length } });
    } else if ('order' in job) {
      const pair = job.pair;
      let handed = false;
      const result = cchOrder(
        new RoadGraph(Pack.from(job.order)),
        pair &&
          ((high) => {
            handed = true;
            send(pair.link, pair.wake, high, high);
            return () => receive(pair.link, pair.wake) as Uint32Array;
          }),
      );
      if (pair && !handed) send(pair.link, pair.wake, null, []);
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
