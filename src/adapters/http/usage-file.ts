import {
  accessSync,
  closeSync,
  constants,
  fsync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { acquireFileLock } from './file-lock.js';
import {
  checkReport,
  dict,
  isPeriod,
  MemoryUsageStore,
  periodUsage,
  type MemoryUsageOptions,
  type UsageReport,
} from './usage.js';

/** Options of {@link FileUsageStore.open}. */
export interface FileUsageOptions extends MemoryUsageOptions {
  /** Longest time an appended count stays unsynced to the disk (it survives a process kill at once), ms. Default 1000. */
  syncMs?: number;
  /** Journal size that starts a compaction into the usage file, bytes. Default 8 MiB. */
  compactBytes?: number;
  /**
   * Told when writing fails (the message) and when it works again (null). The store never throws from a timer: it
   * keeps the counts in memory, retries with backoff, and reports here. Default: nothing.
   */
  onProblem?: (message: string | null) => void;
}

/** Tries to write the counts at close, and the pause between two, milliseconds (a stopping server waits for them). */
const CLOSE_ATTEMPTS = 5;
const CLOSE_RETRY_MS = 200;

/** Retry delays after a failed write: doubling from 100 ms up to 30 s. */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 30_000;

/**
 * Usage counts persisted to a file by one process (Node only), in two parts:
 * - the usage file (`{ version: 2, seq, usage }`), written whole and crash-safe (temp file, fsync, rename, fsync of
 *   the directory), so it is always a complete report;
 * - a journal beside it (`<file>.journal`), one JSON line `[seq, key, period, endpoint, billable, session]` appended
 *   with one `write` per admitted request, before the request is answered.
 *
 * A count is in the kernel before its answer leaves, so killing the process (kill -9, a crash, out of memory) loses
 * none; the journal is fsynced at most `syncMs` after a change, so a power loss or kernel crash loses at most that
 * much. The journal is folded into the usage file when it passes `compactBytes`, at open and at close; lines whose
 * `seq` the usage file already holds are skipped on reading, so a crash between the two steps counts nothing twice.
 *
 * One process per file: opening takes an exclusive lock (`<file>.lock`, see `acquireFileLock`); a second process
 * refuses to start, naming the holder. For several processes use the Redis store.
 *
 * Autocomplete sessions and rate windows stay in memory: a restart forgets open sessions (their next request then
 * bills as a new one) and rate windows.
 */
export class FileUsageStore extends MemoryUsageStore {
  private fd: number | null = null;
  /** Journal lines not yet written (a failed write, or lines behind it). */
  private pending: string[] = [];
  private journalBytes = 0;
  private dirty = false;
  private syncing = false;
  private failure: string | null = null;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly syncTimer: ReturnType<typeof setInterval>;
  private closed = false;

  private constructor(
    readonly path: string,
    initial: UsageReport,
    private seq: number,
    private readonly lock: { release(): void },
    private readonly opts: FileUsageOptions,
  ) {
    super(initial, opts);
    this.syncTimer = setInterval(() => this.sync(), opts.syncMs ?? 1000);
    // Pending work must not keep a finished process alive; close() does it.
    this.syncTimer.unref();
  }

  /**
   * Opens (or starts) the usage file: takes the lock, reads the file and its journal, folds the journal in. Throws an
   * Error naming the file when it is locked by another process, cannot be read back or cannot be written.
   */
  static open(path: string, opts: FileUsageOptions = {}): FileUsageStore {
    const lock = acquireFileLock(`${path}.lock`, `usage file ${path}`);
    try {
      const { usage, seq } = readUsage(path);
      const store = new FileUsageStore(path, usage, seq, lock, opts);
      store.compact();
      return store;
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  protected override count(key: string, period: string, endpoint: string, billable: number, session: boolean): void {
    super.count(key, period, endpoint, billable, session);
    if (this.closed) return;
    this.pending.push(JSON.stringify([++this.seq, key, period, endpoint, billable, session ? 1 : 0]) + '\n');
    // Behind a failed write, lines wait their turn: the retry writes them in order.
    if (this.pending.length === 1) this.writePending();
  }

  /** The usage folder is still a folder this process may write in (a deleted folder fails every later write). */
  async check(): Promise<string | null> {
    const dir = dirname(this.path);
    try {
      if (!statSync(dir).isDirectory()) return `usage folder ${dir} is not a folder`;
      accessSync(dir, constants.W_OK);
      return null;
    } catch (err) {
      return `usage folder ${dir} cannot be written (${(err as Error).message})`;
    }
  }

  /** Null while counts reach the journal, else why they do not (they are then in memory only). */
  problem(): string | null {
    return this.failure;
  }

  /** Writes pending journal lines; on failure keeps them and schedules a retry. */
  private writePending(): void {
    try {
      if (this.fd === null) this.openJournal();
      while (this.pending.length > 0) {
        const line = this.pending[0]!;
        writeSync(this.fd!, line);
        this.journalBytes += line.length;
        this.pending.shift();
      }
      this.dirty = true;
      this.recovered();
      if (this.journalBytes > (this.opts.compactBytes ?? 8 * 1024 * 1024)) this.compactLater();
    } catch (err) {
      // A partial line may have been written: a fresh descriptor after the retry appends behind it, and reading
      // skips what does not parse only at the end, so close the journal and start the retry on a new line.
      this.closeJournal();
      this.fail(`usage journal ${this.path}.journal cannot be written (${(err as Error).message})`, () =>
        this.writePending(),
      );
    }
  }

  private openJournal(): void {
    this.fd = openSync(`${this.path}.journal`, 'a', 0o600);
    // A torn line left by a failed write ends here, so the next line starts clean.
    writeSync(this.fd, '\n');
    this.journalBytes += 1;
  }

  private closeJournal(): void {
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch {
      // Nothing left to save through it.
    }
    this.fd = null;
  }

  private compactLater(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.tryCompact();
    }, 0);
    this.retryTimer.unref();
  }

  private tryCompact(): void {
    try {
      this.compact();
      this.recovered();
    } catch (err) {
      this.fail(`usage file ${this.path} cannot be written (${(err as Error).message})`, () => this.tryCompact());
    }
  }

  /**
   * Writes the whole report (with the journal's last seq) to the usage file, then starts an empty journal (a new
   * descriptor, so a journal file removed or replaced meanwhile is made again rather than written into the void).
   * While lines wait for a retry the journal is kept as it is.
   */
  private compact(): void {
    writeAtomic(this.path, JSON.stringify({ version: 2, seq: this.seq, usage: this.data }));
    if (this.pending.length > 0) return;
    const fresh = openSync(`${this.path}.journal`, 'w', 0o600);
    this.closeJournal();
    this.fd = fresh;
    this.journalBytes = 0;
  }

  /** fsyncs the journal when lines were appended since the last sync (off the main thread). */
  private sync(): void {
    if (!this.dirty || this.syncing || this.fd === null) return;
    this.dirty = false;
    this.syncing = true;
    fsync(this.fd, (err) => {
      this.syncing = false;
      if (err && !this.closed) {
        this.dirty = true;
        this.tell(`usage journal ${this.path}.journal cannot be synced (${err.message})`);
      }
    });
  }

  /** Records a failure, reports it, and retries `again` after the current backoff (doubling). */
  private fail(message: string, again: () => void): void {
    this.tell(message);
    if (this.retryTimer || this.closed) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      again();
    }, delay);
    this.retryTimer.unref();
  }

  private tell(message: string): void {
    if (message === this.failure) return;
    this.failure = message;
    this.opts.onProblem?.(`${message}; counts are kept in memory and retried`);
  }

  private recovered(): void {
    this.retryMs = RETRY_MIN_MS;
    if (this.failure === null) return;
    this.failure = null;
    this.opts.onProblem?.(null);
  }

  /**
   * Writes pending counts, folds the journal into the usage file and releases the lock. Later counts stay in memory
   * only. A failure (a full disk) is retried: up to CLOSE_ATTEMPTS tries, CLOSE_RETRY_MS apart (the process is
   * stopping: it waits for nothing else). Never throws: when every try fails, `onProblem` is told what was not
   * written (nothing, when every count reached the journal: the next start folds it in; else how many counts and
   * billable units).
   */
  close(): void {
    if (this.closed) return;
    // From here a failed write schedules no retry timer, and later counts are not journalled.
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    clearInterval(this.syncTimer);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    let error: Error | null = null;
    for (let attempt = 0; attempt < CLOSE_ATTEMPTS; attempt++) {
      if (attempt > 0) Atomics.wait(pause, 0, 0, CLOSE_RETRY_MS);
      try {
        // Journal lines first (a failure keeps them pending), then the whole report: once it is written, every count
        // is on disk, pending lines included.
        if (this.pending.length > 0) this.writePending();
        this.compact();
        if (this.fd !== null) fsyncSync(this.fd);
        error = null;
        break;
      } catch (err) {
        error = err as Error;
      }
    }
    if (error) {
      const units = this.pending.reduce((n, line) => n + ((JSON.parse(line) as Entry)[4] ?? 0), 0);
      this.opts.onProblem?.(
        `usage file ${this.path} cannot be written at close after ${CLOSE_ATTEMPTS} tries (${error.message}); ` +
          (this.pending.length === 0
            ? 'every count is in the journal and is folded in at the next start'
            : `${this.pending.length} counts (${units} billable units) were not written and are lost`),
      );
    }
    this.closeJournal();
    this.lock.release();
  }
}

