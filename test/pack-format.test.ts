import { describe, expect, it } from 'vitest';
import { crc32 } from '../src/pack/crc32.js';
import { ENTRY_BYTES, HEADER_BYTES } from '../src/pack/format.js';
import { Pack, PackError } from '../src/pack/reader.js';
import { StringTable, StringTableBuilder } from '../src/pack/strings.js';
import { PackWriter } from '../src/pack/writer.js';

function samplePack(): Uint8Array {
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
    .addArray('str.data', s.data)
    .finish();
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
      const lazy = Pack.from(bytes, { source: 'x.pack' });
      // The other sections still open; the corrupt one is refused each time it is asked for, never handed out.
      for (const other of lazy.sections.keys()) if (other !== s.name) expect(() => lazy.array(other)).not.toThrow();
      expect(() => lazy.array(s.name)).toThrow(named);
      expect(() => lazy.array(s.name)).toThrow(named);
      // verify: false hands the bytes out unchecked (trusted packs).
      expect(() => Pack.from(bytes, { verify: false }).array(s.name)).not.toThrow();
    }
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
    new DataView(bytes.buffer).setUint32(8, 2, true);
    expect(() => Pack.from(bytes, { source: 'v2.pack' })).toThrow('v2.pack: pack format version 2 is not supported');
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
