import { crc32 } from './crc32.js';
import {
  ALIGN,
  ARRAY_CTORS,
  ENTRY_BYTES,
  FORMAT_VERSION,
  HEADER_BYTES,
  LARGE_FORMAT_VERSION,
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

/**
 * When section checksums are checked (the header and section table are always checked at once):
 * - `true`: every section's at open (the whole pack read and checked: linear in its size, about 2.5 ms per MB), so a
 *   corrupt pack is refused at load;
 * - `'lazy'`: each section's CRC-32 just before its first use, so corrupt bytes are never used and opening costs the
 *   table, whatever the pack's size;
 * - `false`: never (trusted bytes; the readers' own bounds checks still hold).
 * Default: `true` up to EAGER_VERIFY_MAX_BYTES, `'lazy'` above (defaultVerify).
 */
export type Verify = boolean | 'lazy';

/**
 * Packs up to this size (bytes) are checked whole at load by default: at most about 160 ms, and a corrupt pack is
 * refused by createEngine itself. Bigger packs (a whole city or country) are checked section by section on first
 * use, so that they open in milliseconds.
 */
export const EAGER_VERIFY_MAX_BYTES = 64 * 1024 * 1024;

/** The default `verify` for a pack of `bytes` bytes. */
export function defaultVerify(bytes: number): Verify {
  return bytes <= EAGER_VERIFY_MAX_BYTES ? true : 'lazy';
}

export interface OpenOptions {
  /** Label used in error messages (the file name or URL). */
  source?: string;
  /** When section checksums are checked (default: defaultVerify of the pack's size). */
  verify?: Verify;
}

/**
 * Reads `length` bytes at byte `offset` of a pack file into `into` when given (exactly `length` bytes), else into new
 * memory (8-aligned, as every section needs), and returns them; or throws PackError naming the file.
 */
export type SectionReader = (offset: number, length: number, into?: Uint8Array) => Uint8Array;

/**
 * A pack: its section table, and its sections as typed-array views. Either opened in place over its bytes
 * (`from`: zero copy) or over a file read section by section when first used (`lazy`: each section read once and
 * viewed zero-copy afterwards). With lazy verification a section's checksum is checked when it is first used.
 */
export class Pack {
  readonly sections = new Map<string, SectionEntry>();
  /** Sections used so far (read, and checked when the pack checks on first use). */
  private readonly opened = new Map<string, Uint8Array>();

  /** Closes the pack's file (a pack opened lazily); null once released or for a pack held in memory. */
  private release: (() => void) | null = null;
  /** True once {@link close} has run. */
  private closed = false;
  /** Why the pack was closed (its reads then throw this). */
  private closedBecause = '';
  /** Sections whose checksum was checked since the pack checks on first use (by a use or {@link verifyRemaining}). */
  private readonly verified = new Set<string>();
  /** The first section found corrupt (or unreadable) after opening, as its PackError message; null while none. */
  private failure: string | null = null;
  /**
   * What names this pack's contents exactly, whatever its file name: its length and its header checksum (the CRC-32
   * of the header and the section table, which holds every section's own CRC-32), as `<bytes>:<crc hex>`. Two packs
   * with the same identity hold the same sections (barring a collision of both), so what one engine derived from
   * one (a customized metric: route/cch/exchange.ts) serves another engine's copy of the other.
   */
  readonly identity: string;

  private constructor(
    private bytes: Uint8Array,
    /** Size of the pack in bytes. */
    readonly byteLength: number,
    readonly source: string,
    /** Reads a section of a pack file; null when `bytes` hold the whole pack. */
    private readonly readAt: SectionReader | null,
    /** Check each section's checksum on its first use. */
    private readonly checkOnUse: boolean,
  ) {
    this.identity = `${byteLength}:${new DataView(bytes.buffer, bytes.byteOffset).getUint32(16, true).toString(16)}`;
  }

  /**
   * Opens a pack over its bytes. Throws PackError naming `opts.source` when the bytes are not a pack, the version
   * is not supported, the pack is truncated or (`verify: true`, the default up to EAGER_VERIFY_MAX_BYTES) a checksum
   * does not match; with `verify: 'lazy'` a section whose checksum does not match throws when it is first used.
   */
  static from(data: ArrayBuffer | Uint8Array, opts: OpenOptions = {}): Pack {
    const source = opts.source ?? 'pack';
    const verify = opts.verify ?? defaultVerify(data.byteLength);
    let bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    // Typed views need their element alignment; a pack at an odd offset (a pooled Node Buffer) is copied once.
    if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
    const total = readHeader(bytes, bytes.byteLength, source);
    const pack = new Pack(bytes, total, source, null, verify === 'lazy');
    pack.readTable(bytes, total);
    if (verify === true) for (const e of pack.sections.values()) pack.checked(e, pack.inPlace(e));
    return pack;
  }

  /**
   * Opens a pack file from its header and section table; each section is read with `readAt` when first used (and,
   * unless `verify` is false, its checksum checked then: a PackError naming the file and the section when it does
   * not match). Opening costs the table, whatever the file's size.
   * @param head the file's first bytes: at least the header, and the whole section table when the file has one
   * @param fileBytes the file's size in bytes
   */
  static lazy(
    head: Uint8Array,
    fileBytes: number,
    readAt: SectionReader,
    source: string,
    verify = true,
    release: (() => void) | null = null,
  ): Pack {
    const total = readHeader(head, fileBytes, source);
    const pack = new Pack(head, total, source, readAt, verify);
    pack.readTable(head, total);
    pack.release = release;
    return pack;
  }

  /**
   * Releases the pack: its file closed (a pack read lazily), its bytes and read sections dropped. Views already
   * taken stay valid for whoever holds them; any later read throws PackError naming the pack. Idempotent.
   * @param why what closed it, for that error (e.g. "the engine was closed")
   */
  close(why = 'the pack was closed'): void {
    if (this.closed) return;
    this.closed = true;
    this.closedBecause = why;
    this.opened.clear();
    this.bytes = new Uint8Array(0);
    const release = this.release;
    this.release = null;
    release?.();
  }

  /** Fills `sections` from the table in `head`, checking each entry's type, bounds and alignment. */
  private readTable(head: Uint8Array, total: number): void {
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const count = view.getUint32(12, true);
    const unit = offsetUnit(view.getUint32(8, true));
    for (let i = 0; i < count; i++) {
      const e = HEADER_BYTES + i * ENTRY_BYTES;
      let name = '';
      for (let c = 0; c < NAME_BYTES && head[e + c] !== 0; c++) name += String.fromCharCode(head[e + c]!);
      const entry: SectionEntry = {
        name,
        type: view.getUint32(e + 24, true),
        offset: view.getUint32(e + 28, true) * unit,
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

  /** The bytes of a section: in place or read from the file, checked on first use when the pack checks then. */
  private sectionBytes(e: SectionEntry): Uint8Array {
    if (this.closed) throw new PackError(this.source, `closed: ${this.closedBecause}`);
    if (!this.readAt && !this.checkOnUse) return this.inPlace(e);
    let b = this.opened.get(e.name);
    if (!b) {
      b = this.readAt ? this.readAt(e.offset, e.byteLength) : this.inPlace(e);
      if (this.checkOnUse) this.checked(e, b);
      this.opened.set(e.name, b);
    }
    return b;
  }

  /** A section's bytes within the pack's bytes (a pack opened over its bytes). */
  private inPlace(e: SectionEntry): Uint8Array {
    return this.bytes.subarray(e.offset, e.offset + e.byteLength);
  }

  /** Throws PackError naming the pack and the section when `b`, the section's bytes, fail its checksum. */
  private checked(e: SectionEntry, b: Uint8Array): void {
    if (crc32(b) !== e.crc) throw this.corrupt(e);
    this.verified.add(e.name);
  }

  /** The PackError of a section whose checksum does not match, remembered as the pack's {@link problem}. */
  private corrupt(e: SectionEntry): PackError {
    const err = new PackError(this.source, `corrupt: checksum of section "${e.name}" does not match`);
    this.failure ??= err.message;
    return err;
  }

  /**
   * The first section of a pack checked on first use (`verify: 'lazy'`, or a pack file past 4 GiB) found corrupt or
   * unreadable since it was opened, by a request or by {@link verifyRemaining}, as a message naming the pack and the
   * section; null while none is (for `/healthz`).
   */
  get problem(): string | null {
    return this.failure;
  }

  /**
   * Checks the sections a pack checked on first use has not checked yet, in table order, reading a pack file's
   * sections in chunks of `chunkBytes` whose bytes are not kept; yields after each chunk so that a server spreads
   * the work over its event-loop turns. Stops at the first failure (see {@link problem}). Nothing to do for a pack
   * checked whole at load or never (`verify: false`).
   */
  *verifyRemaining(chunkBytes = 1 << 20): Generator<void, void> {
    if (!this.checkOnUse) return;
    for (const e of this.sections.values()) {
      if (this.verified.has(e.name)) continue;
      let crc = 0;
      for (let at = 0; at < e.byteLength; at += chunkBytes) {
        if (this.closed || this.failure !== null) return;
        const n = Math.min(chunkBytes, e.byteLength - at);
        let b: Uint8Array;
        try {
          b = this.readAt ? this.readAt(e.offset + at, n) : this.bytes.subarray(e.offset + at, e.offset + at + n);
        } catch (err) {
          this.failure ??= (err as Error).message;
          return;
        }
        crc = crc32(b, crc);
        yield;
      }
      if (this.closed || this.failure !== null) return;
      if (crc !== e.crc) {
        this.corrupt(e);
        return;
      }
      this.verified.add(e.name);
    }
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

  /**
   * A typed-array view of a section that the pack does not keep, for data a computation reads once and lets go (a
   * vehicle's costs read every profile's speeds, 15 bytes per edge): a pack file's section, unless kept already, is
   * read afresh at each call into `room(bytes)` when given (memory the caller gives back when done) or new memory,
   * and checked as `array` checks it; a pack in memory's is `array`'s view. Throws PackError as `array` does.
   */
  arrayOnce<T extends TypedArray = TypedArray>(name: string, room?: (bytes: number) => Uint8Array): T {
    const e = this.entry(name);
    if (!this.readAt || this.opened.has(name)) return this.array<T>(name);
    if (this.closed) throw new PackError(this.source, `closed: ${this.closedBecause}`);
    const b = room ? room(e.byteLength) : new Uint8Array(e.byteLength);
    this.readAt(e.offset, e.byteLength, b);
    if (this.checkOnUse && !this.verified.has(name)) this.checked(e, b);
    const ctor = ARRAY_CTORS[e.type]!;
    return new ctor(b.buffer as ArrayBuffer, b.byteOffset, e.byteLength / ctor.BYTES_PER_ELEMENT) as T;
  }

  /** Elements of a section's typed array, without reading it; throws PackError when the section is missing. */
  length(name: string): number {
    const e = this.entry(name);
    return e.byteLength / ARRAY_CTORS[e.type]!.BYTES_PER_ELEMENT;
  }

  /**
   * Writes a section's bytes into `target` (exactly the section's byte length: RangeError otherwise), checked as
   * `array` checks them: a pack file's section is read straight into it and not kept by the pack (memory that holds
   * the only copy, such as a WebAssembly instance's), a pack in memory's copied once.
   */
  copyInto(name: string, target: Uint8Array): void {
    const e = this.entry(name);
    if (target.byteLength !== e.byteLength)
      throw new RangeError(`section "${name}" has ${e.byteLength} bytes, not ${target.byteLength}`);
    if (this.closed) throw new PackError(this.source, `closed: ${this.closedBecause}`);
    const kept = this.opened.get(name);
    if (this.readAt && !kept) this.readAt(e.offset, e.byteLength, target);
    else target.set(kept ?? this.inPlace(e));
    if (this.checkOnUse && !kept) this.checked(e, target);
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
  if (version !== FORMAT_VERSION && version !== LARGE_FORMAT_VERSION)
    throw new PackError(
      source,
      `pack format version ${version} is not supported (this bando reads versions ${FORMAT_VERSION} and ${LARGE_FORMAT_VERSION})`,
    );
  const count = view.getUint32(12, true);
  const unit = offsetUnit(version);
  const total = view.getUint32(20, true) * unit;
  if (fileBytes < total) throw new PackError(source, `truncated: ${fileBytes} of ${total} bytes`);
  if (HEADER_BYTES + count * ENTRY_BYTES > total || HEADER_BYTES + count * ENTRY_BYTES > head.byteLength)
    throw new PackError(source, 'corrupt: section table runs past the end of the file');
  if (headerCrc(head, count) !== view.getUint32(16, true))
    throw new PackError(source, 'corrupt: header checksum does not match');
  return total;
}

/** Bytes per unit of the header's length and the table's offsets: 1 in version 1, ALIGN in version 2 (format.ts). */
function offsetUnit(version: number): number {
  return version === LARGE_FORMAT_VERSION ? ALIGN : 1;
}
