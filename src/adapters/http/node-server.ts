import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FetchHandler } from './handler.js';
import { errorResponse } from './responses.js';

/** Options of {@link startNodeServer}. */
export interface NodeServerOptions {
  /** TCP port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1 (loopback only). */
  host?: string;
  /** PEM certificate and private key: serve HTTPS (node:https) instead of HTTP. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Longest time a client may take to send a whole request, in milliseconds. Default 30,000. */
  requestTimeoutMs?: number;
  /** Longest wait for in-flight requests on shutdown before connections are cut, in milliseconds. Default 10,000. */
  shutdownGraceMs?: number;
}

/** A running server. */
export interface RunningServer {
  server: Server;
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** Stops accepting requests, answers requests that arrive meanwhile with 503, waits for in-flight ones. */
  close(): Promise<void>;
}

/**
 * Serves a fetch handler over node:http or node:https. Each request is converted to a `Request` and answered on its
 * own: the handler never rejects, and a failure while converting or writing affects only that request. The peer
 * address goes to the handler as `remoteAddress` (for `allowHttp` and `trustProxy` lists).
 */
export async function startNodeServer(handler: FetchHandler, opts: NodeServerOptions = {}): Promise<RunningServer> {
  let closing = false;
  let inFlight = 0;
  let drained: (() => void) | null = null;

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    inFlight++;
    answer(req, res).finally(() => {
      if (--inFlight === 0 && drained) drained();
    });
  };

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      let response: Response;
      if (closing) {
        response = errorResponse(503, 'ERROR', 'The server is shutting down.', { connection: 'close', 'retry-after': '1' });
      } else {
        const request = toRequest(req, tls);
        response = request instanceof Response ? request : await handler(request, { remoteAddress: req.socket.remoteAddress });
      }
      const body = new Uint8Array(await response.arrayBuffer());
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => (headers[k] = v));
      headers['content-length'] = String(body.byteLength);
      res.writeHead(response.status, headers);
      res.end(body);
    } catch (err) {
      // Only this request is affected; the socket may already be gone.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ status: 'ERROR', error_message: `Internal error: ${(err as Error).message}` }));
      } else res.destroy();
    }
  }

  const tls = !!opts.tls;
  const server: Server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) : createHttpServer(listener);
  server.requestTimeout = opts.requestTimeoutMs ?? 30_000;
  server.headersTimeout = Math.min(server.requestTimeout, 20_000);
  // A client error (malformed request line, oversized headers) closes that socket only.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8080, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `${tls ? 'https' : 'http'}://${host}:${addr.port}`;

  async function close(): Promise<void> {
    if (closing) return;
    closing = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (inFlight > 0) {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, opts.shutdownGraceMs ?? 10_000).unref());
      await Promise.race([new Promise<void>((resolve) => (drained = resolve)), grace]);
    }
    server.closeAllConnections();
    await stopped;
  }

  return { server, url, close };
}

/** The fetch `Request` of a node request, or the error answer when none can be made of it. */
function toRequest(req: IncomingMessage, tls: boolean): Request | Response {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `${tls ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`);
  } catch {
    return errorResponse(400, 'BAD_REQUEST', 'The request URL or Host header is malformed.');
  }
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value the fetch API refuses is dropped rather than failing the request.
    }
  }
  try {
    return new Request(url, { method: req.method, headers });
  } catch {
    // Methods the fetch API forbids (CONNECT, TRACE, TRACK).
    return errorResponse(405, 'METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed; use GET.`, { allow: 'GET' });
  }
}
