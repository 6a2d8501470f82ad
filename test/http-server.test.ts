import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createRestHandler, type ResourceRoute } from '../src/adapters/http/handler.js';
import { startNodeServer } from '../src/adapters/http/node-server.js';
import type { EngineApi } from '../src/adapters/http/routes.js';
import { readUsageFile } from '../src/adapters/http/usage-file.js';
import { serveCli } from './helpers/serve-cli.js';
import { HAS_OPENSSL, selfSignedCert } from './helpers/tls.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = join(ROOT, 'bin/bando.ts');
const ROUTE = 'origin=21.0285,105.8522&destination=21.0243,105.8575';
const engine: EngineApi = await createEngine();
const dir = mkdtempSync(join(tmpdir(), 'bando-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sends raw bytes to a port and returns the first response line. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(text));
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('end', () => resolve(got.split('\r\n')[0]!));
    s.on('error', reject);
  });
}

describe('node server (in-process)', () => {
  it('answers as the engine does; bad requests do not disturb good ones', async () => {
    const slow: ResourceRoute = {
      name: 'slow',
      mapLoad: false,
      match: (p) => p === '/slow',
      handle: () => new Promise((r) => setTimeout(() => r(new Response('done')), 300)),
    };
    const handler = createRestHandler(engine, {
      keys: [{ key: 'k' }, { key: 't', kind: 'tiles' }],
      allowHttp: true,
      resources: [slow],
    });
    const server = await startNodeServer(handler, { port: 0 });
    const port = Number(new URL(server.url).port);
    try {
      const want = JSON.parse(
        JSON.stringify(await engine.direction!({ origin: '21.0285,105.8522', destination: '21.0243,105.8575' })),
      );
      const good = () =>
        fetch(`${server.url}/Direction?${ROUTE}&api_key=k`).then(async (r) => [r.status, await r.json()]);
      const results = await Promise.all([
        good(),
        fetch(`${server.url}/Direction?${ROUTE}&api_key=k`, { method: 'POST' }).then((r) => r.status),
        fetch(`${server.url}/Direction?${ROUTE}&api_key=k&x=${'a'.repeat(9000)}`).then((r) => r.status),
        fetch(`${server.url}/Direction?origin=bad&destination=1,1&api_key=k`).then((r) => r.status),
        raw(port, 'GARBAGE\r\n\r\n'),
        raw(port, `GET /Direction HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20000)}\r\n\r\n`),
        raw(port, 'TRACE /Direction HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
        good(),
      ]);
      expect(results[0]).toEqual([200, want]);
      expect(results.slice(1, 4)).toEqual([405, 414, 400]);
      expect(results[4]).toMatch(/^HTTP\/1\.1 400/);
      expect(results[5]).toMatch(/^HTTP\/1\.1 4(00|31)/);
      expect(results[6]).toMatch(/^HTTP\/1\.1 405/);
      expect(results[7]).toEqual([200, want]);
      // The remote address reaches the handler: plain HTTP is allowed because the peer is loopback.
      // Graceful close: an in-flight request finishes, later connections are refused.
      const inflight = fetch(`${server.url}/slow?api_key=t`).then(async (r) => [r.status, await r.text()]);
      await new Promise((r) => setTimeout(r, 50));
      const closed = server.close();
      expect(await inflight).toEqual([200, 'done']);
      await closed;
      await expect(fetch(`${server.url}/Direction?${ROUTE}&api_key=k`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it.skipIf(!HAS_OPENSSL)('serves HTTPS with a certificate and key', async () => {
    const { cert, key } = selfSignedCert(dir);
    const handler = createRestHandler(engine, { keys: [{ key: 'k' }] });
    const server = await startNodeServer(handler, {
      port: 0,
      tls: { cert: readFileSync(cert), key: readFileSync(key) },
    });
    try {
      expect(server.url.startsWith('https://')).toBe(true);
      const [status, body] = await new Promise<[number, string]>((resolve, reject) => {
        httpsRequest(`${server.url}/Direction?${ROUTE}&api_key=k`, { rejectUnauthorized: false }, (res) => {
          let b = '';
          res.on('data', (d) => (b += d));
          res.on('end', () => resolve([res.statusCode!, b]));
        })
          .on('error', reject)
          .end();
      });
      // No allowHttp and no proxy: only the TLS transport makes this pass the HTTPS check.
      expect(status).toBe(200);
      expect(JSON.parse(body)).toEqual(
        JSON.parse(
          JSON.stringify(await engine.direction!({ origin: '21.0285,105.8522', destination: '21.0243,105.8575' })),
        ),
      );
    } finally {
      await server.close();
    }
  });
});

const serve = (keys: string, ...more: string[]) => serveCli(keys, more);
const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null || child.signalCode !== null ? r(child.exitCode) : child.on('exit', (c) => r(c)),
  );
const directionCount = (usagePath: string) => {
  const u = readUsageFile(usagePath).k;
  return u ? Object.values(u).reduce((n, p) => n + (p.requests.direction ?? 0), 0) : 0;
};

describe('bando serve keeps usage across restarts and kill -9', () => {
  it('counts survive SIGTERM, kill -9 after a second, and kill -9 mid-traffic', async () => {
    const keys = join(dir, 'keys.json');
    const usage = join(dir, 'keys.usage.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ key: 'k' }] }));
    const hit = (url: string) => fetch(`${url}/Direction?${ROUTE}&api_key=k`).then((r) => r.status);

    // 1. Graceful stop saves everything.
    let s = await serve(keys);
    for (let i = 0; i < 12; i++) expect(await hit(s.url)).toBe(200);
    s.child.kill('SIGTERM');
    expect(await exited(s.child)).toBe(0);
    expect(directionCount(usage)).toBe(12);

    // 2. kill -9 more than a second after the last request loses nothing.
    s = await serve(keys);
    for (let i = 0; i < 5; i++) expect(await hit(s.url)).toBe(200);
    await new Promise((r) => setTimeout(r, 2500));
    s.child.kill('SIGKILL');
    await exited(s.child);
    expect(directionCount(usage)).toBe(17);

    // 3. kill -9 in the middle of traffic: the file is a complete earlier or later report, never torn.
    s = await serve(keys);
    let answered = 0;
    let stop = false;
    const load = (async () => {
      while (!stop) {
        try {
          if ((await hit(s.url)) === 200) answered++;
        } catch {
          return;
        }
      }
    })();
    await new Promise((r) => setTimeout(r, 1800));
    s.child.kill('SIGKILL');
    stop = true;
    await load;
    await exited(s.child);
    const after = directionCount(usage);
    expect(answered).toBeGreaterThan(0);
    expect(after).toBeGreaterThanOrEqual(17);
    // The one request in flight at the kill may have been counted without its answer reaching the client.
    expect(after).toBeLessThanOrEqual(17 + answered + 1);
    expect(existsSync(usage)).toBe(true);

    // 4. The next server starts from the saved counts; `bando stats` reports them.
    s = await serve(keys);
    expect(await hit(s.url)).toBe(200);
    s.child.kill('SIGTERM');
    await exited(s.child);
    expect(directionCount(usage)).toBe(after + 1);
    const stats = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'stats', '--keys', keys, '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(stats.status).toBe(0);
    const rows = JSON.parse(stats.stdout) as { key: string; requests: { direction: number }; billable: number }[];
    expect(rows.reduce((n, r) => n + r.requests.direction, 0)).toBe(after + 1);
    expect(rows.every((r) => r.key === 'k')).toBe(true);
  });
});

describe('bando serve: one process per usage file; health, metrics and logs', () => {
  it('a second server on the same usage file refuses to start, naming the file and the holder', async () => {
    const keys = join(dir, 'lock-keys.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ key: 'k' }] }));
    const first = await serve(keys, '--threads', '0');
    try {
      const second = spawnSync(
        process.execPath,
        ['--import', 'tsx', CLI, 'serve', '--keys', keys, '--port', '0', '--allow-http', '--threads', '0'],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      expect(second.status).toBe(1);
      expect(second.stderr).toContain(join(dir, 'lock-keys.usage.json'));
      expect(second.stderr).toContain(`process ${first.child.pid}`);
      // The first server still counts.
      expect((await fetch(`${first.url}/Direction?${ROUTE}&api_key=k`)).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await exited(first.child);
    }
    expect(readUsageFile(join(dir, 'lock-keys.usage.json')).k!).toBeDefined();
  });

  it('/healthz, /metrics behind --metrics-token-file and --log lines, on a real server', async () => {
    const keys = join(dir, 'ops-keys.json');
    const token = join(dir, 'metrics.token');
    const log = join(dir, 'requests.log');
    writeFileSync(keys, JSON.stringify({ keys: [{ key: 'ops-key-0123456789', monthlyQuota: 2 }] }));
    writeFileSync(token, 'a-metrics-token-of-32-characters\n');
    const s = await serve(keys, '--threads', '0', '--metrics-token-file', token, '--log', log);
    try {
      expect(await fetch(`${s.url}/healthz`).then(async (r) => [r.status, await r.json()])).toEqual([
        200,
        { status: 'OK', checks: { engine: 'OK', packs: 'OK', usage: 'OK' } },
      ]);
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await fetch(`${s.url}/Direction?${ROUTE}&api_key=ops-key-0123456789`)).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
      const metrics = await fetch(`${s.url}/metrics`, {
        headers: { authorization: 'Bearer a-metrics-token-of-32-characters' },
      }).then((r) => r.text());
      expect(metrics).toContain('bando_http_requests_total{endpoint="direction",status="200"} 2\n');
      expect(metrics).toContain('bando_http_requests_total{endpoint="direction",status="429"} 1\n');
      expect(metrics).toContain('bando_usage_rejections_total{reason="quota"} 1\n');
      expect(metrics).toContain('bando_usage_store_up 1\n');
    } finally {
      s.child.kill('SIGTERM');
      await exited(s.child);
    }
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.path, l.status, l.refused])).toEqual([
      ['/healthz', 200, undefined],
      ['/Direction', 200, undefined],
      ['/Direction', 200, undefined],
      ['/Direction', 429, 'quota'],
      ['/metrics', 401, undefined],
      ['/metrics', 200, undefined],
    ]);
    expect(readFileSync(log, 'utf8')).not.toContain('ops-key-0123456789');
  });

  it('refuses a short metrics token and malformed numeric flags at start, naming them', () => {
    const keys = join(dir, 'flag-keys.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ key: 'k' }] }));
    const short = join(dir, 'short.token');
    writeFileSync(short, 'short');
    for (const [flags, message] of [
      [['--metrics-token-file', short], /--metrics-token-file .* at least 16 characters/],
      [['--max-cost', '0'], /--max-cost must be a positive whole number, got "0"/],
      [['--timeout', '1e3'], /--timeout must be a positive whole number, got "1e3"/],
      [['--heavy-threads', '-1'], /--heavy-threads must be a positive whole number/],
      [['--heavy-niceness', '20'], /--heavy-niceness must be a whole number 0–19, got "20"/],
      [['--center', '106.7'], /--center must be "lat,lng" in decimal degrees .*, got "106.7"/],
      [['--center', '10.77,190'], /--center must be "lat,lng"/],
      [['--zoom', '23'], /--zoom must be a number from 0 to 22, got "23"/],
    ] as const) {
      const r = spawnSync(
        process.execPath,
        ['--import', 'tsx', CLI, 'serve', '--keys', keys, '--port', '0', '--threads', '0', ...flags],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      expect([flags, r.status]).toEqual([flags, 1]);
      expect(r.stderr).toMatch(message);
    }
  });
});
