import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { startNodeServer, type RunningServer } from '../src/adapters/http/node-server.js';
import { ENDPOINT_PATHS, METHOD_NAMES, type EngineApi, type MethodName } from '../src/adapters/http/routes.js';
import { createThreadPool } from '../src/adapters/worker/pool.js';
import { MemoryUsageStore } from '../src/adapters/http/usage.js';
import { readSharedPackFile } from '../src/pack/load.js';
import { BasemapIndex, basemapIndex } from '../src/render/basemap-index.js';
import { LIMIT_CAPS } from '../src/limits.js';
import { bodyFound } from '../src/api/statuses.js';
import type { SerializedBody } from '../src/adapters/http/responses.js';
import { mulberry32 } from '../src/trip/rng.js';
import { buildThreadBundles } from './helpers/thread-bundles.js';
import { until } from './helpers/until.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACK = join(ROOT, 'packs/hanoi.pack');
const bundles = await buildThreadBundles('bando-threads-');
afterAll(() => bundles.remove());
const tmp = bundles.dir;
const out = join(tmp, 'dist');
const SCRIPT = bundles.script;
const HOLDING = bundles.holding;
const engine: EngineApi = await createEngine();
// Every endpoint is compared: an engine missing one fails here rather than shrinking the comparison.
const has = METHOD_NAMES.filter((m) => typeof engine[m] === 'function');

