/**
 * Part of the long fuzzing run (bench/fuzz.ts, issue 39 items 3 and 9): pipelined cancellations against
 * `bando serve --threads 2` as it runs (the shipped worker bundle, the default heavy limits). Each round, a client
 * opens three connections, pipelines 40 requests on each (mostly 400-stop trips over three keys, some geocodes and
 * bad requests) and disconnects after a random 0–400 ms. On odd rounds another client sends a 400-stop trip and
 * five geocodes meanwhile (its wait is timed against the same trip alone); on even rounds nobody else does, and
 * the time from the disconnect until no call runs or waits is measured. Server errors (5xx) must be 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { startNodeServer } from '../src/adapters/http/node-server.js';
import { createThreadPool, type ThreadPool } from '../src/adapters/worker/pool.js';
import { createEngine } from '../src/engine.js';
import { reachableStops } from '../test/helpers/trip-stops.js';
import { quantile } from './stats.js';
import { buildWorkerBundle } from './worker-bundle.js';

/** Resolves once `done()` holds (polled every 2 ms, so the times measured are within a few ms). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 2));
}

/** True when the pool has no call running or waiting. */
const idle = (pool: ThreadPool) => {
  const s = pool.stats();
  return s.inFlight === 0 && s.heavyWaiting === 0;
};

/** Runs `rounds` rounds (see the module comment) with a seeded choice of requests and disconnect times. */
export async function fuzzCancellations(rounds: number, seed: number): Promise<Record<string, string | number>> {
  let s = seed >>> 0 || 1;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32) as number;
  const dir = mkdtempSync(join(tmpdir(), 'bando-fuzz-cancel-'));
  const pool = createThreadPool(await buildWorkerBundle(dir), {
    size: 2,
    packs: [fileURLToPath(new URL('../packs/hanoi.pack', import.meta.url))],
  });
  let serverErrors = 0;
  const statuses = new Map<number, number>();
  const handler = createRestHandler(await pool.ready, {
    keys: ['a1', 'a2', 'a3', 'b'].map((key) => ({ key })),
    allowHttp: true,
    observe: (e) => {
      statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1);
      if (e.status >= 500) serverErrors++;
    },
  });
  const server = await startNodeServer(handler, { port: 0 });
  const { port } = new URL(server.url);
  const trip = `/trip?waypoints=${await reachableStops(await createEngine(), 400)}`;
  const requestFor = (): string => {
    const r = rand();
    const key = `a${1 + Math.floor(rand() * 3)}`;
    if (r < 0.8) return `${trip}&api_key=${key}`;
    if (r < 0.9) return `/Geocode?latlng=21.0285,105.8522&api_key=${key}`;
    return `/trip?waypoints=x;y&api_key=${key}`;
  };
  const get = async (path: string) => {
    const t = performance.now();
    const r = await fetch(server.url + path);
    await r.arrayBuffer();
    if (r.status >= 500) serverErrors++;
    return { status: r.status, ms: performance.now() - t };
  };
  try {
    // The other client's trip alone (warm), for comparison.
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) alone.push((await get(`${trip}&api_key=b`)).ms);
    const quiet: number[] = [];
    const waits: number[] = [];
    let sent = 0;
    let otherNot200 = 0;
    for (let round = 0; round < rounds; round++) {
      const sockets = [0, 1, 2].map(() => {
        const socket = connect(Number(port), '127.0.0.1');
        socket.on('error', () => {});
        socket.on('data', () => {});
        const lines = Array.from({ length: 40 }, () => `GET ${requestFor()} HTTP/1.1\r\nHost: bando.test\r\n\r\n`);
        sent += lines.length;
        socket.write(lines.join(''));
        return socket;
      });
      const other =
        round % 2 === 1
          ? Promise.all([
              get(`${trip}&api_key=b`),
              ...Array.from({ length: 5 }, () => get('/Geocode?latlng=21.03,105.85&api_key=b')),
            ])
          : null;
      await new Promise((r) => setTimeout(r, rand() * 400));
      for (const socket of sockets) socket.destroy();
      const t = performance.now();
      if (other) {
        const answers = await other;
        waits.push(answers[0]!.ms);
        otherNot200 += answers.filter((a) => a.status !== 200).length;
      } else {
        await until(() => idle(pool));
        quiet.push(performance.now() - t);
      }
      await until(() => idle(pool));
    }
    const stats = pool.stats();
    return {
      rounds,
      pipelined: sent,
      answers: [...statuses].map(([k, v]) => `${k}×${v}`).join(' '),
      dropped: stats.dropped,
      abandoned: stats.heavyAbandoned,
      server_errors: serverErrors,
      other_not_200: otherNot200,
      'idle after disconnect p50/max ms': `${quantile(quiet, 0.5).toFixed(0)}/${quantile(quiet, 1).toFixed(0)}`,
      'idle after disconnect, each round ms': quiet.map((ms) => ms.toFixed(0)).join(' '),
      'other trip p50/max ms': `${quantile(waits, 0.5).toFixed(0)}/${quantile(waits, 1).toFixed(0)}`,
      'trip alone p50 ms': quantile(alone, 0.5).toFixed(0),
    };
  } finally {
    await server.close();
    pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
