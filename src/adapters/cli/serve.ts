import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../engine.js';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../../limits.js';
import { createTileSource } from '../../map/tiles/source.js';
import { readSharedPackFile } from '../../pack/load.js';
import { basemapIndex } from '../../render/basemap-index.js';
import { createMapResources } from '../http/map-resources.js';
import { createRestHandler, type RequestEvent, type RestHandler } from '../http/handler.js';
import type { ApiKey } from '../http/keys.js';
import { newKeySecret, readKeysFile, writeKeysFile } from '../http/keys-file.js';
import { startNodeServer, type NodeServerOptions, type RunningServer } from '../http/node-server.js';
import { connectionCapProblem } from '../http/connections.js';
import type { EngineApi } from '../http/routes.js';
import { ServerMetrics, type Gauge } from '../http/metrics.js';
import { watchPacks } from '../http/pack-health.js';
import { createRequestLog } from '../http/request-log.js';
import { FileUsageStore } from '../http/usage-file.js';
import { createRedisUsageStore, isRedisUrl, RedisUsageStore } from '../http/usage-redis.js';
import { createThreadPool, type ThreadPool } from '../worker/pool.js';
import { MemoryUsageStore, type UsageStore } from '../http/usage.js';
import { flag, type ParsedArgs } from './args.js';
import { openRequestLog } from './log-file.js';
import type { CliCommand } from './command.js';
import { exampleUrls } from './examples.js';
import { DEFAULT_KEYS_FILE, devKeysFileFor, usageFileFor } from './files.js';
import { MAPLIBRE_MISSING, maplibreInstalled } from '../../map/demo-files.js';

const SERVE_HELP = `bando serve [--pack FILE ...] [--keys FILE] [--usage FILE|redis://…] [--port N] [--host ADDR]
            [--cert FILE --key FILE [--http-port N]] [--allow-http] [--trust-proxy] [--dev] [--timeout MS]
            [--threads N]
            [--limit NAME=N ...] [--max-connections N] [--heavy-threads N] [--heavy-niceness N]
            [--max-cost UNITS] [--work-ahead=false] [--public-url URL]
            [--metrics-token-file FILE] [--log FILE|-] [--center LAT,LNG] [--zoom Z]
  Serves the REST API (node:http, or node:https with --cert/--key). Keys come from --keys
  (default ${DEFAULT_KEYS_FILE}). Usage counts, quotas, rate windows and sessions:
  --usage FILE   one process per file (locked; default: the keys file with .usage.json);
  --usage redis://[user:pass@]host:port[/db] (or rediss://)  shared by any number of servers,
                 exact quotas; while Redis is unreachable requests get 503.
  --work-ahead=false  with Redis, do not start a cheap call (a route, a geocode) while Redis decides.
                 By default it starts for keys whose last requests were admitted, and is answered
                 only once admitted (a key past its quota wastes at most one call's engine work).
  Requests must come over HTTPS (--cert/--key, or a reverse proxy with --trust-proxy); plain HTTP gets
  HTTPS_REQUIRED unless:
  --allow-http   accept plain HTTP from loopback (127.0.0.1, ::1).
  --http-port N  with --cert/--key, also listen for plain HTTP on port N, where requests get
                 HTTPS_REQUIRED (400) as rest-api.md says (or are served, from loopback, with --allow-http).
  --dev          accept plain HTTP from loopback; without a keys file, use dev keys (rest and tiles)
                 made once and kept beside it (bando-keys.dev.json); print them, example URLs and the
                 demo map's URL.
  Web map (tiles keys): /styles/default/style.json (one map load), /tiles/{z}/{x}/{y}.pbf,
  /fonts/{fontstack}/{range}.pbf, /sprites/default{,@2x}.{json,png}; demo page / (no key itself).
  /healthz (no key): 200 when the engines, the packs and the usage store work, else 503 naming which.
  --trust-proxy  honour X-Forwarded-Proto: https (only behind your own reverse proxy).
  --threads N    engines in N worker threads (the built dist/worker.js); a call then runs for at most
                 its budget (1 s + 20 ms per cost unit, at most --timeout, default 30000 ms) before its
                 worker is replaced. 0: the engine in the serving thread. Default auto: one per CPU core
                 but one (the serving thread's) when there are two or more and the worker bundle is
                 built, else 0.
  --heavy-threads N  threads that run heavy calls, one at a time each (default threads − 1); the
                 others are kept for light calls, which never wait behind a heavy one.
  --heavy-niceness N  nice levels (0–19) by which the heavy threads run below the server (Linux),
                 so light calls get the cores first when they are short (heavy calls and the light calls
                 those threads take are then slower whenever the machine is busy); default 0.
  --max-cost UNITS   refuse calls estimated above UNITS (≈ ms of engine time) with 400 naming the
                 parameter; default no limit beyond the engine's own.
  --public-url URL  the absolute URL clients reach this server at, written into style.json's tile, glyph
                 and sprite URLs; default: URLs relative to the root (the request's Host is never used).
  --metrics-token-file FILE  serve /metrics (Prometheus) to Authorization: Bearer <the file's token>.
  --log FILE|-   one JSON line per request to FILE (appended) or standard output; SIGHUP reopens FILE
                 (after a rotation), a failed write is retried after 1 s.
  --center LAT,LNG  --zoom Z  where the web map opens (default: where the first pack's roads and
                 places are densest, zoom 14).
  --limit NAME=N  change a request limit (repeatable): ${Object.entries(DEFAULT_LIMITS)
    .map(([k, v]) => `${k} (${v})`)
    .join(', ')};
                 each from 1 to its cap (README, Limits).
  --max-connections N  connections open at once, at most the open-file limit less 64 (default: half the open-file
                 limit, 16–8192); past
                 three quarters of it, idle connections are closed to make room for new ones.
  Default --port: the PORT environment variable, else 8080; default --host 127.0.0.1. SIGTERM/SIGINT stop gracefully and save the counts.`;

