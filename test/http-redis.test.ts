/**
 * The Redis usage store on a real redis-server (Debian's, started per file on a free loopback port): the same
 * decisions and counts as the memory store, exact quotas across servers and processes, kill -9 of a server, Redis
 * going away and coming back, and clear errors for bad URLs. Needs `redis-server` (`.ci/run` installs it): without
 * it these tests fail, they do not skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createRestHandler, type RestRequest } from '../src/adapters/http/handler.js';
import type { Reply } from '../src/adapters/http/responses.js';
import { createRedisUsageStore, describeRedisUrl, type RedisUsageStore } from '../src/adapters/http/usage-redis.js';
import { MemoryUsageStore, type Admission, type UsageRequest } from '../src/adapters/http/usage.js';
import { Redis } from 'ioredis';
import { freePort, startRedis, type TestRedis } from './helpers/redis.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = join(ROOT, 'bin/bando.ts');
const ROUTE = 'origin=21.0285,105.8522&destination=21.0243,105.8575';
const dir = mkdtempSync(join(tmpdir(), 'bando-redis-test-'));
const engine = await createEngine();

let redis: TestRedis;
const stores: RedisUsageStore[] = [];
/** A store on the test server with its own connection, as each server process has; closed after the file. */
async function store(prefix: string, opts: Parameters<typeof createRedisUsageStore>[1] = {}): Promise<RedisUsageStore> {
  const s = await createRedisUsageStore(redis.url, { prefix, ...opts });
  stores.push(s);
  return s;
}
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await redis.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A REST request for the handler. */
const get = (path: string): RestRequest => ({ method: 'GET', url: `https://bando.test${path}`, header: () => null });
const status = async (r: Reply | Promise<Reply>) => (await r).status;

/**
 * 3,000 random requests on three keys (quotas, rate caps, sessions repeated and expiring, free resources) across a
 * month change, each with its time.
 */
function randomRequests(): UsageRequest[] {
  let seed = 99;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const keys = [
    { key: 'a', monthlyQuota: 60 },
    { key: 'b{x}:u:', monthlyQuota: 1000, perSecond: 3 },
    { key: 'c', monthlyQuota: 400, perSecond: 20 },
  ];
  let now = Date.UTC(2025, 4, 31, 23, 56);
  const out: UsageRequest[] = [];
  for (let i = 0; i < 3000; i++) {
    now += rnd(400);
    const k = keys[rnd(3)]!;
    const kind = rnd(10);
    const request: UsageRequest = {
      key: k.key,
      period: new Date(now).toISOString().slice(0, 7),
      endpoint: kind < 3 ? 'autocomplete' : kind < 5 ? 'placeDetail' : kind < 6 ? 'tiles' : 'direction',
      units: kind === 5 ? 0 : 1,
      monthlyQuota: k.monthlyQuota,
      perSecond: k.perSecond,
      nowMs: now,
    };
    if (kind < 5 && rnd(10) < 8)
      request.session = { endpoint: kind < 3 ? 'autocomplete' : 'placeDetail', token: `t${rnd(6)}` };
    out.push(request);
  }
  return out;
}

