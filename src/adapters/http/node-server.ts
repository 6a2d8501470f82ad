import {
  createServer as createHttpServer,
  maxHeaderSize,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { setMaxListeners } from 'node:events';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { defaultMaxConnections, guardConnections } from './connections.js';
import type { RestHandler, RestRequest } from './handler.js';
import { requestUrl } from './request-target.js';
import { errorReply, type Reply } from './responses.js';

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
  /** Longest time a client may take to send a request's headers, in milliseconds. Default 20,000 (at most requestTimeoutMs). */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open after an answer, in milliseconds. Default 5,000. */
  keepAliveTimeoutMs?: number;
  /**
   * Most connections open at once; past three quarters of it, idle connections are closed for new ones (see
   * connections.ts). Default half the process's open-file limit, 16–8,192 (1,024 where the limit is unknown).
   */
  maxConnections?: number;
  /** The handler's longest URL (characters), named in the 414 of a request line too long to parse. Default 8192. */
  maxUrlLength?: number;
  /**
   * Bytes of answers node holds for one connection (answers of pipelined requests wait for the ones before them)
   * before it stops reading that connection's further requests, and bytes of requests it reads ahead. While it does
   * not read, it cannot see the client close the connection either, so a client that pipelined heavy calls and many
   * more requests past its limits, then disconnected, would keep its heavy calls running until their answers were
   * written: with 128 KiB node reads on past about 290 refusals (450 bytes each) and sees the close at once. Memory
   * per connection is bounded by twice this. Default {@link PIPELINE_BUFFER_BYTES}.
   */
  highWaterMark?: number;
  /** Where connection trouble (accept errors) is reported. Default standard error. */
  report?: (message: string) => void;
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
 * Serves a REST handler (`createRestHandler`) over node:http or node:https. Each request is answered on its own: the
 * handler never throws, and a failure while reading or writing affects only that request. The request URL's scheme
 * is the connection's (https only over TLS), and the peer address goes to the handler as `remoteAddress` (for
 * `allowHttp` and `trustProxy` lists), with the connection and a signal aborted when it closes (the client has gone:
 * its waiting calls are dropped, a running heavy call abandoned; see `createRestHandler`). No fetch `Request`/`Response` objects are built on this path.
 */
