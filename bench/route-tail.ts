/**
 * Where the route workload's p99 comes from (issue 13): `bando serve`'s serving path (createRestHandler on
 * startNodeServer, memory usage store) with two engine threads, under wrk -t2 -c16 over 500 random Hanoi routes (as
 * bench/ops.ts part 1), every request timed at each hop:
 *
 * - serving thread: handler entered (after node parsed the request) → engine call made → call message posted →
 *   answer message received → reply handed to the socket writer; how long `res.end` took;
 * - engine thread (bench/route-tail-worker.ts): message received → engine call started (queue) → done (search and
 *   answer object) → JSON bytes made (serialisation) → answer message posted (batching);
 * - GC pauses in every thread (perf_hooks `gc` entries) and the serving thread's event-loop delay.
 *
 * Prints each hop's distribution, then what the slowest 1 % of requests (by time in the server) spent where and how
 * many of them overlapped a GC pause, and the answers' bytes and GC counts per 1,000 routes.
 * Run: npx tsx bench/route-tail.ts (needs wrk); BENCH_TAIL_SECONDS (default 10); BENCH_TAIL_V8: V8 flags set at run time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { BroadcastChannel, Worker } from 'node:worker_threads';
import { createRestHandler, type RestHandler } from '../src/adapters/http/handler.js';
import { startNodeServer } from '../src/adapters/http/node-server.js';
import type { EngineApi } from '../src/adapters/http/routes.js';
import { createThreadPool } from '../src/adapters/worker/pool.js';
import { quantile, table } from './stats.js';
import { buildWorkerBundle } from './worker-bundle.js';
import { generateWrk } from './wrk.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECONDS = Number(process.env.BENCH_TAIL_SECONDS ?? 10);
const now = () => performance.timeOrigin + performance.now();

let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pt = () => `${(21.005 + rnd() * 0.04).toFixed(5)},${(105.815 + rnd() * 0.05).toFixed(5)}`;
const ROUTES = Array.from({ length: 500 }, () => `/Direction?origin=${pt()}&destination=${pt()}&api_key=bench`);

/** Serving-thread timestamps of one call id: [handler entered, engine call, posted, answer received, reply]. */
const main = new Map<number, number[]>();
/** `res.end` durations, ms. */
const writes: number[] = [];
/** GC pauses of the serving thread: [start, duration, 0, kind] (as the engine threads report them). */
const mainGc: number[][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    mainGc.push([
      performance.timeOrigin + e.startTime,
      e.duration,
      0,
      (e as unknown as { detail: { kind: number } }).detail.kind,
    ]);
}).observe({ entryTypes: ['gc'] });

// Posted and received call messages carry flat [id, …, …] triples (thread-protocol.ts).
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: readonly ArrayBuffer[]) {
  const t = now();
  if (Array.isArray(message))
    for (let i = 0; i < message.length; i += 3) main.get(message[i] as number)?.splice(2, 1, t);
  return post.call(this, message, transfer as never);
};
const emit = Worker.prototype.emit;
Worker.prototype.emit = function (this: Worker, event: string | symbol, ...args: unknown[]) {
  if (event === 'message' && Array.isArray(args[0])) {
    const t = now();
    const m = args[0] as unknown[];
    for (let i = 0; i < m.length; i += 3) main.get(m[i] as number)?.splice(3, 1, t);
  }
  return emit.call(this, event, ...args);
};
const end = ServerResponse.prototype.end;
ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
  const t = performance.now();
  const r = (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  writes.push(performance.now() - t);
  return r;
} as typeof end;

