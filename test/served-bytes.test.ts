import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkerBundle } from '../bench/worker-bundle.js';
import { createEngine } from '../src/engine.js';
import { httpStatusOfBody } from '../src/api/statuses.js';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { startNodeServer } from '../src/adapters/http/node-server.js';
import { ENDPOINT_PATHS, type EngineApi, type MethodName } from '../src/adapters/http/routes.js';
import { createThreadPool } from '../src/adapters/worker/pool.js';
import { mulberry32 } from '../src/trip/rng.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACK = join(ROOT, 'packs/hanoi.pack');
const tmp = mkdtempSync(join(tmpdir(), 'bando-served-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Random queries over the Hanoi pack (a fixed seed): routes of one to three legs (some with alternatives, some by
 * bike, some between points off the map or malformed), matrices, reverse and forward geocodes, trips.
 */
function randomQueries(): [MethodName, string][] {
  const rnd = mulberry32(20261123);
  const pt = () => `${(20.99 + rnd() * 0.08).toFixed(5)},${(105.79 + rnd() * 0.09).toFixed(5)}`;
  const pts = (n: number, sep: string) => Array.from({ length: n }, pt).join(sep);
  const out: [MethodName, string][] = [];
  for (let i = 0; i < 240; i++) {
    let q = `origin=${i % 40 === 39 ? '10.0,10.0' : pt()}&destination=${pts(1 + (i % 3), ';')}`;
    if (i % 6 === 0) q += '&alternatives=true';
    if (i % 5 === 0) q += '&vehicle=bike';
    if (i % 50 === 49) q = `origin=${pt()}&destination=x`;
    out.push(['direction', q]);
  }
  for (let i = 0; i < 40; i++)
    out.push(['distanceMatrix', `origins=${pts(1 + (i % 4), '|')}&destinations=${pts(1 + ((i * 3) % 5), '|')}`]);
  for (let i = 0; i < 40; i++) out.push(['geocode', `latlng=${pt()}`]);
  const addresses = [
    'Hàng Bài, Hoàn Kiếm',
    'Trần Hưng Đạo',
    'kim ma ba dinh',
    'Phố Huế',
    'Văn Miếu',
    '12 Lý Thường Kiệt',
  ];
  for (const a of addresses) out.push(['geocode', `address=${encodeURIComponent(a)}`]);
  for (let i = 0; i < 12; i++) out.push(['trip', `waypoints=${pts(3 + (i % 4), ';')}`]);
  return out;
}

describe('bando serve --threads: served bodies are the engine answers, byte for byte', () => {
  it('many random routes, matrices, geocodes and trips: status and body equal to the in-thread engine JSON', async () => {
    const script = await buildWorkerBundle(tmp);
    const pool = createThreadPool(script, { size: 2, packs: [PACK] });
    const api = await pool.ready;
    const server = await startNodeServer(createRestHandler(api, { keys: [{ key: 'k' }], allowHttp: true }), {
      port: 0,
    });
    const engine: EngineApi = await createEngine({ packs: [PACK] });
    try {
      const queries = randomQueries();
      const statuses = new Set<string>();
      // 32 at a time: calls queue in both engine threads, and answers come back batched.
      for (let i = 0; i < queries.length; i += 32) {
        const chunk = queries.slice(i, i + 32);
        const served = await Promise.all(
          chunk.map(async ([m, q]) => {
            const r = await fetch(`${server.url}${ENDPOINT_PATHS[m]}?${q}&api_key=k`);
            return [r.status, Buffer.from(await r.arrayBuffer())] as const;
          }),
        );
        chunk.forEach(([m, q], k) => {
          const body = engine[m]!(Object.fromEntries(new URLSearchParams(q)));
          const want = Buffer.from(JSON.stringify(body));
          expect([q, served[k]![0]]).toEqual([q, httpStatusOfBody(body)]);
          expect(served[k]![1].equals(want), `${m} ${q}`).toBe(true);
          statuses.add(String((body as { status?: string; code?: string }).status ?? (body as { code: string }).code));
        });
      }
      // The comparison covered answers with routes and without, and refusals.
      expect([...statuses]).toEqual(expect.arrayContaining(['OK', 'NOT_FOUND', 'BAD_REQUEST', 'Ok']));
    } finally {
      await server.close();
      pool.close();
    }
  });
});
