import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../data-tools/browser-bundle.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { startNodeServer, type RunningServer } from '../src/adapters/http/node-server.js';
import { ENDPOINT_PATHS, METHOD_NAMES, type EngineApi, type MethodName } from '../src/adapters/http/routes.js';
import { createThreadPool } from '../src/adapters/worker/pool.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACK = join(ROOT, 'packs/hanoi.pack');
const tmp = mkdtempSync(join(tmpdir(), 'bando-threads-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The bundle options of tsup.config.ts's worker entry: the test runs the shipped form of the worker. It sits in
// a dist/ folder beside a link to the assets, as in the package, so its static maps get their fonts, and with the
// WebAssembly core beside it as tsup puts it there (the workers route on the core, as the shipped ones do).
const out = join(tmp, 'dist');
await build({ ...BROWSER_BUNDLE, entryPoints: { worker: join(ROOT, 'src/worker.ts') }, outdir: out });
copyFileSync(join(ROOT, 'src/route/wasm/bando-route.wasm'), join(out, 'bando-route.wasm'));
symlinkSync(join(ROOT, 'assets'), join(tmp, 'assets'));
const SCRIPT = join(out, 'worker.js');
const engine: EngineApi = await createEngine();
const has = METHOD_NAMES.filter((m) => typeof engine[m] === 'function');

const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
/** Queries per endpoint, good and bad (bad input gives 400 bodies; unknown places give 200 NOT_FOUND). */
const QUERIES: Record<MethodName, string[]> = {
  geocode: ['address=H%C3%A0ng%20B%C3%A0i%2C%20Ho%C3%A0n%20Ki%E1%BA%BFm', `latlng=${A}`, 'address='],
  autocomplete: ['input=Ho%C3%A0n%20Ki%E1%BA%BFm&limit=3', 'input='],
  placeDetail: ['place_id=no-such-place', 'place_id='],
  direction: [`origin=${A}&destination=${B}`, `origin=${A}&destination=21.0277,105.8355&alternatives=true`, `origin=x&destination=${B}`],
  distanceMatrix: [`origins=${A}&destinations=${B}|21.0277,105.8355`, 'origins=&destinations='],
  trip: [`waypoints=${[A, B, '21.0277,105.8355', '21.0310,105.8420'].join(';')}`, 'waypoints=1'],
  staticRoute: [`origin=${A}&destination=${B}&width=300&height=200`, `origin=x&destination=${B}`],
};

/** Status, content type and body bytes of a GET. */
async function get(url: string): Promise<[number, string | null, Buffer]> {
  const r = await fetch(url);
  return [r.status, r.headers.get('content-type'), Buffer.from(await r.arrayBuffer())];
}

/** Autocomplete reports its own run time; everything else must be byte-identical. */
const comparable = (m: MethodName, body: Buffer) =>
  m === 'autocomplete' ? JSON.stringify(JSON.parse(body.toString(), (k, x) => (k === 'executed_time' || k === 'executed_time_all' ? 0 : x))) : body;

describe('bando serve --threads (server thread protocol)', () => {
  const serve = (api: EngineApi, timeoutMs?: number): Promise<RunningServer> =>
    startNodeServer(createRestHandler(api, { keys: [{ key: 'k' }], allowHttp: true, timeoutMs }), { port: 0 });

  it('answers every endpoint with the same status, type and bytes as the in-thread engine, under concurrency', async () => {
    const pool = createThreadPool(SCRIPT, { size: 2, packs: [PACK] });
    const [local, threaded] = await Promise.all([serve(engine), pool.ready.then((api) => serve(api))]);
    try {
      expect(Object.keys(await pool.ready).sort()).toEqual([...has].sort());
      const urls = has.flatMap((m) => QUERIES[m].map((q) => [m, `${ENDPOINT_PATHS[m]}?${q}&api_key=k`] as const));
      // Every query four times at once, so calls queue in both workers and answers come back in batches.
      const all = [...urls, ...urls, ...urls, ...urls];
      const [want, got] = await Promise.all([Promise.all(all.map(([, u]) => get(local.url + u))), Promise.all(all.map(([, u]) => get(threaded.url + u)))]);
      for (let i = 0; i < all.length; i++) {
        const [m, u] = all[i]!;
        expect([u, got[i]![0], got[i]![1]]).toEqual([u, want[i]![0], want[i]![1]]);
        expect(comparable(m, got[i]![2])).toEqual(comparable(m, want[i]![2]));
      }
      // The bad queries really were bad, and the good ones good: the comparison covered both kinds.
      expect(new Set(want.map((w) => w[0]))).toEqual(new Set([200, 400]));
    } finally {
      await Promise.all([local.close(), threaded.close()]);
      pool.close();
    }
  });

  // The engine never hangs, so "too slow" is relative: the limit is a third of what a 200-stop trip takes in-thread
  // here, which the same call in a worker cannot meet whatever the engine's speed, while bad input (answered
  // without any search) stays far inside it even on a cold replacement worker.
  const stops = Array.from({ length: 200 }, (_, i) => `${(21.005 + (i % 20) * 0.002).toFixed(4)},${(105.815 + Math.floor(i / 20) * 0.005).toFixed(4)}`).join(';');
  let heavyMs = 0;
  if (has.includes('trip')) {
    for (let k = 0; k < 2; k++) engine.trip!({ waypoints: stops });
    const t = performance.now();
    engine.trip!({ waypoints: stops });
    heavyMs = performance.now() - t;
  }
  const limit = Math.floor(heavyMs / 3);
  it.skipIf(heavyMs < 60 || !has.includes('direction'))('a call over the limit gets 504, its worker is replaced, the calls queued behind it are answered', async () => {
    const pool = createThreadPool(SCRIPT, { size: 1, packs: [PACK], callTimeoutMs: limit });
    const api = await pool.ready;
    // The handler's own limit is longer here, so the 504 seen is the pool's.
    const server = await serve(api, 60_000);
    try {
      // Bad input is answered without a search, so even a cold replacement worker is well inside the limit.
      const route = `/Direction?origin=x&destination=${B}&api_key=k`;
      const [heavy, queued] = await Promise.all([get(`${server.url}/trip?waypoints=${stops}&api_key=k`), get(server.url + route)]);
      expect(heavy[0]).toBe(504);
      expect(JSON.parse(heavy[2].toString())).toEqual({ status: 'ERROR', error_message: `The trip request took longer than ${limit} ms.` });
      const local = await serve(engine);
      const want = await get(local.url + route);
      await local.close();
      expect(queued).toEqual(want);
      // The replacement answers later requests too.
      expect(await get(server.url + route)).toEqual(want);
    } finally {
      await server.close();
      pool.close();
    }
  });

  it.skipIf(heavyMs < 60 || !has.includes('direction'))('the handler time limit gives 504 while the pool has none; the pool keeps answering', async () => {
    const pool = createThreadPool(SCRIPT, { size: 1, packs: [PACK] });
    const api = await pool.ready;
    const server = await serve(api, limit);
    try {
      const heavy = await get(`${server.url}/trip?waypoints=${stops}&api_key=k`);
      expect(heavy[0]).toBe(504);
      expect(JSON.parse(heavy[2].toString())).toEqual({ status: 'ERROR', error_message: `The trip request took longer than ${limit} ms.` });
      const bad = { origin: 'x', destination: B };
      expect(await api.direction!(bad)).toMatchObject({ status: 400, json: new TextEncoder().encode(JSON.stringify(await engine.direction!(bad))) });
    } finally {
      await server.close();
      pool.close();
    }
  });

  it('a worker whose packs fail to load makes the pool fail to start, naming the error', async () => {
    const pool = createThreadPool(SCRIPT, { size: 1, packs: [join(out, 'no-such.pack')] });
    await expect(pool.ready).rejects.toThrow(/no-such\.pack|ENOENT/);
    pool.close();
  });
});