const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
/** Queries per endpoint, good and bad (bad input gives 400 bodies; unknown places give 200 NOT_FOUND). */
const QUERIES: Record<MethodName, string[]> = {
  geocode: ['address=H%C3%A0ng%20B%C3%A0i%2C%20Ho%C3%A0n%20Ki%E1%BA%BFm', `latlng=${A}`, 'address='],
  autocomplete: ['input=Ho%C3%A0n%20Ki%E1%BA%BFm&limit=3', 'input='],
  placeDetail: ['place_id=no-such-place', 'place_id='],
  direction: [
    `origin=${A}&destination=${B}`,
    `origin=${A}&destination=21.0277,105.8355&alternatives=true`,
    `origin=x&destination=${B}`,
  ],
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
  m === 'autocomplete'
    ? JSON.stringify(
        JSON.parse(body.toString(), (k, x) => (k === 'executed_time' || k === 'executed_time_all' ? 0 : x)),
      )
    : body;

describe('bando serve --threads (server thread protocol)', () => {
  const serve = (api: EngineApi, timeoutMs?: number): Promise<RunningServer> =>
    startNodeServer(createRestHandler(api, { keys: [{ key: 'k' }], allowHttp: true, timeoutMs }), { port: 0 });

  // `bando serve` gives its workers the pack files read once into shared memory; a path is read by each worker.
  it.each([
    ['a file path', () => PACK],
    ['a file read once into shared memory', () => readSharedPackFile(PACK)],
  ])(
    'answers every endpoint with the same status, type and bytes as the in-thread engine, under concurrency (%s)',
    async (_, source) => {
      const pool = createThreadPool(SCRIPT, { size: 2, packs: [source()] });
      const [local, threaded] = await Promise.all([serve(engine), pool.ready.then((api) => serve(api))]);
      try {
        expect(has).toEqual(METHOD_NAMES);
        expect(Object.keys(await pool.ready).sort()).toEqual([...has].sort());
        const urls = has.flatMap((m) => QUERIES[m].map((q) => [m, `${ENDPOINT_PATHS[m]}?${q}&api_key=k`] as const));
        // Every query four times at once, so calls queue in both workers and answers come back in batches.
        const all = [...urls, ...urls, ...urls, ...urls];
        const [want, got] = await Promise.all([
          Promise.all(all.map(([, u]) => get(local.url + u))),
          Promise.all(all.map(([, u]) => get(threaded.url + u))),
        ]);
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
    },
  );

  it("a worker's static maps fill and read the basemap index arrays the serving thread gives it", async () => {
    const pack = readSharedPackFile(PACK);
    // A fresh index of this thread over the same shared pack bytes: every part still unprojected.
    const here = await createEngine({ packs: [pack], wasm: false });
    const basemap = here.regions[0]!.basemap!;
    const store = basemapIndex(basemap).store;
    expect(store.world.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(store.ready.every((r) => r === 0)).toBe(true);
    const pool = createThreadPool(SCRIPT, { size: 1, packs: [pack], basemapIndexes: [store] });
    const threaded = await serve(await pool.ready);
    try {
      const url = `/staticmap/route?origin=${A}&destination=${B}&width=300&height=200&api_key=k`;
      const got = await get(threaded.url + url);
      expect(got).toEqual(await localAnswer(url));
      // The worker filled the parts it drew into the arrays given (none would be filled had it made its own), with
      // the values an index of this thread computes.
      const filled = [...store.ready.keys()].filter((p) => store.ready[p] !== 0);
      expect(filled.length).toBeGreaterThan(10);
      const fresh = new BasemapIndex(basemap, undefined);
      expect(fresh.store.world).not.toBe(store.world);
      for (const p of filled) {
        const n = basemap.partFirst.at(p + 1) - basemap.partFirst.at(p);
        const [a, b] = [store.slot[p]!, fresh.start(p)];
        expect(store.world.subarray(2 * a, 2 * (a + n))).toEqual(fresh.points(p).subarray(2 * b, 2 * (b + n)));
        if (store.ready[p] === 2)
          expect(store.significance.subarray(a, a + n)).toEqual(fresh.partSignificance(p).subarray(b, b + n));
      }
    } finally {
      await threaded.close();
      pool.close();
      await here.close();
    }
  });

  // Time limits are tested with calls that block their worker until the test lets them go (test/helpers/holding-worker.ts:
  // the real engine and protocol, plus a `hold` parameter), never with a race against the engine's speed.
  const route = `/Direction?origin=${A}&destination=${B}&api_key=k`;
  const held = (name: string, query = `origin=${A}&destination=${B}`) =>
    `/Direction?${query}&hold=${encodeURIComponent(join(tmp, name))}&api_key=k`;
  const release = (name: string) => writeFileSync(join(tmp, name), '');
  const localAnswer = async (path: string) => {
    const local = await serve(engine);
    try {
      return await get(local.url + path);
    } finally {
      await local.close();
    }
  };

  it('a call over its budget gets 504, its worker is replaced, the calls queued behind it are answered', async () => {
    const pool = createThreadPool(HOLDING, { size: 1, packs: [PACK], callTimeoutMs: 2000 });
    const api = await pool.ready;
    // The handler's own limit is longer here, so the 504 seen is the pool's.
    const server = await serve(api, 60_000);
    try {
      const [stuck, queued] = await Promise.all([get(server.url + held('never')), get(server.url + route)]);
      expect(stuck[0]).toBe(504);
      expect(JSON.parse(stuck[2].toString())).toEqual({
        status: 'ERROR',
        error_message: 'The direction request took longer than 2000 ms.',
      });
      const want = await localAnswer(route);
      expect(want[0]).toBe(200);
      expect(queued).toEqual(want);
      expect(pool.stats().replaced).toBe(1);
      // The replacement answers later requests too.
      expect(await get(server.url + route)).toEqual(want);
    } finally {
      await server.close();
      pool.close();
    }
  });

  it('a light call gets its own budget (1 s + 20 ms per cost unit), far below the request time limit', async () => {
    const pool = createThreadPool(HOLDING, { size: 1, packs: [PACK], callTimeoutMs: 60_000 });
    const api = await pool.ready;
    const server = await serve(api, 60_000);
    try {
      // A one-destination route costs 2 units: a budget of 1,040 ms, not the minute of the limits, once the worker has
      // answered a route (its first one may build lazy indexes and gets the whole limit).
      const want = await localAnswer(route);
      expect(await get(server.url + route)).toEqual(want);
      const stuck = await get(server.url + held('never'));
      expect(stuck[0]).toBe(504);
      expect(JSON.parse(stuck[2].toString())).toEqual({
        status: 'ERROR',
        error_message: 'The direction request took longer than 1040 ms.',
      });
      expect(await get(server.url + route)).toEqual(want);
    } finally {
      await server.close();
      pool.close();
    }
  });

  it('a route answered NOT_FOUND leaves the vehicle cold: the next route still gets the whole limit', async () => {
    const pool = createThreadPool(HOLDING, { size: 1, packs: [PACK], callTimeoutMs: 3000 });
    const api = await pool.ready;
    const server = await serve(api, 60_000);
    try {
      // An origin far from every road of the pack is refused before the vehicle's metric is customized, so the call
      // does not make the next one of the vehicle warm (which would then customize on a light call's 1,040 ms).
      const far = `/Direction?origin=10.0,106.0&destination=${B}&vehicle=truck&api_key=k`;
      const refused = await get(server.url + far);
      expect(JSON.parse(refused[2].toString()).status).toBe('NOT_FOUND');
      const stuck = await get(server.url + held('never-truck', `origin=${A}&destination=${B}&vehicle=truck`));
      expect(stuck[0]).toBe(504);
      expect(JSON.parse(stuck[2].toString()).error_message).toBe('The direction request took longer than 3000 ms.');
    } finally {
      await server.close();
      pool.close();
    }
  });

  it('counts a call found only when it answers what was asked: a route, a matrix element, a trip', async () => {
    const far = '10.0,106.0';
    const call = (m: MethodName, params: Record<string, string>) =>
      (engine[m] as (p: Record<string, string>) => unknown)(params);
    expect(bodyFound(await call('direction', { origin: A, destination: B }))).toBe(true);
    expect(bodyFound(await call('direction', { origin: far, destination: B }))).toBe(false);
    const none = await call('distanceMatrix', { origins: far, destinations: `${far}|${B}` });
    expect(none).toMatchObject({ status: 'OK' });
    expect(bodyFound(none)).toBe(false);
    expect(bodyFound(await call('distanceMatrix', { origins: `${far}|${A}`, destinations: B }))).toBe(true);
    expect(bodyFound(await call('trip', { waypoints: `${A};${B};21.0277,105.8355` }))).toBe(true);
    expect(bodyFound(await call('trip', { waypoints: `${far};${B}` }))).toBe(false);
  });

  it('the handler time limit gives 504 while the pool has none; the worker answers once the call ends', async () => {
    const pool = createThreadPool(HOLDING, { size: 1, packs: [PACK] });
    const api = await pool.ready;
    const server = await serve(api, 1500);
    try {
      const stuck = await get(server.url + held('later'));
      expect(stuck[0]).toBe(504);
      expect(JSON.parse(stuck[2].toString())).toEqual({
        status: 'ERROR',
        error_message: 'The direction request took longer than 1500 ms.',
      });
      const next = get(server.url + route);
      release('later');
      expect(await next).toEqual(await localAnswer(route));
      expect(pool.stats().replaced).toBe(0);
    } finally {
      await server.close();
      pool.close();
    }
  });

  it('heavy calls run on at most heavyThreads workers: light calls are answered while heavy ones hold, heavy ones after', async () => {
    const pool = createThreadPool(HOLDING, { size: 2, packs: [PACK], heavyThreads: 1, heavyNiceness: 10 });
    const api = await pool.ready;
    // `ready` waits for every worker: none is still loading when the first calls come.
    expect(pool.stats().ready).toBe(2);
    const server = await serve(api, 60_000);
    try {
      // Linux: the worker of heavy calls runs 10 nice levels below the process, every other thread at its level.
      const nice = threadNiceValues();
      const base = Math.min(...nice);
      expect(nice.filter((n) => n !== base)).toEqual([Math.min(19, base + 10)]);
      // A 1400 × 1400 static map is heavy (≈ 150 units; a route with alternatives, ≈ 42, is not).
      const big = (name: string) =>
        `/staticmap/route?origin=${A}&destination=${B}&width=1400&height=1400&hold=${encodeURIComponent(join(tmp, name))}&api_key=k`;
      const heavy = [get(server.url + big('heavy')), get(server.url + big('heavy'))];
      await until(() => pool.stats().heavyRunning === 1 && pool.stats().heavyWaiting === 1);
      // Both heavy calls are unanswered, one running and one waiting, and the other worker answers light calls.
      for (let i = 0; i < 5; i++) expect(await get(server.url + route)).toEqual(await localAnswer(route));
      expect(pool.stats()).toMatchObject({ heavyRunning: 1, heavyWaiting: 1 });
      release('heavy');
      const want = await localAnswer(big('heavy').replace(/&hold=[^&]*/, ''));
      expect(want[0]).toBe(200);
      for (const h of await Promise.all(heavy)) expect(h).toEqual(want);
      expect(pool.stats()).toMatchObject({ heavyRunning: 0, heavyWaiting: 0, inFlight: 0, replaced: 0 });
    } finally {
      await server.close();
      pool.close();
    }
  });

  it('one key holds at most maxHeavyPerKey heavy calls; more get 429 with Retry-After, uncounted; other keys pass (issue 39)', async () => {
    const pool = createThreadPool(HOLDING, { size: 2, packs: [PACK], heavyThreads: 1 });
    const api = await pool.ready;
    const usage = new MemoryUsageStore();
    const keys = [{ key: 'k' }, { key: 'other' }];
    const handler = createRestHandler(api, { keys, allowHttp: true, usage, maxHeavyPerKey: 2 });
    const server = await startNodeServer(handler, { port: 0 });
    const big = (key: string) =>
      `${server.url}/staticmap/route?origin=${A}&destination=${B}&width=1400&height=1400&hold=${encodeURIComponent(join(tmp, 'cap'))}&api_key=${key}`;
    const heavyHeld = () => pool.stats().heavyRunning + pool.stats().heavyWaiting;
    try {
      const first = [get(big('k')), get(big('k'))];
      await until(() => heavyHeld() === 2);
      const over = await fetch(big('k'));
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('1');
      expect(((await over.json()) as { error_message: string }).error_message).toMatch(/already has 2 heavy calls/);
      // Another key is not held back by k's calls.
      const other = get(big('other'));
      await until(() => heavyHeld() === 3);
      release('cap');
      for (const r of await Promise.all([...first, other])) expect(r[0]).toBe(200);
      // Once its calls are answered the key may send heavy calls again; the refused one was not counted.
      expect((await get(big('k')))[0]).toBe(200);
      expect(Object.values(usage.report().k!)[0]!.requests).toEqual({ staticRoute: 3 });
    } finally {
      await server.close();
      pool.close();
    }
  });

  it("a worker posts a small call's answer before it runs a bigger call queued behind it", async () => {
    const pool = createThreadPool(HOLDING, { size: 1, packs: [PACK] });
    const api = await pool.ready;
    try {
      // Both calls go to the worker in one message; the geocode (≈ 6 cost units) then blocks it until released.
      const route = Promise.resolve(api.direction!({ origin: A, destination: B }));
      const geocode = Promise.resolve(api.geocode!({ address: 'Hàng Bài', hold: join(tmp, 'after-route') }));
      // The fallback only keeps a failing run from hanging (the geocode is released after it): it times nothing.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const fallback = new Promise((r) => (timer = setTimeout(r, 30_000))).then(() => 'fallback');
      const first = await Promise.race([route.then(() => 'route'), geocode.then(() => 'geocode'), fallback]);
      clearTimeout(timer);
      release('after-route');
      expect(first).toBe('route');
      expect((await route) as { status: number }).toMatchObject({ status: 200 });
      expect((await geocode) as { status: number }).toMatchObject({ status: 200 });
    } finally {
      release('after-route');
      pool.close();
    }
  });

  // The workers' old generation is capped (pool.ts WORKER_OLD_GENERATION_MB) so that their heaps stay near what they
  // keep alive; the cap must still hold the largest answer the limits allow, whose object and JSON text live at once.
  it('a worker answers the largest DistanceMatrix LIMIT_CAPS allows as this thread does, without being replaced', async () => {
    const side = LIMIT_CAPS.matrixSide;
    const big = await createEngine({ packs: [PACK], limits: { matrixSide: side } });
    const pool = createThreadPool(SCRIPT, { size: 1, packs: [PACK], limits: { matrixSide: side } });
    try {
      // Intersections of the pack's own road graph, so the table is full of routes rather than refusals.
      const g = big.regions[0]!.graph;
      const rand = mulberry32(500);
      const points = () =>
        Array.from({ length: side }, () => {
          const v = Math.floor(rand() * g.nodeCount);
          return `${g.lat(v).toFixed(6)},${g.lon(v).toFixed(6)}`;
        }).join('|');
      const params = { origins: points(), destinations: points() };
      const want = JSON.stringify(big.distanceMatrix(params));
      const got = (await (await pool.ready).distanceMatrix!(params)) as SerializedBody;
      expect(got.status).toBe(200);
      expect(Buffer.from(got.json).toString()).toBe(want);
      expect(want.length).toBeGreaterThan(10e6);
      expect(pool.stats().replaced).toBe(0);
    } finally {
      pool.close();
      await big.close();
    }
  });

  it('a worker whose packs fail to load makes the pool fail to start, naming the error', async () => {
    const pool = createThreadPool(SCRIPT, { size: 1, packs: [join(out, 'no-such.pack')] });
    await expect(pool.ready).rejects.toThrow(/no-such\.pack|ENOENT/);
    pool.close();
  });
});

/** Nice values of this process's threads (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the parenthesised name, which may hold spaces: state is field 3, nice field 19.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}