describe('Redis store: the same decisions as the memory store', () => {
  const sessions = { idleMs: 2000, rememberMs: 3_600_000 };

  /** The memory store's decisions and report on the random requests, and the Redis store's (`admitAll`). */
  async function compare(
    prefix: string,
    admitAll: (r: RedisUsageStore, requests: UsageRequest[]) => Promise<Admission[]>,
  ): Promise<void> {
    const requests = randomRequests();
    const m = new MemoryUsageStore({}, { sessions });
    const want = requests.map((request) => m.admit(request));
    const r = await store(prefix, { sessions });
    expect(await admitAll(r, requests)).toEqual(want);
    // Every outcome occurred, and the month changed, so the comparison covered every rule.
    expect(new Set(want)).toEqual(new Set(['ok', 'quota', 'rate']));
    expect(Object.keys(m.report().c!).sort()).toEqual(['2025-05', '2025-06']);
    expect(await r.report()).toEqual(m.report());
  }

  it('on 3,000 random requests (quotas, rate caps, sessions, free resources, a month change) decides and counts alike', async () => {
    await compare('parity:', async (r, requests) => {
      const got: Admission[] = [];
      for (const request of requests) got.push(await r.admit(request));
      return got;
    });
  });

  it('also when many requests of several keys arrive in one event-loop turn (one script call per key, in order)', async () => {
    // Runs of 1–1,800 requests admitted without waiting, so that one turn's batches hold repeated sessions, a full
    // rate window, several keys, the month change and more than one script call's worth of requests of one key.
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    await compare('batches:', async (r, requests) => {
      const got: Admission[] = [];
      for (let i = 0; i < requests.length;) {
        const n = i === 0 ? 1800 : 1 + rnd(60);
        got.push(...(await Promise.all(requests.slice(i, i + n).map((request) => r.admit(request)))));
        i += n;
      }
      return got;
    });
  });

  it('also with 16 clients in a closed loop (group commit: the requests waiting behind a call go in the next one, in order)', async () => {
    let r0: RedisUsageStore | undefined;
    await compare('lanes:', async (r, requests) => {
      r0 = r;
      const got: Admission[] = [];
      let next = 0;
      // Each client admits the next request as soon as its last one is answered: the store sees them in index
      // order, so any reordering inside a key (or a request decided twice, or lost) changes some decision.
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < requests.length) {
            const i = next++;
            got[i] = await r.admit(requests[i]!);
          }
        }),
      );
      return got;
    });
    // The calls carried several requests each: the batches were made by group commit, not one per request.
    const { calls, requests, histogram } = r0!.batchStats();
    expect(requests).toBe(3000);
    expect(calls).toBeLessThan(requests / 2);
    expect(histogram.slice(1).some((n) => n > 0)).toBe(true);
  });

  it('a session token cannot forge counts of another key or period', async () => {
    const r = await store('forge:');
    const base = { period: '2025-05', units: 1, monthlyQuota: 10, nowMs: 0 };
    expect(
      await r.admit({
        ...base,
        key: 'k',
        endpoint: 'autocomplete',
        session: { endpoint: 'autocomplete', token: 'x}:2025-05' },
      }),
    ).toBe('ok');
    expect(
      await r.admit({
        ...base,
        key: 'k',
        endpoint: 'autocomplete',
        session: { endpoint: 'autocomplete', token: '}:u:{victim}:2025-05' },
      }),
    ).toBe('ok');
    expect(await r.report()).toEqual({ k: { '2025-05': { requests: { autocomplete: 2 }, sessions: 2, billable: 2 } } });
  });
});

