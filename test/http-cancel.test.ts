// Issue 39 item 3: a request whose client has gone is cancelled before it starts, a running heavy call is abandoned at
// its next checkpoint, and the heavy queue is fair across keys and bounded per connection.
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createRestHandler, type FetchHandlerOptions } from '../src/adapters/http/handler.js';
import { startNodeServer, type RunningServer } from '../src/adapters/http/node-server.js';
import { createThreadPool, type ThreadPool } from '../src/adapters/worker/pool.js';
import { buildThreadBundles } from './helpers/thread-bundles.js';
import { reachableStops } from './helpers/trip-stops.js';
import { until } from './helpers/until.js';

const PACK = fileURLToPath(new URL('../packs/hanoi.pack', import.meta.url));
const bundles = await buildThreadBundles('bando-cancel-');
afterAll(() => bundles.remove());
const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => ({ key }));

/** A pool with one reserved light worker and one heavy worker, behind a server; closed by `stop`. */
async function serving(
  script: string,
  options: Partial<FetchHandlerOptions> = {},
): Promise<{ pool: ThreadPool; server: RunningServer; stop: () => Promise<void> }> {
  const pool = createThreadPool(script, { size: 2, heavyThreads: 1, packs: [PACK] });
  const api = await pool.ready;
  const server = await startNodeServer(createRestHandler(api, { keys: KEYS, allowHttp: true, ...options }), {
    port: 0,
  });
  return {
    pool,
    server,
    stop: async () => {
      await server.close();
      pool.close();
    },
  };
}

