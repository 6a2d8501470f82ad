import { createWriteStream, type WriteStream } from 'node:fs';

/** Time after a failed write before the log file is opened again, milliseconds. */
const RETRY_MS = 1000;

/** Lines in a text of whole lines. */
const lines = (text: string): number => text.split('\n').length - 1;

/** The `--log` destination of `bando serve` (see {@link openRequestLog}). */
export interface RequestLogFile {
  /** Appends text (whole lines). Never throws. */
  write(text: string): void;
  /** Closes the file and opens its path again on the next write (SIGHUP, after a rotation moved the file away). */
  reopen(): void;
  /** Resolves once every line written so far is in the file (the process exits right after). */
  close(): Promise<void>;
}

/**
 * Standard output for `-`, else the file `target` opened for appending. A failed write never stops serving nor
 * logging for good: the stream is dropped and reported once, lines meanwhile are dropped and counted, and the path
 * is opened again on the first write `retryMs` after the failure (1 s), which reports that logging works again
 * and how many lines were lost.
 * @param report where the failure and the recovery are told (default standard error)
 */
export function openRequestLog(
  target: string,
  report: (message: string) => void = (m) => process.stderr.write(`bando: ${m}\n`),
  retryMs = RETRY_MS,
): RequestLogFile {
  if (target === '-')
    return { write: (text) => void process.stdout.write(text), reopen: () => {}, close: () => Promise.resolve() };
  let stream: WriteStream | null = null;
  let failedAt: number | null = null;
  let lost = 0;
  /**
   * Streams a reopen or close has ended, until their lines are in their files: close waits for them too (a rotated
   * file's last lines were otherwise lost when the process exited right after a SIGHUP).
   */
  const ending = new Set<Promise<void>>();
  /** Ends the stream, if any, the next write opening the path again. */
  const letGo = (): void => {
    if (!stream) return;
    const done = ended(stream);
    ending.add(done);
    void done.then(() => ending.delete(done));
    stream = null;
  };
  const open = (): WriteStream => {
    const s = createWriteStream(target, { flags: 'a' });
    s.on('error', (err: Error) => {
      if (stream === s) stream = null;
      s.destroy();
      if (failedAt === null)
        report(`the request log ${target} cannot be written (${err.message}); retrying every ${retryMs} ms`);
      failedAt = Date.now();
    });
    return s;
  };
  return {
    write(text) {
      if (!stream) {
        if (failedAt !== null && Date.now() - failedAt < retryMs) {
          lost += lines(text);
          return;
        }
        stream = open();
      }
      const s = stream;
      s.write(text, (err) => {
        if (err) lost += lines(text);
        if (err || failedAt === null || s !== stream) return;
        report(`the request log ${target} is written again (${lost} lines lost meanwhile)`);
        failedAt = null;
        lost = 0;
      });
    },
    reopen: letGo,
    async close() {
      letGo();
      await Promise.all(ending);
    },
  };
}

/** Ends `s`: resolves once its lines are in the file, or it failed (never rejects). */
function ended(s: WriteStream): Promise<void> {
  return new Promise<void>((resolve) => {
    s.once('error', () => resolve());
    s.end(resolve);
  });
}