export async function startNodeServer(handler: RestHandler, opts: NodeServerOptions = {}): Promise<RunningServer> {
  let closing = false;
  let inFlight = 0;
  let drained: (() => void) | null = null;

  /**
   * One signal per connection, aborted when its socket closes. Pipelined requests of one connection all reach the
   * handler as soon as node parses them (node queues their answers in order), so the socket's close is the one
   * moment at which every request of a client that has gone can learn it; one listener per socket, not per request.
   */
  const gone = new WeakMap<Socket, AbortSignal>();
  const signalOf = (socket: Socket): AbortSignal => {
    let signal = gone.get(socket);
    if (!signal) {
      const controller = new AbortController();
      signal = controller.signal;
      // Each heavy call of the connection listens (at most maxHeavyPerConnection of them): no leak to warn about.
      setMaxListeners(0, signal);
      gone.set(socket, signal);
      socket.once('close', () => controller.abort());
    }
    return signal;
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    inFlight++;
    let reply: Reply | Promise<Reply>;
    try {
      const request = closing ? null : toRestRequest(req, tls);
      reply = !request
        ? errorReply('shuttingDown', {})
        : 'error' in request
          ? errorReply('badRequest', { reason: request.error })
          : handler(request, {
              remoteAddress: req.socket.remoteAddress,
              connection: req.socket,
              signal: signalOf(req.socket),
            });
    } catch (err) {
      reply = errorReply('internal', { reason: (err as Error).message });
    }
    if (reply instanceof Promise)
      reply.then(
        (r) => finish(res, r),
        (err: Error) => finish(res, errorReply('internal', { reason: err.message })),
      );
    else finish(res, reply);
  };

  function finish(res: ServerResponse, reply: Reply): void {
    try {
      // A string body is encoded here once: measuring it (Buffer.byteLength) and writing it (the socket encodes it)
      // walked the whole of it twice, the first walk also flattening the pieces JSON.stringify built it from. A 100 ×
      // 100 matrix's megabyte of Vietnamese JSON over loopback: 70–75 ms before, 50 ms so (bench/osrm-services.ts).
      const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
      res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.byteLength) });
      res.end(body);
    } catch {
      // Only this request is affected; the socket may already be gone.
      res.destroy();
    }
    if (--inFlight === 0 && drained) drained();
  }

  const tls = !!opts.tls;
  const maxUrlLength = opts.maxUrlLength ?? 8192;
  const highWaterMark = opts.highWaterMark ?? PIPELINE_BUFFER_BYTES;
  const server: Server = opts.tls
    ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key, highWaterMark }, listener)
    : createHttpServer({ highWaterMark }, listener);
  server.requestTimeout = opts.requestTimeoutMs ?? 30_000;
  server.headersTimeout = Math.min(server.requestTimeout, opts.headersTimeoutMs ?? 20_000);
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 5_000;
  guardConnections(
    server,
    opts.maxConnections ?? defaultMaxConnections(),
    opts.report ?? ((m) => process.stderr.write(`${m}\n`)),
  );
  // A client error (malformed request line, oversized headers) is answered with its JSON body and closes that
  // socket only.
  server.on('clientError', (err: ClientError, socket) => {
    if (socket.writable) socket.end(rawReply(clientErrorReply(err, maxHeaderSize, maxUrlLength)));
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

/** Default of `highWaterMark`: 128 KiB (node's own is 16 KiB). */
const PIPELINE_BUFFER_BYTES = 128 * 1024;

/** What node's `clientError` event gives: the parser's error code and the bytes it was reading. */
type ClientError = Error & { code?: string; rawPacket?: Buffer };

/** The start of a request line: a method token and a space. */
const REQUEST_LINE_START = /^[A-Z]{1,20} /;

/**
 * The answer to a request node's parser refused. Request line and headers together over `maxHeaderSize` bytes are
 * one error for node (HPE_HEADER_OVERFLOW): when the request line itself is the long part (it has not ended in the
 * bytes read, or is longer than `maxUrlLength`), the answer is 414 as for any long URL, else 431. Anything else is
 * 400 naming the parser's error.
 */
function clientErrorReply(err: ClientError, maxHeaderSize: number, maxUrlLength: number): Reply {
  if (err.code !== 'HPE_HEADER_OVERFLOW')
    return errorReply('badRequest', { reason: `The request cannot be read (${err.code ?? err.message}).` });
  const packet = err.rawPacket ?? Buffer.alloc(0);
  const head = packet.subarray(0, Math.min(packet.length, maxUrlLength + 64)).toString('latin1');
  if (REQUEST_LINE_START.test(head)) {
    const end = head.indexOf('\n');
    if (end < 0 || end > maxUrlLength) return errorReply('urlTooLong', { max: maxUrlLength });
  }
  return errorReply('headersTooLarge', { max: maxHeaderSize });
}

/** A reply as the bytes of an HTTP/1.1 response that closes the connection (for sockets node's parser gave up on). */
function rawReply(reply: Reply): string {
  const body = typeof reply.body === 'string' ? reply.body : '';
  const headers = { ...reply.headers, connection: 'close', 'content-length': String(Buffer.byteLength(body)) };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Headers of which node's `req.headers` keeps the first value only (node:_http_incoming matchKnownFields). */
const SINGLE = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/**
 * The REST view of a node request, or why it is a bad request: the URL from the request-target and the Host header
 * as RFC 9112 says (`requestUrl`), with the connection's scheme; headers looked up in `rawHeaders` (node builds
 * `req.headers` lazily; a REST request reads two or three headers, so the object is never made). Repeated headers
 * are combined as `req.headers` combines them: the first value of the headers node keeps once, `; ` for cookie,
 * `, ` otherwise.
 */
function toRestRequest(req: IncomingMessage, tls: boolean): RestRequest | { error: string } {
  const raw = req.rawHeaders;
  const header = (name: string): string | null => {
    let v: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i]!.length !== name.length || raw[i]!.toLowerCase() !== name) continue;
      if (SINGLE.has(name)) return raw[i + 1]!;
      v = v === null ? raw[i + 1]! : `${v}${name === 'cookie' ? '; ' : ', '}${raw[i + 1]!}`;
    }
    return v;
  };
  const hosts: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts.push(raw[i + 1]!);
  const url = requestUrl(tls ? 'https' : 'http', req.url ?? '', hosts, req.httpVersion);
  return typeof url === 'string' ? { method: req.method ?? 'GET', url, header } : url;
}