/** `bando serve`: runs the fetch handler behind node:http/https until SIGTERM or SIGINT. */
export const serveCommand: CliCommand = {
  help: SERVE_HELP,
  flags: {
    pack: 'value',
    keys: 'value',
    usage: 'value',
    port: 'value',
    host: 'value',
    cert: 'value',
    key: 'value',
    'http-port': 'value',
    'allow-http': 'switch',
    'trust-proxy': 'switch',
    dev: 'switch',
    timeout: 'value',
    threads: 'value',
    limit: 'value',
    'max-connections': 'value',
    'heavy-threads': 'value',
    'heavy-niceness': 'value',
    'max-cost': 'value',
    'work-ahead': 'switch',
    'public-url': 'value',
    'metrics-token-file': 'value',
    log: 'value',
    center: 'value',
    zoom: 'value',
  },
  run: async (args) => {
    await serve(args);
    return 0;
  },
};

async function serve(args: ParsedArgs): Promise<void> {
  const dev = flag(args, 'dev') === 'true';
  // Numeric flags and the metrics token are checked before anything is opened or loaded.
  const cert = flag(args, 'cert');
  const keyFile = flag(args, 'key');
  if (!!cert !== !!keyFile) throw new Error('--cert and --key go together');
  const httpPort = flag(args, 'http-port');
  if (httpPort !== undefined && !cert)
    throw new Error('--http-port needs --cert and --key: it is the plain HTTP listener beside the HTTPS one');
  const timeoutMs = positive(args, 'timeout') ?? 30_000;
  const heavyThreads = positive(args, 'heavy-threads');
  const heavyNiceness = niceness(flag(args, 'heavy-niceness'));
  const opening = openingFlags(args);
  const maxCost = positive(args, 'max-cost');
  const maxConnections = maxConnectionsFlag(flag(args, 'max-connections'));
  const publicUrl = flag(args, 'public-url');
  const tokenFile = flag(args, 'metrics-token-file');
  const metricsToken = tokenFile === undefined ? undefined : readFileSync(tokenFile, 'utf8').trim();
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new Error(`--metrics-token-file ${tokenFile} must hold a token of at least 16 characters`);
  const keysPath = flag(args, 'keys') ?? DEFAULT_KEYS_FILE;
  const usageFlag = flag(args, 'usage');
  const problem = (what: string) => (message: string | null) =>
    process.stderr.write(`bando: ${message === null ? `${what} works again` : message}\n`);
  const devKeys = dev && !existsSync(keysPath);
  const keys: ApiKey[] = devKeys ? devKeysBeside(keysPath) : readKeysFile(keysPath);
  let usage: UsageStore;
  let usageName: string;
  if (usageFlag !== undefined && isRedisUrl(usageFlag)) {
    const store = await createRedisUsageStore(usageFlag, { onProblem: problem('the usage store') });
    usage = store;
    usageName = `usage in Redis at ${store.where}`;
  } else if (usageFlag === undefined && devKeys) {
    usage = new MemoryUsageStore();
    usageName = 'usage in memory';
  } else {
    const path = usageFlag ?? usageFileFor(keysPath);
    usage = FileUsageStore.open(path, { onProblem: problem(`usage file ${path}`) });
    usageName = `usage in ${path}`;
  }
  const threads = threadCount(flag(args, 'threads') ?? 'auto');
  if (threads > 0) keepNursery();
  // Each pack file is read once, into shared memory: the workers and this thread's tile engine open it in place.
  const packs = args.flags.get('pack')?.map(readSharedPackFile);
  const limits = limitFlags(args.flags.get('limit') ?? []);
  const local = threads > 0 ? null : await createEngine({ packs, limits });
  // Tiles are cut in this thread from the packs' basemaps; with --threads the packs are opened here once more, over
  // the same shared bytes (this engine's routers, places and WebAssembly are only built if something here asks for
  // them: nothing does, the example URLs ask `engine`, so this thread holds no places index of its own).
  const here = local ?? (await createEngine({ packs, wasm: false }));
  const packHealth = watchPacks(here.regions.map((r) => r.pack));
  const tiles = createTileSource(here.regions);
  tiles.prepare();
  // Made after the tile source, whose basemap indexes (each part projected and simplified by the first thread that
  // draws it) the workers' static maps then share instead of making their own.
  const pool =
    threads > 0
      ? createThreadPool(workerScript(), {
          size: threads,
          packs,
          limits,
          callTimeoutMs: timeoutMs,
          heavyThreads,
          heavyNiceness,
          basemapIndexes: here.regions.flatMap((r) => (r.basemap ? [basemapIndex(r.basemap).store] : [])),
        })
      : null;
  const engine: EngineApi = pool ? await pool.ready : local!;
  const allowHttp = dev || flag(args, 'allow-http') === 'true';
  const observers: ((e: RequestEvent) => void)[] = [];
  let metrics: { token: string; text: () => string } | undefined;
  if (metricsToken !== undefined) {
    const m = new ServerMetrics(gauges(pool, usage));
    observers.push((e) => m.observe(e));
    metrics = { token: metricsToken, text: () => m.text() };
  }
  const logTo = flag(args, 'log');
  const logFile = logTo ? openRequestLog(logTo) : null;
  const log = logFile ? createRequestLog(logFile.write) : null;
  if (log) observers.push(log.observe);
  const handler = createRestHandler(engine, {
    keys,
    usage,
    allowHttp,
    trustProxy: flag(args, 'trust-proxy') === 'true',
    timeoutMs,
    maxCost,
    workAhead: flag(args, 'work-ahead') !== 'false',
    resources: createMapResources(tiles, { ...opening, publicUrl }),
    health: () => pool?.problem() ?? null,
    // The serving thread opens the same pack files as the workers: its check speaks for theirs.
    packs: packHealth.problem,
    metrics,
    observe:
      observers.length === 0
        ? undefined
        : observers.length === 1
          ? observers[0]
          : (e) => observers.forEach((o) => o(e)),
  });
  const host = flag(args, 'host') ?? '127.0.0.1';
  const running = await listen(
    handler,
    {
      port: Number(flag(args, 'port') ?? process.env.PORT ?? 8080),
      host,
      tls: cert && keyFile ? { cert: readFileSync(cert), key: readFileSync(keyFile) } : undefined,
      maxConnections,
    },
    '--port N (or the PORT environment variable)',
  );
  const plainListener =
    httpPort === undefined
      ? null
      : await listen(handler, { port: Number(httpPort), host, maxConnections }, '--http-port N');
  const engines =
    threads > 0 ? `engines in ${threads} worker thread${threads === 1 ? '' : 's'}` : 'engine in the serving thread';
  // Plain HTTP without --allow-http refuses every request; the start line says so and names the ways out.
  const plain = running.url.startsWith('http:') && !allowHttp && flag(args, 'trust-proxy') !== 'true';
  const refusing = plain ? '; plain HTTP requests get HTTPS_REQUIRED: add --allow-http (loopback) or --cert/--key' : '';
  process.stdout.write(
    `bando serving on ${running.url} (${keys.length} key${keys.length === 1 ? '' : 's'}, ${engines}, ${usageName}${refusing})\n`,
  );
  if (plainListener)
    process.stdout.write(
      `plain HTTP on ${plainListener.url} answers HTTPS_REQUIRED${allowHttp ? ' (loopback requests are served: --allow-http)' : ''}\n`,
    );
  if (dev) {
    const key = keys.find((k) => (k.kind ?? 'rest') === 'rest')?.key;
    if (key)
      process.stdout.write(
        `Example requests:\n${(await exampleUrls(engine, running.url, key, here.regions[0]?.meta.bbox ?? undefined)).map((u) => `  ${u}\n`).join('')}`,
      );
    const tilesKey = keys.find((k) => k.kind === 'tiles')?.key;
    if (devKeys)
      process.stdout.write(
        `Dev keys (kept in ${devKeysFileFor(keysPath)} across restarts): rest ${key}, tiles ${tilesKey}\n`,
      );
    process.stdout.write(
      tilesKey
        ? `Demo map: ${demoUrl(running.url, tilesKey, key)}\n`
        : 'Demo map: add a tiles key (bando keys create --kind tiles), then open /?key=TILES_KEY&api_key=REST_KEY\n',
    );
    if (!maplibreInstalled()) process.stdout.write(`${MAPLIBRE_MISSING}\n`);
  }
  process.stdout.write('Stop with Ctrl+C or SIGTERM.\n');
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`${signal}: finishing requests and saving usage\n`);
      Promise.all([running.close(), plainListener?.close()])
        .catch(() => {})
        .finally(async () => {
          packHealth.stop();
          pool?.close();
          log?.flush();
          await logFile?.close();
          await usage.close?.();
          resolve();
        });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    // Log rotation: the rotated file is closed and the --log path opened again (SIGHUP then no longer ends the process).
    if (logFile) process.on('SIGHUP', () => logFile.reopen());
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

