import type { Redis, RedisOptions } from 'ioredis';
import { SESSION_IDLE_MS, SESSION_REMEMBER_MS, type SessionOptions } from './sessions.js';
import { AdmitBatch } from './usage-redis-batch.js';
import { ADMIT_BATCH_SCRIPT } from './usage-redis-script.js';
import {
  isPeriod,
  UsageStoreUnavailable,
  type Admission,
  type UsageReport,
  type UsageRequest,
  type UsageStore,
} from './usage.js';

/** Options of {@link createRedisUsageStore}. */
export interface RedisUsageOptions {
  /** Prefix of every Redis key the store writes. Default `bando:`. */
  prefix?: string;
  /** Autocomplete session timing (the same rules as the memory store). */
  sessions?: SessionOptions;
  /** Longest wait for a connection, milliseconds. Default 2000. */
  timeoutMs?: number;
  /**
   * Longest wait for one reply on an open connection, milliseconds, before the request gets 503 (a lost connection
   * fails at once). Default 10,000: the wait includes this process's own event-loop delay, so a short limit turns a
   * busy server's late replies into false outages (measured: 2 s gave 503s to 1–5 % of 4,000 concurrent requests on
   * a loaded 2-core machine). A request that times out may still have been counted by Redis.
   */
  commandTimeoutMs?: number;
  /** Told when Redis becomes unreachable (why) and reachable again (null); e.g. `bando serve` logs it. */
  onProblem?: (message: string | null) => void;
}

/** Longest pause between two reconnection attempts, milliseconds (so service is back within this after Redis is). */
const RECONNECT_MAX_MS = 500;

/** True when a `--usage` value names a Redis server (`redis://` or `rediss://`) rather than a file. */
export function isRedisUrl(text: string): boolean {
  return /^rediss?:/i.test(text);
}

/**
 * Checks a Redis URL: `redis://` or `rediss://` (TLS), a host, an optional port and an optional database number
 * as the path; returns `host:port/db` for messages (never the password). Throws an Error saying what is wrong.
 */
export function describeRedisUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(
      `the Redis URL "${url}" is not a URL; expected redis://[user:password@]host[:port][/db] or rediss://…`,
    );
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new Error(`the Redis URL must start with redis:// or rediss://, got ${u.protocol}//`);
  if (!u.hostname) throw new Error(`the Redis URL ${u.protocol}//… names no host`);
  const db = u.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,5}$/.test(db))
    throw new Error(`the Redis URL's path must be a database number, got "/${db}"`);
  if (u.search || u.hash) throw new Error('the Redis URL takes no query or fragment');
  return `${u.hostname}:${u.port || 6379}/${db || 0}`;
}

/**
 * Opens a usage store in Redis, shared by any number of `bando serve` processes (Node only; loads the `ioredis`
 * client on first use). Resolves once connected; rejects with an Error naming the server when the URL is malformed
 * or Redis cannot be reached in `timeoutMs`.
 */
export async function createRedisUsageStore(url: string, opts: RedisUsageOptions = {}): Promise<RedisUsageStore> {
  const where = describeRedisUrl(url);
  const timeoutMs = opts.timeoutMs ?? 2000;
  const { Redis: Client } = await import('ioredis');
  const options: RedisOptions = {
    lazyConnect: true,
    connectionName: 'bando',
    connectTimeout: timeoutMs,
    commandTimeout: opts.commandTimeoutMs ?? 10_000,
    // While disconnected a command fails at once (the request gets 503) instead of waiting in a queue.
    enableOfflineQueue: false,
    // A command whose connection dropped may already have run: sending it again could count a request twice.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(100 * attempt, RECONNECT_MAX_MS),
  };
  const client = new Client(url, options);
  const store = new RedisUsageStore(client, where, opts);
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw new Error(`Redis at ${where} cannot be reached: ${(err as Error).message}`);
  }
  return store;
}

/**
 * Counts, quota checks, rate windows and autocomplete sessions in Redis: one atomic script call per API key for the
 * requests of one event-loop turn, deciding them in order (see usage-redis-script.ts), so N servers never let a key
 * pass its quota, not even by one. Keys (with the default prefix): `bando:u:{<api key>}:<YYYY-MM>` counts,
 * `bando:r:{<api key>}` rate window, `bando:s:{<api key>}:<token>` sessions (expiring after `rememberMs`); see
 * usage-redis-batch.ts.
 *
 * While Redis is unreachable, `admit` rejects with {@link UsageStoreUnavailable} at once (no queueing) and the
 * client reconnects every ≤ 0.5 s; `problem()` says why for `/healthz`.
 */
export class RedisUsageStore implements UsageStore {
  private readonly prefix: string;
  private readonly idleMs: number;
  private readonly rememberMs: number;
  private lastError = 'not connected yet';
  /** Batches of the requests read in this event-loop turn, in the order made, sent together by `send`… */
  private groups: AdmitBatch[] = [];
  /** …and the batch each API key's next request joins. */
  private readonly open = new Map<string, AdmitBatch>();
  private down = false;
  private closing = false;

