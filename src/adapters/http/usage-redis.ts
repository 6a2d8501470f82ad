import type { Redis, RedisOptions } from 'ioredis';
import { sessionLimits, type SessionOptions } from './sessions.js';
import { AdmitBatch, MAX_REQUESTS } from './usage-redis-batch.js';
import { ADMIT_BATCH_SCRIPT } from './usage-redis-script.js';
import {
  dict,
  isPeriod,
  periodUsage,
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

/** What to do when `ioredis` is not installed. */
export const REDIS_MISSING =
  'Redis usage needs the ioredis package, an optional peer dependency of bando: run "npm install ioredis"';

/**
 * Opens a usage store in Redis, shared by any number of `bando serve` processes (Node only; loads the `ioredis`
 * client on first use, an optional peer dependency: rejects with REDIS_MISSING when it is not installed). Resolves
 * once connected; rejects with an Error naming the server when the URL is malformed
 * or Redis cannot be reached in `timeoutMs`.
 */
export async function createRedisUsageStore(url: string, opts: RedisUsageOptions = {}): Promise<RedisUsageStore> {
  const where = describeRedisUrl(url);
  const timeoutMs = opts.timeoutMs ?? 2000;
  const { Redis: Client } = await import('ioredis').catch((err: NodeJS.ErrnoException) => {
    // ioredis is an optional peer dependency: installs that never use Redis do not carry it.
    if (err.code !== 'ERR_MODULE_NOT_FOUND' && err.code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(`${REDIS_MISSING} (${err.message.split('\n')[0]})`);
  });
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
 * Most requests of one API key waiting for Redis while its previous call is in flight (32 full script calls): past
 * this, a request gets 503 at once instead of joining an ever longer queue behind a Redis that does not keep up.
 */
const MAX_QUEUED = 32 * MAX_REQUESTS;

/** One API key's requests waiting for Redis (in arrival order), and whether a call of that key is in flight. */
interface Lane {
  key: string;
  /** Batches not yet sent, in arrival order; requests join the last while it fits. */
  batches: AdmitBatch[];
  /** Requests in `batches`. */
  queued: number;
  flying: boolean;
}

/** How many requests the script calls carried since the store opened: how well group commit batches. */
export interface BatchStats {
  calls: number;
  requests: number;
  /** Bucket i counts the calls of 2^(i−1) < n ≤ 2^i requests (1, 2, 3–4, …, 257–512). */
  histogram: number[];
}

/**
 * Counts, quota checks, rate windows and autocomplete sessions in Redis: one atomic script call decides a batch of
 * one API key's requests in order (see usage-redis-script.ts), so N servers never let a key pass its quota, not even
 * by one. Keys (with the default prefix): `bando:u:{<api key>}:<YYYY-MM>` counts, `bando:r:{<api key>}` rate window,
 * `bando:s:{<api key>}:<token>` sessions (expiring after `rememberMs`); see usage-redis-batch.ts.
 *
 * Group commit: at most one send per API key is in flight. The requests of a key that arrive meanwhile wait in its
 * lane and go together as soon as the reply is in (at the end of that event-loop turn, so the requests read in the
 * same poll join them). Under load the batches grow by themselves, with no timer: a call of 8 requests costs both
 * sides about a fifth of 8 calls of one (bench/ops.ts part 5); at low load a request waits for nothing but the
 * turn it arrived in. Order within a key is arrival order: a lane's batches are sent in order on one connection,
 * and a key's next send waits for the previous reply.
 *
 * While Redis is unreachable, `admit` rejects with {@link UsageStoreUnavailable} at once (no queueing) and the
 * client reconnects every ≤ 0.5 s; a call that fails on the connection (closed, timed out) fails the requests of
 * its key waiting behind it too, at once. A call Redis answers with an error fails only its own batch.
 * `problem()` says why for `/healthz`.
 */
export class RedisUsageStore implements UsageStore {
  private readonly prefix: string;
  private readonly sessions: Required<SessionOptions>;
  private lastError = 'not connected yet';
  /** The lane of each API key with requests waiting or a call in flight (dropped when it has neither). */
  private readonly lanes = new Map<string, Lane>();
  /** Lanes with batches and no call in flight, sent together at the end of this event-loop turn. */
  private due: Lane[] = [];
  private readonly batches: BatchStats = { calls: 0, requests: 0, histogram: [] };
  /**
   * The API keys whose last decided call admitted every request (see `likelyAdmits`). Bounded by the keys the
   * server accepts: only known keys reach the store.
   */
  private readonly admitting = new Set<string>();
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
    this.sessions = sessionLimits(opts.sessions);
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
      let lane = this.lanes.get(r.key);
      if (!lane) this.lanes.set(r.key, (lane = { key: r.key, batches: [], queued: 0, flying: false }));
      if (lane.queued >= MAX_QUEUED)
        return reject(
          new UsageStoreUnavailable(`Redis at ${this.where} is too slow: ${lane.queued} requests of this key wait`),
        );
      if (lane.batches.length === 0 && !lane.flying) this.schedule(lane);
      this.join(lane, r).add(r, resolve, reject);
      lane.queued++;
    });
  }

  /** Marks a lane (with batches, nothing in flight) to be sent at the end of this event-loop turn. */
  private schedule(lane: Lane): void {
    if (this.due.length === 0) setImmediate(() => this.send());
    this.due.push(lane);
  }

  /**
   * The batch `r` joins: its lane's last one when it has the same period and limits and room left, else a new one
   * (sent after the lane's earlier batches, so Redis still decides in arrival order).
   */
  private join(lane: Lane, r: UsageRequest): AdmitBatch {
    const last = lane.batches.at(-1);
    if (last?.fits(r)) return last;
    const batch = new AdmitBatch(r, this.prefix, this.sessions);
    lane.batches.push(batch);
    return batch;
  }

  /**
   * Sends every due lane's batches: one script call per batch, all in one write (a pipeline, which is not a
   * transaction and needs none: each call is atomic). One call per request cost a client command object, a timer
   * and a reply each, and a Lua call in Redis.
   */
  private send(): void {
    const lanes = this.due;
    this.due = [];
    const sent: [Lane, AdmitBatch][] = [];
    for (const lane of lanes) {
      lane.flying = true;
      for (const b of lane.batches) sent.push([lane, b]);
      lane.batches = [];
      lane.queued = 0;
    }
    for (const [, b] of sent) {
      const bucket = Math.ceil(Math.log2(b.size));
      const h = this.batches.histogram;
      h[bucket] = (h[bucket] ?? 0) + 1;
      this.batches.calls++;
      this.batches.requests += b.size;
    }
    const settled = (replies: [Error | null, unknown][]) => {
      sent.forEach(([lane, b], i) => this.settle(lane, b, ...replies[i]!));
      for (const lane of lanes) this.landed(lane);
    };
    const failed = (err: Error) => settled(sent.map(() => [err, null]));
    type Admit = (...args: (string | number)[]) => Promise<unknown>;
    if (sent.length === 1) {
      (this.client as unknown as { bandoAdmit: Admit })
        .bandoAdmit(...sent[0]![1].args())
        .then((reply) => settled([[null, reply]]), failed);
      return;
    }
    type Admits = { bandoAdmit: Admit; exec(): Promise<[Error | null, unknown][] | null> };
    const pipeline = this.client.pipeline() as unknown as Admits;
    for (const [, b] of sent) void pipeline.bandoAdmit(...b.args());
    pipeline
      .exec()
      .then((replies) => settled(sent.map((_, i) => replies?.[i] ?? [new Error('no reply from Redis'), null])), failed);
  }

  /** A lane's call is answered: its waiting requests go at the end of this turn; an idle lane is dropped. */
  private landed(lane: Lane): void {
    lane.flying = false;
    if (lane.batches.length > 0) this.schedule(lane);
    else this.lanes.delete(lane.key);
  }

  /**
   * Answers a batch's requests from its script call's reply or error. A connection failure (closed, not writable,
   * timed out: anything but Redis answering with an error) also fails the requests of the lane waiting behind it,
   * at once: they would meet the same connection.
   */
  private settle(lane: Lane, batch: AdmitBatch, err: Error | null, reply: unknown): void {
    if (!err) {
      // Up again after a timeout (the connection stayed, so no 'ready' event says so).
      if (this.down) this.changed(false);
      if (typeof reply === 'string' && /^0+$/.test(reply)) this.admitting.add(lane.key);
      else this.admitting.delete(lane.key);
      return batch.settle(null, reply);
    }
    this.admitting.delete(lane.key);
    if (err.name === 'ReplyError')
      return batch.settle(new UsageStoreUnavailable(`Redis at ${this.where} failed: ${err.message}`), null);
    this.lastError = err.message;
    this.changed(true);
    const failure = new UsageStoreUnavailable(this.unreachable());
    batch.settle(failure, null);
    for (const b of lane.batches) b.settle(failure, null);
    lane.batches = [];
    lane.queued = 0;
  }

  /** True when the key's last decided call admitted every one of its requests. */
  likelyAdmits(key: string): boolean {
    return this.admitting.has(key);
  }

  /** How many requests the script calls carried so far (a copy). */
  batchStats(): BatchStats {
    const { calls, requests, histogram } = this.batches;
    return { calls, requests, histogram: Array.from(histogram, (n) => n ?? 0) };
  }

  /** All counts: every `u:` key of the prefix (SCAN, so Redis is never blocked), read in one pipeline per batch. */
  async report(): Promise<UsageReport> {
    const out: UsageReport = dict();
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
        const u = periodUsage(out, key, period);
        for (const [field, value] of Object.entries(hash as Record<string, string>))
          if (field.startsWith('r:')) u.requests[field.slice(2)] = Number(value);
        const h = hash as Record<string, string>;
        u.sessions = Number(h.sessions ?? 0);
        u.billable = Number(h.billable ?? 0);
      });
    } while (cursor !== '0');
    return out;
  }

  /** One PING: a Redis that is connected but stalled (stopped, swapping) answers it late or never. */
  async check(): Promise<string | null> {
    try {
      await this.client.ping();
      return null;
    } catch (err) {
      return `Redis at ${this.where} does not answer PING (${(err as Error).message})`;
    }
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
