/**
 * Pack files read once into shared memory (`bando serve`: its engine workers and its tile thread open the same bytes):
 * the engine answers as over the file itself, its sections are views of the shared bytes (no copy), and a missing,
 * odd or corrupt file is refused naming the file (and the section).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { readSharedPackFile, type SharedPackFile } from '../src/pack/load.js';
import { Pack } from '../src/pack/reader.js';
import { testPack } from './helpers/packs.js';

const dir = mkdtempSync(join(tmpdir(), 'bando-shared-'));
const bytes = testPack('hcmc');
const file = join(dir, 'hcmc.pack');
writeFileSync(file, bytes);
const trip = { origin: '10.7769,106.7009', destination: '10.7870,106.6880' };

/** The file read into shared memory (a pack under 4 GiB always is). */
function shared(path: string): SharedPackFile {
  const s = readSharedPackFile(path);
  if (typeof s === 'string') throw new Error(`${path} was not read`);
  return s;
}

describe('readSharedPackFile', () => {
  it('holds the file byte for byte in a SharedArrayBuffer', () => {
    const s = shared(file);
    expect(s.file).toBe(file);
    expect(s.shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(s.shared).equals(Buffer.from(bytes))).toBe(true);
  });

  it('gives an engine the same answers as the file, over views of the shared bytes', async () => {
    const s = shared(file);
    const over = await createEngine({ packs: [s], wasm: false });
    const whole = await createEngine({ packs: [file], wasm: false });
    expect(over.info()).toEqual(whole.info());
    const route = over.direction(trip);
    expect(route.status).toBe('OK');
    expect(route).toEqual(whole.direction(trip));
    expect(over.geocode({ latlng: trip.origin })).toEqual(whole.geocode({ latlng: trip.origin }));
    expect(over.distanceMatrix({ origins: trip.origin, destinations: trip.destination })).toEqual(
      whole.distanceMatrix({ origins: trip.origin, destinations: trip.destination }),
    );
    const png = (await over.staticRoute({ ...trip, width: 200, height: 150 })) as Uint8Array;
    expect(
      Buffer.from(png).equals(
        Buffer.from((await whole.staticRoute({ ...trip, width: 200, height: 150 })) as Uint8Array),
      ),
    ).toBe(true);
    // Zero copy: the region's sections are views of the one shared buffer.
    expect(over.regions[0]!.pack.array('graph.edge.len').buffer).toBe(s.shared.buffer);
  });

  it('refuses a missing file and a directory, naming them', () => {
    expect(() => readSharedPackFile(join(dir, 'none.pack'))).toThrow(/none\.pack: file does not exist/);
    const sub = join(dir, 'sub.pack');
    mkdirSync(sub);
    expect(() => readSharedPackFile(sub)).toThrow(/sub\.pack: is not a regular file \(a directory\)/);
  });

  it('a corrupt or truncated file fails naming the file (and the section), never the shared bytes', async () => {
    const e = Pack.from(bytes).sections.get('graph.edge.len')!;
    const corrupt = bytes.slice();
    corrupt[e.offset + (e.byteLength >> 1)]! ^= 0x10;
    const bad = join(dir, 'corrupt.pack');
    writeFileSync(bad, corrupt);
    await expect(createEngine({ packs: [shared(bad)], wasm: false })).rejects.toThrow(
      /corrupt\.pack: corrupt: checksum of section "graph\.edge\.len" does not match/,
    );
    const lazy = await createEngine({ packs: [shared(bad)], verify: 'lazy', wasm: false });
    expect((lazy.direction(trip) as { error_message?: string }).error_message).toMatch(
      /corrupt\.pack: corrupt: checksum of section "graph\.edge\.len"/,
    );
    const short = join(dir, 'short.pack');
    writeFileSync(short, bytes.subarray(0, bytes.length - 8));
    await expect(createEngine({ packs: [shared(short)] })).rejects.toThrow(/short\.pack: truncated/);
  });
});
