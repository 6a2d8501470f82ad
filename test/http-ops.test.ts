import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createFetchHandler, type FetchHandlerOptions, type RequestEvent } from '../src/adapters/http/handler.js';
import { ServerMetrics } from '../src/adapters/http/metrics.js';
import { createRequestLog } from '../src/adapters/http/request-log.js';
import { keyHash } from '../src/adapters/http/keys.js';
import { MemoryUsageStore, periodOf, type UsageStore } from '../src/adapters/http/usage.js';
import type { EngineApi } from '../src/adapters/http/routes.js';

const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
const ROUTE = `origin=${A}&destination=${B}`;
const TOKEN = 'metrics-token-0123456789';
const engine: EngineApi = await createEngine();

/** A handler on the real engine with keys `k` (quota 3) and `big`, and its memory store. */
function setup(opts: FetchHandlerOptions = {}) {
  const usage = new MemoryUsageStore();
  const h = createFetchHandler(engine, { keys: [{ key: 'k', monthlyQuota: 3 }, { key: 'big' }], usage, ...opts });
  const get = async (path: string, headers: Record<string, string> = {}, base = 'https://bando.test') => {
    const res = await h(new Request(base + path, { headers }), { remoteAddress: '203.0.113.9' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const counted = () => usage.billable('k', periodOf(Date.now())) + usage.billable('big', periodOf(Date.now()));
  return { get, counted, usage };
}

describe('/healthz', () => {
  it('200 without a key and never counted; 503 naming the engine or the usage store when either cannot answer', async () => {
    let engineProblem: string | null = null;
    const { get, counted } = setup({ health: () => engineProblem });
    for (let i = 0; i < 5; i++)
      expect(await get('/healthz')).toMatchObject({
        status: 200,
        text: '{"status":"OK","checks":{"engine":"OK","usage":"OK"}}',
      });
    // Plain HTTP from anywhere: load balancers probe without TLS.
    expect((await get('/healthz', {}, 'http://10.0.0.1:8080')).status).toBe(200);
    expect(counted()).toBe(0);
    engineProblem = 'no engine worker is running: boom';
    const down = await get('/healthz');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.text)).toEqual({
      status: 'ERROR',
      error_message: 'engine: no engine worker is running: boom',
      checks: { engine: 'no engine worker is running: boom', usage: 'OK' },
    });
  });

  it('503 with the usage store problem', async () => {
    const broken: UsageStore = {
      admit: () => 'ok',
      report: () => ({}),
      problem: () => 'Redis at 127.0.0.1:1/0 cannot be reached',
    };
    const h = createFetchHandler(engine, { keys: [{ key: 'k' }], usage: broken });
    const res = await h(new Request('https://bando.test/healthz'));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'ERROR',
      error_message: 'usage: Redis at 127.0.0.1:1/0 cannot be reached',
      checks: { engine: 'OK', usage: 'Redis at 127.0.0.1:1/0 cannot be reached' },
    });
  });
});

describe('keyHash', () => {
  it('is FNV-1a 64 (the published test vectors)', () => {
    expect(keyHash('')).toBe('#cbf29ce484222325');
    expect(keyHash('a')).toBe('#af63dc4c8601ec8c');
    expect(keyHash('foobar')).toBe('#85944171f73967e8');
  });
});

describe('/metrics', () => {
  it('absent unless enabled; protected by its bearer token and HTTPS; never counted', async () => {
    expect((await setup().get('/metrics')).status).toBe(404);
    const metrics = new ServerMetrics();
    const { get, counted } = setup({
      metrics: { token: TOKEN, text: () => metrics.text() },
      observe: (e) => metrics.observe(e),
    });
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ]) {
      const r = await get('/metrics', headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
      expect(r.text).not.toContain('bando_http');
    }
    // The key never opens the metrics, and the token never opens an endpoint.
    expect((await get('/metrics?api_key=big')).status).toBe(401);
    expect((await get(`/Direction?${ROUTE}`, { authorization: `Bearer ${TOKEN}` })).status).toBe(403);
    expect((await get('/metrics', { authorization: `Bearer ${TOKEN}` }, 'http://10.0.0.1:8080')).status).toBe(400);
    const ok = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(counted()).toBe(0);
  });

  it('counts requests per endpoint and status, latency histograms and quota rejections, as sent', async () => {
    const metrics = new ServerMetrics([{ name: 'bando_test_gauge', help: 'A gauge.', type: 'gauge', value: () => 7 }]);
    const { get } = setup({
      metrics: { token: TOKEN, text: () => metrics.text() },
      observe: (e) => metrics.observe(e),
    });
    // What is sent, tallied here independently of the handler: 5 routes on a quota of 3, a bad key, an unknown path,
    // a geocode with bad input and a health probe.
    const sent: [string, number][] = [];
    for (let i = 0; i < 5; i++) sent.push([`/Direction?${ROUTE}&api_key=k`, i < 3 ? 200 : 429]);
    sent.push(
      [`/Direction?${ROUTE}&api_key=nope`, 403],
      ['/nowhere?api_key=k', 404],
      ['/Geocode?address=&api_key=big', 400],
      ['/healthz', 200],
    );
    for (const [path, status] of sent) expect([path, (await get(path)).status]).toEqual([path, status]);
    const text = (await get('/metrics', { authorization: `Bearer ${TOKEN}` })).text;
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(value('bando_http_requests_total{endpoint="direction",status="200"}')).toBe(3);
    expect(value('bando_http_requests_total{endpoint="direction",status="429"}')).toBe(2);
    expect(value('bando_http_requests_total{endpoint="direction",status="403"}')).toBe(1);
    expect(value('bando_http_requests_total{endpoint="other",status="404"}')).toBe(1);
    expect(value('bando_http_requests_total{endpoint="geocode",status="400"}')).toBe(1);
    expect(value('bando_http_requests_total{endpoint="healthz",status="200"}')).toBe(1);
    expect(value('bando_usage_rejections_total{reason="quota"}')).toBe(2);
    expect(value('bando_usage_rejections_total{reason="rate"}')).toBe(0);
    expect(value('bando_http_request_duration_seconds_count{endpoint="direction"}')).toBe(6);
    expect(value('bando_http_request_duration_seconds_bucket{endpoint="direction",le="+Inf"}')).toBe(6);
    // Buckets are cumulative: never decreasing, ending at the count.
    const buckets = text
      .split('\n')
      .filter((l) => l.startsWith('bando_http_request_duration_seconds_bucket{endpoint="direction"'))
      .map((l) => Number(l.split(' ')[1]));
    expect(buckets.length).toBe(15);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(value('bando_test_gauge')).toBe(7);
    // Every sample line is `name{labels} number` or `name number`, every family has HELP and TYPE.
    for (const line of text.trim().split('\n'))
      expect(line).toMatch(/^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[^}]*\})? -?[0-9.e+-]+)$/);
  });
});