describe('several servers on one Redis', () => {
  it('four handlers, 600 concurrent requests over a quota of 100: exactly 100 answered 200, the rest 429', async () => {
    const keys = [{ key: 'shared', monthlyQuota: 100 }];
    const handlers = await Promise.all(
      [0, 1, 2, 3].map(async () => createRestHandler(engine, { keys, usage: await store('four:') })),
    );
    const statuses = await Promise.all(
      Array.from({ length: 600 }, (_, i) => status(handlers[i % 4]!(get(`/Direction?${ROUTE}&api_key=shared`)))),
    );
    expect(statuses.filter((s) => s === 200).length).toBe(100);
    expect(statuses.filter((s) => s === 429).length).toBe(500);
    const report = await stores.at(-1)!.report();
    expect(Object.values(report.shared!)[0]).toMatchObject({ billable: 100, requests: { direction: 100 } });
  });

  it('two bando serve processes: exactly the quota answered, exact after kill -9 of one mid-load; bando stats reads it', async () => {
    const keys = join(dir, 'keys.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ key: 'k', monthlyQuota: 150 }] }));
    const url = `${redis.url}/3`;
    const token = join(dir, 'metrics-token');
    writeFileSync(token, 'a-metrics-token-of-some-length\n');
    // A starts cheap calls ahead of their admission (the default), B waits for it: A's kill must not change the
    // counts either.
    const [a, b] = await Promise.all([
      serve(keys, url),
      serve(keys, url, ['--work-ahead=false', '--metrics-token-file', token]),
    ]);
    try {
      const answers: number[] = [];
      let killed = false;
      let next = 0;
      // 8 clients, 400 requests, alternating between the servers; once A is killed its requests go to B.
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < 400) {
            const i = next++;
            if (i === 120 && !killed) {
              killed = true;
              a.child.kill('SIGKILL');
            }
            const target = !killed && i % 2 === 0 ? a.url : b.url;
            try {
              answers.push((await fetch(`${target}/Direction?${ROUTE}&api_key=k`)).status);
            } catch {
              answers.push((await fetch(`${b.url}/Direction?${ROUTE}&api_key=k`)).status);
            }
          }
        }),
      );
      const ok = answers.filter((s) => s === 200).length;
      // Requests A admitted but never answered are counted: the store saw them. Never more than the quota.
      const stats = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'stats', '--usage', url, '--json'], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(stats.status, stats.stderr).toBe(0);
      const rows = JSON.parse(stats.stdout) as { key: string; billable: number; requests: { direction: number } }[];
      expect(rows.map((r) => [r.key, r.billable, r.requests.direction])).toEqual([['k', 150, 150]]);
      expect(ok).toBeLessThanOrEqual(150);
      expect(ok).toBeGreaterThanOrEqual(150 - 8); // at most one request in flight per client when A died
      expect(answers.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
      // B's /metrics counts its script calls and the requests they decided (every request B answered, at least).
      const metrics = await (
        await fetch(`${b.url}/metrics`, { headers: { authorization: 'Bearer a-metrics-token-of-some-length' } })
      ).text();
      const counter = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(metrics)?.[1]);
      const calls = counter('bando_usage_redis_calls_total');
      const decided = counter('bando_usage_redis_call_requests_total');
      expect(calls).toBeGreaterThan(0);
      expect(decided).toBeGreaterThanOrEqual(calls);
      expect(decided).toBeGreaterThanOrEqual(answers.length / 2);
    } finally {
      a.child.kill('SIGKILL');
      b.child.kill('SIGTERM');
      await exited(b.child);
    }
  });
});

describe('Redis unreachable', () => {
  it('requests get 503 naming Redis, /healthz 503, then service is back once Redis is', async () => {
    const problems: (string | null)[] = [];
    const usage = await store('down:', { onProblem: (m) => problems.push(m) });
    const h = createRestHandler(engine, { keys: [{ key: 'k' }], usage, health: () => null });
    expect(await status(h(get(`/Direction?${ROUTE}&api_key=k`)))).toBe(200);
    await redis.stop(true);
    const down = await h(get(`/Direction?${ROUTE}&api_key=k`));
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body as string)).toEqual({
      status: 'ERROR',
      error_message: expect.stringMatching(new RegExp(`Redis at 127\\.0\\.0\\.1:${redis.port}/0 is unreachable`)),
    });
    expect(down.headers['retry-after']).toBe('1');
    const health = await h(get('/healthz'));
    expect(health.status).toBe(503);
    expect(health.body).toMatch(/Redis at .* is unreachable/);
    expect(problems[0]).toMatch(/unreachable .*requests get 503 until it is back; reconnecting/);
    await redis.start();
    let back = 0;
    for (let i = 0; i < 200 && back !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      back = await status(h(get(`/Direction?${ROUTE}&api_key=k`)));
    }
    expect(back).toBe(200);
    expect((await h(get('/healthz'))).status).toBe(200);
    expect(problems.at(-1)).toBeNull();
  });

  it('Redis killed while a call is in flight: that call and every request waiting behind it fail with 503 at once', async () => {
    const usage = await store('midcall:');
    const request: UsageRequest = {
      key: 'k',
      period: '2025-05',
      endpoint: 'direction',
      units: 1,
      monthlyQuota: 1e9,
      nowMs: 0,
    };
    // Another client holds Redis in a script for up to 20 s, so the store's next call stays in flight.
    const blocker = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    blocker.on('error', () => {});
    const held = blocker
      .eval(
        "local s = redis.call('TIME') repeat local t = redis.call('TIME') until t[1] - s[1] >= tonumber(ARGV[1])",
        0,
        20,
      )
      .catch(() => null);
    await new Promise((r) => setTimeout(r, 200));
    const flying = usage.admit(request);
    await new Promise((r) => setImmediate(r));
    const waiting = Array.from({ length: 40 }, () => usage.admit(request));
    await new Promise((r) => setImmediate(r));
    // One call sent (the first request); the 40 others wait in the key's lane.
    expect(usage.batchStats()).toMatchObject({ calls: 1, requests: 1 });
    const all = Promise.allSettled([flying, ...waiting]);
    await redis.stop(true);
    // Nothing hangs (the file's time limit would fail the test): all 41 are refused as unavailable.
    const settled = await all;
    expect(settled.map((x) => x.status)).toEqual(Array(41).fill('rejected'));
    for (const x of settled)
      expect((x as PromiseRejectedResult).reason).toMatchObject({
        name: 'UsageStoreUnavailable',
        message: expect.stringMatching(/is unreachable/),
      });
    // The lane is empty: a new request is refused at once, not queued behind the dead call.
    await expect(usage.admit(request)).rejects.toThrow(/is unreachable/);
    expect(usage.batchStats().calls).toBeLessThanOrEqual(2);
    await held;
    blocker.disconnect();
    await redis.start();
  });
});

