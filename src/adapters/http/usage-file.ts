import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkReport, MemoryUsageStore, type UsageReport } from './usage.js';

/** Options of {@link FileUsageStore.open}. */
export interface FileUsageOptions {
  /** Longest time a count may stay only in memory, in milliseconds. Default 1000. */
  flushMs?: number;
}

/**
 * Usage counts persisted to a JSON file (Node only). Writes are crash-safe: the whole report goes to a temporary
 * file in the same directory, is fsynced, then renamed over the old file and the directory fsynced, so the file is
 * always either the previous or the new complete report. Pending counts are written at most `flushMs` after they
 * change and on `close()`, so a `kill -9` loses at most the last `flushMs` of counts. One process per file.
 */
export class FileUsageStore extends MemoryUsageStore {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  private constructor(
    readonly path: string,
    initial: UsageReport,
    private readonly flushMs: number,
  ) {
    super(initial);
  }

  /** Opens (or starts) the usage file. Throws an Error naming the file when it exists but cannot be read back. */
  static open(path: string, opts: FileUsageOptions = {}): FileUsageStore {
    return new FileUsageStore(path, readUsageFile(path), opts.flushMs ?? 1000);
  }

  protected override changed(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => this.flush(), this.flushMs);
    // A pending write must not keep a finished process alive; close() writes it.
    this.timer.unref?.();
  }

  /** Writes the counts now (synchronously, so it is also safe in exit handlers). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    writeAtomic(this.path, JSON.stringify({ version: 1, usage: this.data }));
  }

  /** Writes pending counts; later changes are kept in memory only. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
  }
}

/** Reads a usage file written by {@link FileUsageStore}; a missing file is empty usage. */
export function readUsageFile(path: string): UsageReport {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`usage file ${path} cannot be read (${(err as Error).message})`);
  }
  let doc: { version?: number; usage?: unknown };
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`usage file ${path} is not JSON (${(err as Error).message})`);
  }
  if (!doc || typeof doc !== 'object') throw new Error(`usage file ${path} must hold { "version": 1, "usage": { ... } }`);
  if (doc.version !== 1) throw new Error(`usage file ${path} has unknown version ${String(doc.version)}`);
  return checkReport(doc.usage, `usage file ${path}`);
}

/** Replaces a file's content atomically and durably: temp file, fsync, rename, fsync of the directory. */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  // The rename itself is only durable once the directory entry is on disk.
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
