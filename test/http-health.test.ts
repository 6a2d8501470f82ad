import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRestHandler, type RestHandler } from '../src/adapters/http/handler.js';
import { FileUsageStore } from '../src/adapters/http/usage-file.js';
import { createRedisUsageStore } from '../src/adapters/http/usage-redis.js';
import { watchPacks } from '../src/adapters/http/pack-health.js';
import { createEngine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { testPack } from './helpers/packs.js';
import { until } from './helpers/until.js';
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

  it('a corrupt section of a lazily checked pack turns it 503 naming the pack and the section, before any request reads it', async () => {
    const bytes = testPack('hcmc');
    const sections = [...Pack.from(bytes).sections.values()];
    // The last section in the table: the background check reaches it last, and no request here reads it.
    const e = sections.at(-1)!;
    const corrupt = bytes.slice();
    corrupt[e.offset + (e.byteLength >> 1)]! ^= 0x10;
    const file = join(dir, 'lazy-corrupt.pack');
    writeFileSync(file, corrupt);
    // Lazy: the engine loads the corrupt pack (verify: true would refuse it) and answers from its sound sections.
    const lazy = await createEngine({ packs: [file], verify: 'lazy', wasm: false });
    await expect(createEngine({ packs: [file], verify: true, wasm: false })).rejects.toThrow(/checksum/);
    const pack = lazy.regions[0]!.pack;
    // Small chunks: the check takes many event-loop turns, as it does for a pack of gigabytes.
    const packs = watchPacks([pack], 64 * 1024);
    const h = createRestHandler(lazy, { keys: [{ key: 'k' }], packs: packs.problem });
    try {
      await until(() => pack.problem !== null);
      const failing = await healthz(h);
      expect(failing.status).toBe(503);
      expect(failing.body.error_message).toBe(
        `packs: ${file}: corrupt: checksum of section "${e.name}" does not match`,
      );
      expect(failing.body.checks).toMatchObject({ engine: 'OK', packs: expect.stringContaining(e.name) });
    } finally {
      packs.stop();
    }
    // The same pack whole: every section checked in the background, none found corrupt, 200.
    const soundFile = join(dir, 'lazy-sound.pack');
    writeFileSync(soundFile, bytes);
    const sound = (await createEngine({ packs: [soundFile], verify: 'lazy', wasm: false })).regions[0]!.pack;
    let chunks = 0;
    for (const _ of sound.verifyRemaining(64 * 1024)) chunks++;
    expect(chunks).toBeGreaterThanOrEqual(sections.length / 2);
    expect(sound.problem).toBeNull();
    const fine = createRestHandler(lazy, { keys: [{ key: 'k' }], packs: () => sound.problem });
    expect(await healthz(fine)).toMatchObject({ status: 200, body: { checks: { packs: 'OK' } } });
  });

  it('a corrupt section a request read counts at once, without the background check', async () => {
    const bytes = testPack('hcmc');
    const e = Pack.from(bytes).sections.get('graph.edge.len')!;
    const corrupt = bytes.slice();
    corrupt[e.offset + (e.byteLength >> 1)]! ^= 0x10;
    const file = join(dir, 'used-corrupt.pack');
    writeFileSync(file, corrupt);
    const lazy = await createEngine({ packs: [file], verify: 'lazy', wasm: false });
    const pack = lazy.regions[0]!.pack;
    const h = createRestHandler(lazy, { keys: [{ key: 'k' }], packs: () => pack.problem });
    expect((await healthz(h)).status).toBe(200);
    const r = lazy.direction({ origin: '10.7769,106.7009', destination: '10.7870,106.6880' });
    expect(r.status).toBe('ERROR');
    const failing = await healthz(h);
    expect(failing.status).toBe(503);
    expect(failing.body.error_message).toBe(
      `packs: ${file}: corrupt: checksum of section "graph.edge.len" does not match`,
    );
  });
});
