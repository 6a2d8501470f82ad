import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/adapters/cli/args.js';
import { keysCommand } from '../src/adapters/cli/keys.js';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { keyTextProblem, type ApiKey } from '../src/adapters/http/keys.js';
import { FileUsageStore, readUsageFile } from '../src/adapters/http/usage-file.js';
import { createRedisUsageStore } from '../src/adapters/http/usage-redis.js';
import { MemoryUsageStore, type UsageReport, type UsageStore } from '../src/adapters/http/usage.js';
import { createEngine } from '../src/engine.js';
import { keyNames } from './helpers/key-names.js';
import { startRedis, type TestRedis } from './helpers/redis.js';

// Issue 39 items 1 and 2: any key text is stored and counted alone; concurrent `keys create` lose no key.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bando-key-names-'));
let redis: TestRedis | undefined;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await redis?.dispose();
});

const engine = await createEngine();
const ADDRESS = encodeURIComponent('Hàng Bài, Hoàn Kiếm');

/** Calls geocode with `key` through the REST handler; the HTTP status. */
async function call(handle: ReturnType<typeof createRestHandler>, key: string): Promise<number> {
  const reply = await handle({
    method: 'GET',
    url: `https://maps.test/Geocode?address=${ADDRESS}&api_key=${encodeURIComponent(key)}`,
    header: () => null,
  });
  return reply.status;
}

/** The count each key should have: 1 to 3 requests, from its position. */
const callsOf = (i: number) => 1 + (i % 3);

/** Checks that `report` holds exactly `names[i]` → callsOf(i) billable geocode requests in one period, nothing else. */
function expectAlone(report: UsageReport, names: string[]): void {
  expect(Object.keys(report).sort()).toEqual([...names].sort());
  let merged = 0;
  names.forEach((name, i) => {
    const periods = Object.entries(report[name]!);
    const ok =
      periods.length === 1 &&
      periods[0]![1].billable === callsOf(i) &&
      periods[0]![1].requests.geocode === callsOf(i) &&
      Object.keys(periods[0]![1].requests).length === 1;
    if (!ok) merged++;
  });
  expect(merged).toBe(0);
}

describe('key names: any key text is counted alone (item 1)', () => {
  it('a key named __proto__ does not share its counts: an unrelated key with quota 5 gets exactly 5', async () => {
    const handle = createRestHandler(engine, {
      keys: [{ key: '__proto__', monthlyQuota: 100 }, { key: 'constructor' }, { key: 'other', monthlyQuota: 5 }],
    });
    for (let i = 0; i < 10; i++) expect(await call(handle, '__proto__')).toBe(200);
    const other: number[] = [];
    for (let i = 0; i < 7; i++) other.push(await call(handle, 'other'));
    expect(other).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await call(handle, 'constructor')).toBe(200);
    expect(({} as Record<string, unknown>)['2026-01']).toBeUndefined();
  });

  it.each([
    ['memory', (): UsageStore => new MemoryUsageStore()],
    ['file', (): UsageStore => FileUsageStore.open(join(dir, `names-${Math.random()}.usage.json`))],
    ['redis', async (): Promise<UsageStore> => createRedisUsageStore((redis ??= await startRedis()).url)],
  ])('0 counter merges across 1,000 random key names with every Object.prototype name (%s store)', async (_, make) => {
    const names = keyNames(1000, 39);
    expect(names.filter((n) => keyTextProblem(n) !== null)).toEqual([]);
    const usage = await make();
    const keys: ApiKey[] = names.map((key) => ({ key, monthlyQuota: callsOf(names.indexOf(key)) }));
    const handle = createRestHandler(engine, { keys, usage });
    const statuses = new Map<number, number>();
    for (let i = 0; i < names.length; i++)
      // One call more than the quota: the last is refused, whatever any other key did.
      for (let c = 0; c <= callsOf(i); c++) {
        const status = await call(handle, names[i]!);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    const admitted = names.reduce((sum, _, i) => sum + callsOf(i), 0);
    expect(Object.fromEntries(statuses)).toEqual({ 200: admitted, 429: names.length });
    expectAlone(await usage.report(), names);
    if (usage instanceof FileUsageStore) {
      // Read back from the journal (before close) and from the usage file (after).
      expectAlone(readUsageFile(usage.path), names);
      usage.close();
      expectAlone(readUsageFile(usage.path), names);
    } else await usage.close?.();
  });

  it('keys create refuses malformed key texts with a clear message and stores a prototype name alone', async () => {
    const file = join(dir, 'refuse.json');
    const create = (...extra: string[]) =>
      keysCommand.run(parseArgs(['create', '--keys', file, ...extra], keysCommand.flags));
    const write = process.stdout.write;
    process.stdout.write = () => true;
    try {
      for (const [bad, why] of [
        ['a b', /--key must not hold spaces, control or invisible characters/],
        ['a\u0000b', /--key must not hold spaces, control or invisible characters/],
        ['a\u200bb', /--key must not hold spaces, control or invisible characters/],
        ['x'.repeat(257), /--key must be 1 to 256 characters long/],
        ['', /--key must be 1 to 256 characters long/],
      ] as const)
        await expect(create('--key', bad)).rejects.toThrow(why);
      await create('--key', '__proto__');
      await create('--key', 'constructor');
      await expect(create('--key', '__proto__')).rejects.toThrow(/key __proto__ is already in/);
    } finally {
      process.stdout.write = write;
    }
    const stored = (JSON.parse(readFileSync(file, 'utf8')) as { keys: ApiKey[] }).keys.map((k) => k.key);
    expect(stored).toEqual(['__proto__', 'constructor']);
  });
});

describe('keys create under the keys file lock (item 2)', () => {
  it('20 processes each creating 10 keys at once leave all 200 keys in the file', async () => {
    const file = join(dir, 'concurrent.json');
    const child = join(ROOT, 'test/helpers/keys-create-child.ts');
    // Start together once every child has loaded (≈ 1 s each on a busy machine).
    const startAt = String(Date.now() + 4000);
    const outputs = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<string>((resolve, reject) => {
            const p = spawn(process.execPath, ['--import', 'tsx', child, file, '10', startAt], { cwd: ROOT });
            let out = '';
            let err = '';
            p.stdout.on('data', (d: Buffer) => (out += d));
            p.stderr.on('data', (d: Buffer) => (err += d));
            p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`))));
          }),
      ),
    );
    const printed = outputs.flatMap((o) => o.trim().split('\n'));
    expect(printed).toHaveLength(200);
    const stored = (JSON.parse(readFileSync(file, 'utf8')) as { keys: ApiKey[] }).keys.map((k) => k.key);
    expect(stored.length).toBe(200);
    expect(new Set(stored)).toEqual(new Set(printed));
  }, 120_000);
});
