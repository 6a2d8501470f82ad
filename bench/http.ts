/**
 * HTTP serving throughput: `bando serve`'s stack (node:http → createRestHandler → engine) in this process, driven
 * over loopback by a load generator in a second process (this file with `--client`): keep-alive connections, a
 * bounded number of requests and a time cap per scenario. Reports requests/s and latency p50/p99 (ms) for route
 * (/Direction, full overview geometry) and autocomplete requests, plus the in-process call rate for reference.
 * Target (issue 7): OSRM's server does ~6,300 route requests/s on this 2-core machine (wrk, 2 threads, 16 conns).
 */
import { execFile } from 'node:child_process';
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

async function main(): Promise<void> {
  const { createEngine } = await import('../src/engine.js');
  const { createRestHandler } = await import('../src/adapters/http/handler.js');
  const { startNodeServer } = await import('../src/adapters/http/node-server.js');
  type Api = import('../src/adapters/http/routes.js').EngineApi;
  const engine: Api = await createEngine();
  const handler = createRestHandler(engine, { keys: [{ key: 'bench', monthlyQuota: 1e9 }], allowHttp: true });
  const server = await startNodeServer(handler, { port: 0 });
  const rows: Record<string, string | number>[] = [];
  const all = scenarios();
  for (const [name, paths] of Object.entries(all)) {
    const method = name === 'route' ? 'direction' : 'autocomplete';
    if (typeof engine[method] !== 'function') {
      console.log(`${name}: skipped, the engine has no ${method} method yet`);
      continue;
    }
    // Warm-up, then the in-process rate for reference.
    const params = paths.map((p) => Object.fromEntries(new URL(p, 'http://x').searchParams));
    for (let i = 0; i < 200; i++) engine[method]!(params[i % params.length]!);
    const t = performance.now();
    let calls = 0;
    while (performance.now() - t < 2000) engine[method]!(params[calls++ % params.length]!);
    const inProcess = calls / ((performance.now() - t) / 1000);
    // The generator runs in its own process, started asynchronously so this process keeps serving.
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--client', server.url, JSON.stringify(paths)], (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      );
    });
    const r = JSON.parse(out) as { count: number; errors: number; seconds: number; p50: number; p99: number };
    rows.push({ scenario: name, requests: r.count, errors: r.errors, 'req/s': Math.round(r.count / r.seconds), 'p50 ms': r.p50, 'p99 ms': r.p99, 'in-process calls/s': Math.round(inProcess) });
  }
  await server.close();
  table(`HTTP over loopback (${CONNECTIONS} keep-alive connections, ≤ ${MAX_REQUESTS} requests or ${MAX_SECONDS} s per scenario; target route ≈ 6,300 req/s)`, rows);
}

if (process.argv[2] === '--client') await client(process.argv[3]!, JSON.parse(process.argv[4]!) as string[]);
else await main();
