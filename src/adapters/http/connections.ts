/**
 * Connection caps of `bando serve` (issue 18 item 4): no client may exhaust the process's file descriptors, since a
 * descriptor-less process fails where no request handler can answer for it (the usage flush, a log, a pack read).
 *
 * - A hard cap on open connections (`maxConnections`): a connection past it is closed as soon as it is accepted.
 * - Idle connections give way: when open connections reach three quarters of the cap, a new connection first closes
 *   every connection that is not sending a request or waiting for its answer (keep-alive sockets between requests,
 *   sockets that connected and sent nothing). A flood of idle sockets therefore cannot shut out a client that sends
 *   its request, and connections with a request in progress are never cut for it. Half-sent requests (slowloris)
 *   are bounded by the header and request timeouts instead.
 * - An accept error (EMFILE, ENFILE: the process or system ran out of descriptors all the same, e.g. to another
 *   part of the process) is reported and answered by closing idle connections; the server keeps listening.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Connections when the descriptor limit cannot be read (not Linux). */
const FALLBACK_MAX_CONNECTIONS = 1024;
/** Upper bound of the default cap: beyond it, a bigger cap is a deliberate choice (`maxConnections`). */
const MAX_DEFAULT_CONNECTIONS = 8192;
/** Fewest connections a default cap allows. */
const MIN_CONNECTIONS = 16;
/** Shortest time between two reports of accept errors, milliseconds. */
const REPORT_EVERY_MS = 10_000;

/**
 * The default connection cap: half the process's open-file limit (the rest stays for packs, the usage and keys
 * files, worker threads and the listening socket), between 16 and 8,192; 1,024 where the limit is unknown.
 * @param limit the soft limit on open descriptors, or null when unknown
 */
export function defaultMaxConnections(limit: number | null = descriptorLimit()): number {
  if (limit === null) return FALLBACK_MAX_CONNECTIONS;
  return Math.max(MIN_CONNECTIONS, Math.min(MAX_DEFAULT_CONNECTIONS, Math.floor(limit / 2)));
}

/** Descriptors a connection cap must leave to the rest of the server: packs, usage and keys files, threads, logs. */
const RESERVED_DESCRIPTORS = 64;

/**
 * Why `maxConnections` connections cannot be served by this process, or null: above its open-file limit less
 * {@link RESERVED_DESCRIPTORS}, connections past the limit would be accepted by nobody and time out.
 * @param limit the soft limit on open descriptors, or null when unknown (then any cap passes)
 */
export function connectionCapProblem(maxConnections: number, limit: number | null = descriptorLimit()): string | null {
  if (limit === null || maxConnections <= limit - RESERVED_DESCRIPTORS) return null;
  return (
    `${maxConnections} is more than this process's open-file limit (${limit}) less ${RESERVED_DESCRIPTORS} for its ` +
    `files allows (${Math.max(0, limit - RESERVED_DESCRIPTORS)}); raise the limit (ulimit -n) or lower the cap`
  );
}

/** The process's soft limit on open descriptors (Linux `/proc/self/limits`), or null when unknown or unlimited. */
function descriptorLimit(): number | null {
  let text: string;
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    if (!line.startsWith('Max open files')) continue;
    const soft = line.slice('Max open files'.length).trim().split(' ')[0]!;
    const n = Number(soft);
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  }
  return null;
}

/** What {@link guardConnections} reports. */
export interface ConnectionGuard {
  /** Connections open now. */
  open(): number;
}

/**
 * Applies the caps of this module to a node:http or node:https server (before it listens).
 * @param maxConnections the hard cap on open connections (≥ 1)
 * @param report where accept errors are reported (at most one line every 10 s)
 */
export function guardConnections(
  server: Server,
  maxConnections: number,
  report: (message: string) => void,
): ConnectionGuard {
  const shedAt = Math.max(1, Math.floor((maxConnections * 3) / 4));
  /** Open connections (TCP sockets), oldest first. */
  const sockets = new Set<Socket>();
  /** Requests in progress (received, not yet answered or aborted) per connection. */
  const busy = new WeakMap<Socket, number>();
  /** Closes every connection without a request in progress; destroy() frees the descriptor at once. */
  const closeIdle = (): void => {
    for (const s of sockets) {
      if (busy.get(s)) continue;
      s.destroy();
      sockets.delete(s);
    }
  };
  // node's own server.maxConnections would drop a new connection before any listener could make room, and node's
  // closeIdleConnections() spares connections that have not sent a request yet: both are done here instead.
  server.prependListener('connection', (socket: Socket) => {
    if (sockets.size >= shedAt) closeIdle();
    if (sockets.size >= maxConnections) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Over TLS the request's socket wraps the TCP socket the 'connection' event gave.
    const tcp = (req.socket as Socket & { _parent?: Socket | null })._parent ?? req.socket;
    busy.set(tcp, (busy.get(tcp) ?? 0) + 1);
    res.once('close', () => busy.set(tcp, busy.get(tcp)! - 1));
  });
  let lastReport = -Infinity;
  // After listen, a server 'error' is an accept error; with no listener node would end the process.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (!server.listening) return; // a listen error: startNodeServer rejects with it
    closeIdle();
    const now = Date.now();
    if (now - lastReport < REPORT_EVERY_MS) return;
    lastReport = now;
    const why = err.code === 'EMFILE' || err.code === 'ENFILE' ? 'out of file descriptors' : 'accept failed';
    report(
      `bando serve: ${why} (${err.code ?? err.message}) with ${sockets.size} connections open; idle connections closed, still listening`,
    );
  });
  return { open: () => sockets.size };
}