// V8 flags to set at run time (as `bando serve` would, after start), e.g. BENCH_TAIL_V8=--no-parallel-scavenge.
if (process.env.BENCH_TAIL_V8) setFlagsFromString(process.env.BENCH_TAIL_V8);
const dir = mkdtempSync(join(tmpdir(), 'bando-tail-'));
const script = await buildWorkerBundle(dir, fileURLToPath(new URL('./route-tail-worker.ts', import.meta.url)));
const pool = createThreadPool(script, { size: 2, packs: [join(ROOT, 'packs/hanoi.pack')], callTimeoutMs: 30_000 });
const api = await pool.ready;
// The pool numbers calls 1, 2, 3, … in the order they are made, so the n-th direction call has id n.
let nextId = 1;
let entered = 0;
const timedApi: EngineApi = {
  ...api,
  direction(params) {
    const id = nextId++;
    main.set(id, [entered, now(), 0, 0, 0]);
    return (api.direction!(params) as Promise<unknown>).then((v) => {
      main.get(id)![4] = now();
      return v;
    });
  },
};
const rest = createRestHandler(timedApi, { keys: [{ key: 'bench', monthlyQuota: 1e9 }], allowHttp: true });
const handler: RestHandler = (request, client) => {
  entered = now();
  return rest(request, client);
};
const server = await startNodeServer(handler, { port: 0 });

await generateWrk(server.url, ROUTES, dir, 16, 3); // warm-up
const channel = new BroadcastChannel('route-tail');
const collect = async (): Promise<{ calls: [number, number[]][]; gc: number[][] }[]> => {
  const got: { calls: [number, number[]][]; gc: number[][] }[] = [];
  await new Promise<void>((resolve) => {
    channel.onmessage = (e) => {
      if ((e as unknown as { data: unknown }).data === 'report') return;
      got.push((e as unknown as { data: { calls: [number, number[]][]; gc: number[][] } }).data);
      if (got.length === 2) resolve();
    };
    channel.postMessage('report');
  });
  return got;
};
await collect();
main.clear();
writes.length = 0;
mainGc.length = 0;
const cpuBefore = threadCpu();
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const wrk = await generateWrk(server.url, ROUTES, dir, 16, SECONDS);
delay.disable();
const cpuAfter = threadCpu();
if (!wrk) throw new Error('needs wrk (apt-get install -y wrk)');
const workers = await collect();
channel.close();
await server.close();
pool.close();
rmSync(dir, { recursive: true, force: true });