/** A usage file read back: the counts with its journal folded in, and the last journal seq they hold. */
function readUsage(path: string): { usage: UsageReport; seq: number } {
  let text: string | null = null;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`usage file ${path} cannot be read (${(err as Error).message})`);
  }
  let usage: UsageReport = dict();
  let seq = 0;
  if (text !== null) {
    let doc: { version?: number; seq?: number; usage?: unknown };
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new Error(`usage file ${path} is not JSON (${(err as Error).message})`);
    }
    if (!doc || typeof doc !== 'object')
      throw new Error(`usage file ${path} must hold { "version": 2, "seq": N, "usage": { ... } }`);
    if (doc.version !== 1 && doc.version !== 2)
      throw new Error(`usage file ${path} has unknown version ${String(doc.version)}`);
    usage = checkReport(doc.usage, `usage file ${path}`);
    if (doc.version === 2 && !(Number.isSafeInteger(doc.seq) && doc.seq! >= 0))
      throw new Error(`usage file ${path}: seq must be a whole number of at least 0`);
    seq = doc.version === 2 ? doc.seq! : 0;
  }
  return replayJournal(`${path}.journal`, usage, seq);
}

/**
 * Adds the journal's lines after `seq` to `usage`. The last line may be torn (the process died while writing it):
 * it is skipped, as is an empty line; any other line that does not parse is an error naming the file and line.
 */
