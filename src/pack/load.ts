import { nodeBuiltin } from '../node-builtin.js';
import { ENTRY_BYTES, HEADER_BYTES, SMALL_FORMAT_MAX_BYTES } from './format.js';
import { defaultVerify, Pack, PackError, type Verify } from './reader.js';

/**
 * Where a pack comes from: a file path (Node), a URL (fetched; file: URLs in Node; outside Node a string without a
 * scheme is relative to the page), or the bytes themselves.
 */
export type PackSource = string | URL | ArrayBuffer | Uint8Array | SharedPackFile;

/**
 * A pack file read once into shared memory (readSharedPackFile), so that the threads of one process (`bando serve`'s
 * engine workers and its tile thread) open it in place over the same bytes instead of each reading its own copy. It
 * crosses a worker boundary as it is (a SharedArrayBuffer is shared, not copied). The pack's bytes are never written
 * after the read, so the threads' views need no synchronisation.
 */
export interface SharedPackFile {
  /** The file's path, which error messages name. */
  readonly file: string;
  /** The whole file, over a SharedArrayBuffer. */
  readonly shared: Uint8Array;
}

/** True when `source` is a {@link SharedPackFile}. */
export function isSharedPackFile(source: unknown): source is SharedPackFile {
  const s = source as SharedPackFile | null;
  return typeof s === 'object' && s !== null && typeof s.file === 'string' && s.shared instanceof Uint8Array;
}

/**
 * Reads a pack file whole into a SharedArrayBuffer (Node), checking nothing but that it is a readable regular file:
 * loadPack checks it in each thread that opens it. A file past 4 GiB (format version 2) is not read: its path comes
 * back, and each thread reads its sections when first used. Throws PackError naming the file when it is missing, not
 * a regular file or unreadable.
 */
export function readSharedPackFile(path: string): SharedPackFile | string {
  const fs = nodeBuiltin('node:fs');
  if (!fs) throw new PackError(path, 'is a file, which only Node can read');
  const size = fileSize(fs, path, path);
  if (size > SMALL_FORMAT_MAX_BYTES) return path;
  const shared = new Uint8Array(new SharedArrayBuffer(size));
  const fd = openFile(fs, path, path);
  try {
    for (let got = 0; got < size;) {
      // readSync reads at most 2 GiB at once.
      const n = fs.readSync(fd, shared, got, Math.min(size - got, 1 << 30), got);
      if (n === 0) throw new PackError(path, `truncated while read: ${got} of ${size} bytes`);
      got += n;
    }
  } catch (err) {
    throw err instanceof PackError ? err : fileError(err, path);
  } finally {
    fs.closeSync(fd);
  }
  return { file: path, shared };
}

/**
 * Reads and opens one pack. Throws PackError naming the source when it is missing, truncated, of another format
 * version, or its header or section table is corrupt.
 *
 * Section checksums follow `verify` (see Verify; by default every section is checked now for packs up to
 * EAGER_VERIFY_MAX_BYTES, and each section just before its first use above). A pack file in Node that is not checked
 * whole now is opened by its header and section table alone (milliseconds, whatever its size) and each section is
 * read when first used; otherwise, and for bytes and fetched URLs, the pack is held in memory. With lazy checks a
 * corrupt section fails the request that needs it, with an error naming the pack and the section, and its bytes
 * are never used.
 */
export async function loadPack(source: PackSource, opts: { verify?: Verify } = {}): Promise<Pack> {
  if (source instanceof ArrayBuffer || source instanceof Uint8Array)
    return Pack.from(source, { source: 'pack bytes', verify: opts.verify });
  if (isSharedPackFile(source)) return Pack.from(source.shared, { source: source.file, verify: opts.verify });
  const label = source instanceof URL ? source.href : source;
  const fs = nodeBuiltin('node:fs');
  const url = sourceUrl(source, label, !!fs);
  if (fs && (!url || url.protocol === 'file:')) {
    const size = fileSize(fs, url ?? source, label);
    const verify = opts.verify ?? defaultVerify(size);
    // A pack past 4 GiB (format version 2) fits no one buffer: its sections are read, and checked, when first used.
    if (size > SMALL_FORMAT_MAX_BYTES) return openLazily(fs, url ?? source, label, verify !== false);
    if (verify !== true) return openLazily(fs, url ?? source, label, verify === 'lazy');
  }
  const bytes = await readSource(source, url, fs, label);
  return Pack.from(bytes, { source: label, verify: opts.verify });
}

/** What a path that is not a regular file is, for the refusal: one row per kind of `fs.Stats`. */
const NOT_FILES: readonly (readonly [(st: import('node:fs').Stats) => boolean, string])[] = [
  [(st) => st.isDirectory(), 'a directory'],
  [(st) => st.isFIFO(), 'a FIFO'],
  [(st) => st.isCharacterDevice(), 'a character device'],
  [(st) => st.isBlockDevice(), 'a block device'],
  [(st) => st.isSocket(), 'a socket'],
];