describe('--log: one JSON line per request', () => {
  it('has status, endpoint, time and the key name, never the query string or the whole key', async () => {
    let written = '';
    const log = createRequestLog((t) => (written += t));
    const events: RequestEvent[] = [];
    const { get } = setup({ observe: (e) => (events.push(e), log.observe(e)) });
    const paths = [
      `/Direction?${ROUTE}&api_key=k`,
      `/Geocode?address=H%C3%A0ng%20B%C3%A0i&api_key=big`,
      '/healthz',
      `/Direction?${ROUTE}&api_key=secret-not-a-key`,
    ];
    for (const p of paths) await get(p);
    log.flush();
    const lines = written
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.method, l.path, l.endpoint, l.status])).toEqual([
      ['GET', '/Direction', 'direction', 200],
      ['GET', '/Geocode', 'geocode', 200],
      ['GET', '/healthz', 'healthz', 200],
      ['GET', '/Direction', 'direction', 403],
    ]);
    // Keys as their stable hash, never a prefix (issue 39): FNV-1a 64 of "k" and "big", whose digits hold no k, i or g.
    expect(lines.map((l) => l.key)).toEqual([keyHash('k'), keyHash('big'), undefined, undefined]);
    expect(lines[0].key).toMatch(/^#[0-9a-f]{16}$/);
    for (const l of lines) {
      expect(l.remote).toBe('203.0.113.9');
      expect(Number.isFinite(Date.parse(l.time))).toBe(true);
      expect(l.ms).toBeGreaterThanOrEqual(0);
    }
    expect(lines.map((l) => l.bytes)).toEqual(events.map((e) => e.bytes));
    for (const secret of ['api_key', 'secret-not-a-key', 'H%C3%A0ng', 'Hàng', A]) expect(written).not.toContain(secret);
  });
});

describe('cost limit (--max-cost)', () => {
  const stops = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `${(21.0 + (i % 20) * 0.002).toFixed(4)},${(105.81 + Math.floor(i / 20) * 0.003).toFixed(4)}`,
    ).join(';');
  it('refuses calls over the limit before any work, naming the parameter, uncounted; calls under it are answered', async () => {
    const { get, counted } = setup({ maxCost: 200 });
    const trip = await get(`/trip?waypoints=${stops(150)}&api_key=big`);
    expect(trip.status).toBe(400);
    expect(JSON.parse(trip.text)).toMatchObject({ code: 'BAD_REQUEST', osrm_code: 'TooBig' });
    expect(JSON.parse(trip.text).message).toMatch(/^waypoints makes this request too costly/);
    // A matrix within the URL length is cheap (100 × 100 ≈ 14 units): a lower limit for it.
    const strict = setup({ maxCost: 10 });
    const matrix = await strict.get(
      `/DistanceMatrix?origins=${stops(100).replaceAll(';', '|')}&destinations=${stops(100).replaceAll(';', '|')}&api_key=big`,
    );
    expect(strict.counted()).toBe(0);
    expect(matrix.status).toBe(400);
    expect(JSON.parse(matrix.text)).toMatchObject({ status: 'BAD_REQUEST' });
    expect(JSON.parse(matrix.text).error_message).toMatch(/^origins makes this request too costly/);
    const map = await get(`/staticmap/route?origin=${A}&destination=${B}&width=2048&height=2048&api_key=big`);
    expect(map.status).toBe(400);
    expect(JSON.parse(map.text).error_message).toMatch(/^width makes this request too costly/);
    expect(counted()).toBe(0);
    // Under the limit: the engine's own answers, counted.
    expect((await get(`/trip?waypoints=${stops(5)}&api_key=big`)).text).toBe(
      JSON.stringify(await engine.trip!({ waypoints: stops(5) })),
    );
    expect((await get(`/Direction?${ROUTE}&api_key=big`)).status).toBe(200);
    expect(counted()).toBe(2);
  });
});
