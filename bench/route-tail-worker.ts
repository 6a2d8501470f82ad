/**
 * Engine thread entry of bench/route-tail.ts: the server thread protocol (`serveEngineThread`) as `bando serve`
 * runs it, with timestamps taken around it (absolute milliseconds, `performance.timeOrigin + performance.now()`, so
 * they compare across threads): when a call's message arrived, when its engine call started and ended, when its
 * answer's bytes were made, and when the message carrying it left. Also this thread's GC pauses. The main thread
 * asks for them on the `route-tail` broadcast channel.
 */
import { createEngine } from '../src/engine.js';
import { METHOD_NAMES, type EngineApi } from '../src/adapters/http/routes.js';
import { serveEngineThread, type ThreadInit, type ThreadPort } from '../src/adapters/worker/thread-protocol.js';

// Bundled for the browser platform like the real worker (no `node:` imports): node's modules come from the process.
const { parentPort, threadId, workerData, BroadcastChannel } = process.getBuiltinModule(
  'node:worker_threads',
) as typeof import('node:worker_threads');
const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks') as typeof import('node:perf_hooks');
const now = () => performance.timeOrigin + performance.now();
/** Per call id: [received, started, engine done, bytes made, posted, thread id]. */
const calls = new Map<number, number[]>();
/** GC pauses: [start, duration ms, thread id, kind (perf_hooks constants: 1 minor, 2 major, 4 incremental, 8 weak callbacks)]. */
const gc: number[][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    gc.push([
      performance.timeOrigin + e.startTime,
      e.duration,
      threadId,
      (e as unknown as { detail: { kind: number } }).detail.kind,
    ]);
}).observe({ entryTypes: ['gc'] });

/** Ids in arrival order, not yet started (calls run one at a time in arrival order). */
const waiting: number[] = [];
let current = -1;
const port = parentPort! as unknown as ThreadPort;
const timed: ThreadPort = {
  on(event, listener) {
    return port.on(event, (message) => {
      const t = now();
      for (let i = 0; i < message.length; i += 3) {
        const id = message[i] as number;
        calls.set(id, [t, 0, 0, 0, 0, threadId]);
        waiting.push(id);
      }
      listener(message);
    });
  },
  postMessage(message, transfer) {
    const t = now();
    for (let i = 0; i < message.length; i += 3) {
      const c = calls.get(message[i] as number);
      if (c) c[4] = t;
    }
    port.postMessage(message, transfer);
  },
};
// The answer's bytes are made by TextEncoder.encode right after the engine call: the end of it is "bytes made".
const encode = TextEncoder.prototype.encode;
TextEncoder.prototype.encode = function (this: TextEncoder, s?: string) {
  const out = encode.call(this, s);
  const c = calls.get(current);
  if (c) c[3] = now();
  return out;
};

serveEngineThread(timed, (workerData as { bandoThread: ThreadInit }).bandoThread, async (o) => {
  const engine = (await createEngine({ packs: o.packs, verify: o.verify, limits: o.limits })) as EngineApi;
  const wrapped: EngineApi = {};
  for (const name of METHOD_NAMES) {
    const fn = engine[name];
    if (typeof fn !== 'function') continue;
    wrapped[name] = (params) => {
      // Warm-up calls (before any message) have no id.
      current = waiting.shift() ?? -1;
      const c = calls.get(current);
      if (c) c[1] = now();
      const out = fn.call(engine, params);
      if (c) c[2] = now();
      return out;
    };
  }
  return wrapped;
});

const channel = new BroadcastChannel('route-tail');
channel.onmessage = (e) => {
  // The other engine threads' reports reach this channel too.
  if ((e as unknown as { data: unknown }).data !== 'report') return;
  // Answered calls only: the serving thread keeps the ids it asks about.
  channel.postMessage({ threadId, calls: [...calls].filter(([, c]) => c[4]! > 0), gc });
  for (const [id, c] of calls) if (c[4]! > 0) calls.delete(id);
  gc.length = 0;
};
(channel as unknown as { unref(): void }).unref();
