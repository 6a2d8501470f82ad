import { crc32 } from './crc32.js';
import {
  ALIGN,
  ENTRY_BYTES,
  ElementType,
  FORMAT_VERSION,
  HEADER_BYTES,
  LARGE_FORMAT_VERSION,
  MAGIC,
  NAME_BYTES,
  SMALL_FORMAT_MAX_BYTES,
  elementTypeOf,
  type TypedArray,
} from './format.js';

interface PendingSection {
  name: string;
  type: number;
  bytes: Uint8Array;
}

/**
 * Collects sections and writes a pack file. Sections are written in the order they were added, so the same
 * sections in the same order always give the same bytes (builds are deterministic).
 */
export class PackWriter {
  private sections: PendingSection[] = [];
  private names = new Set<string>();

  /** Adds a typed-array section. */
  addArray(name: string, array: TypedArray): this {
    return this.add(name, elementTypeOf(array), new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  }

  /** Adds one typed-array section per [name, array] (a column stored in several sections: offsets.ts). */
  addArrays(arrays: [string, TypedArray][]): this {
    for (const [name, array] of arrays) this.addArray(name, array);
    return this;
  }

  /** Adds a UTF-8 text section (JSON metadata, for example). */
  addText(name: string, text: string): this {
    return this.add(name, ElementType.utf8, new TextEncoder().encode(text));
  }

  /** Adds a JSON section (stored as UTF-8 text). */
  addJson(name: string, value: unknown): this {
    return this.addText(name, JSON.stringify(value));
  }

  /** Adds an opaque byte section. */
  addBytes(name: string, bytes: Uint8Array): this {
    return this.add(name, ElementType.bytes, bytes);
  }

  private add(name: string, type: number, bytes: Uint8Array): this {
    if (!/^[\x21-\x7e]{1,24}$/.test(name))
      throw new Error(`pack section name "${name}" must be 1-24 printable ASCII characters`);
    if (this.names.has(name)) throw new Error(`pack section "${name}" added twice`);
    this.names.add(name);
    this.sections.push({ name, type, bytes });
    return this;
  }

  /**
   * Lays the file out: each section's offset (bytes), the file's length, and the header with the section table.
   * Version 1 when the pack fits its 32-bit fields, else version 2 (format.ts); `large` writes version 2 anyway
   * (tests of that version, on packs small enough to run).
   */
  layout(large = false): PackLayout {
    const n = this.sections.length;
    const { offsets, byteLength: offset } = this.offsets();
    const version = large || offset > SMALL_FORMAT_MAX_BYTES ? LARGE_FORMAT_VERSION : FORMAT_VERSION;
    const unit = version === LARGE_FORMAT_VERSION ? ALIGN : 1;
    if (offset / unit > 0xffffffff) throw new Error(`pack of ${offset} bytes is larger than format version 2 holds`);
    const head = new Uint8Array(HEADER_BYTES + ENTRY_BYTES * n);
    const view = new DataView(head.buffer);
    for (let i = 0; i < MAGIC.length; i++) head[i] = MAGIC.charCodeAt(i);
    view.setUint32(8, version, true);
    view.setUint32(12, n, true);
    view.setUint32(20, offset / unit, true);
    this.sections.forEach((s, i) => {
      const e = HEADER_BYTES + i * ENTRY_BYTES;
      for (let c = 0; c < NAME_BYTES; c++) head[e + c] = c < s.name.length ? s.name.charCodeAt(c) : 0;
      view.setUint32(e + 24, s.type, true);
      view.setUint32(e + 28, offsets[i]! / unit, true);
      view.setUint32(e + 32, s.bytes.byteLength, true);
      view.setUint32(e + 36, crc32(s.bytes), true);
    });
    view.setUint32(16, headerCrc(head, n), true);
    return {
      head,
      byteLength: offset,
      sections: this.sections.map((s, i) => ({ offset: offsets[i]!, bytes: s.bytes })),
    };
  }

  /** The pack's length in bytes, as `layout` and `finish` will lay it out. */
  get byteLength(): number {
    return this.offsets().byteLength;
  }

  /** Each section's offset in the file, after the header and the table, 8-aligned, and the file's length. */
  private offsets(): { offsets: number[]; byteLength: number } {
    let at = align(HEADER_BYTES + ENTRY_BYTES * this.sections.length);
    const offsets: number[] = [];
    for (const s of this.sections) {
      offsets.push(at);
      at = align(at + s.bytes.byteLength);
    }
    return { offsets, byteLength: at };
  }

  /**
   * Lays the file out and returns its bytes, in one buffer: packs up to 4 GiB (one ArrayBuffer holds no more in
   * Node 20); a bigger pack is written to its file section by section (data-tools/pack-file.ts).
   */
  finish(): Uint8Array {
    const l = this.layout();
    if (l.byteLength > SMALL_FORMAT_MAX_BYTES)
      throw new Error(`pack of ${l.byteLength} bytes is larger than one buffer holds: write it to a file`);
    const out = new Uint8Array(l.byteLength);
    out.set(l.head);
    for (const s of l.sections) out.set(s.bytes, s.offset);
    return out;
  }
}

/** A pack laid out: its header and section table, its length, and where each section's bytes go (zero padding between). */
export interface PackLayout {
  head: Uint8Array;
  byteLength: number;
  sections: { offset: number; bytes: Uint8Array }[];
}

/** CRC of the fixed header fields (bytes 0..15) and the section table. */
export function headerCrc(bytes: Uint8Array, sectionCount: number): number {
  const c = crc32(bytes.subarray(0, 16));
  return crc32(bytes.subarray(HEADER_BYTES, HEADER_BYTES + ENTRY_BYTES * sectionCount), c);
}

function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}
