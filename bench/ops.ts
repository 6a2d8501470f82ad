/**
 * Serving past one process (issue 13), side by side in one run:
 * 1. usage stores on the route workload: memory, file (journal) and Redis (with the handler's work ahead, its
 *    default, and without) behind the same two engine threads, interleaved rounds (wrk -t2 -c16 when installed,
 *    else a node generator); req/s, p50, p99 and Redis ÷ memory;
 * 2. exact quotas: 2 and 4 `bando serve` processes on one Redis, 4,000 concurrent requests on a key with a quota of
 *    1,000, once as is and once with one instance killed (SIGKILL) mid-load; 200s, 429s and Redis's own count;
 * 3. Redis killed and restarted mid-load: statuses while it is down, time from its restart to the first 200 and to
 *    the last failure;
 * 4. light calls beside heavy ones: `bando serve --threads 2` processes, each loaded by four wrk connections sending
 *    400-stop trips (real ones: every stop reachable, so each trip is solved, ≈ 1 s of a core) and, from 1 s later,
 *    four sending geocodes; geocode p50/p99, trips answered. Setups, interleaved: the default (one thread reserved for
 *    light calls), the heavy one 10 nice levels lower (`--heavy-niceness 10`),
 *    no reserved thread (`--heavy-threads 2`), and the baseline's `dist/cli.js` (see below).
 * 5. the Redis store alone: CPU per admitted request (this process and redis-server) with 1 and 8 requests per
 *    event-loop turn and with 16 clients in a closed loop (group commit's batches), the cost the store adds to each
 *    request of part 1 without the engine's noise around it.
 * With BENCH_OPS_BASELINE=<another checkout, built, with node_modules>, part 1 also races that checkout's Redis store
 * and, as child processes, `bando serve --threads 2` of both checkouts' dist/ (run npm run build in both first); part
 * 4 races its CLI.
 * Needs Debian's redis-server (the bench starts its own on a free loopback port) and, for part 4, wrk and a built
 * dist/ (npm run build).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Redis } from 'ioredis';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../src/engine.js';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { startNodeServer, type RunningServer } from '../src/adapters/http/node-server.js';
import type { EngineApi } from '../src/adapters/http/routes.js';
import { FileUsageStore } from '../src/adapters/http/usage-file.js';
import { createRedisUsageStore, type BatchStats } from '../src/adapters/http/usage-redis.js';
import { MemoryUsageStore, type UsageStore } from '../src/adapters/http/usage.js';
import { createThreadPool } from '../src/adapters/worker/pool.js';
import { startRedis } from '../test/helpers/redis.js';
import { reachableStops } from '../test/helpers/trip-stops.js';
import { median, quantile, table } from './stats.js';
import { buildWorkerBundle } from './worker-bundle.js';
import { generateWrk } from './wrk.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACKS = [join(ROOT, 'packs/hanoi.pack')];
const ROUNDS = Number(process.env.BENCH_OPS_ROUNDS ?? 3);
const SECONDS = 6;
/** Which parts to run (digits 1–5), e.g. BENCH_OPS_PARTS=24. */
const PARTS = process.env.BENCH_OPS_PARTS ?? '12345';
/** Another checkout (built, with node_modules) to race as a baseline: its Redis store in part 1, its CLI in part 4. */
const BASELINE = process.env.BENCH_OPS_BASELINE;
/** Rounds of part 4 (each setup 12 s per round). */
const FAIR_ROUNDS = Number(process.env.BENCH_OPS_FAIR_ROUNDS ?? 3);

let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pt = () => `${(21.005 + rnd() * 0.04).toFixed(5)},${(105.815 + rnd() * 0.05).toFixed(5)}`;
const ROUTES = Array.from({ length: 500 }, () => `/Direction?origin=${pt()}&destination=${pt()}&api_key=bench`);

/** One GET over a keep-alive agent: status (0 on a connection error) and milliseconds. */
function get(agent: Agent, url: string): Promise<[number, number]> {
  return new Promise((resolve) => {
    const t = performance.now();
    request(url, { agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve([res.statusCode ?? 0, performance.now() - t]));
    })
      .on('error', () => resolve([0, performance.now() - t]))
      .end();
  });
}

