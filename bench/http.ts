/**
 * HTTP serving throughput: `bando serve`'s stack (node:http → createRestHandler → engine) in this process, driven
 * over loopback by a load generator in a second process (this file with `--client`): keep-alive connections, a
 * bounded number of requests and a time cap per scenario. Reports requests/s and latency p50/p99 (ms) for route
 * (/Direction, full overview geometry) and autocomplete requests, plus the in-process call rate for reference.
 * Target (issue 7): OSRM's server does ~6,300 route requests/s on this 2-core machine (wrk, 2 threads, 16 conns).
 * When `wrk` is installed (Debian package wrk) it is used as a second generator with those settings, which loads the
 * server with far less CPU of its own than the Node generator.
 *
 * Requests: 500 route queries between uniformly random points of central Hanoi (a deterministic generator, as OSRM's
 * own benchmarks draw random coordinate pairs; each answer carries the full overview polyline and the steps), and 45
 * autocomplete prefixes of Hanoi street and place names; every generator cycles through its list. Nothing is cached
 * between requests. Besides requests/s the table gives the serving process's CPU time per request (all its threads,
 * `process.cpuUsage`), which, unlike requests/s, hardly depends on what else the shared machine is running.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../data-tools/browser-bundle.js';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { quantile, table } from './stats.js';

const CONNECTIONS = 16;
const MAX_REQUESTS = 40_000;
const MAX_SECONDS = 8;

/** Deterministic central-Hanoi route queries (inside the default pack) and autocomplete inputs. */
function scenarios(): Record<string, string[]> {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pt = () => `${(21.005 + rnd() * 0.04).toFixed(5)},${(105.815 + rnd() * 0.05).toFixed(5)}`;
  const route = Array.from({ length: 500 }, () => `/Direction?origin=${pt()}&destination=${pt()}&api_key=bench`);
  const words = ['Hàng', 'Hàng Bài', 'Trần Hưng Đạo', 'Lê Duẩn', 'Hoàn Kiếm', 'Nguyễn Du', 'Phố Huế', 'Bà Triệu', 'Kim Mã', 'Đinh Tiên Hoàng', 'Tràng Tiền', 'hang bac', 'ly thuong kiet', 'Văn Miếu', 'Quán Thánh'];
  const autocomplete = words.flatMap((w) => [3, 5, w.length].map((n) => `/Place/AutoComplete?input=${encodeURIComponent(w.slice(0, n))}&location=21.0285,105.8522&api_key=bench`));
  return { route, autocomplete };
}

/** The load generator: `--client BASE PATHS_JSON`; prints `{ count, seconds, latencies }` as JSON. */
async function client(base: string, paths: string[]): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const t0 = performance.now();
  const deadline = t0 + MAX_SECONDS * 1000;
  const one = (path: string) =>
    new Promise<number>((resolve) => {
      const t = performance.now();
      request(base + path, { agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - t : -1));
      })
        .on('error', () => resolve(-1))
        .end();
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < MAX_REQUESTS && performance.now() < deadline) {
        const ms = await one(paths[next++ % paths.length]!);
        if (ms < 0) errors++;
        else latencies.push(ms);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  process.stdout.write(JSON.stringify({ count: latencies.length, errors, seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) }));
}

/** Runs the load generator process against `base`; resolves with its figures. */
function generate(base: string, paths: string[]): Promise<Figures> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--client', base, JSON.stringify(paths)], (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout)),
    );
  });
}

interface Figures {
  count: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** Runs wrk (2 threads, 16 connections, MAX_SECONDS) over the paths in turn; null when wrk is not installed. */
function generateWrk(base: string, paths: string[], dir: string): Promise<Figures | null> {
  const script = join(dir, 'paths.lua');
  writeFileSync(script, `paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}\ni = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", paths[(i % #paths) + 1])\nend\n`);
  return new Promise((resolve) => {
    execFile('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${MAX_SECONDS}s`, '--latency', '-s', script, base], (err, stdout) => {
      if (err) return resolve(null);
      const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? NaN);
      const ms = (re: RegExp) => {
        const m = re.exec(stdout);
        return m ? Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[m[2]!]! : NaN;
      };
      const count = num(/(?<!\d)(\d+) requests in/);
      resolve({ count, errors: num(/Non-2xx or 3xx responses: (\d+)/) || 0, seconds: count / num(/Requests\/sec:\s+([\d.]+)/), p50: ms(/50%\s+([\d.]+)(us|ms|s)/), p99: ms(/99%\s+([\d.]+)(us|ms|s)/) });
    });
  });
}

