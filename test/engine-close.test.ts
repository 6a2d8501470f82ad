/**
 * engine.close() and `await using`: a closed engine holds no pack file open and answers every endpoint with its own
 * ERROR status naming the closed engine (never an exception, never an answer from released state).
 */
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { METHOD_NAMES, type MethodName } from '../src/adapters/http/routes.js';
import { httpStatusOfBody } from '../src/api/statuses.js';

const PACK = fileURLToPath(new URL('../packs/hanoi.pack', import.meta.url));
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
/** A query per endpoint that the open engine answers OK. */
const QUERIES: Record<MethodName, Record<string, string>> = {
  geocode: { address: 'Hàng Bài, Hoàn Kiếm' },
  autocomplete: { input: 'Hoàn Kiếm' },
  placeDetail: { place_id: '' },
  direction: { origin: A, destination: B },
  distanceMatrix: { origins: A, destinations: B },
  trip: { waypoints: `${A};${B}` },
  staticRoute: { origin: A, destination: B, width: '64', height: '64' },
};

/** This process's open descriptors that are the pack file (Linux /proc). */
const packFds = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === PACK;
    } catch {
      return false;
    }
  }).length;

describe('engine.close()', () => {
  it('every endpoint answers OK before and its ERROR naming the closed engine after; info() throws it', async () => {
    const engine = await createEngine();
    const id = engine.autocomplete({ input: 'Hàng Bài' }).predictions[0]!.place_id;
    const queries = { ...QUERIES, placeDetail: { place_id: id } };
    for (const m of METHOD_NAMES) {
      const r = (await engine[m](queries[m] as never)) as object;
      if (!(r instanceof Uint8Array)) expect(httpStatusOfBody(r), m).toBe(200);
    }
    await engine.close();
    expect(engine.closed).toBe(true);
    for (const m of METHOD_NAMES) {
      const r = (await engine[m](queries[m] as never)) as Record<string, unknown>;
      expect(r, m).not.toBeInstanceOf(Uint8Array);
      expect(r.status ?? r.code, m).toBe('ERROR');
      expect(String(r.error_message ?? r.message), m).toMatch(/the engine was closed \(engine\.close\(\)\)/);
      expect(httpStatusOfBody(r), m).toBe(500);
    }
    expect(() => engine.info()).toThrow(/the engine was closed/);
    await engine.close(); // idempotent
  });

  it.skipIf(!existsSync('/proc/self/fd'))('closes the pack files it opened; `await using` closes too', async () => {
    const before = packFds();
    {
      await using engine = await createEngine({ packs: [PACK], verify: 'lazy' });
      expect(engine.direction({ origin: A, destination: B }).status).toBe('OK');
      expect(packFds()).toBe(before + 1);
    }
    expect(packFds()).toBe(before);
  });
});
