import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../data-tools/browser-bundle.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createFetchHandler } from '../src/adapters/http/handler.js';
import { METHOD_NAMES, type EngineApi, type EngineParams, type MethodName } from '../src/adapters/http/routes.js';
import type { DirectionParams } from '../src/api/direction.js';
import { createWorkerEngine } from '../src/adapters/worker/client.js';
import { withoutTimes } from './helpers/answers.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACK = join(ROOT, 'packs/hanoi.pack');
const out = mkdtempSync(join(tmpdir(), 'bando-worker-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
// Laid out like the package: dist/worker.js with assets/ beside dist/, where the bundle finds its fonts.
const WORKER = join(out, 'dist', 'worker.js');
symlinkSync(join(ROOT, 'assets'), join(out, 'assets'));

// The bundle options of tsup.config.ts's worker entry: the test runs the shipped form of the worker.
await build({ ...BROWSER_BUNDLE, entryPoints: { worker: join(ROOT, 'src/worker.ts') }, outdir: join(out, 'dist') });
const engine: EngineApi = await createEngine();
// Every endpoint: the engine has all seven, and the tests below fail (not skip) if one goes missing.
const has = METHOD_NAMES;

/** One query per endpoint on the default pack. */
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
const QUERIES: Record<MethodName, Record<string, string>[]> = {
  geocode: [{ address: 'Hàng Bài, Hoàn Kiếm' }, { latlng: A }, { address: '' }],
  autocomplete: [{ input: 'Hoàn Kiếm', limit: '3' }, { input: '' }],
  placeDetail: [{ place_id: 'no-such-place' }],
  direction: [
    { origin: A, destination: B },
    { origin: 'x', destination: B },
  ],
  distanceMatrix: [{ origins: A, destinations: `${B}|21.0277,105.8355` }],
  trip: [{ waypoints: [A, B, '21.0277,105.8355', '21.0310,105.8420', '21.0190,105.8480'].join(';') }],
  staticRoute: [
    { origin: A, destination: B, width: '300', height: '200' },
    { origin: 'x', destination: B },
  ],
};
/** Autocomplete reports its own run time; everything else must be identical. */
const same = withoutTimes;

describe('worker (node:worker_threads)', () => {
  const worker = new Worker(WORKER);
  const remote = createWorkerEngine(worker, { packs: [PACK] });
  afterAll(() => remote.terminate());

  it('reports the methods its engine has, as the in-process engine does', async () => {
    expect(METHOD_NAMES.filter((m) => typeof engine[m] === 'function')).toEqual(has);
    expect(await remote.ready).toEqual(has);
  });

  it('gives the same answers in-process, via the worker and via the fetch handler', async () => {
    const handler = createFetchHandler(engine, { keys: [{ key: 'k' }] });
    const paths: Record<MethodName, string> = {
      geocode: '/Geocode',
      autocomplete: '/Place/AutoComplete',
      placeDetail: '/Place/Detail',
      direction: '/Direction',
      distanceMatrix: '/DistanceMatrix',
      trip: '/trip',
      staticRoute: '/staticmap/route',
    };
    for (const m of has) {
      for (const q of QUERIES[m]) {
        const local = await engine[m]!(q);
        const viaWorker = await (remote[m] as (p: EngineParams) => Promise<unknown>)(q);
        const res = await handler(new Request(`https://h${paths[m]}?${new URLSearchParams({ ...q, api_key: 'k' })}`));
        if (local instanceof Uint8Array) {
          expect(viaWorker).toBeInstanceOf(Uint8Array);
          expect(Buffer.from(viaWorker as Uint8Array).equals(Buffer.from(local))).toBe(true);
          expect(res.headers.get('content-type')).toBe('image/png');
          expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(local))).toBe(true);
        } else {
          expect(same(viaWorker)).toEqual(same(local));
          expect(same(await res.json())).toEqual(same(local));
        }
      }
    }
  });

  it('a value that cannot cross to the worker is refused naming its parameter, as in process', async () => {
    // Before, the call rejected with a DataCloneError: bad input must get its error answer, never a rejection.
    const odd: unknown[] = [() => 'car', Symbol('car'), { nested: () => 'car' }];
    for (const value of odd) {
      for (const param of ['vehicle', 'origin']) {
        const q = { origin: A, destination: B, [param]: value } as unknown as DirectionParams;
        const viaWorker = await remote.direction(q);
        const local = (await engine.direction!(q as unknown as EngineParams)) as { status: string };
        expect([param, viaWorker.status]).toEqual([param, 'BAD_REQUEST']);
        expect(local.status).toBe('BAD_REQUEST');
        expect(viaWorker.error_message).toContain(param);
      }
      const trip = await remote.trip({ waypoints: `${A};${B}`, vehicle: value } as never);
      expect(trip).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('vehicle') });
    }
  });

  it('a missing pack rejects every call', async () => {
    const bad = createWorkerEngine(new Worker(WORKER), { packs: [join(out, 'nope.pack')] });
    await expect(bad.ready).rejects.toThrow(/nope\.pack.*does not exist/);
    await expect(bad.direction({} as DirectionParams)).rejects.toThrow(/nope\.pack/);
    bad.terminate();
  });

  it('a worker whose script cannot be loaded rejects ready and every call with the reason (the process goes on)', async () => {
    const lost = createWorkerEngine(new Worker(join(out, 'dist', 'no-such-worker.js')));
    await expect(lost.ready).rejects.toThrow(/the bando worker stopped: .*no-such-worker\.js/);
    await expect(lost.direction({ origin: A, destination: B })).rejects.toThrow(/the bando worker stopped/);
  });

  it('calls after terminate reject instead of waiting forever', async () => {
    const w = createWorkerEngine(new Worker(WORKER), { packs: [PACK] });
    await w.ready;
    w.terminate();
    await expect(w.direction({ origin: A, destination: B })).rejects.toThrow(/exited/);
  });
});
