/**
 * `bando serve --threads` shares customized routing metrics and the CCH topology between its workers
 * (route/cch/exchange.ts, the METRIC and ADOPTED messages of thread-protocol.ts): a part one worker made is adopted
 * by the other, both answer byte for byte as an in-process engine, and a part whose arrays do not fit is refused by
 * the worker, which makes its own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { vietnamAdmin } from '../data-tools/admin-bundle.js';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { createEngine } from '../src/engine.js';
import { createThreadPool } from '../src/adapters/worker/pool.js';
import { METHOD_NAMES, type EngineParams, type MethodName } from '../src/adapters/http/routes.js';
import type { SerializedBody } from '../src/adapters/http/responses.js';
import { ADOPTED, METRIC, READY, type ThreadWorkerData } from '../src/adapters/worker/thread-protocol.js';
import type { MetricPart } from '../src/route/cch/exchange.js';
import { readSharedPackFile } from '../src/pack/load.js';
import { buildThreadBundles } from './helpers/thread-bundles.js';
import { ADMIN, OSM, PACK_INPUTS } from './helpers/packs.js';
import { until } from './helpers/until.js';

const bundles = await buildThreadBundles('bando-metrics-');
afterAll(() => bundles.remove());
/** Đà Lạt built without hierarchies: every vehicle routes by a customized metric. */
const noCh = buildOsmPack({
  inputs: PACK_INPUTS.dalat.map((f) => OSM + f),
  name: 'dalat',
  admin: vietnamAdmin(ADMIN),
  hierarchies: false,
});
const PACK = join(bundles.dir, 'dalat-no-ch.pack');
writeFileSync(PACK, noCh);
const local = await createEngine({ packs: [noCh] });
afterAll(() => local.close());

const PTS = ['11.9404,108.4373', '11.8970,108.4690', '11.9460,108.4580', '11.9300,108.4200'];
const CAR = { origin: PTS[1], destination: PTS[2] };
/** The in-process engine's answer as JSON text. */
const want = (method: MethodName, params: EngineParams) =>
  JSON.stringify((local[method] as (p: EngineParams) => unknown)(params));

/** A worker of the shipped bundle speaking the server thread protocol, and every message it posted. */
const start = () => {
  const data: ThreadWorkerData = { bandoThread: { packs: [readSharedPackFile(PACK)] } };
  const worker = new Worker(bundles.script, { workerData: data });
  const got: unknown[][] = [];
  worker.on('message', (m: unknown[]) => got.push(m));
  return { worker, got };
};