// Per request: every hop, ms.
const HOPS = [
  'handler → engine call',
  'call → posted',
  'posted → engine thread got it',
  'queue in engine thread',
  'engine (search + answer)',
  'JSON bytes',
  'bytes → posted back',
  'posted back → received',
  'received → reply',
  'in server (sum)',
] as const;
const rows: number[][] = [];
const workerCalls = new Map<number, number[]>();
const workerGc: number[][] = [];
for (const w of workers) {
  for (const [id, c] of w.calls) workerCalls.set(id, c);
  workerGc.push(...w.gc);
}
for (const [id, m] of main) {
  const w = workerCalls.get(id);
  if (!w || !m[4] || !w[4] || !w[3]) continue;
  rows.push([
    m[1]! - m[0]!,
    m[2]! - m[1]!,
    w[0]! - m[2]!,
    w[1]! - w[0]!,
    w[2]! - w[1]!,
    w[3]! - w[2]!,
    w[4]! - w[3]!,
    m[3]! - w[4]!,
    m[4]! - m[3]!,
    m[4]! - m[0]!,
  ]);
}
const ms = (v: number) => Math.round(v * 1000) / 1000;
table(
  `Route workload: wrk -t2 -c16, ${SECONDS} s, two engine threads, memory store: ${Math.round(wrk.count / wrk.seconds)} req/s, wrk p50 ${wrk.p50} ms, p99 ${wrk.p99} ms; ${rows.length} requests timed in the server (ms per hop)`,
  HOPS.map((hop, k) => {
    const v = rows.map((r) => r[k]!);
    return {
      hop,
      p50: ms(quantile(v, 0.5)),
      p90: ms(quantile(v, 0.9)),
      p99: ms(quantile(v, 0.99)),
      max: ms(Math.max(...v)),
    };
  }),
);
const total = HOPS.length - 1;
const slow = [...rows].sort((a, b) => b[total]! - a[total]!).slice(0, Math.max(1, Math.floor(rows.length / 100)));
table(
  `The slowest 1 % in the server (${slow.length} requests, from ${ms(slow[slow.length - 1]![total]!)} ms): mean ms per hop`,
  HOPS.map((hop, k) => ({ hop, 'mean ms': ms(slow.reduce((s, r) => s + r[k]!, 0) / slow.length) })),
);
const pauses = (gc: number[][]) => gc.map((g) => g[1]!);
const KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
const kinds = (gc: number[][]) => {
  const by = new Map<string, number[]>();
  for (const g of gc) by.set(KINDS[g[3]!] ?? String(g[3]), [...(by.get(KINDS[g[3]!] ?? String(g[3])) ?? []), g[1]!]);
  return [...by]
    .map(([k, d]) => `${k} ${d.length} (p50 ${ms(quantile(d, 0.5))} ms, max ${ms(Math.max(...d))} ms)`)
    .join(', ');
};
console.log(
  `\nGC pauses during the run: serving thread ${mainGc.length} (p50 ${ms(quantile(pauses(mainGc), 0.5))} ms, max ${ms(Math.max(0, ...pauses(mainGc)))} ms); engine threads ${workerGc.length} (p50 ${ms(quantile(pauses(workerGc), 0.5))} ms, max ${ms(Math.max(0, ...pauses(workerGc)))} ms); per 1,000 routes: ${ms((workerGc.length / rows.length) * 1000)} in the engine threads, ${ms((mainGc.length / rows.length) * 1000)} in the serving thread.`,
);
console.log(`By kind: serving thread ${kinds(mainGc)}; engine threads ${kinds(workerGc)}.`);
// Which slow requests had a GC pause inside their time in the server (posted → received, or the whole span).
const overlaps = (gc: number[][], a: number, b: number) => gc.some(([s, d]) => s! < b && s! + d! > a);
let slowGcWorker = 0;
let slowGcMain = 0;
for (const [id, m] of main) {
  const w = workerCalls.get(id);
  if (!w || !m[4]) continue;
  if (m[4]! - m[0]! < slow[slow.length - 1]![total]!) continue;
  if (
    overlaps(
      workerGc.filter((g) => g[2] === w[5]),
      m[0]!,
      m[4]!,
    )
  )
    slowGcWorker++;
  if (overlaps(mainGc, m[0]!, m[4]!)) slowGcMain++;
}
console.log(
  `Slowest 1 %: ${slowGcWorker} overlapped a GC pause of their engine thread, ${slowGcMain} a serving-thread one. res.end p50 ${ms(quantile(writes, 0.5))} ms, p99 ${ms(quantile(writes, 0.99))} ms. Serving thread event-loop delay p50 ${ms(delay.percentile(50) / 1e6)} ms, p99 ${ms(delay.percentile(99) / 1e6)} ms, max ${ms(delay.max / 1e6)} ms.`,
);
const cpu = new Map<string, number>();
for (const [tid, [name, ticks]] of cpuAfter)
  cpu.set(name, (cpu.get(name) ?? 0) + ticks - (cpuBefore.get(tid)?.[1] ?? 0));
console.log(
  `CPU per request by thread (µs, /proc ticks over the wrk run): ${[...cpu]
    .filter(([, t]) => t > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, t]) => `${name} ${Math.round((t * 1e4) / wrk.count)}`)
    .join(', ')}`,
);
process.exit(0);

/** CPU ticks (user + system, 100 a second) of each thread of this process: thread id → [thread name, ticks]. */
function threadCpu(): Map<string, [string, number]> {
  const out = new Map<string, [string, number]>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, [tid === String(process.pid) ? 'serving thread' : name, Number(f[11]) + Number(f[12])]);
    } catch {
      // The thread ended.
    }
  }
  return out;
}