/** A raw connection to `url` on which `paths` are sent pipelined, in one write. */
function pipeline(url: string, paths: readonly string[]): { socket: Socket; received: () => string } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => {});
  socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: bando.test\r\n\r\n`).join(''));
  return { socket, received: () => text };
}

/** Status codes of the pipelined answers read so far, in order. */
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

/** A trip of `n` stops on a grid (solved or not, it is heavy from 64 stops: see callCost). */
const gridTrip = (n: number, key: string, extra = '') =>
  `/trip?waypoints=${Array.from({ length: n }, (_, i) => `${(21.0 + (i % 8) * 0.003).toFixed(3)},${(105.82 + Math.floor(i / 8) * 0.003).toFixed(3)}`).join(';')}&api_key=${key}${extra}`;
const hold = (name: string) => `&hold=${encodeURIComponent(join(bundles.dir, name))}`;
const release = (name: string) => writeFileSync(join(bundles.dir, name), '');

describe('calls whose client has gone, and the heavy queue across clients', () => {
  it('150 pipelined 400-stop trips and a disconnect: no trip runs or starts after it; another key waits for one', async () => {
    const stops = await reachableStops(await createEngine(), 400);
    // No per-key or per-connection cap here (the repro): what is measured is cancellation itself.
    const { pool, server, stop } = await serving(bundles.script, {
      maxHeavyPerKey: 1000,
      maxHeavyPerConnection: 1000,
    });
    try {
      const trip = (key: string) => `/trip?waypoints=${stops}&api_key=${key}`;
      const a = pipeline(server.url, Array(150).fill(trip('a')));
      await until(() => pool.stats().heavyRunning + pool.stats().heavyWaiting === 150);
      const t0 = performance.now();
      const b = fetch(server.url + trip('b')).then(async (r) => {
        const ms = performance.now() - t0;
        return { status: r.status, body: (await r.json()) as { code: string }, ms };
      });
      await until(() => pool.stats().heavyWaiting === 150);
      const before = pool.stats();
      const t1 = performance.now();
      a.socket.destroy();
      // a's waiting calls are dropped unstarted, and the heavy worker is free of a's running one (abandoned, or just
      // finished) once b's trip has started.
      expect(before.heavyStarted).toBe(1);
      await until(() => pool.stats().dropped === 149 && pool.stats().heavyStarted === 2);
      const quietMs = performance.now() - t1;
      const answer = await b;
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe('Ok');
      const after = pool.stats();
      expect(after).toMatchObject({ heavyRunning: 0, heavyWaiting: 0, inFlight: 0, replaced: 0 });
      // b's trip was the only one started after the disconnect: a's calls never passed it.
      expect(after).toMatchObject({ heavyStarted: 2, dropped: 149 });
      expect(after.heavyAbandoned).toBeLessThanOrEqual(1);
      // Nothing starts later either.
      await new Promise((r) => setTimeout(r, 1000));
      expect(pool.stats()).toMatchObject({ heavyStarted: after.heavyStarted, heavyRunning: 0, heavyWaiting: 0 });
      console.log(
        `150 pipelined 400-stop trips: all dropped or abandoned ${quietMs.toFixed(0)} ms after the disconnect ` +
          `(${after.dropped} dropped, ${after.heavyAbandoned} abandoned, ${before.heavyStarted} started before it); ` +
          `the other key's trip answered in ${answer.ms.toFixed(0)} ms`,
      );
    } finally {
      await stop();
    }
  });

  it('with the default limits: 4 of 150 pipelined trips admitted, 146 refused; after a disconnect nothing more starts', async () => {
    const stops = await reachableStops(await createEngine(), 400);
    const refused: number[] = [];
    const { pool, server, stop } = await serving(bundles.script, {
      observe: (e) => void (e.status === 429 && refused.push(e.status)),
    });
    try {
      const a = pipeline(server.url, Array(150).fill(`/trip?waypoints=${stops}&api_key=a`));
      // The refusals wait behind the first answer, unwritten: node must read on past them (highWaterMark) to see the
      // client close, else the admitted trips would run to their end.
      await until(() => refused.length === 146 && pool.stats().heavyRunning + pool.stats().heavyWaiting === 4);
      expect(a.received()).toBe('');
      const before = pool.stats();
      a.socket.destroy();
      await until(() => pool.stats().heavyRunning === 0 && pool.stats().heavyWaiting === 0);
      const after = pool.stats();
      expect(after.heavyStarted).toBe(before.heavyStarted);
      expect(after.dropped).toBe(4 - before.heavyStarted);
      await new Promise((r) => setTimeout(r, 1000));
      expect(pool.stats()).toMatchObject({ heavyStarted: before.heavyStarted, heavyRunning: 0, inFlight: 0 });
    } finally {
      await stop();
    }
  });

  it('a running heavy call is abandoned at its checkpoint, the waiting ones dropped; the worker goes on serving', async () => {
    const { pool, server, stop } = await serving(bundles.holding);
    try {
      const a = pipeline(server.url, [gridTrip(64, 'a', hold('never')), ...Array(3).fill(gridTrip(64, 'a'))]);
      await until(() => pool.stats().heavyRunning === 1 && pool.stats().heavyWaiting === 3);
      a.socket.destroy();
      await until(() => pool.stats().heavyRunning === 0 && pool.stats().heavyWaiting === 0);
      // Stopped where it was, not by replacing its worker.
      expect(pool.stats()).toMatchObject({ heavyStarted: 1, heavyAbandoned: 1, dropped: 3, replaced: 0, inFlight: 0 });
      const next = await fetch(server.url + gridTrip(64, 'a'));
      expect(next.status).toBe(200);
      expect(pool.stats()).toMatchObject({ heavyStarted: 2, heavyAbandoned: 1 });
    } finally {
      await stop();
    }
  });

  it('heavy calls wait in turn across keys: another key goes right after the running call, not after the queue', async () => {
    const { pool, server, stop } = await serving(bundles.holding);
    try {
      const order: string[] = [];
      const send = (key: string, i: number) =>
        fetch(server.url + gridTrip(64, key, hold('turns'))).then((r) => {
          order.push(`${key}${i}`);
          return r.status;
        });
      const calls = [0, 1, 2, 3].map((i) => send('a', i));
      await until(() => pool.stats().heavyRunning === 1 && pool.stats().heavyWaiting === 3);
      calls.push(send('b', 0));
      await until(() => pool.stats().heavyWaiting === 4);
      release('turns');
      expect(await Promise.all(calls)).toEqual([200, 200, 200, 200, 200]);
      // One heavy worker answers in the order it starts calls: first come first served would put b0 last.
      expect(order.indexOf('b0')).toBe(1);
    } finally {
      await stop();
    }
  });

  it('one connection holds at most maxHeavyPerConnection heavy calls, whatever its keys; more get 429 with Retry-After', async () => {
    const { pool, server, stop } = await serving(bundles.holding);
    try {
      const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
      const a = pipeline(
        server.url,
        keys.map((k) => gridTrip(64, k, hold('per-connection'))),
      );
      await until(() => statuses(a.received()).length === 0 && pool.stats().heavyWaiting === 3);
      release('per-connection');
      await until(() => statuses(a.received()).length === 6);
      expect(statuses(a.received())).toEqual([200, 200, 200, 200, 429, 429]);
      expect(a.received()).toMatch(/retry-after: 1/i);
      expect(a.received()).toContain('This connection already has 4 heavy calls');
      a.socket.destroy();
      expect(pool.stats()).toMatchObject({ heavyStarted: 4, dropped: 0 });
    } finally {
      await stop();
    }
  });

  it('a request whose client has already gone gets no engine work (499, never sent to a worker)', async () => {
    const pool = createThreadPool(bundles.script, { size: 2, heavyThreads: 1, packs: [PACK] });
    try {
      const handler = createRestHandler(await pool.ready, { keys: KEYS, allowHttp: true });
      const request = (path: string) => ({
        method: 'GET',
        url: `http://127.0.0.1${path}`,
        header: () => null,
      });
      for (const path of [gridTrip(64, 'a'), '/Geocode?latlng=21.0285,105.8522&api_key=a']) {
        const reply = await handler(request(path), { remoteAddress: '127.0.0.1', signal: AbortSignal.abort() });
        expect(reply.status).toBe(499);
      }
      expect(pool.stats()).toMatchObject({ heavyStarted: 0, inFlight: 0 });
      // The same requests from a client still there are answered.
      const live = await handler(request(gridTrip(64, 'a')), { remoteAddress: '127.0.0.1' });
      expect(live.status).toBe(200);
    } finally {
      pool.close();
    }
  });
});
