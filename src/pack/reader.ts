import { crc32 } from './crc32.js';
import {
  ARRAY_CTORS,
  ENTRY_BYTES,
  FORMAT_VERSION,
  HEADER_BYTES,
  MAGIC,
  NAME_BYTES,
  type TypedArray,
} from './format.js';
import { headerCrc } from './writer.js';

/** An error about a pack file: names the file (or source label) and what is wrong with it. */
export class PackError extends Error {
  constructor(
    readonly source: string,
    problem: string,
  ) {
    super(`${source}: ${problem}`);
    this.name = 'PackError';
  }
}

export interface SectionEntry {
  name: string;
  type: number;
  offset: number;
  byteLength: number;
  crc: number;
}

export interface OpenOptions {
  /** Label used in error messages (the file name or URL). */
  source?: string;
  /** Check every section's CRC when opening (default true). The header CRC is always checked. */
  verify?: boolean;
}

/**
 * A pack opened in place over an ArrayBuffer. Sections are typed-array views into that buffer (zero copy).
 */
export class Pack {
  readonly sections = new Map<string, SectionEntry>();

  private constructor(
    readonly buffer: ArrayBuffer,
    readonly byteOffset: number,
    readonly byteLength: number,
    readonly source: string,
  ) {}

  /**
   * Opens a pack. Throws PackError naming `opts.source` when the bytes are not a pack, the version is not
   * supported, the file is truncated or a checksum does not match.
   */
  static from(data: ArrayBuffer | Uint8Array, opts: OpenOptions = {}): Pack {
    const source = opts.source ?? 'pack';
    let bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    // Typed views need their element alignment; a pack at an odd offset (a pooled Node Buffer) is copied once.
    if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
    if (bytes.byteLength < HEADER_BYTES)
      throw new PackError(
        source,
        `truncated: ${bytes.byteLength} bytes is shorter than the ${HEADER_BYTES}-byte header`,
      );
    for (let i = 0; i < MAGIC.length; i++) {
      if (bytes[i] !== MAGIC.charCodeAt(i)) throw new PackError(source, 'not a bando pack (bad magic bytes)');
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = view.getUint32(8, true);
    if (version !== FORMAT_VERSION)
      throw new PackError(
        source,
        `pack format version ${version} is not supported (this bando reads version ${FORMAT_VERSION})`,
      );
    const count = view.getUint32(12, true);
    const total = view.getUint32(20, true);
    if (bytes.byteLength < total) throw new PackError(source, `truncated: ${bytes.byteLength} of ${total} bytes`);
    if (HEADER_BYTES + count * ENTRY_BYTES > total)
      throw new PackError(source, 'corrupt: section table runs past the end of the file');
    if (headerCrc(bytes, count) !== view.getUint32(16, true))
      throw new PackError(source, 'corrupt: header checksum does not match');
    const pack = new Pack(bytes.buffer as ArrayBuffer, bytes.byteOffset, total, source);
    for (let i = 0; i < count; i++) {
      const e = HEADER_BYTES + i * ENTRY_BYTES;
      let name = '';
      for (let c = 0; c < NAME_BYTES && bytes[e + c] !== 0; c++) name += String.fromCharCode(bytes[e + c]!);
      const entry: SectionEntry = {
        name,
        type: view.getUint32(e + 24, true),
        offset: view.getUint32(e + 28, true),
        byteLength: view.getUint32(e + 32, true),
        crc: view.getUint32(e + 36, true),
      };
      const ctor = ARRAY_CTORS[entry.type];
      if (!ctor) throw new PackError(source, `corrupt: section "${name}" has unknown element type ${entry.type}`);
      if (
        entry.offset % 8 !== 0 ||
        entry.offset + entry.byteLength > total ||
        entry.byteLength % ctor.BYTES_PER_ELEMENT !== 0
      ) {
        throw new PackError(source, `corrupt: section "${name}" lies outside the file or is misaligned`);
      }
      if (opts.verify !== false && crc32(bytes.subarray(entry.offset, entry.offset + entry.byteLength)) !== entry.crc) {
        throw new PackError(source, `corrupt: checksum of section "${name}" does not match`);
      }
      pack.sections.set(name, entry);
    }
    return pack;
  }

  /** True when the pack has a section of that name. */
  has(name: string): boolean {
    return this.sections.has(name);
  }

  /** A zero-copy typed-array view of a section; throws PackError when the section is missing. */
  array<T extends TypedArray = TypedArray>(name: string): T {
    const e = this.entry(name);
    const ctor = ARRAY_CTORS[e.type]!;
    return new ctor(this.buffer, this.byteOffset + e.offset, e.byteLength / ctor.BYTES_PER_ELEMENT) as T;
  }

  /** A section decoded as UTF-8 text. */
  text(name: string): string {
    const e = this.entry(name);
    return new TextDecoder().decode(new Uint8Array(this.buffer, this.byteOffset + e.offset, e.byteLength));
  }

  /** A section decoded as JSON. */
  json<T = unknown>(name: string): T {
    try {
      return JSON.parse(this.text(name)) as T;
    } catch (err) {
      throw new PackError(this.source, `corrupt: section "${name}" is not valid JSON (${(err as Error).message})`);
    }
  }

  private entry(name: string): SectionEntry {
    const e = this.sections.get(name);
    if (!e) throw new PackError(this.source, `section "${name}" is missing`);
    return e;
  }
}
