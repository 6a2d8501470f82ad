import { crc32 } from './crc32.js';
import {
  ALIGN,
  ENTRY_BYTES,
  ElementType,
  FORMAT_VERSION,
  HEADER_BYTES,
  MAGIC,
  NAME_BYTES,
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

  /** Lays the file out and returns its bytes. */
  finish(): Uint8Array {
    const n = this.sections.length;
    let offset = align(HEADER_BYTES + ENTRY_BYTES * n);
    const offsets: number[] = [];
    for (const s of this.sections) {
      offsets.push(offset);
      offset = align(offset + s.bytes.byteLength);
    }
    if (offset > 0xffffffff) throw new Error('pack larger than 4 GiB is not supported by format version 1');
    const out = new Uint8Array(offset);
    const view = new DataView(out.buffer);
    for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
    view.setUint32(8, FORMAT_VERSION, true);
    view.setUint32(12, n, true);
    view.setUint32(20, offset, true);
    this.sections.forEach((s, i) => {
      const e = HEADER_BYTES + i * ENTRY_BYTES;
      for (let c = 0; c < NAME_BYTES; c++) out[e + c] = c < s.name.length ? s.name.charCodeAt(c) : 0;
      view.setUint32(e + 24, s.type, true);
      view.setUint32(e + 28, offsets[i]!, true);
      view.setUint32(e + 32, s.bytes.byteLength, true);
      view.setUint32(e + 36, crc32(s.bytes), true);
      out.set(s.bytes, offsets[i]!);
    });
    view.setUint32(16, headerCrc(out, n), true);
    return out;
  }
}

/** CRC of the fixed header fields (bytes 0..15) and the section table. */
export function headerCrc(bytes: Uint8Array, sectionCount: number): number {
  const c = crc32(bytes.subarray(0, 16));
  return crc32(bytes.subarray(HEADER_BYTES, HEADER_BYTES + ENTRY_BYTES * sectionCount), c);
}

function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}
