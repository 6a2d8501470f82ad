/**
 * Streams the lines of a plain or gzip-compressed text file as byte ranges, without building strings or
 * an array of lines: memory stays at one chunk plus one partial line.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';

/**
 * Called once per line with the bytes [start, end) of `buf` (line end excluded, a trailing CR stripped)
 * and the 1-based line number. `buf` is only valid during the call.
 */
export type LineHandler = (buf: Buffer, start: number, end: number, line: number) => void;

/** True when the file starts with the gzip magic bytes 1f 8b. */
function isGzip(path: string): boolean {
  const head = Buffer.alloc(2);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/**
 * Calls `onLine` for every line of the file at `path`, gunzipping on the fly when it is gzip-compressed
 * (detected by content, whatever the extension).
 *
 * @throws Error naming the file when it cannot be read or its gzip stream is corrupt; errors thrown by
 *   `onLine` propagate unchanged
 */
export async function forEachLine(path: string, onLine: LineHandler): Promise<void> {
  const file = createReadStream(path);
  const stream = isGzip(path) ? file.pipe(createGunzip()) : file;
  if (stream !== file) file.on('error', (e) => stream.destroy(e));
  let carry: Buffer | null = null;
  let line = 0;
  const emit = (buf: Buffer, start: number, end: number): void => {
    line++;
    onLine(buf, start, end > start && buf[end - 1] === 13 ? end - 1 : end, line);
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      let nl = chunk.indexOf(10);
      if (carry !== null && nl >= 0) {
        const joined: Buffer = Buffer.concat([carry, chunk.subarray(0, nl)]);
        carry = null;
        emit(joined, 0, joined.length);
        start = nl + 1;
        nl = chunk.indexOf(10, start);
      }
      while (nl >= 0) {
        emit(chunk, start, nl);
        start = nl + 1;
        nl = chunk.indexOf(10, start);
      }
      if (start < chunk.length) {
        // Copy: the partial line must outlive this chunk.
        carry = carry === null ? Buffer.from(chunk.subarray(start)) : Buffer.concat([carry, chunk.subarray(start)]);
      }
    }
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('Z_') || (e as { code?: string }).code === 'ENOENT') {
      throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
    }
    throw e;
  }
  if (carry !== null && carry.length > 0) emit(carry, 0, carry.length);
}