/** `clients` loops of GETs over `paths` for `seconds`; every answer's status, latency and end time. */
async function load(
  base: string,
  paths: string[],
  clients: number,
  seconds: number,
): Promise<{ status: number; ms: number; at: number }[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const out: { status: number; ms: number; at: number }[] = [];
  const end = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const [status, ms] = await get(agent, base + paths[next++ % paths.length]!);
        out.push({ status, ms, at: performance.now() });
      }
    }),
  );
  agent.destroy();
  return out;
}

/**
 * Starts `bando serve` with `args` (after `--port 0 --allow-http`) in a child process: from the sources, or from a
 * built CLI bundle `cli`.
 */
function serve(args: string[], cli?: string): Promise<{ child: ChildProcess; url: string }> {
  const run = cli ? [cli] : ['--import', 'tsx', join(ROOT, 'bin/bando.ts')];
  const child = spawn(process.execPath, [...run, 'serve', '--port', '0', '--allow-http', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /serving on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`bando serve exited (${code})`)));
  });
}

/** Where part 1 sends its load: an in-process server, or a `bando serve` child process (`pid`). */
interface Target {
  name: string;
  url: string;
  pid?: number;
}

/**
 * CPU time (user + system) used so far by this process, or by process `pid` (Linux /proc), microseconds: for the
 * in-process servers this process's (the serving thread and both engine threads), for a child the child's.
 */
