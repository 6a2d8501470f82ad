import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, createRestHandler } from '../src/adapters/http/handler.js';
import { matchesRestrictions, parsePattern } from '../src/adapters/http/keys.js';
import { startNodeServer, type RunningServer } from '../src/adapters/http/node-server.js';
import { MemoryUsageStore } from '../src/adapters/http/usage.js';
import { createEngine } from '../src/engine.js';

// Issue 39 item 8 (HTTP): 431 with a JSON body, 414 at any size, HEAD and OPTIONS on every route, IDN restriction
// patterns in punycode, `localhost:*` with the default port.

const engine = await createEngine();
const ROUTE = 'origin=21.0285,105.8522&destination=21.0243,105.8575';
const usage = new MemoryUsageStore();
let server: RunningServer;
let port = 0;
beforeAll(async () => {
  const handler = createRestHandler(engine, { keys: [{ key: 'k' }], allowHttp: true, usage });
  server = await startNodeServer(handler, { port: 0 });
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

/** Sends raw bytes and reads the whole answer until the server closes: status, headers, body. */
function raw(text: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const end = got.indexOf('\r\n\r\n');
      resolve({ status: Number(got.slice(9, 12)), headers: got.slice(0, end), body: got.slice(end + 4) });
    });
    socket.end(text);
  });
}

describe('oversized requests', () => {
  it('headers over the limit get 431 with a JSON body; a request line over it gets 414 at any size', async () => {
    const big = await raw(
      `GET /Direction?${ROUTE}&api_key=k HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17_000)}\r\n\r\n`,
    );
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body)).toMatchObject({ status: 'HEADERS_TOO_LARGE' });
    expect(big.headers).toMatch(/content-type: application\/json/);
    for (const size of [9_000, 17_000, 100_000]) {
      const long = await raw(
        `GET /Direction?${ROUTE}&api_key=k&x=${'a'.repeat(size)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect([size, long.status]).toEqual([size, 414]);
      expect(JSON.parse(long.body)).toMatchObject({ status: 'URI_TOO_LONG' });
    }
    const garbage = await raw('GARBAGE\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ status: 'BAD_REQUEST' });
  });
});

describe('HEAD and OPTIONS on every route', () => {
  it('HEAD answers as GET without the body; OPTIONS is a CORS preflight; other methods 405 naming all three', async () => {
    const get = await fetch(`${server.url}/Direction?${ROUTE}&api_key=k`);
    const getBody = await get.arrayBuffer();
    const head = await raw(`HEAD /Direction?${ROUTE}&api_key=k HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers).toContain(`content-length: ${getBody.byteLength}`);
    for (const path of [
      `/Direction?${ROUTE}&api_key=k`,
      '/healthz',
      '/tiles/1/1/1.pbf?key=t',
      '/styles/default/style.json',
    ]) {
      const pre = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-client',
        },
      });
      expect([path, pre.status]).toEqual([path, 204]);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(pre.headers.get('access-control-allow-headers')).toBe('x-client');
    }
    expect((await fetch(`${server.url}/Nope`, { method: 'OPTIONS' })).status).toBe(404);
    const put = await fetch(`${server.url}/Direction?${ROUTE}&api_key=k`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    // HEAD is counted as the GET it stands for; a preflight is not counted.
    const period = Object.values(usage.report().k!)[0]!;
    expect(period.requests).toEqual({ direction: 2 });
  });

  it('the fetch handler answers a preflight too (a 204 without a body)', async () => {
    const h = createFetchHandler(engine, { keys: [{ key: 'k' }] });
    const r = await h(new Request(`https://maps.test/Direction?${ROUTE}&api_key=k`, { method: 'OPTIONS' }));
    expect(r.status).toBe(204);
    expect(r.body).toBeNull();
  });
});

describe('URL restrictions', () => {
  const m = (patterns: string[], url: string) => matchesRestrictions(patterns.map(parsePattern), url);
  it('IDN patterns are compared in punycode, as browsers send Origin and Referer', () => {
    expect(m(['https://*.bücher.de/*'], 'https://www.xn--bcher-kva.de')).toBe(true);
    expect(m(['bücher.de'], 'https://xn--bcher-kva.de/x')).toBe(true);
    expect(m(['https://bücher.de:*'], 'https://xn--bcher-kva.de:8443/')).toBe(true);
    expect(m(['https://*.bücher.de/*'], 'https://www.bucher.de')).toBe(false);
    expect(m(['https://*.hànội.vn/*'], 'https://a.xn--hni-9ka0849a.vn/')).toBe(true);
    expect(m(['https://*.hànội.vn/*'], 'https://a.hànội.vn/')).toBe(true); // a Referer typed in Unicode
  });
  it('localhost:* matches the default port; a pattern without a port still matches only the default port', () => {
    expect(m(['localhost:*'], 'http://localhost/')).toBe(true);
    expect(m(['localhost:*'], 'https://localhost')).toBe(true);
    expect(m(['http://localhost:80/*'], 'http://localhost/')).toBe(true);
    expect(m(['https://example.com:443'], 'https://example.com/')).toBe(true);
    expect(m(['localhost'], 'http://localhost:3000/')).toBe(false);
    expect(m(['localhost:8080'], 'http://localhost/')).toBe(false);
  });
});