  /** Use {@link createRedisUsageStore}. */
  constructor(
    private readonly client: Redis,
    /** `host:port/db` of the server, for messages. */
    readonly where: string,
    private readonly opts: RedisUsageOptions = {},
  ) {
    this.prefix = opts.prefix ?? 'bando:';
    this.idleMs = opts.sessions?.idleMs ?? SESSION_IDLE_MS;
    this.rememberMs = opts.sessions?.rememberMs ?? SESSION_REMEMBER_MS;
    client.defineCommand('bandoAdmit', { lua: ADMIT_BATCH_SCRIPT });
    // Without an 'error' listener ioredis prints every failed reconnection; the transitions are reported instead.
    client.on('error', (err: Error) => (this.lastError = err.message || String(err)));
    client.on('close', () => this.changed(true));
    client.on('ready', () => this.changed(false));
  }

  private changed(down: boolean): void {
    if (down === this.down || this.closing) return;
    this.down = down;
    this.opts.onProblem?.(down ? `${this.unreachable()}; requests get 503 until it is back; reconnecting` : null);
  }

  private unreachable(): string {
    return `Redis at ${this.where} is unreachable (${this.lastError})`;
  }

  admit(r: UsageRequest): Promise<Admission> {
    return new Promise<Admission>((resolve, reject) => {
      if (this.groups.length === 0) setImmediate(() => this.send());
      this.join(r).add(r, resolve, reject);
    });
  }

  /**
   * The batch of this turn that `r` joins: the open one of its API key when it has the same period and limits and
   * room left, else a new one (sent after the key's earlier batches, so Redis still decides in arrival order).
   */
  private join(r: UsageRequest): AdmitBatch {
    const open = this.open.get(r.key);
    if (open?.fits(r)) return open;
    const batch = new AdmitBatch(r, this.prefix, this.idleMs, this.rememberMs);
    this.open.set(r.key, batch);
    this.groups.push(batch);
    return batch;
  }

  /**
   * Sends the batches gathered in this event-loop turn (the requests read from every socket in one poll): one script
   * call per API key, in one write. One call per request cost a client command object, a timer and a reply each, and
   * a Lua call in Redis: batching cut the store's CPU per request (this process and Redis) from 55 to 35 µs at 8
   * requests per turn (bench/ops.ts part 5). Several calls go in one pipeline, which is not a transaction and needs
   * none: each call is atomic.
   */
  private send(): void {
    const groups = this.groups;
    this.groups = [];
    this.open.clear();
    type Admit = (...args: (string | number)[]) => Promise<unknown>;
    if (groups.length === 1) {
      const g = groups[0]!;
      (this.client as unknown as { bandoAdmit: Admit }).bandoAdmit(...g.args()).then(
        (reply) => this.settle(g, null, reply),
        (err: Error) => this.settle(g, err, null),
      );
      return;
    }
    type Admits = { bandoAdmit: Admit; exec(): Promise<[Error | null, unknown][] | null> };
    const pipeline = this.client.pipeline() as unknown as Admits;
    for (const g of groups) void pipeline.bandoAdmit(...g.args());
    pipeline.exec().then(
      (replies) =>
        groups.forEach((g, i) => {
          const [err, reply] = replies?.[i] ?? [new Error('no reply from Redis'), null];
          this.settle(g, err, reply);
        }),
      (err: Error) => groups.forEach((g) => this.settle(g, err, null)),
    );
  }

  /** Answers a batch's requests from its script call's reply or error (one error object for the whole batch). */
  private settle(batch: AdmitBatch, err: Error | null, reply: unknown): void {
    if (!err) {
      // Up again after a timeout (the connection stayed, so no 'ready' event says so).
      if (this.down) this.changed(false);
      return batch.settle(null, reply);
    }
    // A ReplyError is Redis answering with an error; anything else is the connection (closed, not writable, timed
    // out), often known here before the client's own events say so.
    if (err.name === 'ReplyError')
      return batch.settle(new UsageStoreUnavailable(`Redis at ${this.where} failed: ${err.message}`), null);
    this.lastError = err.message;
    this.changed(true);
    batch.settle(new UsageStoreUnavailable(this.unreachable()), null);
  }

  /** All counts: every `u:` key of the prefix (SCAN, so Redis is never blocked), read in one pipeline per batch. */
  async report(): Promise<UsageReport> {
    const out: UsageReport = {};
    const head = `${this.prefix}u:{`;
    const match = `${head.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      cursor = next;
      const pipeline = this.client.pipeline();
      for (const k of keys) pipeline.hgetall(k);
      const rows = keys.length > 0 ? ((await pipeline.exec()) ?? []) : [];
      keys.forEach((k, i) => {
        // `<prefix>u:{<api key>}:<YYYY-MM>`: the period has a fixed length, so any API key text parses back.
        const period = k.slice(-7);
        if (!k.endsWith(`}:${period}`) || !isPeriod(period)) return;
        const key = k.slice(head.length, -9);
        const [err, hash] = rows[i] ?? [];
        if (err || !hash) return;
        const requests: Record<string, number> = {};
        for (const [field, value] of Object.entries(hash as Record<string, string>))
          if (field.startsWith('r:')) requests[field.slice(2)] = Number(value);
        const h = hash as Record<string, string>;
        (out[key] ??= {})[period] = { requests, sessions: Number(h.sessions ?? 0), billable: Number(h.billable ?? 0) };
      });
    } while (cursor !== '0');
    return out;
  }

  problem(): string | null {
    return this.client.status === 'ready' && !this.down ? null : this.unreachable();
  }

  /** Closes the connection (after the replies of commands already sent). */
  async close(): Promise<void> {
    this.closing = true;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
