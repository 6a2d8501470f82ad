import { RateLimiter } from './rate.js';
import { SessionTracker, type SessionEndpoint, type SessionOptions } from './sessions.js';

/** Counts of one key in one period. */
export interface PeriodUsage {
  /** Requests that reached an endpoint (or a web-map resource), by endpoint name such as `direction`. */
  requests: Record<string, number>;
  /** Autocomplete sessions started (billing definition 2 of rest-api.md). */
  sessions: number;
  /**
   * Units charged against the monthly quota: for a rest key every request outside an autocomplete session plus one
   * per session; for a tiles key the map loads (style requests).
   */
  billable: number;
}

/**
 * Usage of every key: key → period (`YYYY-MM`, UTC) → counts. The stores build every level without a prototype
 * (see {@link dict}), so a key named `__proto__`, `constructor` or `toString` is an own entry like any other.
 */
export type UsageReport = Record<string, Record<string, PeriodUsage>>;

/**
 * An empty object without a prototype. Keyed by outside text (API keys, endpoint names), a plain `{}` would read
 * `constructor` or `toString` from Object.prototype and turn `o.__proto__ ??= {}` into a write to Object.prototype:
 * every key with no usage yet would then share one counter.
 */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The counts of `key` in `period` inside `report`, made (empty) when absent. */
export function periodUsage(report: UsageReport, key: string, period: string): PeriodUsage {
  const periods = (report[key] ??= dict());
  return (periods[period] ??= { requests: dict(), sessions: 0, billable: 0 });
}

/** A deep copy of a report (from a store, or JSON read back), every level without a prototype. */
function copyReport(report: UsageReport): UsageReport {
  const out: UsageReport = dict();
  for (const [key, periods] of Object.entries(report))
    for (const [period, u] of Object.entries(periods)) {
      const c = periodUsage(out, key, period);
      Object.assign(c.requests, u.requests);
      c.sessions = u.sessions;
      c.billable = u.billable;
    }
  return out;
}

/** One request presented to a usage store: who asks, what for, and the key's limits. */
export interface UsageRequest {
  /** The API key. */
  key: string;
  /** Calendar month of the request (UTC), `YYYY-MM` (see {@link periodOf}). */
  period: string;
  /** Endpoint or resource name, e.g. `autocomplete`, `style`. */
  endpoint: string;
  /**
   * Quota units the request costs when no session rule applies: 1 for an endpoint call or a map load, 0 for a free
   * web-map resource (tiles, glyphs, sprites).
   */
  units: number;
  /** The key's monthly quota in units. */
  monthlyQuota: number;
  /** The key's rate cap (requests per sliding second), if any. */
  perSecond?: number;
  /** An autocomplete or place detail request carrying a `sessiontoken`: billed by the session rules of sessions.ts. */
  session?: { endpoint: SessionEndpoint; token: string };
  /** Time of the request, milliseconds since the epoch (the rate window and session idle time read it). */
  nowMs: number;
}

/**
 * What a store decided: `ok` (admitted and counted), `quota` (the monthly quota would be exceeded) or `rate` (the
 * per-second cap is reached). Refused requests change nothing.
 */
export type Admission = 'ok' | 'quota' | 'rate';

/**
 * Where the handler checks and keeps counts. `admit` is the one call per request: it applies the session rules,
 * checks the quota, then the rate, and counts an admitted request, all as one step, so that a store shared by
 * several servers never admits a request past a quota. A store that cannot decide (its database is unreachable)
 * throws or rejects with {@link UsageStoreUnavailable}; the handler answers 503.
 */
export interface UsageStore {
  /** Checks and counts one request; synchronous for in-process stores. */
  admit(request: UsageRequest): Admission | Promise<Admission>;
  /**
   * For a store that decides asynchronously: true when it expects to admit the key's next request (every request of
   * the key's last decided call was admitted), so the handler may start a cheap call's engine work while the store
   * decides. A hint only: the answer still waits for the admission.
   */
  likelyAdmits?(key: string): boolean;
  /** A deep copy of all counts. */
  report(): UsageReport | Promise<UsageReport>;
  /** Null while the store works, else why it does not (shown by `/healthz`). */
  problem?(): string | null;
  /**
   * A live check for `/healthz`, beyond what `problem` remembers: a round trip to the database (Redis PING), or the
   * usage folder still there and writable. Resolves null when it works, else why not; the handler waits for it at
   * most `HEALTH_DEADLINE_MS` and counts a later answer as a failure.
   */
  check?(): Promise<string | null>;
  /** Persists pending counts and releases resources (files, connections). */
  close?(): void | Promise<void>;
}