describe('group commit', () => {
  const request = (key: string, monthlyQuota: number): UsageRequest => ({
    key,
    period: '2025-05',
    endpoint: 'direction',
    units: 1,
    monthlyQuota,
    nowMs: Date.UTC(2025, 4, 2),
  });
  const turn = () => new Promise((r) => setImmediate(r));

  it('two servers, 32 clients each in a closed loop on one key: exactly the quota admitted, in arrival order per server', async () => {
    const [a, b] = [await store('gc-two:'), await store('gc-two:')];
    const got: Admission[][] = [[], []];
    await Promise.all(
      [a, b].flatMap((s, side) =>
        Array.from({ length: 32 }, async () => {
          while (got[side]!.length < 700) {
            const i = got[side]!.length;
            got[side]![i] = 'quota'; // a place held, so the next request takes the next index
            got[side]![i] = await s.admit(request('two', 500));
          }
        }),
      ),
    );
    const admitted = got.map((g) => g.filter((x) => x === 'ok').length);
    expect(admitted[0]! + admitted[1]!).toBe(500);
    // Each server decided its own requests in arrival order: all its admissions come before its first refusal.
    for (const g of got) expect(g.slice(g.indexOf('quota')).every((x) => x === 'quota')).toBe(true);
    expect((await a.report()).two).toEqual({ '2025-05': { requests: { direction: 500 }, sessions: 0, billable: 500 } });
    for (const s of [a, b]) expect(s.batchStats().requests / s.batchStats().calls).toBeGreaterThan(2);
  });

  it("past its bound a key's queue refuses at once (503), counting nothing for the refused", async () => {
    const s = await store('gc-bound:');
    const first = s.admit(request('bound', 1e9));
    await turn(); // the first call is now in flight: the rest wait behind it
    const rest = Array.from({ length: 32 * 512 + 5 }, () => s.admit(request('bound', 1e9)));
    const settled = await Promise.allSettled([first, ...rest]);
    const refused = settled.filter((x) => x.status === 'rejected');
    expect(refused.length).toBe(5);
    expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(
      /is too slow: 16384 requests of this key wait/,
    );
    expect((await s.report()).bound!['2025-05']!.billable).toBe(1 + 32 * 512);
  });

  it("an error reply fails only its own batch; the other key's call in the same write is answered", async () => {
    const s = await store('gc-reply:');
    // A counts key of the wrong type makes the script fail for that key only.
    const raw = new Redis(redis.url);
    await raw.set('gc-reply:u:{broken}:2025-05', 'not a hash');
    raw.disconnect();
    const [broken, fine] = await Promise.allSettled([s.admit(request('broken', 10)), s.admit(request('fine', 10))]);
    expect(broken.status).toBe('rejected');
    expect(String((broken as PromiseRejectedResult).reason)).toMatch(/Redis at .* failed: .*WRONGTYPE/);
    expect(fine).toEqual({ status: 'fulfilled', value: 'ok' });
    expect(s.problem()).toBeNull();
  });
});