/**
 * startNodeServer, with a port in use reported by the flag that chooses it (`how`), not as a bare EADDRINUSE.
 * @param how the way to choose another port, e.g. "--port N (or the PORT environment variable)"
 */
async function listen(handler: RestHandler, opts: NodeServerOptions, how: string): Promise<RunningServer> {
  try {
    return await startNodeServer(handler, opts);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw new Error(
      `port ${opts.port} on ${opts.host} is already in use by another program; choose another with ${how}`,
    );
  }
}

/**
 * The keys of `serve --dev` without a keys file: a rest and a tiles key, made once and kept in the dev keys file
 * beside `keysPath` (devKeysFileFor), so printed URLs stay valid across restarts.
 */
function devKeysBeside(keysPath: string): ApiKey[] {
  const path = devKeysFileFor(keysPath);
  if (existsSync(path)) return readKeysFile(path);
  const keys: ApiKey[] = [
    { key: `dev-${newKeySecret().slice(0, 12)}`, kind: 'rest', name: 'development key (bando serve --dev)' },
    {
      key: `devtiles-${newKeySecret().slice(0, 12)}`,
      kind: 'tiles',
      name: 'development tiles key (bando serve --dev)',
    },
  ];
  writeKeysFile(path, keys);
  return keys;
}

/** `--center lat,lng` and `--zoom z`: where the web map's style opens (default: where the first pack's data is dense). */
function openingFlags(args: ParsedArgs): { center?: [number, number]; zoom?: number } {
  const out: { center?: [number, number]; zoom?: number } = {};
  const center = flag(args, 'center');
  if (center !== undefined) {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(center);
    const lat = Number(m?.[1]),
      lng = Number(m?.[2]);
    if (!m || Math.abs(lat) > 85 || Math.abs(lng) > 180)
      throw new Error(`--center must be "lat,lng" in decimal degrees (|lat| ≤ 85, |lng| ≤ 180), got "${center}"`);
    out.center = [lng, lat];
  }
  const zoom = flag(args, 'zoom');
  if (zoom !== undefined) {
    if (!/^\s*\d+(\.\d+)?\s*$/.test(zoom) || Number(zoom) > 22)
      throw new Error(`--zoom must be a number from 0 to 22, got "${zoom}"`);
    out.zoom = Number(zoom);
  }
  return out;
}

