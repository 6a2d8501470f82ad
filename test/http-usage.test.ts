import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/adapters/http/rate.js';
import { SessionTracker, type SessionEndpoint } from '../src/adapters/http/sessions.js';
import { MemoryUsageStore, periodOf } from '../src/adapters/http/usage.js';
import { FileUsageStore, readUsageFile } from '../src/adapters/http/usage-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'bando-usage-'));
  dirs.push(d);
  return d;
}

describe('periodOf', () => {
  it('is the UTC month', () => {
    expect(periodOf(Date.UTC(2025, 0, 31, 23, 59, 59))).toBe('2025-01');
    expect(periodOf(Date.UTC(2025, 1, 1, 0, 0, 0))).toBe('2025-02');
    expect(periodOf(Date.UTC(2024, 11, 31, 23, 0))).toBe('2024-12');
  });
});

describe('RateLimiter', () => {
  it('agrees with a plain scan of accepted times over a sliding one-second window', () => {
    const limiter = new RateLimiter();
    const accepted: number[] = [];
    let t = 0;
    // Deterministic pseudo-random arrival gaps 0..249 ms.
    let seed = 7;
    for (let i = 0; i < 3000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      t += seed % 250;
      const inWindow = accepted.filter((a) => t - a < 1000).length;
      const ok = limiter.take('k', 5, t);
      expect(ok).toBe(inWindow < 5);
      if (ok) accepted.push(t);
    }
    expect(accepted.length).toBeGreaterThan(100);
  });
  it('keys are independent', () => {
    const limiter = new RateLimiter();
    expect(limiter.take('a', 1, 0)).toBe(true);
    expect(limiter.take('a', 1, 10)).toBe(false);
    expect(limiter.take('b', 1, 10)).toBe(true);
    expect(limiter.take('a', 1, 1000)).toBe(true);
  });
});

describe('SessionTracker', () => {
  const step = (s: SessionTracker, e: SessionEndpoint, token: string | undefined, t: number, key = 'k') => {
    const c = s.charge(e, key, token, t);
    s.record(e, key, token, t);
    return c;
  };
  it('autocomplete requests then one place detail make one billable session', () => {
    const s = new SessionTracker();
    expect(step(s, 'autocomplete', 'T', 0)).toEqual({ billable: 1, session: true });
    expect(step(s, 'autocomplete', 'T', 100)).toEqual({ billable: 0, session: false });
    expect(step(s, 'autocomplete', 'T', 200)).toEqual({ billable: 0, session: false });
    expect(step(s, 'placeDetail', 'T', 300)).toEqual({ billable: 0, session: false });
    // Reusing the token after its session ended bills every request individually.
    expect(step(s, 'autocomplete', 'T', 400)).toEqual({ billable: 1, session: false });
    expect(step(s, 'placeDetail', 'T', 500)).toEqual({ billable: 1, session: false });
  });
  it('no token bills individually; detail without session bills; keys do not share tokens', () => {
    const s = new SessionTracker();
    expect(step(s, 'autocomplete', undefined, 0)).toEqual({ billable: 1, session: false });
    expect(step(s, 'placeDetail', 'X', 0)).toEqual({ billable: 1, session: false });
    expect(step(s, 'autocomplete', 'T', 0, 'a')).toEqual({ billable: 1, session: true });
    expect(step(s, 'autocomplete', 'T', 1, 'b')).toEqual({ billable: 1, session: true });
  });
  it('an idle session ends; charge alone changes nothing', () => {
    const s = new SessionTracker({ idleMs: 1000 });
    step(s, 'autocomplete', 'T', 0);
    expect(s.charge('autocomplete', 'k', 'T', 500)).toEqual({ billable: 0, session: false });
    expect(step(s, 'autocomplete', 'T', 900)).toEqual({ billable: 0, session: false });
    expect(step(s, 'placeDetail', 'T', 2000)).toEqual({ billable: 1, session: false });
    expect(s.charge('autocomplete', 'k', 'NEW', 2000)).toEqual({ billable: 1, session: true });
    expect(s.charge('autocomplete', 'k', 'NEW', 2001)).toEqual({ billable: 1, session: true });
  });
});

describe('usage stores', () => {
  it('memory store counts per key, period and endpoint', () => {
    const u = new MemoryUsageStore();
    u.add('a', '2025-01', { endpoint: 'direction', billable: 1, session: false });
    u.add('a', '2025-01', { endpoint: 'direction', billable: 1, session: false });
    u.add('a', '2025-01', { endpoint: 'autocomplete', billable: 1, session: true });
    u.add('a', '2025-01', { endpoint: 'autocomplete', billable: 0, session: false });
    u.add('a', '2025-02', { endpoint: 'geocode', billable: 1, session: false });
    u.add('b', '2025-01', { endpoint: 'trip', billable: 1, session: false });
    expect(u.billable('a', '2025-01')).toBe(3);
    expect(u.billable('a', '2025-03')).toBe(0);
    expect(u.report()).toEqual({
      a: {
        '2025-01': { requests: { direction: 2, autocomplete: 2 }, sessions: 1, billable: 3 },
        '2025-02': { requests: { geocode: 1 }, sessions: 0, billable: 1 },
      },
      b: { '2025-01': { requests: { trip: 1 }, sessions: 0, billable: 1 } },
    });
    // report() is a copy.
    u.report().a!['2025-01']!.billable = 99;
    expect(u.billable('a', '2025-01')).toBe(3);
  });

  it('file store survives a restart, writes atomically and leaves no temp file', () => {
    const path = join(tmp(), 'usage.json');
    const a = FileUsageStore.open(path);
    for (let i = 0; i < 25; i++) a.add('k', '2025-05', { endpoint: i % 2 ? 'direction' : 'geocode', billable: 1, session: false });
    a.add('k', '2025-05', { endpoint: 'autocomplete', billable: 1, session: true });
    a.close();
    const b = FileUsageStore.open(path);
    expect(b.report()).toEqual(a.report());
    expect(b.billable('k', '2025-05')).toBe(26);
    b.add('k', '2025-05', { endpoint: 'trip', billable: 1, session: false });
    b.close();
    expect(readUsageFile(path).k!['2025-05']!.requests).toEqual({ geocode: 13, direction: 12, autocomplete: 1, trip: 1 });
    expect(readdirSync(join(path, '..'))).toEqual(['usage.json']);
  });

  it('file store writes within flushMs without close', async () => {
    const path = join(tmp(), 'usage.json');
    const a = FileUsageStore.open(path, { flushMs: 50 });
    a.add('k', '2025-05', { endpoint: 'geocode', billable: 1, session: false });
    expect(readUsageFile(path)).toEqual({});
    await new Promise((r) => setTimeout(r, 300));
    expect(readUsageFile(path).k!['2025-05']!.billable).toBe(1);
    a.close();
  });

  it('a damaged usage file is reported with its path, a missing one is empty', () => {
    const d = tmp();
    expect(readUsageFile(join(d, 'none.json'))).toEqual({});
    writeFileSync(join(d, 'bad.json'), '{"version":1,"usage":');
    expect(() => FileUsageStore.open(join(d, 'bad.json'))).toThrow(/bad\.json is not JSON/);
    writeFileSync(join(d, 'v.json'), '{"version":2,"usage":{}}');
    expect(() => readUsageFile(join(d, 'v.json'))).toThrow(/unknown version 2/);
    writeFileSync(join(d, 'p.json'), '{"version":1,"usage":{"k":{"2025":{"requests":{},"sessions":0,"billable":0}}}}');
    expect(() => readUsageFile(join(d, 'p.json'))).toThrow(/not YYYY-MM/);
  });
});
