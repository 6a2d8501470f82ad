/**
 * Lazily opened pack files (issue 14, `verify: false`): the engine answers as with a fully read and verified pack;
 * a corrupt section fails only the request that reads it, naming the file and the section; a truncated file is
 * refused at load.
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

describe('a pack file opened with verify: false', () => {
  it('answers as the same pack read whole and verified', async () => {
    const file = join(dir, 'hcmc.pack');
    writeFileSync(file, bytes);
    const lazy = await createEngine({ packs: [file], verify: false, wasm: false });
    const whole = await createEngine({ packs: [file], wasm: false });
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
    const engine = await createEngine({ packs: [file], verify: false, wasm: false });
    const r = engine.direction(trip) as { status: string; error_message?: string };
    expect(r.status).toBe('ERROR');
    expect(r.error_message).toMatch(/corrupt\.pack: corrupt: checksum of section "graph\.edge\.len" does not match/);
    // The default still refuses it at load.
    await expect(createEngine({ packs: [file], wasm: false })).rejects.toThrow(/corrupt\.pack: corrupt: checksum/);
  });

  it('refuses a truncated file at load', async () => {
    const file = join(dir, 'short.pack');
    writeFileSync(file, bytes.subarray(0, bytes.length - 8));
    await expect(createEngine({ packs: [file], verify: false })).rejects.toThrow(/short\.pack: truncated/);
    writeFileSync(file, bytes.subarray(0, 10));
    await expect(createEngine({ packs: [file], verify: false })).rejects.toThrow(/short\.pack: truncated/);
  });
});
