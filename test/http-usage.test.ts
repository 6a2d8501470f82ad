import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/adapters/http/rate.js';
import { SessionTracker, type SessionEndpoint } from '../src/adapters/http/sessions.js';
import { MemoryUsageStore, periodOf, type UsageRequest } from '../src/adapters/http/usage.js';
import { FileUsageStore, readUsageFile } from '../src/adapters/http/usage-file.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const USAGE_FILE = join(ROOT, 'src/adapters/http/usage-file.ts');

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

/** A request of `key` for the stores, with defaults (1 unit, a large quota, no rate cap, no session). */
function req(key: string, over: Partial<UsageRequest> = {}): UsageRequest {
  return { key, period: '2025-05', endpoint: 'direction', units: 1, monthlyQuota: 1000, nowMs: 0, ...over };
}

describe('memory store', () => {
  it('counts per key, period and endpoint; refuses past the quota and the rate without counting', () => {
    const u = new MemoryUsageStore();
    expect(u.admit(req('a', { period: '2025-01' }))).toBe('ok');
    expect(u.admit(req('a', { period: '2025-01' }))).toBe('ok');
    expect(
      u.admit(
        req('a', { period: '2025-01', endpoint: 'autocomplete', session: { endpoint: 'autocomplete', token: 'T' } }),
      ),
    ).toBe('ok');
    expect(
      u.admit(
        req('a', { period: '2025-01', endpoint: 'autocomplete', session: { endpoint: 'autocomplete', token: 'T' } }),
      ),
    ).toBe('ok');
    expect(u.admit(req('a', { period: '2025-02', endpoint: 'geocode' }))).toBe('ok');
    expect(u.admit(req('b', { period: '2025-01', endpoint: 'tiles', units: 0, monthlyQuota: 0 }))).toBe('ok');
    expect(u.admit(req('b', { period: '2025-01', endpoint: 'style', monthlyQuota: 0 }))).toBe('quota');
    expect(u.report()).toEqual({
      a: {
        '2025-01': { requests: { direction: 2, autocomplete: 2 }, sessions: 1, billable: 3 },
        '2025-02': { requests: { geocode: 1 }, sessions: 0, billable: 1 },
      },
      b: { '2025-01': { requests: { tiles: 1 }, sessions: 0, billable: 0 } },
    });
    expect(u.admit(req('c', { monthlyQuota: 2, perSecond: 1, nowMs: 0 }))).toBe('ok');
    expect(u.admit(req('c', { monthlyQuota: 2, perSecond: 1, nowMs: 500 }))).toBe('rate');
    expect(u.admit(req('c', { monthlyQuota: 2, perSecond: 1, nowMs: 1000 }))).toBe('ok');
    expect(u.admit(req('c', { monthlyQuota: 2, perSecond: 1, nowMs: 3000 }))).toBe('quota');
    expect(u.billable('c', '2025-05')).toBe(2);
    // report() is a copy.
    u.report().a!['2025-01']!.billable = 99;
    expect(u.billable('a', '2025-01')).toBe(3);
  });
});