describe('metrics shared between the workers of a server', () => {
  it('a metric one worker made is adopted by the other, both answering as an in-process engine', async () => {
    // No worker reserved for light calls: a call goes to the worker with the fewest units in flight, the first on a
    // tie. Two calls at once thus go one to each worker, and one call alone to the first.
    const pool = createThreadPool(bundles.script, { size: 2, heavyThreads: 2, packs: [readSharedPackFile(PACK)] });
    const api = await pool.ready;
    const check = async (method: MethodName, params: EngineParams) => {
      const body = (await api[method]!(params)) as SerializedBody;
      expect(Buffer.from(body.json).toString()).toBe(want(method, params));
    };
    try {
      // The first worker made the pack's topology, the car's arc costs and its metric in its warm-up; the second
      // warmed up after it, adopting all three.
      const start = pool.stats();
      expect([start.metricsMade, start.metricsAdopted, start.metricsKept]).toEqual([3, 3, 3]);
      for (const vehicle of ['bike', 'truck']) {
        const direction = (i: number) => ({ origin: PTS[i], destination: PTS[(i + 2) % 4], vehicle });
        const matrix = (i: number) => ({ origins: PTS.slice(i).join('|'), destinations: PTS.join('|'), vehicle });
        // The second worker makes the vehicle's arc costs and metric, then the first adopts them; then the same for
        // the metric's measures.
        await Promise.all([check('direction', CAR), check('direction', direction(0))]);
        await check('direction', direction(1));
        await Promise.all([check('direction', CAR), check('distanceMatrix', matrix(0))]);
        await check('distanceMatrix', matrix(1));
      }
      const end = pool.stats();
      expect(end.metricsMade - start.metricsMade).toBe(6);
      expect(end.metricsAdopted - start.metricsAdopted).toBe(6);
      expect(end.metricsKept).toBe(start.metricsKept + 6);
    } finally {
      pool.close();
    }
  });

  it('a worker adopts the topology another built, and refuses one whose rows do not fit its states', async () => {
    const a = start();
    const workers = [a];
    try {
      await until(() => a.got.some((m) => m[0] === 0 && m[1] === READY));
      // Its warm-up route (by the car's customized metric) built the topology, in shared memory.
      const made = a.got.find((m) => m[1] === METRIC && (m[2] as [string, MetricPart])[1].kind === 'topology');
      const [key, topology] = (made as [0, number, [string, MetricPart]])[2];
      if (topology.kind !== 'topology') throw new Error('no topology made');
      expect(topology.upHead.buffer).toBeInstanceOf(SharedArrayBuffer);
      const call = METHOD_NAMES.indexOf('direction');
      const bike = { origin: PTS[0], destination: PTS[2], vehicle: 'bike' };
      const answered = async (w: ReturnType<typeof start>) => {
        w.worker.postMessage([1, call, bike]);
        await until(() => w.got.some((m) => m[0] === 1));
        const answer = w.got.find((m) => m[0] === 1)!;
        expect(answer[1]).toBe(200);
        expect(Buffer.from(answer[2] as Uint8Array).toString()).toBe(want('direction', bike));
      };
      // Offered before it loads its packs, as a replacement worker is: adopted, not built.
      const b = start();
      workers.push(b);
      b.worker.postMessage([0, METRIC, [key, topology]]);
      await until(() => b.got.some((m) => m[0] === 0 && m[1] === READY));
      await answered(b);
      expect(b.got.filter((m) => m[1] === ADOPTED).map((m) => m[2])).toEqual([key]);
      expect(b.got.some((m) => m[1] === METRIC && (m[2] as [string])[0] === key)).toBe(false);
      // The same key with the rows of the last vertex stretched over one more arc: refused, built, offered.
      const c = start();
      workers.push(c);
      const upFirst = topology.upFirst.slice();
      upFirst[upFirst.length - 2] = upFirst[upFirst.length - 2]! - 1;
      c.worker.postMessage([0, METRIC, [key, { ...topology, upFirst }]]);
      await until(() => c.got.some((m) => m[0] === 0 && m[1] === READY));
      await answered(c);
      expect(c.got.some((m) => m[1] === ADOPTED)).toBe(false);
      expect(c.got.some((m) => m[1] === METRIC && (m[2] as [string])[0] === key)).toBe(true);
    } finally {
      await Promise.all(workers.map((w) => w.worker.terminate()));
    }
  });

  it('a worker refuses a part whose arrays do not fit its topology, makes its own and answers as before', async () => {
    const a = start(),
      b = start();
    try {
      await until(() => [a, b].every((w) => w.got.some((m) => m[0] === 0 && m[1] === READY)));
      const bike = { origin: PTS[0], destination: PTS[2], vehicle: 'bike' };
      const call = METHOD_NAMES.indexOf('direction');
      a.worker.postMessage([1, call, bike]);
      await until(() => a.got.some((m) => m[0] === 1));
      // The bike's metric, made for the call (after the topology and the car's metric of its warm-up).
      const made = a.got.filter((m) => m[1] === METRIC && (m[2] as [string, MetricPart])[1].kind === 'arcs').at(-1) as [
        0,
        number,
        [string, MetricPart],
      ];
      const [key, part] = made[2];
      expect(part.kind).toBe('arcs');
      if (part.kind !== 'arcs') return;
      // The same key with one slot fewer: the lengths do not match the topology.
      b.worker.postMessage([0, METRIC, [key, { ...part, up: { ...part.up, slot: part.up.slot.subarray(1) } }]]);
      b.worker.postMessage([1, call, bike]);
      await until(() => b.got.some((m) => m[0] === 1));
      const answer = b.got.find((m) => m[0] === 1)!;
      expect(answer[1]).toBe(200);
      expect(Buffer.from(answer[2] as Uint8Array).toString()).toBe(want('direction', bike));
      // It made its own (and offered it), and adopted nothing.
      expect(b.got.some((m) => m[1] === METRIC && (m[2] as [string])[0] === key)).toBe(true);
      expect(b.got.some((m) => m[1] === ADOPTED)).toBe(false);
      // The part as made is adopted: the bike's second route on the first worker's arrays.
      const c = start();
      c.worker.postMessage([0, METRIC, [key, part]]);
      await until(() => c.got.some((m) => m[0] === 0 && m[1] === READY));
      c.worker.postMessage([1, call, bike]);
      await until(() => c.got.some((m) => m[0] === 1));
      expect(Buffer.from(c.got.find((m) => m[0] === 1)![2] as Uint8Array).toString()).toBe(want('direction', bike));
      expect(c.got.filter((m) => m[1] === ADOPTED).map((m) => m[2])).toEqual([key]);
      await c.worker.terminate();
    } finally {
      await Promise.all([a.worker.terminate(), b.worker.terminate()]);
    }
  });
});