/**
 * `--max-connections`: a whole number 1–1,000,000 within the open-file limit (see connectionCapProblem), or
 * undefined for the default.
 */
function maxConnectionsFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= 1_000_000))
    throw new Error(`--max-connections must be a whole number 1–1000000, got "${value}"`);
  const problem = connectionCapProblem(n);
  if (problem) throw new Error(`--max-connections ${problem}`);
  return n;
}

/** `--heavy-niceness`: a whole number 0–19, or undefined for the default. */
function niceness(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,2}$/.test(value) || Number(value) > 19)
    throw new Error(`--heavy-niceness must be a whole number 0–19, got "${value}"`);
  return Number(value);
}

/** A positive whole-number flag, or undefined when absent; throws naming the flag on anything else. */
function positive(args: ParsedArgs, name: string): number | undefined {
  const v = flag(args, name);
  if (v === undefined) return undefined;
  if (!/^\d{1,9}$/.test(v) || Number(v) === 0) throw new Error(`--${name} must be a positive whole number, got "${v}"`);
  return Number(v);
}

/** The gauges of `/metrics`: engine threads and their queues (with --threads), and the usage store's reachability. */
function gauges(pool: ThreadPool | null, usage: UsageStore): Gauge[] {
  const up: Gauge = {
    name: 'bando_usage_store_up',
    help: '1 while the usage store works, else 0.',
    type: 'gauge',
    value: () => (usage.problem?.() ? 0 : 1),
  };
  const store = usage instanceof RedisUsageStore ? redisGauges(usage) : [];
  if (!pool) return [up, ...store];
  const stat = (
    name: string,
    help: string,
    read: (s: ReturnType<ThreadPool['stats']>) => number,
    type: Gauge['type'] = 'gauge',
  ): Gauge => ({ name, help, type, value: () => read(pool.stats()) });
  return [
    up,
    stat('bando_engine_threads_ready', 'Engine worker threads with their packs loaded.', (s) => s.ready),
    stat(
      'bando_engine_calls_in_flight',
      'Calls sent to engine worker threads and not answered (running or queued there).',
      (s) => s.inFlight,
    ),
    stat('bando_engine_heavy_running', 'Heavy calls on engine worker threads.', (s) => s.heavyRunning),
    stat('bando_engine_heavy_waiting', 'Heavy calls waiting for a free heavy slot.', (s) => s.heavyWaiting),
    stat(
      'bando_engine_workers_replaced_total',
      'Engine workers replaced (a call over its budget, or the worker died).',
      (s) => s.replaced,
      'counter',
    ),
    stat(
      'bando_engine_heavy_started_total',
      'Heavy calls sent to engine worker threads.',
      (s) => s.heavyStarted,
      'counter',
    ),
    stat(
      'bando_engine_heavy_abandoned_total',
      'Heavy calls stopped at a checkpoint because their client had gone.',
      (s) => s.heavyAbandoned,
      'counter',
    ),
    stat(
      'bando_engine_calls_dropped_total',
      'Calls dropped before they started because their client had gone.',
      (s) => s.dropped,
      'counter',
    ),
    stat(
      'bando_engine_metrics_made_total',
      'Routing metric parts (a vehicle and weighting: arc costs, kept arcs, or their measures; a pack: its CCH topology) made by a worker.',
      (s) => s.metricsMade,
      'counter',
    ),
    stat(
      'bando_engine_metrics_adopted_total',
      'Routing metric parts a worker adopted from another worker instead of customizing them.',
      (s) => s.metricsAdopted,
      'counter',
    ),
    stat(
      'bando_engine_metrics_kept',
      'Routing metric parts kept for the workers (shared memory, one copy per process).',
      (s) => s.metricsKept,
    ),
    ...store,
  ];
}

