import type { SessionOptions } from './sessions.js';
import type { Admission, UsageRequest } from './usage.js';

/** Admission of each reply digit of the script. */
const ADMISSIONS: readonly Admission[] = ['ok', 'quota', 'rate'];

/** Session modes of the script. */
const SESSION_MODE = { autocomplete: 1, placeDetail: 2 } as const;

/**
 * Most requests in one script call: bounds how long one call holds Redis (each request is a few Lua steps, ≈ µs) and
 * the size of one command, whatever burst arrives.
 */
export const MAX_REQUESTS = 512;

/**
 * Requests of one API key, one period and one set of limits waiting for Redis together (see RedisUsageStore), as the arguments of
 * one call of `ADMIT_BATCH_SCRIPT` (see usage-redis-script.ts for their layout), and the callers waiting for their
 * admission. The counts key and the rate key are made once per batch, a session key once per session named.
 */
export class AdmitBatch {
  private readonly period: string;
  private readonly quota: number;
  private readonly perSecond: number;
  /** `<prefix>s:{<api key>}:` (the keys of this key's sessions start so). */
  private readonly sessionHead: string;
  /** KEYS of the script: counts, rate window, then the sessions named (first use order). */
  private readonly keys: string[];
  /** Session key → its index in KEYS (1-based, as Lua counts). */
  private readonly sessionIndex = new Map<string, number>();
  /** ARGV of the script: the limits, then five per request. */
  private readonly argv: (string | number)[];
  private readonly waiting: [(admission: Admission) => void, (err: Error) => void][] = [];

  /**
   * A batch for `first`'s key, period and limits (not yet holding `first`: see {@link add}). `prefix` starts every
   * Redis key; `sessions` are the session limits.
   */
  constructor(first: UsageRequest, prefix: string, sessions: Required<SessionOptions>) {
    this.period = first.period;
    this.quota = first.monthlyQuota;
    this.perSecond = first.perSecond ?? 0;
    // The braces make every key of one API key hash to the same Redis Cluster slot, as a script's keys must.
    const tag = `{${first.key}}`;
    this.sessionHead = `${prefix}s:${tag}:`;
    this.keys = [`${prefix}u:${tag}:${first.period}`, `${prefix}r:${tag}`];
    const { idleMs, rememberMs, maxRequests, maxAgeMs } = sessions;
    this.argv = [this.quota, this.perSecond, idleMs, rememberMs, maxRequests, maxAgeMs];
  }

  /** True when `r` (of this batch's API key) may join: same period and limits, and room left. */
  fits(r: UsageRequest): boolean {
    return (
      r.period === this.period &&
      r.monthlyQuota === this.quota &&
      (r.perSecond ?? 0) === this.perSecond &&
      this.waiting.length < MAX_REQUESTS
    );
  }

  /** Requests in the batch. */
  get size(): number {
    return this.waiting.length;
  }

  /** Appends a request (of this batch's API key, and fitting) and who waits for its admission. */
  add(r: UsageRequest, resolve: (admission: Admission) => void, reject: (err: Error) => void): void {
    const s = r.session;
    let index = 0;
    if (s) {
      const key = this.sessionHead + s.token;
      index = this.sessionIndex.get(key) ?? 0;
      if (index === 0) {
        index = this.keys.push(key);
        this.sessionIndex.set(key, index);
      }
    }
    this.argv.push(r.endpoint, r.units, s ? SESSION_MODE[s.endpoint] : 0, r.nowMs, index);
    this.waiting.push([resolve, reject]);
  }

  /** The script call's arguments after its name: the number of keys, the keys, ARGV. */
  args(): (string | number)[] {
    return [this.keys.length, ...this.keys, ...this.argv];
  }

  /** Gives each waiting caller its admission from the script's reply, or the error of the call. */
  settle(err: Error | null, reply: unknown): void {
    const text = typeof reply === 'string' ? reply : '';
    const failure =
      err ?? (text.length === this.waiting.length ? null : new Error(`unexpected admission reply ${String(reply)}`));
    this.waiting.forEach(([resolve, reject], i) => {
      const admission = ADMISSIONS[text.charCodeAt(i) - 48];
      if (failure || !admission) reject(failure ?? new Error(`unexpected admission reply ${text}`));
      else resolve(admission);
    });
  }
}
