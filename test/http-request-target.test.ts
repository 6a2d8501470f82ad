/**
 * Routing by the request-target only (issue 18): the Host header is checked, never joined to the target unchecked;
 * absolute-form targets as RFC 9112 says; the same check in the fetch handler.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, createRestHandler } from '../src/adapters/http/handler.js';
import { startNodeServer, type RunningServer } from '../src/adapters/http/node-server.js';
import { isValidHost, requestUrl } from '../src/adapters/http/request-target.js';
import { createEngine } from '../src/engine.js';

const engine = await createEngine();
const GEOCODE = '/Geocode?latlng=21.0285,105.8542&api_key=k';

describe('Host syntax', () => {
  it('accepts host[:port] and nothing else', () => {
    for (const h of [
      'localhost',
      'a.example',
      'a.example:8080',
      '127.0.0.1',
      '127.0.0.1:1',
      '[::1]',
      '[::1]:443',
      'x_y.local',
      'h:',
    ])
      expect(isValidHost(h), h).toBe(true);
    for (const h of [
      '',
      ' ',
      'a b',
      'a/b',
      '127.0.0.1/Geocode?x#',
      'a?b',
      'a#b',
      'u@a',
      'a%41',
      'a\\b',
      'a:65536',
      'a:123456',
      'a:1x',
      '[]',
      '[::1',
      '[g::1]',
      'a\tb',
      'a\u0000',
      'é.vn',
      ':80',
    ])
      expect(isValidHost(h), JSON.stringify(h)).toBe(false);
  });

  it('never lets a valid Host change the path or query of the URL', () => {
    const host = fc
      .array(fc.constantFrom('a', '1', '.', ':', '[', ']', '/', '?', '#', '@', '%', '\\', ' ', '_', '-', 'f'), {
        maxLength: 10,
      })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(host, (h) => {
        if (!isValidHost(h)) return true;
        let url: URL;
        try {
          url = new URL(`http://${h}/p?q=1`);
        } catch {
          return true; // unparsable: the handler answers 400
        }
        return url.pathname === '/p' && url.search === '?q=1';
      }),
      { seed: 18, numRuns: 5000 },
    );
  });
});

describe('requestUrl (RFC 9112 §3.2-3.3)', () => {
  it('origin-form takes the authority from the one Host header', () => {
    expect(requestUrl('http', '/Geocode?x=1', ['a.example:81'], '1.1')).toBe('http://a.example:81/Geocode?x=1');
    expect(requestUrl('https', '/', ['a'], '1.1')).toBe('https://a/');
    expect(requestUrl('http', '/x', [], '1.0')).toBe('http://localhost/x');
    expect(requestUrl('http', '/x', [], '1.1')).toEqual({ error: expect.stringMatching(/no Host/) });
    expect(requestUrl('http', '/x', ['a', 'b'], '1.1')).toEqual({ error: expect.stringMatching(/more than one Host/) });
    expect(requestUrl('http', '/nothing', ['127.0.0.1/Geocode?latlng=1,2#'], '1.1')).toEqual({
      error: expect.stringMatching(/Host header/),
    });
  });

  it('absolute-form takes the authority from the target and ignores Host', () => {
    expect(requestUrl('http', 'http://a.example/Geocode?x=1', ['evil/'], '1.1')).toBe('http://a.example/Geocode?x=1');
    expect(requestUrl('http', 'HTTP://a.example', [], '1.1')).toBe('http://a.example/');
    expect(requestUrl('http', 'http://a.example?x=1', [], '1.1')).toBe('http://a.example/?x=1');
    expect(requestUrl('http', 'https://a.example/', [], '1.1')).toEqual({
      error: expect.stringMatching(/scheme https/),
    });
    expect(requestUrl('http', 'http://u@a.example/', [], '1.1')).toEqual({ error: expect.stringMatching(/authority/) });
    for (const t of ['*', 'a.example:443', 'Geocode', '', 'ftp://a/'])
      expect(requestUrl('http', t, ['a'], '1.1'), t).toEqual({ error: expect.stringMatching(/request-target/) });
  });
});

describe('bando serve routes by the request-target', () => {
  let server: RunningServer;
  let port: number;
  beforeAll(async () => {
    server = await startNodeServer(createRestHandler(engine, { keys: [{ key: 'k' }], allowHttp: true }), { port: 0 });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());

  /** Sends a raw request; resolves with the status code. */
  const status = (head: string) =>
    new Promise<number>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => s.write(`${head}\r\nConnection: close\r\n\r\n`));
      let got = '';
      s.on('data', (d) => (got += d));
      s.on('end', () => resolve(Number(got.split(' ')[1])));
      s.on('error', reject);
    });

  it('answers 400 to a Host that would rewrite the path (the reproduction of issue 18)', async () => {
    // Before: 200, answered as a Geocode call although the request line asked for /nothing.
    expect(await status(`GET /nothing HTTP/1.1\r\nHost: 127.0.0.1${GEOCODE}#`)).toBe(400);
    expect(await status(`GET /nothing HTTP/1.1\r\nHost: 127.0.0.1/tiles/0/0/0.pbf?`)).toBe(400);
    expect(await status(`GET /nothing HTTP/1.1\r\nHost: 127.0.0.1`)).toBe(404);
    expect(await status(`GET ${GEOCODE} HTTP/1.1\r\nHost: 127.0.0.1:${port}`)).toBe(200);
  });

  it('refuses missing, repeated and malformed Host headers, and foreign target forms', async () => {
    expect(await status(`GET ${GEOCODE} HTTP/1.1`)).toBe(400);
    expect(await status(`GET ${GEOCODE} HTTP/1.1\r\nHost: a\r\nHost: b`)).toBe(400);
    expect(await status(`GET ${GEOCODE} HTTP/1.1\r\nHost: k@127.0.0.1`)).toBe(400);
    expect(await status(`GET ${GEOCODE} HTTP/1.0`)).toBe(200);
    expect(await status(`GET https://127.0.0.1${GEOCODE} HTTP/1.1\r\nHost: 127.0.0.1`)).toBe(400);
  });

  it('serves an absolute-form target by its own authority', async () => {
    expect(await status(`GET http://127.0.0.1${GEOCODE} HTTP/1.1\r\nHost: whatever.example/nothing?`)).toBe(200);
    expect(await status(`GET http://127.0.0.1/nothing HTTP/1.1\r\nHost: 127.0.0.1`)).toBe(404);
  });
});

describe('fetch handler', () => {
  it('refuses a malformed Host header before routing', async () => {
    const handle = createFetchHandler(engine, { keys: [{ key: 'k' }] });
    const res = await handle(new Request(`https://127.0.0.1/nothing`, { headers: { host: `127.0.0.1${GEOCODE}#` } }));
    expect(res.status).toBe(400);
    expect((await res.json()).error_message).toMatch(/Host/);
    const ok = await handle(new Request(`https://127.0.0.1${GEOCODE}`, { headers: { host: '127.0.0.1' } }));
    expect(ok.status).toBe(200);
  });
});
