/**
 * No client may crash the server (issue 18 item 4): `bando serve` under a low descriptor limit, flooded with idle
 * sockets, keeps answering and keeps its usage counts. Before the connection caps, the usage flush a second after a
 * counted request failed with EMFILE outside any handler and the process exited, losing the counts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRestHandler, type ResourceRoute } from '../src/adapters/http/handler.js';
import { startNodeServer } from '../src/adapters/http/node-server.js';
import { readUsageFile } from '../src/adapters/http/usage-file.js';
import { createEngine } from '../src/engine.js';
import { serveCli } from './helpers/serve-cli.js';

const engine = await createEngine();
const dir = mkdtempSync(join(tmpdir(), 'bando-flood-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Descriptor limit of the server process: low, so that a few hundred sockets would exhaust it. */
const FD_LIMIT = 256;
/** Idle sockets the client opens: more than the server has descriptors. */
const FLOOD = 400;

/** A GET on a fresh connection (no pooled socket that the server may have closed as idle); resolves with the status. */
function get(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    httpGet(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

/** Opens a socket that sends nothing; resolves once it connected or failed (a refused socket is fine). */
function idleSocket(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => resolve(s));
    s.on('error', () => resolve(s));
    s.on('close', () => resolve(s));
  });
}

describe('bando serve under a descriptor flood', () => {
  it('keeps answering and keeps its counts when idle sockets outnumber its descriptors', async () => {
    const keys = join(dir, 'keys.json');
    const usage = join(dir, 'keys.usage.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ key: 'k' }] }));
    const { child, url } = await serveCli(keys, ['--threads', '0'], FD_LIMIT);
    let exitCode: number | null | undefined;
    child.on('exit', (code) => (exitCode = code));
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const port = Number(new URL(url).port);
    const hit = () => get(`${url}/Geocode?latlng=21.0285,105.8542&api_key=k`);
    const sockets: Socket[] = [];
    try {
      expect(await hit()).toBe(200);
      // The reproduction: right after one counted request, fill the descriptors with idle sockets, then let the
      // once-a-second usage flush run.
      sockets.push(...(await Promise.all(Array.from({ length: FLOOD }, () => idleSocket(port)))));
      await new Promise((r) => setTimeout(r, 2500));
      expect(exitCode, stderr).toBeUndefined();
      // Still answering while the flood is held open, and the flush after this count happens under the flood too.
      expect(await hit()).toBe(200);
      await new Promise((r) => setTimeout(r, 2500));
      expect(exitCode, stderr).toBeUndefined();
    } finally {
      for (const s of sockets) s.destroy();
    }
    expect(exitCode, stderr).toBeUndefined();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.on('exit', r)));
    expect(child.exitCode, stderr).toBe(0);
    const counted = Object.values(readUsageFile(usage).k ?? {}).reduce((n, p) => n + (p.requests.geocode ?? 0), 0);
    expect(counted).toBe(2);
  }, 120_000);
});

describe('connection caps (in-process)', () => {
  it('closes idle connections for new ones, never one with a request in progress, and never exceeds the cap', async () => {
    const slow: ResourceRoute = {
      name: 'slow',
      mapLoad: false,
      match: (p) => p === '/slow',
      handle: () => new Promise((r) => setTimeout(() => r(new Response('done')), 1500)),
    };
    const handler = createRestHandler(engine, {
      keys: [{ key: 't', kind: 'tiles' }],
      allowHttp: true,
      resources: [slow],
    });
    const cap = 20;
    let peak = 0;
    const server = await startNodeServer(handler, { port: 0, maxConnections: cap });
    const sample = setInterval(() => server.server.getConnections((_e, n) => (peak = Math.max(peak, n))), 5);
    const port = Number(new URL(server.url).port);
    const sockets: Socket[] = [];
    try {
      const inflight = get(`${server.url}/slow?key=t`);
      await new Promise((r) => setTimeout(r, 100));
      // 3 × the cap in idle sockets while the slow request is being answered.
      sockets.push(...(await Promise.all(Array.from({ length: 3 * cap }, () => idleSocket(port)))));
      await new Promise((r) => setTimeout(r, 200));
      // The server closed idle ones to make room (the client sees their end), and holds no more than the cap.
      expect(sockets.filter((s) => s.destroyed).length).toBeGreaterThanOrEqual(2 * cap);
      expect(await get(`${server.url}/nothing?key=t`)).toBe(404);
      expect(await inflight).toBe(200);
      expect(peak).toBeLessThanOrEqual(cap);
    } finally {
      clearInterval(sample);
      for (const s of sockets) s.destroy();
      await server.close();
    }
  });
});