/**
 * A pack file's size in bytes, or a PackError naming it. Only a regular file (or a link to one) is a pack: reading a
 * FIFO waits for a writer without end, a device such as /dev/zero grows memory without end.
 */
function fileSize(fs: typeof import('node:fs'), path: string | URL, label: string): number {
  let st: import('node:fs').Stats;
  try {
    st = fs.statSync(path);
  } catch (err) {
    throw fileError(err, label);
  }
  if (!st.isFile())
    throw new PackError(label, `is not a regular file (${NOT_FILES.find(([is]) => is(st))?.[1] ?? 'another kind'})`);
  return st.size;
}

/** Files whose packs were garbage-collected unclosed are closed. */
const closeFiles = new FinalizationRegistry<number>((fd) => {
  try {
    nodeBuiltin('node:fs')?.closeSync(fd);
  } catch {
    // already closed
  }
});

/**
 * Opens a pack file by its header and section table; sections are read when first used, and their checksums checked
 * then when `verify` (Pack.lazy).
 */
function openLazily(fs: typeof import('node:fs'), path: string | URL, label: string, verify: boolean): Pack {
  const fd = openFile(fs, path, label);
  try {
    const size = fs.fstatSync(fd).size;
    const readAt = (offset: number, length: number, into?: Uint8Array): Uint8Array => {
      const out = into ?? new Uint8Array(length);
      let got = 0;
      while (got < length) {
        let n: number;
        try {
          n = fs.readSync(fd, out, got, length - got, offset + got);
        } catch (err) {
          throw new PackError(label, `cannot be read (${(err as Error).message})`);
        }
        if (n === 0) throw new PackError(label, `truncated: ends inside the bytes ${offset}..${offset + length}`);
        got += n;
      }
      return out;
    };
    const header = readAt(0, Math.min(size, HEADER_BYTES));
    const count = size >= HEADER_BYTES ? new DataView(header.buffer).getUint32(12, true) : 0;
    const tableEnd = Math.min(size, HEADER_BYTES + count * ENTRY_BYTES);
    const head = tableEnd > header.length ? readAt(0, tableEnd) : header;
    let pack: Pack | null = null;
    // Closed by Pack.close (engine.close), else when the pack is garbage-collected.
    const release = () => {
      closeFiles.unregister(pack!);
      fs.closeSync(fd);
    };
    pack = Pack.lazy(head, size, readAt, label, verify, release);
    closeFiles.register(pack, fd, pack);
    return pack;
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/** A file descriptor of the file, open for reading, or a PackError naming it. */
function openFile(fs: typeof import('node:fs'), path: string | URL, label: string): number {
  try {
    return fs.openSync(path, 'r');
  } catch (err) {
    throw fileError(err, label);
  }
}

/** A PackError for a file that cannot be opened or read. */
function fileError(err: unknown, label: string): PackError {
  const code = (err as NodeJS.ErrnoException).code;
  return new PackError(label, code === 'ENOENT' ? 'file does not exist' : `cannot be read (${(err as Error).message})`);
}

/**
 * The URL a source names, or null for a Node file path. Outside Node a string without a scheme is a URL relative to
 * the page or worker (`/packs/hanoi.pack`), as fetch would read it.
 */
function sourceUrl(source: string | URL, label: string, inNode: boolean): URL | null {
  if (source instanceof URL) return source;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return new URL(source);
  if (inNode) return null;
  const base = (globalThis as { location?: { href: string } }).location?.href;
  if (!base)
    throw new PackError(
      label,
      'is neither an absolute URL nor a file path this runtime can read: give an absolute URL or the bytes',
    );
  return new URL(source, base);
}

/** The whole pack: fetched (`url` not a file: URL) or read from the file (`url` a file: URL, or null: `source` is a path). */
async function readSource(
  source: string | URL,
  url: URL | null,
  fs: typeof import('node:fs') | undefined,
  label: string,
): Promise<Uint8Array> {
  if (url && url.protocol !== 'file:') {
    let res: Response;
    try {
      res = await fetch(url);
    } catch (err) {
      throw new PackError(label, `cannot be fetched (${(err as Error).message})`);
    }
    if (!res.ok) throw new PackError(label, `cannot be fetched (HTTP ${res.status})`);
    return new Uint8Array(await res.arrayBuffer());
  }
  if (!fs) throw new PackError(label, 'is a file: URL, which only Node can read: give an http(s) URL or the bytes');
  try {
    const buf = await fs.promises.readFile(url ?? source);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (err) {
    throw fileError(err, label);
  }
}
