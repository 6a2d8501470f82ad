/**
 * HTTP serving throughput: `bando serve`'s stack (node:http → createRestHandler → engine) in this process, driven
 * over loopback by a load generator in a second process (this file with `--client`): keep-alive connections (or
 * one per request, `BENCH_HTTP_KEEPALIVE=0`), a bounded number of requests and a time cap per scenario. Reports requests/s and latency p50/p99 (ms) for route
 * (/Direction, full overview geometry) and autocomplete requests, plus the in-process call rate for reference.
 * Peer: when `osrm-routed` is on PATH and BENCH_OSRM_DATA names a CH-prepared `.osrm` file of the same area, OSRM's
 * own server answers the same route pairs (overview=full, steps=true) in the same interleaved rounds; otherwise the
 * table says that no peer was measured (figures from other runs are not quoted as if they were this one's).
 * When `wrk` is installed (Debian package wrk) it is used as a second generator with those settings, which loads the
 * server with far less CPU of its own than the Node generator.
 *
 * Requests: 500 route queries between uniformly random points of central Hanoi (a deterministic generator, as OSRM's
 * own benchmarks draw random coordinate pairs; each answer carries the full overview polyline and the steps), and 45
 * autocomplete prefixes of Hanoi street and place names; every generator cycles through its list. Nothing is cached
 * between requests. Besides requests/s the table gives the serving process's CPU time per request (all its threads,
 * `process.cpuUsage`), which, unlike requests/s, hardly depends on what else the shared machine is running.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { quantile, table } from './stats.js';
import { generateWrk, type Figures } from './wrk.js';
import { buildWorkerBundle } from './worker-bundle.js';

const CONNECTIONS = 16;
const MAX_REQUESTS = 40_000;
const MAX_SECONDS = 8;
/**
 * `BENCH_HTTP_KEEPALIVE=0`: a new connection per request (`Connection: close`). The peer needs it: on a reused
 * loopback connection osrm-routed's answers wait 40 ms for the client's delayed acknowledgement (p50 44 ms for
 * routes it computes in about 2), which measures the wait and not the server.
 */
const KEEP_ALIVE = process.env.BENCH_HTTP_KEEPALIVE !== '0';

/** Deterministic central-Hanoi route queries (inside the default pack) and autocomplete inputs. */
function scenarios(): Record<string, string[]> {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pt = () => `${(21.005 + rnd() * 0.04).toFixed(5)},${(105.815 + rnd() * 0.05).toFixed(5)}`;
  const route = Array.from({ length: 500 }, () => `/Direction?origin=${pt()}&destination=${pt()}&api_key=bench`);
  const words = [
    'Hàng',
    'Hàng Bài',
    'Trần Hưng Đạo',
    'Lê Duẩn',
    'Hoàn Kiếm',
    'Nguyễn Du',
    'Phố Huế',
    'Bà Triệu',
    'Kim Mã',
    'Đinh Tiên Hoàng',
    'Tràng Tiền',
    'hang bac',
    'ly thuong kiet',
    'Văn Miếu',
    'Quán Thánh',
  ];
  const autocomplete = words.flatMap((w) =>
    [3, 5, w.length].map(
      (n) => `/Place/AutoComplete?input=${encodeURIComponent(w.slice(0, n))}&location=21.0285,105.8522&api_key=bench`,
    ),
  );
  return { route, autocomplete };
}

/** The load generator: `--client BASE PATHS_JSON`; prints `{ count, seconds, latencies }` as JSON. */
async function client(base: string, paths: string[]): Promise<void> {
  const agent = new Agent({ keepAlive: KEEP_ALIVE, maxSockets: CONNECTIONS });
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
  process.stdout.write(
    JSON.stringify({
      count: latencies.length,
      errors,
      seconds,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
    }),
  );
}

/** Runs the load generator process against `base`; resolves with its figures. */
function generate(base: string, paths: string[]): Promise<Figures> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--client', base, JSON.stringify(paths)],
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout))),
    );
  });
}

/** `/Direction?origin=LAT,LNG&destination=LAT,LNG&…` as OSRM's route service URL with the same answer content. */
function osrmPath(path: string): string {
  const q = new URL(path, 'http://x').searchParams;
  const lngLat = (p: string) => p.split(',').reverse().join(',');
  return `/route/v1/driving/${lngLat(q.get('origin')!)};${lngLat(q.get('destination')!)}?overview=full&steps=true`;
}