describe('work ahead: a cheap call starts while Redis decides, answered only once admitted', () => {
  /** The engine's direction, counting the calls that reach it. */
  function counting(): { api: { direction: typeof engine.direction }; calls: () => number } {
    let n = 0;
    return {
      api: {
        direction: (params) => {
          n++;
          return engine.direction(params);
        },
      },
      calls: () => n,
    };
  }

  for (const workAhead of [true, false])
    it(`quota 5, ten requests one after another: five 200 then 429s; ${workAhead ? 'on (the default): one refused request started (the one after the last admitted call), no more' : 'off: only admitted requests reach the engine'}`, async () => {
      const { api, calls } = counting();
      const usage = await store(`ahead-${workAhead}:`);
      // On: the option left out, so the default is what is tested.
      const options = { keys: [{ key: 'k', monthlyQuota: 5 }], usage, resources: [], ...(!workAhead && { workAhead }) };
      const h = createRestHandler(api, options);
      const got: number[] = [];
      for (let i = 0; i < 10; i++) got.push(await status(h(get(`/Direction?${ROUTE}&api_key=k`))));
      expect(got).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
      // The first request waits (nothing decided yet for the key); the 2nd–6th start ahead, as the key's last call
      // admitted all; the 6th is refused and its answer dropped; after that refusal the 7th–10th wait again.
      expect(calls()).toBe(workAhead ? 6 : 5);
      expect((await usage.report()).k!).toEqual({
        [new Date().toISOString().slice(0, 7)]: { requests: { direction: 5 }, sessions: 0, billable: 5 },
      });
    });

  it('a costly call never starts ahead (alternatives: ≈ 45 cost units)', async () => {
    const { api, calls } = counting();
    const usage = await store('ahead-costly:');
    const h = createRestHandler(api, {
      keys: [{ key: 'k', monthlyQuota: 2 }],
      usage,
      resources: [],
      workAhead: true,
    });
    const path = `/Direction?${ROUTE}&alternatives=true&api_key=k`;
    const got = [];
    for (let i = 0; i < 4; i++) got.push(await status(h(get(path))));
    expect(got).toEqual([200, 200, 429, 429]);
    expect(calls()).toBe(2);
  });
});

describe('bad Redis URLs give a clear error at start', () => {
  it('malformed URLs name what is wrong; an unreachable server is named (never its password)', async () => {
    expect(() => describeRedisUrl('redis//x')).toThrow(/not a URL/);
    expect(() => describeRedisUrl('http://x:1')).toThrow(/must start with redis:\/\/ or rediss:\/\//);
    expect(() => describeRedisUrl('redis://h:1/abc')).toThrow(/database number, got "\/abc"/);
    expect(() => describeRedisUrl('redis://h:1/0?x=1')).toThrow(/no query/);
    expect(describeRedisUrl('rediss://user:secret@h:7000/2')).toBe('h:7000/2');
    const port = await freePort();
    await expect(createRedisUsageStore(`redis://u:secret@127.0.0.1:${port}`, { timeoutMs: 500 })).rejects.toThrow(
      new RegExp(`Redis at 127\\.0\\.0\\.1:${port}/0 cannot be reached`),
    );
    const keys = join(dir, 'k-bad.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ key: 'k' }] }));
    for (const [url, message] of [
      [`redis://u:secret@127.0.0.1:${port}`, `Redis at 127.0.0.1:${port}/0 cannot be reached`],
      ['redis://127.0.0.1:1/x', 'database number'],
    ]) {
      const r = spawnSync(
        process.execPath,
        ['--import', 'tsx', CLI, 'serve', '--keys', keys, '--usage', url!, '--port', '0', '--threads', '0'],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toContain('secret');
    }
  });
});

/** Starts `bando serve --usage <redis>` (and `extra` flags) in a child process. */
function serve(keys: string, usage: string, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CLI,
      'serve',
      '--keys',
      keys,
      '--usage',
      usage,
      '--port',
      '0',
      '--allow-http',
      '--threads',
      '0',
      ...extra,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /serving on (\S+) .*usage in Redis/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`bando serve exited (${code}): ${err}`)));
  });
}
const exited = (child: ChildProcess) =>
  new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.on('exit', r)));
