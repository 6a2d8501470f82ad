import { describe, expect, it } from 'vitest';
import { crc32 } from '../src/pack/crc32.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePackFile } from '../data-tools/pack-file.js';
import { ENTRY_BYTES, HEADER_BYTES } from '../src/pack/format.js';
import { loadPack } from '../src/pack/load.js';
import { defaultVerify, EAGER_VERIFY_MAX_BYTES, Pack, PackError } from '../src/pack/reader.js';
import { StringTable, StringTableBuilder } from '../src/pack/strings.js';
import { headerCrc, PackWriter, type PackLayout } from '../src/pack/writer.js';

function samplePack(): Uint8Array {
  return sampleWriter().finish();
}

function sampleWriter(): PackWriter {
  const strings = new StringTableBuilder();
  strings.intern('Hàng Bài');
  strings.intern('Đống Đa');
  const s = strings.finish();
  return new PackWriter()
    .addJson('meta', { name: 'sample', attribution: '© OpenStreetMap contributors' })
    .addArray('a.i32', Int32Array.from([1, -2, 3]))
    .addArray('a.f64', Float64Array.from([Math.PI, -0.5]))
    .addArray('a.u8', Uint8Array.from([7, 8, 9, 10, 11]))
    .addArray('a.u16', Uint16Array.from([65535, 1]))
    .addArray('str.offs', s.offs)
    .addArray('str.data', s.data);
}

describe('pack format', () => {
  it('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('round-trips every section type, zero copy', () => {
    const bytes = samplePack();
    const pack = Pack.from(bytes, { source: 'sample.pack' });
    expect(pack.json('meta')).toEqual({ name: 'sample', attribution: '© OpenStreetMap contributors' });
    expect([...pack.array<Int32Array>('a.i32')]).toEqual([1, -2, 3]);
    expect([...pack.array<Float64Array>('a.f64')]).toEqual([Math.PI, -0.5]);
    expect([...pack.array<Uint8Array>('a.u8')]).toEqual([7, 8, 9, 10, 11]);
    expect([...pack.array<Uint16Array>('a.u16')]).toEqual([65535, 1]);
    expect(pack.array('a.i32').buffer).toBe(bytes.buffer);
    const strings = new StringTable(pack);
    expect(strings.get(1)).toBe('Hàng Bài');
    expect(strings.get(2)).toBe('Đống Đa');
    expect(strings.get(0)).toBe('');
  });

  it('reads every string of a table far larger than the strings it keeps decoded, in any order, again and again', () => {
    // 20,000 strings: ids that share a cache slot (4,096 apart) and ids read again after others took their slot.
    const texts = Array.from({ length: 20_000 }, (_, i) => `Đường số ${i} ${'ư'.repeat(i % 7)}`);
    const builder = new StringTableBuilder();
    const ids = texts.map((t) => builder.intern(t));
    const s = builder.finish();
    const pack = Pack.from(new PackWriter().addArray('str.offs', s.offs).addArray('str.data', s.data).finish());
    const strings = new StringTable(pack);
    expect(strings.size).toBe(texts.length + 1);
    for (const round of [0, 1, 2])
      for (let k = 0; k < texts.length; k++) {
        // A stride coprime with the count visits every id once per round, each round in another order.
        const i = (k * (4_096 + 2 * round + 1)) % texts.length;
        expect(strings.get(ids[i]!)).toBe(texts[i]);
        expect(strings.get(ids[(i + 4_096) % texts.length]!)).toBe(texts[(i + 4_096) % texts.length]);
      }
    expect(strings.get(texts.length + 1)).toBe('');
    expect(strings.get(-1)).toBe('');
    expect([0, 1, texts.length, texts.length + 1, -1].map((i) => strings.has(i))).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
  });

  it('aligns every section to 8 bytes and checksums each one', () => {
    const bytes = samplePack();
    const pack = Pack.from(bytes);
    for (const s of pack.sections.values()) {
      expect(s.offset % 8).toBe(0);
      expect(crc32(bytes.subarray(s.offset, s.offset + s.byteLength))).toBe(s.crc);
    }
  });

  it('opens a pack that sits at an unaligned offset of a larger buffer', () => {
    const bytes = samplePack();
    const big = new Uint8Array(bytes.length + 3);
    big.set(bytes, 3);
    const pack = Pack.from(big.subarray(3));
    expect([...pack.array<Int32Array>('a.i32')]).toEqual([1, -2, 3]);
  });

  it('detects a flipped byte in every section: at open (verify: true) or at the first use of that section (lazy)', () => {
    const clean = samplePack();
    for (const s of Pack.from(clean).sections.values()) {
      const bytes = clean.slice();
      bytes[s.offset + Math.floor(s.byteLength / 2)]! ^= 0x40;
      const named = new RegExp(`x\\.pack: corrupt: checksum of section "${s.name.replace('.', '\\.')}"`);
      expect(() => Pack.from(bytes, { source: 'x.pack', verify: true })).toThrow(named);
      const lazy = Pack.from(bytes, { source: 'x.pack', verify: 'lazy' });
      // The other sections still open; the corrupt one is refused each time it is asked for, never handed out.
      for (const other of lazy.sections.keys()) if (other !== s.name) expect(() => lazy.array(other)).not.toThrow();
      expect(() => lazy.array(s.name)).toThrow(named);
      expect(() => lazy.array(s.name)).toThrow(named);
      // verify: false hands the bytes out unchecked (trusted packs).
      expect(() => Pack.from(bytes, { verify: false }).array(s.name)).not.toThrow();
    }
  });

  it('checks packs up to 64 MB whole at load by default, bigger ones section by section on first use', () => {
    expect(EAGER_VERIFY_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(defaultVerify(EAGER_VERIFY_MAX_BYTES)).toBe(true);
    expect(defaultVerify(EAGER_VERIFY_MAX_BYTES + 1)).toBe('lazy');
    const bytes = samplePack();
    const s = [...Pack.from(bytes).sections.values()][0]!;
    bytes[s.offset]! ^= 1;
    expect(() => Pack.from(bytes, { source: 'x.pack' })).toThrow(/x\.pack: corrupt: checksum/);
  });

  it('detects a corrupt header or section table', () => {
    const bytes = samplePack();
    bytes[HEADER_BYTES + ENTRY_BYTES + 30]! ^= 1;
    expect(() => Pack.from(bytes, { source: 'h.pack' })).toThrow('h.pack: corrupt: header checksum does not match');
  });

  it('refuses truncated packs, at any length', () => {
    const bytes = samplePack();
    for (const n of [0, 5, HEADER_BYTES, 100, bytes.length - 1]) {
      expect(() => Pack.from(bytes.slice(0, n), { source: 't.pack' })).toThrow(/t\.pack: truncated/);
    }
  });

  it('refuses other files and other versions', () => {
    expect(() =>
      Pack.from(new TextEncoder().encode('PK\u0003\u0004 this is a zip file, not a pack'), { source: 'z.zip' }),
    ).toThrow('z.zip: not a bando pack (bad magic bytes)');
    const bytes = samplePack();
    new DataView(bytes.buffer).setUint32(8, 3, true);
    expect(() => Pack.from(bytes, { source: 'v3.pack' })).toThrow('v3.pack: pack format version 3 is not supported');
  });

  it('names a missing section', () => {
    expect(() => Pack.from(samplePack(), { source: 's.pack' }).array('graph.node.lat')).toThrow(PackError);
    expect(() => Pack.from(samplePack(), { source: 's.pack' }).array('graph.node.lat')).toThrow(
      's.pack: section "graph.node.lat" is missing',
    );
  });

  it('writes the same bytes for the same sections', () => {
    expect(Buffer.from(samplePack()).equals(Buffer.from(samplePack()))).toBe(true);
  });

  it('refuses bad or duplicate section names', () => {
    expect(() => new PackWriter().addJson('a name with spaces', {})).toThrow(/printable ASCII/);
    expect(() => new PackWriter().addJson('meta', {}).addJson('meta', {})).toThrow(/added twice/);
  });
});