function cpuUs(pid?: number): number {
  if (!pid) {
    const u = process.cpuUsage();
    return u.user + u.system;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 1e4;
}

/** CPU time redis-server has used so far (user + system, `INFO cpu`), microseconds. */
async function redisCpuUs(info: Redis): Promise<number> {
  const text = await info.info('cpu');
  return ['used_cpu_sys', 'used_cpu_user'].reduce(
    (sum, f) => sum + Number(new RegExp(`^${f}:([\\d.]+)`, 'm').exec(text)?.[1] ?? NaN) * 1e6,
    0,
  );
}

/** Sends `signal` to a `serve` child process and resolves once it has exited (after SIGTERM: its usage written). */
function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  return exited;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bando-ops-'));
  const redis = await startRedis();
  const script = await buildWorkerBundle(dir);
  const keys = [{ key: 'bench', monthlyQuota: 1e9 }];
  try {
    // 1. Stores on the route workload.
    if (PARTS.includes('1')) {
      const pool = createThreadPool(script, { size: 2, packs: PACKS, callTimeoutMs: 30_000 });
      const api = await pool.ready;
      const redisStore = await createRedisUsageStore(`${redis.url}/1`);
      // The last field is the handler's work ahead (cheap engine calls start while Redis decides; on by default).
      const stores: [string, UsageStore, boolean?][] = [
        ['memory', new MemoryUsageStore()],
        ['file (journal)', FileUsageStore.open(join(dir, 'usage.json'))],
        ['redis', redisStore],
        ['redis, no work ahead', await createRedisUsageStore(`${redis.url}/6`), false],
      ];
      // Before/after: the Redis store of another checkout's sources (its node_modules resolved from there).
      if (BASELINE) {
        const old = (await import(join(BASELINE, 'src/adapters/http/usage-redis.ts'))) as {
          createRedisUsageStore: typeof createRedisUsageStore;
        };
        stores.push(['redis (baseline)', await old.createRedisUsageStore(`${redis.url}/4`)]);
      }
      const servers: RunningServer[] = [];
      for (const [, usage, workAhead] of stores)
        servers.push(
          await startNodeServer(createRestHandler(api, { keys, usage, allowHttp: true, workAhead }), { port: 0 }),
        );
      const targets: Target[] = servers.map((s, i) => ({ name: stores[i]![0], url: s.url }));
      // Before/after of the whole server (engine threads, their protocol, the handler, the process's settings):
      // `bando serve --threads 2` of this checkout's dist/ and of the baseline's, each its own process.
      const children: ChildProcess[] = [];
      if (BASELINE) {
        const keysFile = join(dir, 'route-keys.json');
        writeFileSync(keysFile, JSON.stringify({ keys }));
        for (const [name, root] of [
          ['bando serve --threads 2', ROOT],
          ['bando serve --threads 2 (baseline)', BASELINE],
        ] as const) {
          const args = ['--keys', keysFile, '--usage', join(dir, `${children.length}.usage.json`), '--threads', '2'];
          // Each checkout serves its own default pack, built by its own builder: a pack of a newer layout would send
          // the older code off its hierarchies (to A*, about twice the CPU per route), which is no before/after.
          const own = join(root, 'packs/hanoi.pack');
          const { child, url } = await serve([...args, '--pack', own], join(root, 'dist/cli.js'));
          children.push(child);
          targets.push({ name, url, pid: child.pid });
          await generateWrk(url, ROUTES, dir, 16, 2); // warm-up
        }
      }
      const hasWrk = (await generateWrk(servers[0]!.url, ROUTES, dir, 16, SECONDS)) !== null; // also the warm-up
      const rows: Record<string, string | number>[] = [];
      const rps: Record<string, number[]> = {};
      const cpu: Record<string, number[]> = {};
      // CPU per request does not depend on what else the machine runs, unlike req/s: this process (the serving
      // thread and both engine threads) plus Redis's own CPU seconds (INFO cpu), which a quiet machine must also give.
      // The serving thread's event-loop utilization says whether that one thread is what limits req/s.
      const info = new Redis(redis.url);
      const redisCpu = () => redisCpuUs(info);
      for (let round = 1; round <= ROUNDS; round++) {
        for (const { name, url, pid } of targets) {
          const before = [cpuUs(pid), await redisCpu(), performance.eventLoopUtilization()] as const;
          let r = hasWrk ? await generateWrk(url, ROUTES, dir, 16, SECONDS) : null;
          if (!r) {
            const a = await load(url, ROUTES, 16, SECONDS);
            const ok = a.filter((x) => x.status === 200).map((x) => x.ms);
            r = {
              count: a.length,
              seconds: SECONDS,
              p50: quantile(ok, 0.5),
              p99: quantile(ok, 0.99),
              errors: a.length - ok.length,
            };
          }
          const busy = pid ? NaN : performance.eventLoopUtilization(before[2]).utilization;
          const serverUs = (cpuUs(pid) - before[0]) / r.count;
          const redisUs = ((await redisCpu()) - before[1]) / r.count;
          (rps[name] ??= []).push(r.count / r.seconds);
          (cpu[name] ??= []).push(serverUs + redisUs);
          rows.push({
            store: name,
            round,
            'req/s': Math.round(r.count / r.seconds),
            'p50 ms': r.p50,
            'p99 ms': r.p99,
            'non-2xx': r.errors,
            'server CPU µs/req': Math.round(serverUs),
            'Redis CPU µs/req': Math.round(redisUs),
            'serving thread busy': Number.isNaN(busy) ? '–' : `${Math.round(busy * 100)} %`,
          });
        }
      }
      info.disconnect();
      const batches = redisStore.batchStats();
      for (const s of servers) await s.close();
      await Promise.all(children.map((c) => stop(c, 'SIGTERM')));
      for (const [, s] of stores) await s.close?.();
      pool.close();
      table(
        `Usage stores, route workload, two engine threads (${hasWrk ? 'wrk -t2 -c16' : 'node generator, 16 connections'}, ${SECONDS} s per run, interleaved, ${ROUNDS} rounds)`,
        rows,
      );
      const ratio = (a: Record<string, number[]>, store: string) =>
        `${((median(a[store]!) / median(a['memory']!)) * 100).toFixed(1)} %`;
      const p99 = (store: string) => median(rows.filter((r) => r.store === store).map((r) => r['p99 ms'] as number));
      console.log(
        `Redis ÷ memory: median req/s ${ratio(rps, 'redis')} (target ≥ 80 %); memory ÷ Redis in CPU per request (server + Redis): ${((median(cpu['memory']!) / median(cpu['redis']!)) * 100).toFixed(1)} %; file ÷ memory req/s ${ratio(rps, 'file (journal)')}. Median p99: memory ${p99('memory')} ms, file ${p99('file (journal)')} ms, Redis ${p99('redis')} ms.`,
      );
      console.log(
        `Redis without work ahead ÷ memory: median req/s ${ratio(rps, 'redis, no work ahead')}, median p99 ${p99('redis, no work ahead')} ms.`,
      );
      if (BASELINE) {
        console.log(
          `Baseline Redis store ÷ memory: median req/s ${ratio(rps, 'redis (baseline)')}, median p99 ${p99('redis (baseline)')} ms.`,
        );
        const [mine, base] = ['bando serve --threads 2', 'bando serve --threads 2 (baseline)'];
        console.log(
          `bando serve --threads 2, this checkout ÷ baseline: median req/s ${((median(rps[mine]!) / median(rps[base]!)) * 100).toFixed(1)} %; median p99 ${p99(mine)} ms against ${p99(base)} ms.`,
        );
      }
      console.log(
        `Redis store, requests per script call (group commit), over the warm-up and all rounds: ${describeBatches(batches)}`,
      );
    }

    // 2. Exact quotas across processes.
    if (PARTS.includes('2')) {
      const keysFile = join(dir, 'keys.json');
      const runs = [
        { name: 'q2', instances: 2, kill: false },
        { name: 'q2kill', instances: 2, kill: true },
        { name: 'q4', instances: 4, kill: false },
        { name: 'q4kill', instances: 4, kill: true },
      ];
      writeFileSync(keysFile, JSON.stringify({ keys: runs.map((r) => ({ key: r.name, monthlyQuota: 1000 })) }));
      const quotaRows: Record<string, string | number>[] = [];
      const usageUrl = `${redis.url}/2`;
      const counter = await createRedisUsageStore(usageUrl);
      for (const run of runs) {
        const instances = await Promise.all(
          Array.from({ length: run.instances }, () =>
            serve(['--keys', keysFile, '--usage', usageUrl, '--threads', '0']),
          ),
        );
        const agents = instances.map(() => new Agent({ keepAlive: true, maxSockets: 64 }));
        const route = (i: number) => ROUTES[i % ROUTES.length]!.replace('api_key=bench', `api_key=${run.name}`);
        let answered = 0;
        const statuses = await Promise.all(
          Array.from({ length: 4000 }, async (_, i) => {
            const [status] = await get(agents[i % instances.length]!, instances[i % instances.length]!.url + route(i));
            // Killed once 500 answers are in (half the quota): the rest of its requests are in flight or queued on
            // its connections, some of them admitted and counted but never answered.
            if (run.kill && ++answered === 500) instances[0]!.child.kill('SIGKILL');
            return status;
          }),
        );
        const report = await counter.report();
        const counted = Object.values(report[run.name] ?? {})[0]?.billable ?? 0;
        quotaRows.push({
          instances: run.instances,
          'kill -9 mid-load': run.kill ? 'one instance' : 'no',
          requests: 4000,
          '200': statuses.filter((s) => s === 200).length,
          '429': statuses.filter((s) => s === 429).length,
          'connection errors': statuses.filter((s) => s === 0).length,
          other: statuses.filter((s) => s !== 200 && s !== 429 && s !== 0).length,
          'counted in Redis': counted,
        });
        for (const a of agents) a.destroy();
        await Promise.all(instances.map((inst) => stop(inst.child, 'SIGKILL')));
      }
      await counter.close();
      table(
        'Exact quota: 4,000 concurrent requests on one key with a quota of 1,000 (bando serve processes on one Redis)',
        quotaRows,
      );
      console.log(
        'With a kill, requests the killed instance admitted but could not answer are counted (Redis saw them): 200s ≤ 1,000 = counted.',
      );
    }

    // 3. Redis restarted mid-load.
    if (PARTS.includes('3')) {
      const store = await createRedisUsageStore(`${redis.url}/3`, {
        onProblem: (m) => console.log(`  store: ${m ?? 'works again'}`),
      });
      const server = await startNodeServer(createRestHandler(engine, { keys, usage: store, allowHttp: true }), {
        port: 0,
      });
      const t0 = performance.now();
      let downAt = 0;
      let upAt = 0;
      const answers = load(server.url, ROUTES, 8, 7);
      await new Promise((r) => setTimeout(r, 2000));
      downAt = performance.now();
      await redis.stop(true);
      await new Promise((r) => setTimeout(r, 1500));
      await redis.start();
      upAt = performance.now();
      const all = await answers;
      const during = all.filter((a) => a.at > downAt && a.at < upAt);
      const after = all.filter((a) => a.at >= upAt);
      const firstOk = after.find((a) => a.status === 200);
      const lastBad = [...after].reverse().find((a) => a.status !== 200);
      const count = (xs: typeof all, s: number) => xs.filter((a) => a.status === s).length;
      table('Redis killed 2 s into a 7 s load (8 clients, route), restarted 1.5 s later', [
        {
          phase: 'before',
          requests: all.filter((a) => a.at <= downAt).length,
          '200': count(
            all.filter((a) => a.at <= downAt),
            200,
          ),
          '503': count(
            all.filter((a) => a.at <= downAt),
            503,
          ),
          other: 0,
        },
        {
          phase: 'Redis down',
          requests: during.length,
          '200': count(during, 200),
          '503': count(during, 503),
          other: during.length - count(during, 200) - count(during, 503),
        },
        {
          phase: 'after restart',
          requests: after.length,
          '200': count(after, 200),
          '503': count(after, 503),
          other: after.length - count(after, 200) - count(after, 503),
        },
      ]);
      console.log(
        `Server process alive: yes. Restart → first 200: ${firstOk ? (firstOk.at - upAt).toFixed(0) : 'never'} ms; restart → last failure: ${lastBad ? (lastBad.at - upAt).toFixed(0) : 'none'} ms (target: normal within 2,000 ms). Load ran ${((performance.now() - t0) / 1000).toFixed(1)} s.`,
      );
      await server.close();
      await store.close();
    }

    // 4. Light calls beside heavy ones.
    if (PARTS.includes('4')) {
      const trip = `/trip?waypoints=${await reachableStops(engine, 400)}&api_key=bench`;
      const geocodes = [
        'Hàng Bài, Hoàn Kiếm',
        'Trần Hưng Đạo',
        'Kim Mã, Ba Đình',
        'ly thuong kiet',
        'Phố Huế',
        'Văn Miếu',
      ].map((a) => `/Geocode?address=${encodeURIComponent(a)}&api_key=bench`);
      const keysFile = join(dir, 'fair-keys.json');
      writeFileSync(keysFile, JSON.stringify({ keys }));
      const cli = join(ROOT, 'dist/cli.js');
      const baseline = BASELINE;
      const setups: [string, string[], string][] = [
        ['default (1 reserved light + 1 heavy thread)', [], cli],
        ['heavy thread niced (--heavy-niceness 10)', ['--heavy-niceness', '10'], cli],
        ['no reserved thread (--heavy-threads 2)', ['--heavy-threads', '2'], cli],
      ];
      if (baseline) setups.unshift([`baseline: ${baseline}`, [], join(baseline, 'dist/cli.js')]);
      const fairRows: Record<string, string | number>[] = [];
      const instances = [];
      for (const [, flags, bin] of setups)
        instances.push(
          await serve(
            ['--keys', keysFile, '--usage', join(dir, `fair-${instances.length}.usage.json`), '--threads', '2'].concat([
              '--timeout',
              '60000',
              '--pack',
              PACKS[0]!,
              ...flags,
            ]),
            bin,
          ),
        );
      const wrk = (url: string, paths: string[], name: string, seconds: number) =>
        generateWrk(url, paths, dir, 4, seconds, { threads: 1, timeoutSeconds: 60, name });
      // Warm-up: trips and geocodes through every server before anything is timed.
      for (const { url } of instances)
        await Promise.all([wrk(url, geocodes, 'geocodes', 3), wrk(url, [trip], 'trips', 4)]);
      for (let round = 1; round <= FAIR_ROUNDS; round++) {
        for (let i = 0; i < setups.length; i++) {
          const url = instances[i]!.url;
          const [heavy, light] = await Promise.all([
            wrk(url, [trip], 'trips', 12),
            new Promise((r) => setTimeout(r, 1000)).then(() => wrk(url, geocodes, 'geocodes', 10)),
          ]);
          if (!heavy || !light) throw new Error('part 4 needs wrk (apt-get install -y wrk)');
          fairRows.push({
            setup: setups[i]![0],
            round,
            'geocodes answered': light.count - light.errors,
            'geocode p50 ms': light.p50,
            'geocode p99 ms': light.p99,
            'trips answered': heavy.count - heavy.errors,
            'trip errors': heavy.errors,
            'trip p50 ms': heavy.p50,
          });
        }
      }
      // Each writes its usage file as it closes: the temporary directory is removed only after they have exited.
      await Promise.all(instances.map(({ child }) => stop(child, 'SIGTERM')));
      table(
        `Four connections sending 400-stop trips (12 s) and four sending geocodes (10 s, from 1 s in), bando serve --threads 2 (wrk -t1 each, interleaved, ${FAIR_ROUNDS} rounds; target geocode p99 ≤ 50 ms)`,
        fairRows,
      );
      for (const [name] of setups) {
        const mine = fairRows.filter((r) => r.setup === name);
        console.log(
          `${name}: median geocode p99 ${median(mine.map((r) => r['geocode p99 ms'] as number)).toFixed(1)} ms, median trips answered ${median(mine.map((r) => r['trips answered'] as number))}`,
        );
      }
    }

    // 5. The Redis store alone: what admitting a request costs, without the engine and HTTP around it.
    if (PARTS.includes('5')) {
      const info = new Redis(redis.url);
      const rows: Record<string, string | number>[] = [];
      const N = 30_000;
      const request = { key: 'bench', period: '2026-01', endpoint: 'direction', units: 1, monthlyQuota: 1e9 };
      /**
       * `n` admissions: `perTurn` at a time, each group awaited before the next ('turn'), or `perTurn` clients each
       * admitting again as soon as its last admission is answered ('clients', as connections of a server do).
       */
      const admitAll = async (store: UsageStore, n: number, perTurn: number, clients: boolean) => {
        const one = () => store.admit({ ...request, nowMs: Date.now() });
        if (!clients) {
          for (let i = 0; i < n; i += perTurn) await Promise.all(Array.from({ length: perTurn }, one));
          return;
        }
        let left = n;
        await Promise.all(
          Array.from({ length: perTurn }, async () => {
            while (left-- > 0) await one();
          }),
        );
      };
      const modes: [string, number, boolean][] = [
        ['1 per turn', 1, false],
        ['8 per turn', 8, false],
        ['16 clients', 16, true],
      ];
      for (let round = 1; round <= ROUNDS; round++)
        for (const [mode, perTurn, clients] of modes) {
          const store = await createRedisUsageStore(`${redis.url}/5`, { prefix: `alone${round}-${perTurn}:` });
          await admitAll(store, 3000, perTurn, clients); // warm-up
          const warm = store.batchStats();
          const before = [process.cpuUsage(), await redisCpuUs(info), performance.now()] as const;
          await admitAll(store, N, perTurn, clients);
          const used = process.cpuUsage(before[0]);
          rows.push({
            round,
            admissions: mode,
            'client CPU µs/req': Math.round((used.user + used.system) / N),
            'Redis CPU µs/req': Math.round(((await redisCpuUs(info)) - before[1]) / N),
            'wall µs/req': Math.round(((performance.now() - before[2]) * 1000) / N),
            'requests per call': describeBatches(since(store.batchStats(), warm)),
          });
          await store.close();
        }
      info.disconnect();
      table(
        `The Redis store alone: ${N.toLocaleString('en')} admissions of one key, 1 or 8 per event-loop turn or 16 clients in a closed loop (this process's CPU and redis-server's, per request)`,
        rows,
      );
    }
  } finally {
    await redis.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Batch sizes as text: `1: 120, 2: 40, 3–4: 17, …` and the mean. */
function describeBatches(b: BatchStats): string {
  const parts = b.histogram.flatMap((n, i) => {
    const hi = 2 ** i;
    const lo = i <= 1 ? hi : hi / 2 + 1;
    return n ? [`${lo === hi ? hi : `${lo}–${hi}`}: ${n}`] : [];
  });
  return `${parts.join(', ')} (mean ${(b.requests / Math.max(1, b.calls)).toFixed(1)})`;
}

/** The calls counted in `now` and not yet in `before`. */
function since(now: BatchStats, before: BatchStats): BatchStats {
  return {
    calls: now.calls - before.calls,
    requests: now.requests - before.requests,
    histogram: now.histogram.map((n, i) => n - (before.histogram[i] ?? 0)),
  };
}

/** The in-thread engine, for the Redis restart run and part 4's stops (where the engine is not what is measured). */
const engine: EngineApi = await createEngine();
await main();
process.exit(0);
