import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createFetchHandler, type FetchHandlerOptions, type ResourceRoute } from '../src/adapters/http/handler.js';
import type { ApiKey } from '../src/adapters/http/keys.js';
import type { EngineApi } from '../src/adapters/http/routes.js';
import { MemoryUsageStore } from '../src/adapters/http/usage.js';

/** Hanoi points inside the default pack. */
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
const C = '21.0277,105.8355';
const ROUTE = `origin=${A}&destination=${B}`;

const KEYS: ApiKey[] = [
  { key: 'open' },
  { key: 'tiles', kind: 'tiles' },
  { key: 'restricted', restrictions: ['https://*.example.com/*', '*://localhost:*/app/*'] },
  { key: 'small', monthlyQuota: 3 },
  { key: 'fast', perSecond: 2 },
  { key: 'one', monthlyQuota: 1 },
];

const engine: EngineApi = await createEngine();

function handler(opts: FetchHandlerOptions = {}) {
  return createFetchHandler(engine, { keys: KEYS, ...opts });
}
async function get(
  h: ReturnType<typeof handler>,
  path: string,
  init: RequestInit & { remoteAddress?: string; base?: string } = {},
) {
  const res = await h(new Request(`${init.base ?? 'https://bando.test'}${path}`, init), {
    remoteAddress: init.remoteAddress,
  });
  const type = res.headers.get('content-type') ?? '';
  const body = type.startsWith('application/json') ? await res.json() : new Uint8Array(await res.arrayBuffer());
  return { status: res.status, type, body: body as Record<string, unknown> & Uint8Array };
}
/** The engine's own answer, through JSON as the handler sends it. */
async function direct(method: keyof EngineApi, params: Record<string, string>) {
  return JSON.parse(JSON.stringify(await engine[method]!(params)));
}