/** Thrown (or the rejection) of {@link UsageStore.admit} when the store cannot be reached. */
export class UsageStoreUnavailable extends Error {
  override readonly name = 'UsageStoreUnavailable';
}

/** The calendar month (UTC) of a time in milliseconds since the epoch, as `YYYY-MM`. */
export function periodOf(ms: number): string {
  // Cached per hour: called on every request, and a month never changes inside an hour (UTC).
  const hour = Math.floor(ms / 3_600_000);
  if (hour !== cachedHour) {
    cachedHour = hour;
    cachedPeriod = new Date(ms).toISOString().slice(0, 7);
  }
  return cachedPeriod;
}
let cachedHour = NaN;
let cachedPeriod = '';

/**
 * Units of quota a request needs left to be admitted: its cost, and at least one for a request with a session token
 * (a request inside an open session costs nothing, but is refused like any other once the month's quota is used).
 * Free web-map resources (tiles, glyphs) need none.
 */
function quotaNeed(billable: number, session: boolean): number {
  return session ? Math.max(billable, 1) : billable;
}

/** Options of {@link MemoryUsageStore}. */
export interface MemoryUsageOptions {
  /** Autocomplete session timing. */
  sessions?: SessionOptions;
}

/**
 * Counts, sessions and rate windows kept in this process's memory: the default store of `createFetchHandler`, exact
 * for one process.
 */
export class MemoryUsageStore implements UsageStore {
  protected data: UsageReport;
  private readonly sessions: SessionTracker;
  private readonly rate = new RateLimiter();

  constructor(initial: UsageReport = {}, opts: MemoryUsageOptions = {}) {
    this.data = copyReport(initial);
    this.sessions = new SessionTracker(opts.sessions);
  }

  admit(r: UsageRequest): Admission {
    const s = r.session;
    const cost = s ? this.sessions.charge(s.endpoint, r.key, s.token, r.nowMs) : { billable: r.units, session: false };
    if (this.billable(r.key, r.period) + quotaNeed(cost.billable, s !== undefined) > r.monthlyQuota) return 'quota';
    if (r.perSecond !== undefined && !this.rate.take(r.key, r.perSecond, r.nowMs)) return 'rate';
    if (s) this.sessions.record(s.endpoint, r.key, s.token, r.nowMs);
    this.count(r.key, r.period, r.endpoint, cost.billable, cost.session);
    return 'ok';
  }

  /** Quota units used so far by the key in the period. */
  billable(key: string, period: string): number {
    return this.data[key]?.[period]?.billable ?? 0;
  }

  report(): UsageReport {
    return copyReport(this.data);
  }

  /** Adds one admitted request to the counts. */
  protected count(key: string, period: string, endpoint: string, billable: number, session: boolean): void {
    const u = periodUsage(this.data, key, period);
    u.requests[endpoint] = (u.requests[endpoint] ?? 0) + 1;
    u.billable += billable;
    if (session) u.sessions++;
  }
}

/** Checks the shape of usage data read back from storage; throws an Error saying what is wrong. */
export function checkReport(value: unknown, where: string): UsageReport {
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail('usage must be an object');
  for (const [key, periods] of Object.entries(value as object)) {
    if (!periods || typeof periods !== 'object') fail(`usage of key "${key}" must be an object`);
    for (const [period, u] of Object.entries(periods as object)) {
      const p = u as PeriodUsage;
      if (!isPeriod(period)) fail(`period "${period}" of key "${key}" is not YYYY-MM`);
      const count = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
      if (
        !p ||
        typeof p !== 'object' ||
        !count(p.billable) ||
        !count(p.sessions) ||
        !p.requests ||
        typeof p.requests !== 'object' ||
        Array.isArray(p.requests) ||
        !Object.values(p.requests).every(count)
      )
        fail(`usage of key "${key}" in ${period} is malformed`);
    }
  }
  return copyReport(value as UsageReport);
}

/** True for a `YYYY-MM` period text. */
export function isPeriod(text: string): boolean {
  return /^\d{4}-\d{2}$/.test(text);
}