function replayJournal(path: string, usage: UsageReport, seq: number): { usage: UsageReport; seq: number } {
  let text: string;
  try {
    // A device or a pipe in its place would be read without end.
    if (!statSync(path).isFile()) throw new Error('not a regular file');
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { usage, seq };
    throw new Error(`usage journal ${path} cannot be read (${(err as Error).message})`);
  }
  const lines = text.split('\n');
  let last = seq;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '') continue;
    const entry = parseEntry(lines[i]!);
    if (entry === 'torn') {
      // Only the end of the file, or the end of a write that failed (a fresh descriptor starts a new line), can be torn.
      if (i === lines.length - 1 || lines[i + 1] === '') continue;
      throw new Error(`usage journal ${path} line ${i + 1} is malformed`);
    }
    // A whole line out of range was not written by this store: refused wherever it is, never counted.
    if (typeof entry === 'string') throw new Error(`usage journal ${path} line ${i + 1}: ${entry}`);
    const [n, key, period, endpoint, billable, session] = entry;
    if (n <= seq) continue;
    last = Math.max(last, n);
    const u = periodUsage(usage, key, period);
    u.requests[endpoint] = (u.requests[endpoint] ?? 0) + 1;
    u.billable += billable;
    u.sessions += session;
  }
  return { usage, seq: last };
}

type Entry = [seq: number, key: string, period: string, endpoint: string, billable: number, session: number];

/**
 * What each field of a journal line must be, one row a field: [test, what the message says]. No count is negative
 * (a negative one would give free units) and a request starts at most one session.
 */
const ENTRY_FIELDS: readonly (readonly [(v: unknown) => boolean, string])[] = [
  [(v) => Number.isSafeInteger(v) && (v as number) >= 1, 'seq must be a whole number of at least 1'],
  [(v) => typeof v === 'string' && v.length > 0, 'key must be a non-empty string'],
  [(v) => typeof v === 'string' && isPeriod(v), 'period must be YYYY-MM'],
  [(v) => typeof v === 'string' && v.length > 0, 'endpoint must be a non-empty string'],
  [(v) => Number.isSafeInteger(v) && (v as number) >= 0, 'billable must be a whole number of at least 0'],
  [(v) => v === 0 || v === 1, 'session must be 0 or 1'],
];

/** A journal line: its entry, `'torn'` when it is not a whole JSON line, else what is wrong with it. */
function parseEntry(line: string): Entry | string {
  let e: unknown;
  try {
    e = JSON.parse(line);
  } catch {
    return 'torn';
  }
  if (!Array.isArray(e) || e.length !== ENTRY_FIELDS.length) return `must be an array of ${ENTRY_FIELDS.length} fields`;
  const wrong = ENTRY_FIELDS.find(([ok], i) => !ok(e[i]));
  return wrong ? wrong[1] : (e as Entry);
}

/** Reads a usage file written by {@link FileUsageStore}, its journal included (without taking the lock); a missing file is empty usage. */
export function readUsageFile(path: string): UsageReport {
  return readUsage(path).usage;
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