describe('Errors: HTTP status codes and error bodies (uses direction)', () => {
  it('403 API_KEY_MISSING and API_KEY_INVALID', async () => {
    const h = handler();
    expect(await get(h, `/Direction?${ROUTE}`)).toMatchObject({ status: 403, body: { status: 'API_KEY_MISSING' } });
    expect(await get(h, `/Direction?${ROUTE}&api_key=`)).toMatchObject({
      status: 403,
      body: { status: 'API_KEY_MISSING' },
    });
    const bad = await get(h, `/Direction?${ROUTE}&api_key=nope`);
    expect(bad.status).toBe(403);
    expect(Object.keys(bad.body).sort()).toEqual(['error_message', 'status']);
    expect(bad.body.status).toBe('API_KEY_INVALID');
    expect(typeof bad.body.error_message).toBe('string');
  });

  it('403 API_KEY_UNAUTHORIZED for a tiles key on every REST endpoint', async () => {
    const h = handler();
    for (const path of [
      '/Geocode',
      '/Direction',
      '/DistanceMatrix',
      '/Place/AutoComplete',
      '/Place/Detail',
      '/trip',
      '/staticmap/route',
    ])
      expect(await get(h, `${path}?${ROUTE}&api_key=tiles`)).toMatchObject({
        status: 403,
        body: { status: 'API_KEY_UNAUTHORIZED' },
      });
  });

  it('403 API_KEY_UNAUTHORIZED when Origin/Referer miss the URL restrictions; wildcards match', async () => {
    const h = handler();
    const q = `/Direction?${ROUTE}&api_key=restricted`;
    const ok = (headers: Record<string, string>) => get(h, q, { headers }).then((r) => r.status);
    expect(await ok({ origin: 'https://app.example.com' })).toBe(200);
    expect(await ok({ origin: 'https://a.b.example.com' })).toBe(200);
    expect(await ok({ referer: 'https://www.example.com/page?x=1' })).toBe(200);
    expect(await ok({ referer: 'http://localhost:5173/app/index.html' })).toBe(200);
    expect(await ok({ origin: 'https://example.com' })).toBe(403);
    expect(await ok({ origin: 'http://app.example.com' })).toBe(403);
    expect(await ok({ origin: 'https://evil.com', referer: 'https://app.example.com/' })).toBe(403);
    expect(await ok({ referer: 'https://evil.com/app.example.com/' })).toBe(403);
    expect(await ok({ referer: 'http://localhost:5173/other/' })).toBe(403);
    const none = await get(h, q);
    expect(none).toMatchObject({ status: 403, body: { status: 'API_KEY_UNAUTHORIZED' } });
    // A key without restrictions works from any origin.
    expect((await get(h, `/Direction?${ROUTE}&api_key=open`, { headers: { origin: 'https://evil.com' } })).status).toBe(
      200,
    );
  });

  it('400 HTTPS_REQUIRED for plain HTTP; trusted proxy and loopback development switch', async () => {
    const q = `/Direction?${ROUTE}&api_key=open`;
    const http = { base: 'http://bando.test' };
    expect(await get(handler(), q, http)).toEqual({
      status: 400,
      type: expect.any(String),
      body: { status: 'HTTPS_REQUIRED', error_message: expect.any(String) },
    });
    // The header alone is not trusted.
    expect((await get(handler(), q, { ...http, headers: { 'x-forwarded-proto': 'https' } })).status).toBe(400);
    expect(
      (await get(handler({ trustProxy: true }), q, { ...http, headers: { 'x-forwarded-proto': 'https' } })).status,
    ).toBe(200);
    expect(
      (await get(handler({ trustProxy: true }), q, { ...http, headers: { 'x-forwarded-proto': 'http' } })).status,
    ).toBe(400);
    expect(
      (
        await get(handler({ trustProxy: ['10.0.0.1'] }), q, {
          ...http,
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-proto': 'https' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await get(handler({ trustProxy: ['10.0.0.1'] }), q, {
          ...http,
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-proto': 'https' },
        })
      ).status,
    ).toBe(200);
    expect((await get(handler({ allowHttp: true }), q, { ...http, remoteAddress: '127.0.0.1' })).status).toBe(200);
    expect((await get(handler({ allowHttp: true }), q, { ...http, remoteAddress: '::1' })).status).toBe(200);
    expect((await get(handler({ allowHttp: true }), q, { ...http, remoteAddress: '192.168.1.20' })).status).toBe(400);
    // Without the transport's peer address the switch cannot apply (a Host header proves nothing).
    expect((await get(handler({ allowHttp: true }), q, { base: 'http://localhost' })).status).toBe(400);
  });

  it('405 for methods other than GET, 404 for unknown paths, 414 for long URLs', async () => {
    const h = handler();
    const post = await get(h, `/Direction?${ROUTE}&api_key=open`, { method: 'POST' });
    expect(post).toMatchObject({ status: 405, body: { status: 'METHOD_NOT_ALLOWED' } });
    expect(await get(h, `/Nope?api_key=open`)).toMatchObject({ status: 404, body: { status: 'NOT_FOUND' } });
    expect(await get(h, `/DIRECTION?${ROUTE}&api_key=open`)).toMatchObject({ status: 404 });
    const long = await get(h, `/Direction?${ROUTE}&api_key=open&pad=${'x'.repeat(9000)}`);
    expect(long).toMatchObject({ status: 414, body: { status: 'URI_TOO_LONG' } });
    expect(
      (await get(handler({ maxUrlLength: 100_000 }), `/Direction?${ROUTE}&api_key=open&pad=${'x'.repeat(9000)}`))
        .status,
    ).toBe(200);
  });

  it('BAD_REQUEST bodies from the engine come with HTTP 400 and the engine body unchanged', async () => {
    const h = handler();
    const r = await get(h, `/Direction?origin=x&destination=${B}&api_key=open`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(await direct('direction', { origin: 'x', destination: B }));
    expect(r.body.status).toBe('BAD_REQUEST');
  });
});

describe('Limits: quota and rate (uses direction)', () => {
  it('monthly quota exhaustion gives 429 OVER_RATE_LIMIT until the next month', async () => {
    let now = Date.UTC(2025, 4, 31, 23, 59, 0);
    const usage = new MemoryUsageStore();
    const h = handler({ now: () => now, usage });
    const q = `/Direction?${ROUTE}&api_key=small`;
    for (let i = 0; i < 3; i++) expect((await get(h, q)).status).toBe(200);
    const over = await get(h, q);
    expect(over).toMatchObject({ status: 429, body: { status: 'OVER_RATE_LIMIT' } });
    expect(Object.keys(over.body).sort()).toEqual(['error_message', 'status']);
    // Refused requests are not counted.
    expect(usage.report().small!['2025-05']).toEqual({ requests: { direction: 3 }, sessions: 0, billable: 3 });
    now = Date.UTC(2025, 5, 1, 0, 0, 1);
    expect((await get(h, q)).status).toBe(200);
    expect(usage.billable('small', '2025-06')).toBe(1);
  });

  it('the default quota is 30,000 per month', async () => {
    const now = Date.UTC(2025, 0, 10);
    const usage = new MemoryUsageStore({
      open: { '2025-01': { requests: { direction: 29_999 }, sessions: 0, billable: 29_999 } },
    });
    const h = handler({ now: () => now, usage });
    expect((await get(h, `/Direction?${ROUTE}&api_key=open`)).status).toBe(200);
    expect((await get(h, `/Direction?${ROUTE}&api_key=open`)).status).toBe(429);
  });

  it('per-second rate gives 429 OVER_RATE_LIMIT within the second, not after', async () => {
    let now = 1_000_000;
    const h = handler({ now: () => now });
    const q = `/Direction?${ROUTE}&api_key=fast`;
    expect((await get(h, q)).status).toBe(200);
    now += 300;
    expect((await get(h, q)).status).toBe(200);
    now += 300;
    expect(await get(h, q)).toMatchObject({ status: 429, body: { status: 'OVER_RATE_LIMIT' } });
    now += 500; // 1100 ms after the first request
    expect((await get(h, q)).status).toBe(200);
    // Other keys are not affected.
    expect((await get(h, `/Direction?${ROUTE}&api_key=open`)).status).toBe(200);
  });
});

describe('answers through the handler equal the engine answers', () => {
  const strip = (v: Record<string, unknown>) => {
    const { executed_time, executed_time_all, ...rest } = v;
    void executed_time;
    void executed_time_all;
    return rest;
  };
  it('direction, documented and lowercase paths', async () => {
    const h = handler();
    const want = await direct('direction', { origin: A, destination: B });
    expect(want.status).toBe('OK');
    for (const p of ['/Direction', '/direction'])
      expect(await get(h, `${p}?${ROUTE}&api_key=open`)).toMatchObject({ status: 200, body: want });
  });

  it('distance matrix, documented and lowercase paths', async () => {
    const h = handler();
    const m = await direct('distanceMatrix', { origins: A, destinations: `${B}|${C}` });
    for (const p of ['/DistanceMatrix', '/distancematrix'])
      expect(
        (await get(h, `${p}?origins=${A}&destinations=${encodeURIComponent(`${B}|${C}`)}&api_key=open`)).body,
      ).toEqual(m);
  });

  it('geocode (any capitalisation), autocomplete, place detail with the placeid alias', async () => {
    const h = handler();
    const g = await direct('geocode', { address: 'Hàng Bài, Hoàn Kiếm' });
    for (const p of ['/Geocode', '/geocode', '/GEOCODE', '/gEoCoDe'])
      expect((await get(h, `${p}?address=${encodeURIComponent('Hàng Bài, Hoàn Kiếm')}&api_key=open`)).body).toEqual(g);
    const ac = await direct('autocomplete', { input: 'Hoàn Kiếm' });
    const got = await get(h, `/place/autocomplete?input=${encodeURIComponent('Hoàn Kiếm')}&api_key=open`);
    expect(strip(got.body)).toEqual(strip(ac));
    const id = ac.predictions[0].place_id as string;
    const detail = await direct('placeDetail', { place_id: id });
    expect(detail.status).toBe('OK');
    expect((await get(h, `/Place/Detail?place_id=${encodeURIComponent(id)}&api_key=open`)).body).toEqual(detail);
    expect((await get(h, `/place/detail?placeid=${encodeURIComponent(id)}&api_key=open`)).body).toEqual(detail);
  });

  it("trip: Ok with 200; failures in the seed words with the other endpoints' HTTP statuses, OSRM code beside", async () => {
    const h = handler();
    const q = { waypoints: [A, B, C, '21.0310,105.8420'].join(';') };
    const want = await direct('trip', q);
    expect(want.code).toBe('Ok');
    expect(await get(h, `/trip?${new URLSearchParams({ ...q, api_key: 'open' })}`)).toMatchObject({
      status: 200,
      body: want,
    });
    const bad = await get(h, `/trip?waypoints=x&api_key=open`);
    expect(bad).toMatchObject({ status: 400, body: await direct('trip', { waypoints: 'x' }) });
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', osrm_code: 'InvalidQuery' });
    const outside = await get(h, `/trip?waypoints=${A};10.5,106.7&api_key=open`);
    expect(outside).toMatchObject({ status: 200, body: { code: 'NOT_FOUND', osrm_code: 'NoSegment' } });
    const geocodeMiss = await get(h, `/Direction?origin=${A}&destination=10.5,106.7&api_key=open`);
    expect(geocodeMiss).toMatchObject({ status: outside.status, body: { status: 'NOT_FOUND' } });
  });

  it('static route: the engine PNG as image/png; bad input as a 400 JSON body', async () => {
    const h = handler();
    const want = (await engine.staticRoute!({ origin: A, destination: B, width: '320', height: '240' })) as Uint8Array;
    const r = await get(h, `/staticmap/route?${ROUTE}&width=320&height=240&api_key=open`);
    expect(r.status).toBe(200);
    expect(r.type).toBe('image/png');
    expect(Buffer.from(r.body).equals(Buffer.from(want))).toBe(true);
    const bad = await get(h, `/staticmap/route?origin=x&destination=${B}&api_key=open`);
    expect(bad).toMatchObject({ status: 400, body: await direct('staticRoute', { origin: 'x', destination: B }) });
  });

  it('NOT_FOUND bodies from the engine come with HTTP 200', async () => {
    const r = await get(handler(), `/Direction?origin=${A}&destination=10.7769,106.7009&api_key=open`);
    expect(r).toMatchObject({
      status: 200,
      body: await direct('direction', { origin: A, destination: '10.7769,106.7009' }),
    });
    expect(r.body.status).toBe('NOT_FOUND');
  });

  it('an endpoint the engine lacks answers 404 after the key checks, uncounted', async () => {
    const partial: EngineApi = { direction: engine.direction!.bind(engine) };
    const usage = new MemoryUsageStore();
    const h = createFetchHandler(partial, { keys: KEYS, usage });
    expect((await get(h, `/trip?waypoints=${A}&api_key=nope`)).status).toBe(403);
    const r = await get(h, `/trip?waypoints=${A}&api_key=open`);
    expect(r).toMatchObject({ status: 404, body: { status: 'NOT_FOUND' } });
    expect(String(r.body.error_message)).toMatch(/trip/);
    expect(usage.report()).toEqual({});
  });
});

describe('autocomplete sessions (billing definitions)', () => {
  it('autocomplete requests plus one place detail with a token count as one session and one billable unit', async () => {
    const usage = new MemoryUsageStore();
    const now = Date.UTC(2025, 2, 3);
    const h = handler({ usage, now: () => now });
    const ac = (input: string, token?: string) =>
      get(
        h,
        `/Place/AutoComplete?input=${encodeURIComponent(input)}${token ? `&sessiontoken=${token}` : ''}&api_key=open`,
      );
    for (const input of ['Ho', 'Hoàn', 'Hoàn Kiếm']) expect((await ac(input, 'S1')).status).toBe(200);
    const id = (await ac('Hoàn Kiếm', 'S1')).body.predictions as unknown as { place_id: string }[];
    expect(
      (await get(h, `/Place/Detail?place_id=${encodeURIComponent(id[0]!.place_id)}&sessiontoken=S1&api_key=open`))
        .status,
    ).toBe(200);
    expect(usage.report().open!['2025-03']).toEqual({
      requests: { autocomplete: 4, placeDetail: 1 },
      sessions: 1,
      billable: 1,
    });
    // Reusing the token after the session bills each request; no token bills each request.
    await ac('Hoàn', 'S1');
    await ac('Hoàn');
    expect(usage.report().open!['2025-03']).toEqual({
      requests: { autocomplete: 6, placeDetail: 1 },
      sessions: 1,
      billable: 3,
    });
  });

  it('once the quota is used, an open session is refused like any other request (issue 39)', async () => {
    const h = handler();
    const ac = (token: string) =>
      get(h, `/Place/AutoComplete?input=Ho&sessiontoken=${token}&api_key=one`).then((r) => r.status);
    expect(await ac('T1')).toBe(200);
    expect(await ac('T1')).toBe(429);
    expect(await ac('T2')).toBe(429);
  });
});

describe('extension point for web-map resources (tiles keys)', () => {
  const style: ResourceRoute = {
    name: 'style',
    mapLoad: true,
    match: (p) => p === '/styles/default/style.json',
    handle: () =>
      new Response(JSON.stringify({ version: 8, sources: {}, layers: [] }), {
        headers: { 'content-type': 'application/json' },
      }),
  };
  const tile: ResourceRoute = {
    name: 'tiles',
    mapLoad: false,
    match: (p) => /^\/tiles\/\d+\/\d+\/\d+\.pbf$/.test(p),
    handle: () => new Response(new Uint8Array(3)),
  };

  it('tiles keys load resources and count map loads; rest keys are unauthorised', async () => {
    const usage = new MemoryUsageStore();
    const now = Date.UTC(2025, 6, 1);
    const h = handler({ usage, resources: [style, tile], now: () => now });
    expect((await get(h, '/styles/default/style.json?api_key=tiles')).body).toEqual({
      version: 8,
      sources: {},
      layers: [],
    });
    for (let i = 0; i < 5; i++) expect((await get(h, `/tiles/14/${i}/7.pbf?api_key=tiles`)).status).toBe(200);
    expect(await get(h, '/styles/default/style.json?api_key=open')).toMatchObject({
      status: 403,
      body: { status: 'API_KEY_UNAUTHORIZED' },
    });
    expect(usage.report().tiles!['2025-07']).toEqual({ requests: { style: 1, tiles: 5 }, sessions: 0, billable: 1 });
  });

  it('a failing or hanging route answers 500 / 504 for that request only', async () => {
    const broken: ResourceRoute = {
      name: 'broken',
      mapLoad: false,
      match: (p) => p === '/broken',
      handle: () => {
        throw new Error('boom');
      },
    };
    const hang: ResourceRoute = {
      name: 'hang',
      mapLoad: false,
      match: (p) => p === '/hang',
      handle: () => new Promise<Response>(() => {}),
    };
    const h = handler({ resources: [broken, hang], timeoutMs: 50 });
    const [a, b, c] = await Promise.all([
      get(h, '/broken?api_key=tiles'),
      get(h, '/hang?api_key=tiles'),
      get(h, `/Direction?${ROUTE}&api_key=open`),
    ]);
    expect(a).toMatchObject({ status: 500, body: { status: 'ERROR' } });
    expect(String(a.body.error_message)).toMatch(/boom/);
    expect(b).toMatchObject({ status: 504, body: { status: 'ERROR' } });
    expect(c.status).toBe(200);
  });
});
