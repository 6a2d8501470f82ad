/**
 * Typed arrays carved one after another from a single ArrayBuffer of a known bound, for the arrays a computation
 * needs only while it runs (a metric's customization: about 75 MB on whole HCMC). One block instead of a dozen
 * arrays is what lets a process give the memory back: glibc's malloc serves a block above its mmap threshold (at
 * most 32 MiB) by a mapping of its own, unmapped when it is freed, while arrays of a few MB each come from its heap,
 * which keeps them after they are freed (about 80 MB of RSS on whole HCMC before). The block is freed when a
 * collection finds it (V8 collects soon after tens of MB of ArrayBuffers die). Pages of the bound never written are
 * never committed. The views are zeroed (a new ArrayBuffer is). (A resizable buffer shrunk to nothing would give
 * the pages back at once, but V8 reads and writes views on one 1.5–2 times slower: customization is its hot loop.)
 */
export class Scratch {
  private readonly buffer: ArrayBuffer;
  /** Bytes carved so far. */
  private at = 0;

  /** @param bytes at least the bytes of every array carved, each counted rounded up to 8 */
  constructor(bytes: number) {
    this.buffer = new ArrayBuffer(bytes);
  }

  /** `n` float64 elements. */
  f64(n: number): Float64Array {
    return new Float64Array(this.buffer, this.take(8 * n), n);
  }

  /** `n` uint32 elements. */
  u32(n: number): Uint32Array {
    return new Uint32Array(this.buffer, this.take(4 * n), n);
  }

  /** `n` uint8 elements. */
  u8(n: number): Uint8Array {
    return new Uint8Array(this.buffer, this.take(n), n);
  }

  /** Byte offset of the next `bytes`, 8-aligned; throws RangeError past the bound (a wrong bound, a bug). */
  private take(bytes: number): number {
    const at = this.at;
    this.at = at + Math.ceil(bytes / 8) * 8;
    if (this.at > this.buffer.byteLength) throw new RangeError(`scratch of ${this.buffer.byteLength} bytes overrun`);
    return at;
  }
}

/** Bytes Scratch needs for arrays of these element counts and sizes: each rounded up to 8 bytes. */
export function scratchBytes(...arrays: [count: number, bytesPerElement: number][]): number {
  return arrays.reduce((s, [n, b]) => s + Math.ceil((n * b) / 8) * 8, 0);
}
