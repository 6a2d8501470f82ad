import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { PackWriter } from '../src/pack/writer.js';

/**
 * Writes a pack to `path`, section by section from the arrays it was built from: no copy of the whole pack in
 * memory, and no size limit but the format's (format.ts: version 2 past 4 GiB). The zero padding between sections
 * is left to the file system (unwritten bytes read as zero).
 * @returns the file's length in bytes
 */
export function writePackFile(pack: PackWriter, path: string): number {
  const l = pack.layout();
  const fd = openSync(path, 'w');
  try {
    writeAll(fd, l.head, 0);
    for (const s of l.sections) writeAll(fd, s.bytes, s.offset);
    ftruncateSync(fd, l.byteLength);
  } finally {
    closeSync(fd);
  }
  return l.byteLength;
}

/** Writes all of `bytes` at `position` (writeSync may write less than asked, and at most 2 GiB at once). */
function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  const CHUNK = 1 << 30;
  for (let done = 0; done < bytes.byteLength;) {
    const n = writeSync(fd, bytes, done, Math.min(CHUNK, bytes.byteLength - done), position + done);
    done += n;
  }
}