/** Interleaved rounds per scenario: the machine is shared, so each setup is measured in turn, several times. */
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 2);

async function main(): Promise<void> {
  const { createEngine } = await import('../src/engine.js');
  const { createRestHandler } = await import('../src/adapters/http/handler.js');
  const { startNodeServer } = await import('../src/adapters/http/node-server.js');
  const { createThreadPool } = await import('../src/adapters/worker/pool.js');
  type Api = import('../src/adapters/http/routes.js').EngineApi;
  const engine: Api = await createEngine();
  // The worker bundle as tsup ships it, for `bando serve --threads`, with the WebAssembly core beside it as in dist/
  // (without it the workers would route in TypeScript).
  const dir = mkdtempSync(join(tmpdir(), 'bando-bench-'));
  await build({ ...BROWSER_BUNDLE, entryPoints: { worker: fileURLToPath(new URL('../src/worker.ts', import.meta.url)) }, outdir: dir });
  copyFileSync(fileURLToPath(new URL('../src/route/wasm/bando-route.wasm', import.meta.url)), join(dir, 'bando-route.wasm'));
  const packs = [fileURLToPath(new URL('../packs/hanoi.pack', import.meta.url))];
  const pools = [1, 2].map((size) => createThreadPool(join(dir, 'worker.js'), { size, packs, callTimeoutMs: 30_000 }));
  const setups: [string, Api][] = [
    ['in-thread engine (--threads 0)', engine],
    ['--threads 1', await pools[0]!.ready],
    ['--threads 2', await pools[1]!.ready],
  ];
  const hasWrk = await new Promise<boolean>((r) => execFile('wrk', ['--version'], (err) => r((err as { code?: unknown } | null)?.code !== 'ENOENT')));
  const rows: Record<string, string | number>[] = [];
  const all = scenarios();
  for (const [name, paths] of Object.entries(all)) {
    const method = name === 'route' ? 'direction' : 'autocomplete';
    if (typeof engine[method] !== 'function') {
      console.log(`${name}: skipped, the engine has no ${method} method yet`);
      continue;
    }
    // Warm-up, then the in-process single-thread rate for reference.
    const params = paths.map((p) => Object.fromEntries(new URL(p, 'http://x').searchParams));
    for (let i = 0; i < 200; i++) engine[method]!(params[i % params.length]!);
    const t = performance.now();
    let calls = 0;
    while (performance.now() - t < 2000) engine[method]!(params[calls++ % params.length]!);
    const inProcess = calls / ((performance.now() - t) / 1000);
    const servers = await Promise.all(setups.map(([, api]) => startNodeServer(createRestHandler(api, { keys: [{ key: 'bench', monthlyQuota: 1e9 }], allowHttp: true }), { port: 0 })));
    // wrk when installed (it loads the server with far less CPU of its own), else the node generator.
    const run = (url: string) => (hasWrk ? generateWrk(url, paths, dir) : generate(url, paths));
    for (const s of servers) await run(s.url); // warm-up (JIT, worker caches)
    for (let round = 1; round <= ROUNDS; round++) {
      for (let i = 0; i < setups.length; i++) {
        const cpu = process.cpuUsage();
        const r = await run(servers[i]!.url);
        const used = process.cpuUsage(cpu);
        if (!r) continue;
        const cpuPerRequest = (used.user + used.system) / r.count;
        rows.push({ scenario: name, server: setups[i]![0], round, generator: hasWrk ? 'wrk' : 'node', requests: r.count, errors: r.errors, 'req/s': Math.round(r.count / r.seconds), 'p50 ms': r.p50, 'p99 ms': r.p99, 'server CPU µs/req': Math.round(cpuPerRequest), 'engine calls/s (1 thread)': Math.round(inProcess) });
      }
    }
    for (const s of servers) await s.close();
  }
  for (const p of pools) p.close();
  rmSync(dir, { recursive: true, force: true });
  table(`HTTP over loopback (${CONNECTIONS} keep-alive connections, ${hasWrk ? `wrk -t2 -c${CONNECTIONS} ${MAX_SECONDS} s` : `node generator ≤ ${MAX_REQUESTS} requests or ${MAX_SECONDS} s`}, setups interleaved, ${ROUNDS} rounds after a warm-up; target route ≈ 6,300 req/s)`, rows);
}

if (process.argv[2] === '--client') await client(process.argv[3]!, JSON.parse(process.argv[4]!) as string[]);
else await main();