describe('file store', () => {
  it('survives a restart, leaves no temporary file, and releases its lock on close', () => {
    const path = join(tmp(), 'usage.json');
    const a = FileUsageStore.open(path);
    for (let i = 0; i < 25; i++) a.admit(req('k', { endpoint: i % 2 ? 'direction' : 'geocode' }));
    a.admit(req('k', { endpoint: 'autocomplete', session: { endpoint: 'autocomplete', token: 'T' } }));
    a.close();
    const b = FileUsageStore.open(path);
    expect(b.report()).toEqual(a.report());
    expect(b.billable('k', '2025-05')).toBe(26);
    b.admit(req('k', { endpoint: 'trip' }));
    b.close();
    expect(readUsageFile(path).k!['2025-05']).toEqual({
      requests: { geocode: 13, direction: 12, autocomplete: 1, trip: 1 },
      sessions: 1,
      billable: 27,
    });
    expect(readdirSync(join(path, '..')).sort()).toEqual(['usage.json', 'usage.json.journal']);
  });

  it('every admitted count is on disk before admit returns (a killed process loses none)', () => {
    const path = join(tmp(), 'usage.json');
    const a = FileUsageStore.open(path);
    for (let i = 0; i < 50; i++) a.admit(req('k'));
    // Read back by another reader while the store is open, as after a kill -9.
    expect(readUsageFile(path).k!['2025-05']!.billable).toBe(50);
    a.close();
  });

  it('folds the journal into the usage file past compactBytes; the journal seq prevents double counting', () => {
    const path = join(tmp(), 'usage.json');
    const a = FileUsageStore.open(path, { compactBytes: 500 });
    for (let i = 0; i < 40; i++) a.admit(req('k'));
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        const doc = JSON.parse(readFileSync(path, 'utf8'));
        expect(doc.version).toBe(2);
        expect(doc.seq).toBeGreaterThan(0);
        expect(statSync(`${path}.journal`).size).toBeLessThan(500);
        expect(readUsageFile(path).k!['2025-05']!.billable).toBe(40);
        a.close();
        resolve();
      }, 50),
    );
  });

  it('reads a usage file and journal written by hand: lines up to the file seq are skipped, a torn last line ignored', () => {
    const d = tmp();
    const path = join(d, 'u.json');
    const line = (seq: number, endpoint: string) => JSON.stringify([seq, 'k', '2025-05', endpoint, 1, 0]);
    // As left by a crash between writing the usage file (seq 2) and emptying the journal, then two more requests and
    // a line cut short.
    writeFileSync(
      path,
      JSON.stringify({
        version: 2,
        seq: 2,
        usage: { k: { '2025-05': { requests: { direction: 2 }, sessions: 0, billable: 2 } } },
      }),
    );
    writeFileSync(
      `${path}.journal`,
      [line(1, 'direction'), line(2, 'direction'), line(3, 'trip'), line(4, 'geocode'), '[5,"k","2025-'].join('\n'),
    );
    expect(readUsageFile(path)).toEqual({
      k: { '2025-05': { requests: { direction: 2, trip: 1, geocode: 1 }, sessions: 0, billable: 4 } },
    });
    // A version 1 file (no journal seq) still reads.
    writeFileSync(
      join(d, 'v1.json'),
      JSON.stringify({ version: 1, usage: { k: { '2025-05': { requests: { trip: 3 }, sessions: 0, billable: 3 } } } }),
    );
    expect(readUsageFile(join(d, 'v1.json')).k!['2025-05']!.billable).toBe(3);
    // A damaged line in the middle is an error naming the journal and the line.
    writeFileSync(`${path}.journal`, [line(3, 'trip'), 'garbage', line(4, 'trip')].join('\n'));
    expect(() => readUsageFile(path)).toThrow(/u\.json\.journal line 2 is malformed/);
  });

  it('a damaged usage file is reported with its path, a missing one is empty', () => {
    const d = tmp();
    expect(readUsageFile(join(d, 'none.json'))).toEqual({});
    writeFileSync(join(d, 'bad.json'), '{"version":1,"usage":');
    expect(() => FileUsageStore.open(join(d, 'bad.json'))).toThrow(/bad\.json is not JSON/);
    // The failed open released its lock: the file can be opened once repaired.
    writeFileSync(join(d, 'bad.json'), '{"version":1,"usage":{}}');
    FileUsageStore.open(join(d, 'bad.json')).close();
    writeFileSync(join(d, 'v.json'), '{"version":3,"usage":{}}');
    expect(() => readUsageFile(join(d, 'v.json'))).toThrow(/unknown version 3/);
    writeFileSync(join(d, 'p.json'), '{"version":1,"usage":{"k":{"2025":{"requests":{},"sessions":0,"billable":0}}}}');
    expect(() => readUsageFile(join(d, 'p.json'))).toThrow(/not YYYY-MM/);
  });
});

