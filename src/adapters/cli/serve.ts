import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../engine.js';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../../limits.js';
import { createTileSource } from '../../map/tiles/source.js';
import { createMapResources } from '../http/map-resources.js';
import { createRestHandler } from '../http/handler.js';
import type { ApiKey } from '../http/keys.js';
import { newKeySecret, readKeysFile } from '../http/keys-file.js';
import { startNodeServer } from '../http/node-server.js';
import type { EngineApi } from '../http/routes.js';
import { FileUsageStore } from '../http/usage-file.js';
import { createThreadPool } from '../worker/pool.js';
import { MemoryUsageStore, type UsageStore } from '../http/usage.js';
import { flag, type ParsedArgs } from './args.js';
import { exampleUrls } from './examples.js';
import { DEFAULT_KEYS_FILE, usageFileFor } from './files.js';

export const SERVE_HELP = `bando serve [--pack FILE ...] [--keys FILE] [--usage FILE] [--port N] [--host ADDR]
            [--cert FILE --key FILE] [--trust-proxy] [--dev] [--timeout MS] [--threads N] [--limit NAME=N ...]
  Serves the REST API (node:http, or node:https with --cert/--key). Keys come from --keys
  (default ${DEFAULT_KEYS_FILE}); usage counts persist to --usage (default: the keys file with .usage.json).
  --dev          accept plain HTTP from loopback; without a keys file, make temporary dev keys
                 (rest and tiles); print example URLs and the demo map's URL.
  Web map (tiles keys): /styles/default/style.json (one map load), /tiles/{z}/{x}/{y}.pbf,
  /fonts/{fontstack}/{range}.pbf, /sprites/default{,@2x}.{json,png}; demo page / (no key itself).
  --trust-proxy  honour X-Forwarded-Proto: https (only behind your own reverse proxy).
  --threads N    engines in N worker threads (the built dist/worker.js); the request time limit
                 (--timeout, default 30000 ms) then also stops runaway computations. 0: the engine in
                 the serving thread. Default auto: one per CPU core when there are two or more and the
                 worker bundle is built, else 0.
  --limit NAME=N  change a request limit (repeatable): ${Object.entries(DEFAULT_LIMITS).map(([k, v]) => `${k} (${v})`).join(', ')};
                 each from 1 to its cap (README, Limits).
  Default --port 8080, --host 127.0.0.1. SIGTERM/SIGINT stop gracefully and save the counts.`;

/** `bando serve`: runs the fetch handler behind node:http/https until SIGTERM or SIGINT. */
export async function serveCommand(args: ParsedArgs): Promise<void> {
  const dev = flag(args, 'dev') === 'true';
  const keysPath = flag(args, 'keys') ?? DEFAULT_KEYS_FILE;
  let keys: ApiKey[];
  let usage: UsageStore;
  if (dev && !existsSync(keysPath)) {
    keys = [
      { key: `dev-${newKeySecret().slice(0, 12)}`, kind: 'rest', name: 'temporary development key' },
      { key: `devtiles-${newKeySecret().slice(0, 12)}`, kind: 'tiles', name: 'temporary development tiles key' },
    ];
    usage = new MemoryUsageStore();
  } else {
    keys = readKeysFile(keysPath);
    usage = FileUsageStore.open(flag(args, 'usage') ?? usageFileFor(keysPath));
  }
  const timeout = flag(args, 'timeout');
  const timeoutMs = timeout ? Number(timeout) : 30_000;
  const threads = threadCount(flag(args, 'threads') ?? 'auto');
  const packs = args.flags.get('pack');
  const limits = limitFlags(args.flags.get('limit') ?? []);
  const pool = threads > 0 ? createThreadPool(workerScript(), { size: threads, packs, limits, callTimeoutMs: timeoutMs }) : null;
  const local = pool ? null : await createEngine({ packs, limits });
  const engine: EngineApi = pool ? await pool.ready : local!;
  // Tiles are cut in this thread from the packs' basemaps (and the example URLs read its answers); with --threads the
  // packs are loaded here once more.
  const here = local ?? (await createEngine({ packs, wasm: false }));
  const tiles = createTileSource(here.regions);
  tiles.prepare();
  const cert = flag(args, 'cert');
  const keyFile = flag(args, 'key');
  if (!!cert !== !!keyFile) throw new Error('--cert and --key go together');
  const handler = createRestHandler(engine, {
    keys,
    usage,
    allowHttp: dev || flag(args, 'allow-http') === 'true',
    trustProxy: flag(args, 'trust-proxy') === 'true',
    timeoutMs,
    resources: createMapResources(tiles),
  });
  const running = await startNodeServer(handler, {
    port: Number(flag(args, 'port') ?? 8080),
    host: flag(args, 'host') ?? '127.0.0.1',
    tls: cert && keyFile ? { cert: readFileSync(cert), key: readFileSync(keyFile) } : undefined,
  });
  const engines = threads > 0 ? `engines in ${threads} worker thread${threads === 1 ? '' : 's'}` : 'engine in the serving thread';
  process.stdout.write(`bando serving on ${running.url} (${keys.length} key${keys.length === 1 ? '' : 's'}, ${engines})\n`);
  if (dev) {
    const key = keys.find((k) => (k.kind ?? 'rest') === 'rest')?.key;
    if (key) process.stdout.write(`Example requests:\n${(await exampleUrls(here, running.url, key)).map((u) => `  ${u}\n`).join('')}`);
    const tilesKey = keys.find((k) => k.kind === 'tiles')?.key;
    process.stdout.write(
      tilesKey
        ? `Demo map: ${demoUrl(running.url, tilesKey, key)}\n`
        : 'Demo map: add a tiles key (bando keys create --kind tiles), then open /?key=TILES_KEY&api_key=REST_KEY\n',
    );
  }
  process.stdout.write('Stop with Ctrl+C or SIGTERM.\n');
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`${signal}: finishing requests and saving usage\n`);
      running
        .close()
        .catch(() => {})
        .finally(() => {
          pool?.close();
          usage.close?.();
          resolve();
        });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

/** The demo page's URL with the tiles key (`key`) and, when there is one, the REST key (`api_key`). */
export function demoUrl(base: string, tilesKey: string, restKey?: string): string {
  const q = new URLSearchParams({ key: tilesKey });
  if (restKey) q.set('api_key', restKey);
  return `${base}/?${q}`;
}

/**
 * Engine threads for `--threads`: a count, or `auto` = one per CPU core (os.availableParallelism) when there are
 * two or more and the worker bundle exists, else 0. Measured (bench/http.ts, 2 cores with the load generator on
 * them): two worker threads answer 6,700–7,700 route requests/s where the serving thread alone answers 4,400–5,500,
 * because the engine then runs beside the HTTP work instead of after it.
 */
export function threadCount(value: string): number {
  if (value === 'auto') return availableParallelism() >= 2 && findWorkerScript() ? availableParallelism() : 0;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n <= 64)) throw new Error(`--threads must be auto or a whole number 0–64, got "${value}"`);
  return n;
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