/** Why no peer runs, or null when one can. */
function peerMissing(): string | null {
  const onPath = (process.env.PATH ?? '').split(':').some((d) => d && existsSync(join(d, 'osrm-routed')));
  if (!onPath) return 'osrm-routed is not on PATH';
  if (!process.env.BENCH_OSRM_DATA)
    return 'osrm-routed is on PATH but BENCH_OSRM_DATA (a CH-prepared .osrm file of Hanoi) is not set';
  return null;
}

/** Starts osrm-routed on a free port when it and its data are there; null otherwise. */
async function startOsrm(): Promise<{ url: string; stop(): void } | null> {
  if (peerMissing() !== null) return null;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(
    'osrm-routed',
    ['--algorithm', 'ch', '--port', String(port), '--ip', '127.0.0.1', process.env.BENCH_OSRM_DATA!],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('running and waiting for requests')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`osrm-routed exited (${code}): ${out.slice(-300)}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
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
  const script = await buildWorkerBundle(dir);
  const packs = [fileURLToPath(new URL('../packs/hanoi.pack', import.meta.url))];
  const pools = [1, 2].map((size) => createThreadPool(script, { size, packs, callTimeoutMs: 30_000 }));
  const setups: [string, Api][] = [
    ['in-thread engine (--threads 0)', engine],
    ['--threads 1', await pools[0]!.ready],
    ['--threads 2', await pools[1]!.ready],
  ];
  const peer = await startOsrm();
  const hasWrk = await new Promise<boolean>((r) =>
    execFile('wrk', ['--version'], (err) => r((err as { code?: unknown } | null)?.code !== 'ENOENT')),
  );
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
    const servers = await Promise.all(
      setups.map(([, api]) =>
        startNodeServer(createRestHandler(api, { keys: [{ key: 'bench', monthlyQuota: 1e9 }], allowHttp: true }), {
          port: 0,
        }),
      ),
    );
    const targets = setups.map(([label], i) => ({ label, url: servers[i]!.url, paths, ours: true }));
    if (name === 'route' && peer)
      targets.push({ label: 'OSRM osrm-routed (peer)', url: peer.url, paths: paths.map(osrmPath), ours: false });
    // wrk when installed (it loads the server with far less CPU of its own), else the node generator.
    const run = (url: string, p: string[]) =>
      hasWrk ? generateWrk(url, p, dir, CONNECTIONS, MAX_SECONDS, { close: !KEEP_ALIVE }) : generate(url, p);
    for (const t of targets) await run(t.url, t.paths); // warm-up (JIT, worker caches)
    for (let round = 1; round <= ROUNDS; round++) {
      for (const t of targets) {
        const cpu = process.cpuUsage();
        const r = await run(t.url, t.paths);
        const used = process.cpuUsage(cpu);
        if (!r) continue;
        const cpuPerRequest = t.ours ? Math.round((used.user + used.system) / r.count) : 'n/a';
        rows.push({
          scenario: name,
          server: t.label,
          round,
          generator: hasWrk ? 'wrk' : 'node',
          requests: r.count,
          errors: r.errors,
          'req/s': Math.round(r.count / r.seconds),
          'p50 ms': r.p50,
          'p99 ms': r.p99,
          'server CPU µs/req': cpuPerRequest,
          'engine calls/s (1 thread)': Math.round(inProcess),
        });
      }
    }
    for (const s of servers) await s.close();
  }
  for (const p of pools) p.close();
  peer?.stop();
  rmSync(dir, { recursive: true, force: true });
  table(
    `HTTP over loopback (${CONNECTIONS} ${KEEP_ALIVE ? 'keep-alive connections' : 'connections, Connection: close'}, ${hasWrk ? `wrk -t2 -c${CONNECTIONS} ${MAX_SECONDS} s` : `node generator ≤ ${MAX_REQUESTS} requests or ${MAX_SECONDS} s`}, setups interleaved, ${ROUNDS} rounds after a warm-up)`,
    rows,
  );
  console.log(
    peer
      ? `Peer measured in the same rounds: OSRM osrm-routed on ${process.env.BENCH_OSRM_DATA}.`
      : `No peer measured: ${peerMissing()}.`,
  );
}

if (process.argv[2] === '--client') await client(process.argv[3]!, JSON.parse(process.argv[4]!) as string[]);
else await main();