describe('file store lock: one process per usage file', () => {
  it('a second open refuses, in this process and in another one, naming the holder', () => {
    const path = join(tmp(), 'usage.json');
    const a = FileUsageStore.open(path);
    try {
      expect(() => FileUsageStore.open(path)).toThrow(/already open in this process/);
      const other = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import('${USAGE_FILE}').then((m) => m.FileUsageStore.open(${JSON.stringify(path)}))`,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(other.status).not.toBe(0);
      expect(other.stderr).toContain(`usage file ${path} is in use by process ${process.pid} on ${hostname()}`);
      expect(other.stderr).toContain(`${path}.lock`);
    } finally {
      a.close();
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a lock left by a dead process of this host is taken over; one from another host is not', () => {
    const path = join(tmp(), 'usage.json');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({ pid: Number(dead.stdout), host: hostname(), since: '2025-01-01T00:00:00.000Z' }),
    );
    const a = FileUsageStore.open(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    a.close();
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({ pid: 1, host: 'elsewhere.example', since: '2025-01-01T00:00:00.000Z' }),
    );
    expect(() => FileUsageStore.open(path)).toThrow(
      /in use by process 1 on elsewhere\.example .*remove .*usage\.json\.lock if that process is gone/,
    );
  });
});

describe('file store failures: counts kept, retried with backoff, reported; nothing thrown', () => {
  it('a journal that cannot be written (ENOSPC) keeps counting in memory and catches up once it can', async () => {
    const d = tmp();
    const path = join(d, 'usage.json');
    const problems: (string | null)[] = [];
    const a = FileUsageStore.open(path, { compactBytes: 100, onProblem: (m) => problems.push(m) });
    // The journal becomes the "disk full" device (every write fails with ENOSPC): the store reopens its journal after
    // the compaction the next lines start.
    rmSync(`${path}.journal`);
    symlinkSync('/dev/full', `${path}.journal`);
    let admitted = 0;
    await until(() => {
      expect(a.admit(req('k'))).toBe('ok');
      admitted++;
      return /cannot be written \(ENOSPC/.test(a.problem() ?? '');
    });
    for (let i = 0; i < 5; i++) expect(a.admit(req('k'))).toBe('ok');
    expect(
      problems.some((m) =>
        /journal cannot be written \(ENOSPC.*; counts are kept in memory and retried$/.test(m ?? ''),
      ),
    ).toBe(true);
    // The disk has room again: a retry within the backoff writes the waiting lines.
    rmSync(`${path}.journal`);
    await until(() => a.problem() === null);
    expect(problems.at(-1)).toBeNull();
    expect(readUsageFile(path).k!['2025-05']!.billable).toBe(admitted + 5);
    a.close();
  });

  it('a usage file that cannot be replaced is retried; the journal keeps the counts meanwhile', async () => {
    const d = tmp();
    const path = join(d, 'usage.json');
    const a = FileUsageStore.open(path, { compactBytes: 100 });
    rmSync(path);
    mkdirSync(path); // rename onto a directory fails (EISDIR)
    for (let i = 0; i < 10; i++) expect(a.admit(req('k'))).toBe('ok');
    await until(() => a.problem() !== null);
    expect(a.problem()).toMatch(/usage\.json cannot be written/);
    rmSync(path, { recursive: true });
    await until(() => a.problem() === null);
    expect(JSON.parse(readFileSync(path, 'utf8')).usage.k['2025-05'].billable).toBe(10);
    a.close();
  });

  /**
   * A store whose disk is full for both files: its journal turns into /dev/full (reopened by the compaction the
   * first lines start, as in the test above), then its usage file cannot be replaced (a directory in its place),
   * and 1,200 more requests are admitted. Resolves with the store, its path and the problems told.
   */
  async function fullDisk() {
    const d = tmp();
    const path = join(d, 'usage.json');
    const problems: (string | null)[] = [];
    const store = FileUsageStore.open(path, { compactBytes: 100, onProblem: (m) => problems.push(m) });
    rmSync(`${path}.journal`);
    symlinkSync('/dev/full', `${path}.journal`);
    let admitted = 0;
    await until(() => {
      expect(store.admit(req('k', { monthlyQuota: 100_000 }))).toBe('ok');
      admitted++;
      return /cannot be written \(ENOSPC/.test(store.problem() ?? '');
    });
    rmSync(path);
    mkdirSync(path);
    for (let i = 0; i < 1200; i++) expect(store.admit(req('k', { monthlyQuota: 100_000 }))).toBe('ok');
    return { store, path, problems, admitted: admitted + 1200 };
  }

  it('close (SIGTERM) while the disk is full retries, writing every count once it can (issue 39)', async () => {
    const { store, path, problems, admitted } = await fullDisk();
    // Room comes back 0.3 s into the close (another process frees it while this one waits between its tries).
    spawnSync('sh', ['-c', `(sleep 0.3; rm -rf '${path}' '${path}.journal') >/dev/null 2>&1 &`]);
    store.close();
    expect(readUsageFile(path).k!['2025-05']!.billable).toBe(admitted);
    expect(problems.filter((m) => m !== null && /at close/.test(m))).toEqual([]);
  });

  it('close with the disk full for good reports how many counts were not written', async () => {
    const { store, problems } = await fullDisk();
    store.close();
    const told =
      /cannot be written at close after 5 tries .*; (\d+) counts \((\d+) billable units\) were not written and are lost$/.exec(
        problems.at(-1) ?? '',
      );
    expect(told).not.toBeNull();
    expect(Number(told![1])).toBeGreaterThanOrEqual(1200);
    expect(told![2]).toBe(told![1]);
  });

  it('running out of file descriptors (EMFILE) never ends the process; the counts are written once it can', () => {
    const d = tmp();
    const script = join(d, 'emfile.mts');
    writeFileSync(
      script,
      `import { openSync, closeSync } from 'node:fs';
import { FileUsageStore, readUsageFile } from '${USAGE_FILE}';
const path = ${JSON.stringify(join(d, 'usage.json'))};
const store = FileUsageStore.open(path, { compactBytes: 1, syncMs: 50, onProblem: (m) => console.error('problem:', m) });
const held = [];
const fill = () => { try { for (;;) held.push(openSync('/dev/null', 'r')); } catch (e) { if (e.code !== 'EMFILE') throw e; } };
// Descriptors the loader still has open (module files read off this thread) close a little later: take those too,
// until none has come free for a while, so the store's compaction really finds none.
for (let quiet = 0; quiet < 10; quiet++) { const n = held.length; fill(); if (held.length > n) quiet = 0; await new Promise((r) => setTimeout(r, 20)); }
fill();
for (let i = 0; i < 30; i++) store.admit({ key: 'k', period: '2025-05', endpoint: 'direction', units: 1, monthlyQuota: 1000, nowMs: 0 });
for (let i = 0; i < 200 && store.problem() === null; i++) await new Promise((r) => setTimeout(r, 50));
const during = store.problem();
for (const fd of held) closeSync(fd);
for (let i = 0; i < 100 && store.problem() !== null; i++) await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify({ during, after: store.problem(), file: JSON.parse((await import('node:fs')).readFileSync(path, 'utf8')).usage.k['2025-05'].billable, read: readUsageFile(path).k['2025-05'].billable }));
store.close();
`,
    );
    const r = spawnSync('bash', ['-c', `ulimit -n 256 && exec "${process.execPath}" --import tsx "${script}"`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    expect(out.during).toMatch(/EMFILE/);
    expect(out).toMatchObject({ after: null, file: 30, read: 30 });
  });
});

/** Waits until `done()` holds, polling every 20 ms, for at most 10 s (then the test fails). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(done()).toBe(true);
}
