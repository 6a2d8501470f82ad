/**
 * Lazily opened and lazily checked packs (issue 14, the default `verify: 'lazy'`): the engine answers as with a fully
 * read and verified pack; a corrupt section fails only the requests that read it, naming the file and the section,
 * and its bytes are never used; a truncated file is refused at load, naming the file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { testPack } from './helpers/packs.js';

const dir = mkdtempSync(join(tmpdir(), 'bando-lazy-'));
const bytes = testPack('hcmc');
const trip = { origin: '10.7769,106.7009', destination: '10.7870,106.6880' };

describe('a pack opened with the default lazy checks', () => {
  it('answers as the same pack read whole and verified', async () => {
    const file = join(dir, 'hcmc.pack');
    writeFileSync(file, bytes);
    const lazy = await createEngine({ packs: [file], wasm: false });
    const whole = await createEngine({ packs: [file], verify: true, wasm: false });
    expect(lazy.info().packs[0]!.bytes).toBe(bytes.length);
    const got = lazy.direction(trip);
    expect(got.status).toBe('OK');
    expect(got).toEqual(whole.direction(trip));
    expect(lazy.geocode({ latlng: trip.origin })).toEqual(whole.geocode({ latlng: trip.origin }));
  });

  it('fails the request that reads a corrupt section, naming the file and the section', async () => {
    const e = Pack.from(bytes).sections.get('graph.edge.len')!;
    const corrupt = bytes.slice();
    corrupt[e.offset + (e.byteLength >> 1)]! ^= 0x10;
    const file = join(dir, 'corrupt.pack');
    writeFileSync(file, corrupt);
    const named = /corrupt\.pack: corrupt: checksum of section "graph\.edge\.len" does not match/;
    const engine = await createEngine({ packs: [file], wasm: false });
    for (let i = 0; i < 2; i++) {
      const r = engine.direction(trip) as { status: string; error_message?: string };
      expect(r.status).toBe('ERROR');
      expect(r.error_message).toMatch(named);
    }
    // The same bytes given in memory are checked on first use too.
    const inMemory = await createEngine({ packs: [corrupt], wasm: false });
    expect((inMemory.direction(trip) as { error_message?: string }).error_message).toMatch(
      /pack bytes: corrupt: checksum of section "graph\.edge\.len"/,
    );
    // verify: true refuses it at load.
    await expect(createEngine({ packs: [file], verify: true, wasm: false })).rejects.toThrow(
      /corrupt\.pack: corrupt: checksum/,
    );
  });

  it('refuses a truncated file at load', async () => {
    const file = join(dir, 'short.pack');
    writeFileSync(file, bytes.subarray(0, bytes.length - 8));
    await expect(createEngine({ packs: [file] })).rejects.toThrow(/short\.pack: truncated/);
    writeFileSync(file, bytes.subarray(0, 10));
    await expect(createEngine({ packs: [file] })).rejects.toThrow(/short\.pack: truncated/);
  });
});
