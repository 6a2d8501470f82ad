import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRestHandler, type RestHandler } from '../src/adapters/http/handler.js';
import { SESSION_IDLE_MS, SESSION_MAX_AGE_MS, SESSION_MAX_REQUESTS } from '../src/adapters/http/sessions.js';
import { createRedisUsageStore } from '../src/adapters/http/usage-redis.js';
import { MemoryUsageStore, type UsageStore } from '../src/adapters/http/usage.js';
import { createEngine } from '../src/engine.js';
import { startRedis, type TestRedis } from './helpers/redis.js';

// Issue 39 item 4: sessions as rest-api.md's billing definitions 2 and 3 say, with an end; past the quota refused;
// malformed tokens refused before billing and never stored. Each case runs on the memory and the Redis store.

const engine = await createEngine();
let redis: TestRedis | undefined;
const stores: UsageStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close?.();
  await redis?.dispose();
});

const STORES = [
  ['memory', async (): Promise<UsageStore> => new MemoryUsageStore()],
  [
    'redis',
    async (): Promise<UsageStore> => {
      const s = await createRedisUsageStore((redis ??= await startRedis()).url, { prefix: `s${stores.length}:` });
      stores.push(s);
      return s;
    },
  ],
] as const;

/** A handler with key `k` (quota `quota`) on `usage`, its clock at `clock.now` (ms). */
function setup(usage: UsageStore, quota: number, clock: { now: number }): RestHandler {
  return createRestHandler(engine, { keys: [{ key: 'k', monthlyQuota: quota }], usage, now: () => clock.now });
}

async function get(h: RestHandler, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await h({ method: 'GET', url: `https://maps.test${path}&api_key=k`, header: () => null });
  return { status: r.status, body: JSON.parse(String(r.body)) as Record<string, unknown> };
}
const ac = (h: RestHandler, token?: string) =>
  get(h, `/Place/AutoComplete?input=${encodeURIComponent('Hoàn Kiếm')}${token ? `&sessiontoken=${token}` : ''}`);

const T0 = Date.UTC(2026, 10, 2);
const billable = async (usage: UsageStore) => (await usage.report()).k?.['2026-11']?.billable ?? 0;

describe.each(STORES)('sessions (%s store)', (_, make) => {
  it('80 autocomplete calls on one token: one session covers the first 50, the other 30 bill individually', async () => {
    const usage = await make();
    const clock = { now: T0 };
    const h = setup(usage, 1000, clock);
    for (let i = 0; i < 80; i++) {
      clock.now += 1000;
      expect((await ac(h, 'T-80')).status).toBe(200);
    }
    expect(SESSION_MAX_REQUESTS).toBe(50);
    expect((await usage.report()).k!['2026-11']).toEqual({
      requests: { autocomplete: 80 },
      sessions: 1,
      billable: 1 + 80 - SESSION_MAX_REQUESTS,
    });
  });

  it('a session ends with its place detail, after its idle time and after its life; later calls bill each', async () => {
    const usage = await make();
    const clock = { now: T0 };
    const h = setup(usage, 1000, clock);
    const first = await ac(h, 'D');
    const id = (first.body.predictions as { place_id: string }[])[0]!.place_id;
    expect((await get(h, `/Place/Detail?place_id=${encodeURIComponent(id)}&sessiontoken=D`)).status).toBe(200);
    expect(await billable(usage)).toBe(1); // the session's unit; the detail ended it at no cost
    await ac(h, 'D');
    await ac(h, 'D');
    expect(await billable(usage)).toBe(3);
    // Idle: a request just inside the idle time is free, one after it bills.
    await ac(h, 'I');
    clock.now += SESSION_IDLE_MS;
    await ac(h, 'I');
    expect(await billable(usage)).toBe(4);
    clock.now += SESSION_IDLE_MS + 1;
    await ac(h, 'I');
    expect(await billable(usage)).toBe(5);
    // Life: a request every 4 minutes keeps the session from idling, but not past its life.
    const start = clock.now;
    await ac(h, 'L');
    while (clock.now - start <= SESSION_MAX_AGE_MS) {
      expect(await billable(usage)).toBe(6);
      clock.now += 4 * 60_000;
      await ac(h, 'L');
    }
    expect(await billable(usage)).toBe(7);
  });

  it('once the quota is used, calls of an open session get 429 like any other', async () => {
    const usage = await make();
    const clock = { now: T0 };
    const h = setup(usage, 3, clock);
    expect((await ac(h, 'Q')).status).toBe(200); // starts the session: 1 unit
    expect((await ac(h, 'Q')).status).toBe(200); // inside it: free
    expect((await ac(h)).status).toBe(200);
    expect((await ac(h)).status).toBe(200); // 3 of 3 units used
    const past = await ac(h, 'Q');
    expect(past.status).toBe(429);
    expect(past.body.status).toBe('OVER_RATE_LIMIT');
    expect((await ac(h, 'new')).status).toBe(429);
    expect((await usage.report()).k!['2026-11']).toEqual({
      requests: { autocomplete: 4 },
      sessions: 1,
      billable: 3,
    });
  });

  it('malformed tokens get 400 naming sessiontoken, are not billed and are never stored', async () => {
    const usage = await make();
    const clock = { now: T0 };
    const h = setup(usage, 1000, clock);
    for (const token of ['x'.repeat(257), 'a%01b', 'a%0Ab', 'a%7Fb']) {
      for (const path of [
        `/Place/AutoComplete?input=Ho&sessiontoken=${token}`,
        `/Place/Detail?place_id=x&sessiontoken=${token}`,
      ]) {
        const r = await get(h, path);
        expect(r.status).toBe(400);
        expect(r.body.status).toBe('BAD_REQUEST');
        expect(String(r.body.error_message)).toMatch(/sessiontoken/);
      }
    }
    expect(await usage.report()).toEqual({});
    if (redis && usage !== undefined && !(usage instanceof MemoryUsageStore)) {
      const client = new Redis(redis.url);
      try {
        expect(await client.keys(`s${stores.length - 1}:*`)).toEqual([]);
      } finally {
        client.disconnect();
      }
    }
  });
});