/** The Redis store's script calls and the requests they carried: their ratio is group commit's mean batch. */
function redisGauges(usage: RedisUsageStore): Gauge[] {
  return [
    {
      name: 'bando_usage_redis_calls_total',
      help: 'Admission script calls sent to Redis.',
      type: 'counter',
      value: () => usage.batchStats().calls,
    },
    {
      name: 'bando_usage_redis_call_requests_total',
      help: 'Requests decided by those calls (requests per call: this ÷ bando_usage_redis_calls_total).',
      type: 'counter',
      value: () => usage.batchStats().requests,
    },
  ];
}

/** The demo page's URL with the tiles key (`key`) and, when there is one, the REST key (`api_key`). */
function demoUrl(base: string, tilesKey: string, restKey?: string): string {
  const q = new URLSearchParams({ key: tilesKey });
  if (restKey) q.set('api_key', restKey);
  return `${base}/?${q}`;
}

/**
 * Engine threads for `--threads`: a count, or `auto` = one per CPU core but one (os.availableParallelism − 1: the
 * serving thread, which parses requests, cuts tiles and writes answers, keeps a core) when there are two or more
 * and the worker bundle exists, else 0. Workers run beside the HTTP work instead of after it (bench/http.ts, 2 cores
 * with the load generator on them: two worker threads answered 6,700–7,700 route requests/s where the serving
 * thread alone answered 4,400–5,500). Each worker holds its own isolate, heap, labels, canvases and indexes (≈ 100 MB
 * after a mixed load on whole HCMC): on 2 cores one worker held ≈ 100 MB less than two and answered more mixed calls
 * in 11 of 13 interleaved pairs on a machine loaded by other jobs, fewer in the quietest (docs/routing.md).
 */
