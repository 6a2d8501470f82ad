import { linkSync, mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds a lock, as written in the lock file. */
interface Holder {
  pid: number;
  host: string;
  /** ISO 8601 time the lock was taken. */
  since: string;
}

/** Locks held by this process (lock path → file text), so a second open in the same process is refused too. */
const held = new Map<string, string>();

/** A stale-lock breaker directory older than this is left over from a crash during a takeover, milliseconds. */
const BREAKER_STALE_MS = 10_000;

/** Thrown by {@link acquireFileLock} when a live process holds the lock (or is taking over a stale one). */
class FileLockBusy extends Error {
  override readonly name = 'FileLockBusy';
}

/** Longest wait of {@link withFileLock} for a busy lock by default, milliseconds. */
const LOCK_WAIT_MS = 10_000;

/**
 * Runs `work` holding the lock `lockPath` (see {@link acquireFileLock}) and releases it after, for short edits of a
 * file by short-lived processes (`bando keys create|delete`): while another process holds the lock this one waits
 * (polling every 5–25 ms, a random step so that waiting processes do not retry in step) up to `waitMs`
 * milliseconds, then throws the FileLockBusy error that names the holder. Synchronous: the caller does nothing else
 * meanwhile.
 */
export function withFileLock<T>(lockPath: string, what: string, work: () => T, waitMs = LOCK_WAIT_MS): T {
  const deadline = Date.now() + waitMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let lock: { release(): void };
    try {
      lock = acquireFileLock(lockPath, what);
    } catch (err) {
      if (!(err instanceof FileLockBusy) || Date.now() >= deadline) throw err;
      Atomics.wait(pause, 0, 0, 5 + Math.random() * 20);
      continue;
    }
    try {
      return work();
    } finally {
      lock.release();
    }
  }
}

/**
 * Takes the exclusive lock `lockPath` for `what` (e.g. `usage file /var/bando/keys.usage.json`), or throws an Error
 * naming the holder (process id, host, since when) and the lock file.
 *
 * The lock file is created whole and atomically (`link` of a complete temporary file, which fails if the lock
 * exists), so a reader never sees a half-written holder. A lock left by a process that died (kill -9, a crash) on
 * this host is taken over: its process id no longer runs, or is this process's own id (a restarted container whose
 * server is again process 1). The takeover runs under a breaker directory (`mkdir` is atomic), so two processes
 * that find the same stale lock cannot both take it. A lock from another host is never taken over: this process
 * cannot tell whether its holder runs (two machines sharing a volume), so it refuses and says which file to remove.
 */
export function acquireFileLock(lockPath: string, what: string): { release(): void } {
  if (held.has(lockPath)) throw new Error(`${what} is already open in this process (lock file ${lockPath})`);
  const text =
    JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() } satisfies Holder) + '\n';
  const tmp = `${lockPath}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o644 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, lockPath);
        held.set(lockPath, text);
        return { release: () => release(lockPath) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        if (attempt >= 3) throw new FileLockBusy(`${what}: the lock ${lockPath} keeps changing hands; try again`);
      }
      const current = readText(lockPath);
      if (current === null) continue; // released meanwhile
      const holder = parseHolder(current);
      if (!holder)
        throw new Error(
          `${what} is locked by ${lockPath}, which names no holder; remove it if no bando process uses the file`,
        );
      if (running(holder))
        throw new FileLockBusy(
          `${what} is in use by process ${holder.pid} on ${holder.host} since ${holder.since} (lock file ${lockPath}); ` +
            (holder.host === hostname()
              ? 'stop that process first'
              : `stop it first, or remove ${lockPath} if that process is gone`),
        );
      breakStale(lockPath, current, what);
    }
  } finally {
    unlinkQuietly(tmp);
  }
}

/** Removes the lock if this process still holds it. */
function release(lockPath: string): void {
  const mine = held.get(lockPath);
  if (mine === undefined) return;
  held.delete(lockPath);
  if (readText(lockPath) === mine) unlinkQuietly(lockPath);
}

/** Deletes a stale lock whose text is `stale`, unless another process replaced it meanwhile. */
function breakStale(lockPath: string, stale: string, what: string): void {
  const breaker = `${lockPath}.break`;
  try {
    mkdirSync(breaker);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (Date.now() - mtimeMs(breaker) < BREAKER_STALE_MS)
      throw new FileLockBusy(`${what}: another process is taking over the stale lock ${lockPath}; try again`);
    rmdirSync(breaker); // left by a crash during a takeover
    return;
  }
  try {
    if (readText(lockPath) === stale) unlinkSync(lockPath);
  } finally {
    rmdirSync(breaker);
  }
}

/** True when the holder may still run: another host (unknowable), or a live process of this host other than us. */
function running(h: Holder): boolean {
  if (h.host !== hostname()) return true;
  if (h.pid === process.pid) return false;
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists under another user.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function parseHolder(text: string): Holder | null {
  try {
    const h = JSON.parse(text) as Holder;
    return Number.isInteger(h.pid) && typeof h.host === 'string' ? h : null;
  } catch {
    return null;
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
