import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRestHandler, type RestHandler } from '../src/adapters/http/handler.js';
import { FileUsageStore } from '../src/adapters/http/usage-file.js';
import { createRedisUsageStore } from '../src/adapters/http/usage-redis.js';
import { createEngine } from '../src/engine.js';
import { startRedis, type TestRedis } from './helpers/redis.js';

// Issue 39 item 6: /healthz checks each dependency live and names the one that fails.

const engine = await createEngine();
const dir = mkdtempSync(join(tmpdir(), 'bando-health-'));
let redis: TestRedis | undefined;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await redis?.dispose();
});

async function healthz(h: RestHandler): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await h({ method: 'GET', url: 'http://bando.test/healthz', header: () => null });
  return { status: r.status, body: JSON.parse(String(r.body)) as Record<string, unknown> };
}

describe('/healthz checks its dependencies live', () => {
  it('a stalled Redis (connected, not answering) turns it 503 naming the usage store, and back once it answers', async () => {
    redis = await startRedis();
    const usage = await createRedisUsageStore(redis.url, { prefix: 'health:' });
    const admin = new Redis(redis.url);
    const pid = Number(/process_id:(\d+)/.exec(await admin.info('server'))![1]);
    admin.disconnect();
    const h = createRestHandler(engine, { keys: [{ key: 'k' }], usage });
    try {
      expect(await healthz(h)).toMatchObject({ status: 200, body: { status: 'OK' } });
      process.kill(pid, 'SIGSTOP');
      const t0 = performance.now();
      const stalled = await healthz(h);
      const downMs = performance.now() - t0;
      expect(stalled.status).toBe(503);
      expect(stalled.body.error_message).toBe('usage: no answer within 1000 ms');
      process.kill(pid, 'SIGCONT');
      const t1 = performance.now();
      const back = await healthz(h);
      const upMs = performance.now() - t1;
      expect(back).toMatchObject({ status: 200, body: { checks: { engine: 'OK', usage: 'OK' } } });
      // Measured, not asserted (wall-clock): how long each answer took.
      console.info(
        `healthz: 503 after a Redis stall in ${downMs.toFixed(0)} ms, 200 after it in ${upMs.toFixed(0)} ms`,
      );
    } finally {
      process.kill(pid, 'SIGCONT');
      await usage.close();
    }
  });

  it('a deleted usage folder turns it 503 naming the folder; a folder made again turns it back', async () => {
    const folder = join(dir, 'usage');
    mkdirSync(folder);
    const usage = FileUsageStore.open(join(folder, 'keys.usage.json'));
    const h = createRestHandler(engine, { keys: [{ key: 'k' }], usage });
    expect((await healthz(h)).status).toBe(200);
    rmSync(folder, { recursive: true, force: true });
    const gone = await healthz(h);
    expect(gone.status).toBe(503);
    expect(gone.body.error_message).toMatch(new RegExp(`^usage: usage folder ${folder} cannot be written`));
    mkdirSync(folder);
    expect((await healthz(h)).status).toBe(200);
    usage.close();
  });
});
