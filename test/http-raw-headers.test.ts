import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestRequest } from '../src/adapters/http/handler.js';
import { startNodeServer, type RunningServer } from '../src/adapters/http/node-server.js';
import { json } from '../src/adapters/http/responses.js';

/** Header names a request may repeat, in several capitalisations; the reference is node's own `req.headers`. */
const NAMES = [
  'Host',
  'Origin',
  'Referer',
  'X-Forwarded-Proto',
  'Accept',
  'Accept-Encoding',
  'If-None-Match',
  'If-Modified-Since',
  'Cookie',
  'User-Agent',
];

let server: RunningServer;
let seen: Record<string, string | null> = {};

beforeAll(async () => {
  server = await startNodeServer(
    (req: RestRequest) => {
      seen = Object.fromEntries(NAMES.map((n) => [n.toLowerCase(), req.header(n.toLowerCase())]));
      seen.url = req.url;
      return json(200, {});
    },
    { port: 0 },
  );
});
afterAll(() => server.close());

/** Sends a raw request and resolves when the answer head arrives. */
function send(head: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
    socket.on('data', () => {
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

describe('node server request headers', () => {
  it('combines repeated headers exactly as node req.headers does', async () => {
    const http = await import('node:http');
    // The reference: node's own header object for the same bytes.
    let reference: Record<string, string | string[] | undefined> = {};
    const ref = http.createServer((req, res) => {
      reference = req.headers;
      res.end();
    });
    await new Promise<void>((r) => ref.listen(0, '127.0.0.1', r));
    const refPort = (ref.address() as { port: number }).port;
    const lines = [
      'GET /Direction?x=1 HTTP/1.1',
      'Host: a.example:81',
      'Origin: https://o1',
      'ORIGIN: https://o2',
      'Referer: https://r1/',
      'referer: https://r2/',
      'X-Forwarded-Proto: https',
      'x-forwarded-proto: http',
      'Cookie: a=1',
      'cookie: b=2',
      'Accept: x',
      'If-Modified-Since: d1',
      'if-modified-since: d2',
    ];
    await send(lines.join('\r\n'));
    await new Promise<void>((resolve, reject) => {
      const socket = connect(refPort, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
      socket.on('data', () => (socket.destroy(), resolve()));
      socket.on('error', reject);
    });
    ref.close();
    for (const n of NAMES) {
      const v = reference[n.toLowerCase()];
      expect(seen[n.toLowerCase()], n).toBe(v === undefined ? null : Array.isArray(v) ? v.join(', ') : v);
    }
    expect(seen.url).toBe('http://a.example:81/Direction?x=1');
  });

  it('uses localhost when there is no Host header (HTTP/1.0)', async () => {
    await send('GET /Direction HTTP/1.0');
    expect(seen.url).toBe('http://localhost/Direction');
    expect(seen.host).toBeNull();
  });
});