describe('pack format version 2 (packs past 4 GiB)', () => {
  /** The file a layout describes, assembled in memory (what writePackFile writes). */
  const assemble = (l: PackLayout) => {
    const out = new Uint8Array(l.byteLength);
    out.set(l.head);
    for (const x of l.sections) out.set(x.bytes, x.offset);
    return out;
  };
  const dir = mkdtempSync(join(tmpdir(), 'bando-format-'));

  it('counts the length and the offsets in 8-byte units, and reads the same sections as version 1', () => {
    const v1 = samplePack();
    const v2 = assemble(sampleWriter().layout(true));
    const view = new DataView(v2.buffer);
    expect(view.getUint32(8, true)).toBe(2);
    expect(view.getUint32(20, true)).toBe(v1.length / 8);
    // The same file but for the version, the length and the offsets (and the header's checksum).
    expect(v2.length).toBe(v1.length);
    expect(
      Buffer.from(v2.subarray(HEADER_BYTES + 7 * ENTRY_BYTES)).equals(
        Buffer.from(v1.subarray(HEADER_BYTES + 7 * ENTRY_BYTES)),
      ),
    ).toBe(true);
    const a = Pack.from(v1),
      b = Pack.from(v2, { verify: true });
    expect([...b.sections.keys()]).toEqual([...a.sections.keys()]);
    for (const [name, e] of a.sections) {
      expect(b.sections.get(name)).toEqual(e);
      expect(Buffer.from(b.array(name).buffer, b.array(name).byteOffset, e.byteLength)).toEqual(
        Buffer.from(a.array(name).buffer, a.array(name).byteOffset, e.byteLength),
      );
    }
  });

  it('is not written for packs that fit version 1: they stay version 1, byte for byte', () => {
    expect(new DataView(samplePack().buffer).getUint32(8, true)).toBe(1);
    expect(sampleWriter().layout().head).toEqual(samplePack().subarray(0, HEADER_BYTES + 7 * ENTRY_BYTES));
  });

  it('writes a pack file section by section with the bytes finish() gives, and opens it lazily', async () => {
    const file = join(dir, 'sample.pack');
    expect(writePackFile(sampleWriter(), file)).toBe(samplePack().length);
    expect(readFileSync(file).equals(Buffer.from(samplePack()))).toBe(true);
    const lazy = await loadPack(file, { verify: 'lazy' });
    expect([...lazy.array<Int32Array>('a.i32')]).toEqual([1, -2, 3]);
  });

  it('refuses a version 2 pack whose length or offsets run past the file, naming it', () => {
    const v2 = assemble(sampleWriter().layout(true));
    expect(() => Pack.from(v2.subarray(0, v2.length - 8), { source: 'short.pack' })).toThrow(/short\.pack: truncated/);
    // The last section's offset pushed one unit on: it now ends past the file.
    const moved = v2.slice();
    const view = new DataView(moved.buffer);
    const last = HEADER_BYTES + 6 * ENTRY_BYTES;
    view.setUint32(last + 28, view.getUint32(last + 28, true) + 1000, true);
    view.setUint32(16, headerCrc(moved, 7), true);
    expect(() => Pack.from(moved, { source: 'moved.pack' })).toThrow(
      /moved\.pack: corrupt: section "str\.data" lies outside/,
    );
  });
});
