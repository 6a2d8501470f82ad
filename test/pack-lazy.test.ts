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
import { loadPack } from '../src/pack/load.js';
import { Pack } from '../src/pack/reader.js';
import { testPack } from './helpers/packs.js';

const dir = mkdtempSync(join(tmpdir(), 'bando-lazy-'));
const bytes = testPack('hcmc', { hierarchies: true });
const trip = { origin: '10.7769,106.7009', destination: '10.7870,106.6880' };

describe('a pack opened with lazy checks (the default above 64 MB)', () => {
  it('answers as the same pack read whole and verified', async () => {
    const file = join(dir, 'hcmc.pack');
    writeFileSync(file, bytes);
    const lazy = await createEngine({ packs: [file], verify: 'lazy', wasm: false });
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
    const engine = await createEngine({ packs: [file], verify: 'lazy', wasm: false });
    for (let i = 0; i < 2; i++) {
      const r = engine.direction(trip) as { status: string; error_message?: string };
      expect(r.status).toBe('ERROR');
      expect(r.error_message).toMatch(named);
    }
    // The same bytes given in memory are checked on first use too.
    const inMemory = await createEngine({ packs: [corrupt], verify: 'lazy', wasm: false });
    expect((inMemory.direction(trip) as { error_message?: string }).error_message).toMatch(
      /pack bytes: corrupt: checksum of section "graph\.edge\.len"/,
    );
    // verify: true, and the default for a pack this size, refuse it at load.
    for (const verify of [true, undefined])
      await expect(createEngine({ packs: [file], verify, wasm: false })).rejects.toThrow(
        /corrupt\.pack: corrupt: checksum/,
      );
  });

  it("reads a hierarchy's records straight into the WebAssembly core, answering as the whole pack in TypeScript", async () => {
    const file = join(dir, 'hcmc-wasm.pack');
    writeFileSync(file, bytes);
    const lazy = await createEngine({ packs: [file], verify: 'lazy' });
    const whole = await createEngine({ packs: [bytes], verify: true, wasm: false });
    expect(lazy.info().packs[0]!.routing).toBe('hierarchies');
    for (const vehicle of ['car', 'bike'] as const) {
      const got = lazy.direction({ ...trip, vehicle });
      expect(got.status).toBe('OK');
      expect(got).toEqual(whole.direction({ ...trip, vehicle }));
    }
    expect(lazy.info().packs[0]!.routeCore).toEqual({ core: 'wasm', reason: null });
  });

  it('fails the request whose hierarchy section is corrupt, naming it, when the core reads it into its memory', async () => {
    const pack = Pack.from(bytes);
    const e = pack.sections.get('ch.0.node')!;
    const corrupt = bytes.slice();
    corrupt[e.offset + (e.byteLength >> 1)]! ^= 0x10;
    const file = join(dir, 'corrupt-ch.pack');
    writeFileSync(file, corrupt);
    const engine = await createEngine({ packs: [file], verify: 'lazy' });
    const r = engine.direction(trip) as { status: string; error_message?: string };
    expect(r.status).toBe('ERROR');
    expect(r.error_message).toMatch(/corrupt-ch\.pack: corrupt: checksum of section "ch\.0\.node" does not match/);
  });

  it('reads a section afresh with arrayOnce, not keeping it, and checks the speeds as every section is', async () => {
    const file = join(dir, 'speeds.pack');
    writeFileSync(file, bytes);
    const pack = await loadPack(file, { verify: 'lazy' });
    const want = Pack.from(bytes).array<Uint32Array>('graph.edge.len');
    const first = pack.arrayOnce<Uint32Array>('graph.edge.len');
    const room = new Uint8Array(want.byteLength + 16);
    const second = pack.arrayOnce<Uint32Array>('graph.edge.len', (n) => room.subarray(8, 8 + n));
    expect(first).toEqual(want);
    expect(second).toEqual(want);
    // Read into the room given, and a new read each time: the pack holds neither.
    expect(second.buffer).toBe(room.buffer);
    expect(pack.arrayOnce<Uint32Array>('graph.edge.len').buffer).not.toBe(first.buffer);
    // A pack in memory gives its view.
    const inMemory = Pack.from(bytes);
    expect(inMemory.arrayOnce('graph.edge.len').buffer).toBe(inMemory.array('graph.edge.len').buffer);
    const e = Pack.from(bytes).sections.get('graph.speedRows')!;
    const corrupt = bytes.slice();
    corrupt[e.offset + (e.byteLength >> 1)]! ^= 0x10;
    writeFileSync(file, corrupt);
    const engine = await createEngine({ packs: [file], verify: 'lazy', wasm: false });
    const r = engine.direction(trip) as { status: string; error_message?: string };
    expect(r.status).toBe('ERROR');
    expect(r.error_message).toMatch(/speeds\.pack: corrupt: checksum of section "graph\.speedRows" does not match/);
  });

  it('refuses a truncated file at load', async () => {
    const file = join(dir, 'short.pack');
    writeFileSync(file, bytes.subarray(0, bytes.length - 8));
    await expect(createEngine({ packs: [file] })).rejects.toThrow(/short\.pack: truncated/);
    writeFileSync(file, bytes.subarray(0, 10));
    await expect(createEngine({ packs: [file] })).rejects.toThrow(/short\.pack: truncated/);
  });
});