export function threadCount(value: string): number {
  if (value === 'auto') return availableParallelism() >= 2 && findWorkerScript() ? availableParallelism() - 1 : 0;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n <= 64)) throw new Error(`--threads must be auto or a whole number 0–64, got "${value}"`);
  return n;
}

/**
 * Keeps this thread's young generation at the size V8 gives it at start (8.4 MB on the benches' machine) instead of
 * letting it double up to 16 MB: with the engines in workers, this thread's young objects are requests, answers in
 * flight and tiles being cut, which a collection finds dead, yet V8 grows a young generation once the bytes its
 * collections kept add up to its size, which a server's steady stream always reaches. A process-wide V8 flag, read
 * whenever V8 would grow a young generation; the workers' own are capped by their resource limits (pool.ts) and start
 * at that cap, so it changes nothing there. `bando serve` on whole HCMC after the serve-memory load: the young
 * generation 8.4 MB against 16.8, CPU and calls answered within what runs vary by (docs/routing.md).
 */
function keepNursery(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** The worker bundle: beside the CLI bundle in dist/, or the repository's dist/ when running from source. */
function findWorkerScript(): URL | undefined {
  const candidates = [new URL('./worker.js', import.meta.url), new URL('../../../dist/worker.js', import.meta.url)];
  return candidates.find((u) => existsSync(fileURLToPath(u)));
}

function workerScript(): URL {
  const found = findWorkerScript();
  if (!found) throw new Error('--threads needs the worker bundle dist/worker.js (run npm run build)');
  return found;
}

/**
 * `--limit NAME=N` flags as limits.
 * @throws Error naming the flag when one is not NAME=N or names no limit, or N is out of range
 */
function limitFlags(values: readonly string[]): Partial<Limits> {
  const out: Record<string, number> = {};
  for (const v of values) {
    const m = /^([a-zA-Z]+)=(\d+)$/.exec(v);
    if (!m) throw new Error(`--limit ${v}: expected NAME=N, e.g. --limit destinations=10`);
    out[m[1]!] = Number(m[2]);
  }
  try {
    resolveLimits(out);
  } catch (err) {
    throw new Error(`--limit: ${(err as Error).message}`);
  }
  return out;
}
