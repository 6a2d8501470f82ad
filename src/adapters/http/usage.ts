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

/** Usage of every key: key → period (`YYYY-MM`, UTC) → counts. */
export type UsageReport = Record<string, Record<string, PeriodUsage>>;

/** One request's contribution to the counts. */
export interface UsageEvent {
  /** Endpoint or resource name, e.g. `autocomplete`, `style`. */
  endpoint: string;
  /** Quota units this request costs (0 inside an open autocomplete session). */
  billable: number;
  /** True when the request starts an autocomplete session. */
  session: boolean;
}

/** Where the fetch handler keeps its counts. Implementations must be cheap to call on every request. */
export interface UsageStore {
  /** Adds one request's counts to a key's period. */
  add(key: string, period: string, event: UsageEvent): void;
  /** Quota units used so far by the key in the period. */
  billable(key: string, period: string): number;
  /** A deep copy of all counts. */
  report(): UsageReport;
  /** Persists pending counts and releases resources (file-backed stores). */
  close?(): void | Promise<void>;
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

/** Counts kept in memory only: the default store of `createFetchHandler`. */
export class MemoryUsageStore implements UsageStore {
  protected data: UsageReport;

  constructor(initial: UsageReport = {}) {
    this.data = structuredClone(initial);
  }

  add(key: string, period: string, event: UsageEvent): void {
    const periods = (this.data[key] ??= {});
    const u = (periods[period] ??= { requests: {}, sessions: 0, billable: 0 });
    u.requests[event.endpoint] = (u.requests[event.endpoint] ?? 0) + 1;
    u.billable += event.billable;
    if (event.session) u.sessions++;
    this.changed();
  }

  billable(key: string, period: string): number {
    return this.data[key]?.[period]?.billable ?? 0;
  }

  report(): UsageReport {
    return structuredClone(this.data);
  }

  /** Called after every change; persistent subclasses schedule a write. */
  protected changed(): void {}
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
      if (!/^\d{4}-\d{2}$/.test(period)) fail(`period "${period}" of key "${key}" is not YYYY-MM`);
      const count = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0;
      if (!p || typeof p !== 'object' || !count(p.billable) || !count(p.sessions) || !p.requests || typeof p.requests !== 'object' || Array.isArray(p.requests) || !Object.values(p.requests).every(count))
        fail(`usage of key "${key}" in ${period} is malformed`);
    }
  }
  return value as UsageReport;
}
