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
 * Reads `length` bytes at byte `offset` of a pack file into new memory (8-aligned, as every section needs), or
 * throws PackError naming the file.
 */
export type SectionReader = (offset: number, length: number) => Uint8Array;

/**
 * A pack: its section table, and its sections as typed-array views. Either opened in place over its bytes
 * (`from`: zero copy) or over a file read section by section when first used (`lazy`: each section read once,
 * its checksum checked then, and viewed zero-copy afterwards).
 */
export class Pack {
  readonly sections = new Map<string, SectionEntry>();
  /** Sections read so far by a lazy pack. */
  private readonly opened = new Map<string, Uint8Array>();

  private constructor(
    private readonly bytes: Uint8Array,
    /** Size of the pack in bytes. */
    readonly byteLength: number,
    readonly source: string,
    private readonly readAt: SectionReader | null = null,
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
    const total = readHeader(bytes, bytes.byteLength, source);
    const pack = new Pack(bytes, total, source);
    pack.readTable(bytes, total);
    if (opts.verify !== false) {
      for (const [name, e] of pack.sections) {
        if (crc32(bytes.subarray(e.offset, e.offset + e.byteLength)) !== e.crc)
          throw new PackError(source, `corrupt: checksum of section "${name}" does not match`);
      }
    }
    return pack;
  }

  /**
   * Opens a pack file from its header and section table; each section is read with `readAt` when first used and
   * its checksum checked then (a PackError naming the file and the section when it does not match). Opening costs
   * the table, whatever the file's size.
   * @param head the file's first bytes: at least the header, and the whole section table when the file has one
   * @param fileBytes the file's size in bytes
   */
  static lazy(head: Uint8Array, fileBytes: number, readAt: SectionReader, source: string): Pack {
    const total = readHeader(head, fileBytes, source);
    const pack = new Pack(head, total, source, readAt);
    pack.readTable(head, total);
    return pack;
  }

  /** Fills `sections` from the table in `head`, checking each entry's type, bounds and alignment. */
  private readTable(head: Uint8Array, total: number): void {
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const count = view.getUint32(12, true);
    for (let i = 0; i < count; i++) {
      const e = HEADER_BYTES + i * ENTRY_BYTES;
      let name = '';
      for (let c = 0; c < NAME_BYTES && head[e + c] !== 0; c++) name += String.fromCharCode(head[e + c]!);
      const entry: SectionEntry = {
        name,
        type: view.getUint32(e + 24, true),
        offset: view.getUint32(e + 28, true),
        byteLength: view.getUint32(e + 32, true),
        crc: view.getUint32(e + 36, true),
      };
      const ctor = ARRAY_CTORS[entry.type];
      if (!ctor) throw new PackError(this.source, `corrupt: section "${name}" has unknown element type ${entry.type}`);
      if (
        entry.offset % 8 !== 0 ||
        entry.offset + entry.byteLength > total ||
        entry.byteLength % ctor.BYTES_PER_ELEMENT !== 0
      ) {
        throw new PackError(this.source, `corrupt: section "${name}" lies outside the file or is misaligned`);
      }
      this.sections.set(name, entry);
    }
  }

  /** The bytes of a section: in place, or read (and checked) on first use for a lazy pack. */
  private sectionBytes(e: SectionEntry): Uint8Array {
    if (!this.readAt) return this.bytes.subarray(e.offset, e.offset + e.byteLength);
    let b = this.opened.get(e.name);
    if (!b) {
      b = this.readAt(e.offset, e.byteLength);
      if (crc32(b) !== e.crc)
        throw new PackError(this.source, `corrupt: checksum of section "${e.name}" does not match`);
      this.opened.set(e.name, b);
    }
    return b;
  }

  /** True when the pack has a section of that name. */
  has(name: string): boolean {
    return this.sections.has(name);
  }

  /** A zero-copy typed-array view of a section; throws PackError when the section is missing. */
  array<T extends TypedArray = TypedArray>(name: string): T {
    const e = this.entry(name);
    const ctor = ARRAY_CTORS[e.type]!;
    const b = this.sectionBytes(e);
    return new ctor(b.buffer as ArrayBuffer, b.byteOffset, e.byteLength / ctor.BYTES_PER_ELEMENT) as T;
  }

  /** A section decoded as UTF-8 text. */
  text(name: string): string {
    return new TextDecoder().decode(this.sectionBytes(this.entry(name)));
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

/**
 * Checks a pack's header (magic, version, length, table bounds and checksum) in `head`, which holds at least the
 * header and, when the header fits, the whole section table.
 * @param fileBytes the pack's size in bytes (a pack shorter than its header says is truncated)
 * @returns the pack's length in bytes, as its header states it
 */
function readHeader(head: Uint8Array, fileBytes: number, source: string): number {
  if (fileBytes < HEADER_BYTES || head.byteLength < HEADER_BYTES)
    throw new PackError(source, `truncated: ${fileBytes} bytes is shorter than the ${HEADER_BYTES}-byte header`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (head[i] !== MAGIC.charCodeAt(i)) throw new PackError(source, 'not a bando pack (bad magic bytes)');
  }
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const version = view.getUint32(8, true);
  if (version !== FORMAT_VERSION)
    throw new PackError(
      source,
      `pack format version ${version} is not supported (this bando reads version ${FORMAT_VERSION})`,
    );
  const count = view.getUint32(12, true);
  const total = view.getUint32(20, true);
  if (fileBytes < total) throw new PackError(source, `truncated: ${fileBytes} of ${total} bytes`);
  if (HEADER_BYTES + count * ENTRY_BYTES > total || HEADER_BYTES + count * ENTRY_BYTES > head.byteLength)
    throw new PackError(source, 'corrupt: section table runs past the end of the file');
  if (headerCrc(head, count) !== view.getUint32(16, true))
    throw new PackError(source, 'corrupt: header checksum does not match');
  return total;
}
