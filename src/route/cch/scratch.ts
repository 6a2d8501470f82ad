import type { CoreExports } from '../wasm/core.js';

/**
 * Typed arrays carved one after another from a single ArrayBuffer of a known bound, for the arrays a computation
 * needs only while it runs (a metric's customization: about 75 MB on whole HCMC), or from the memory of a fresh
 * instance of the WebAssembly core, whose loops then run over them in place (`core`). One block instead of a dozen
 * arrays is what lets a process give the memory back: glibc's malloc serves a block above its mmap threshold (at
 * most 32 MiB) by a mapping of its own, unmapped when it is freed, while arrays of a few MB each come from its heap,
 * which keeps them after they are freed (about 80 MB of RSS on whole HCMC before). The block is freed when a
 * collection finds it (V8 collects soon after tens of MB of ArrayBuffers die). Pages of the bound never written are
 * never committed. The views are zeroed (a new ArrayBuffer is, and memory a WebAssembly instance grows). (A resizable buffer shrunk to nothing would give
 * the pages back at once, but V8 reads and writes views on one 1.5–2 times slower: customization is its hot loop.)
 */
export class Scratch {
  private readonly buffer: ArrayBuffer;
  /** Byte offset of the next array, and where the block ends. */
  private at: number;
  private readonly end: number;
  /**
   * The instance of the WebAssembly core whose memory holds the block (a fresh one, dropped with the Scratch: its
   * memory is freed as an ArrayBuffer is), or null for a block in an ArrayBuffer. The byteOffset of an array carved
   * in it is the array's address for the core's functions.
   */
  readonly core: CoreExports | null = null;

  /**
   * @param bytes at least the bytes of every array carved, each counted rounded up to 8
   * @param module the compiled WebAssembly core to hold the block in an instance of, or null (also when that
   *   instance's memory cannot grow by `bytes`: then an ArrayBuffer holds it)
   */
  constructor(bytes: number, module: WebAssembly.Module | null = null) {
    const core = module ? (new WebAssembly.Instance(module, {}).exports as unknown as CoreExports) : null;
    // alloc grows the memory once to the whole block (0 when it cannot), so views carved from it stay valid.
    const at = core ? core.alloc(bytes) >>> 0 : 0;
    if (core && at !== 0) {
      this.core = core;
      this.buffer = core.memory.buffer as ArrayBuffer;
      this.at = at;
    } else {
      this.buffer = new ArrayBuffer(bytes);
      this.at = 0;
    }
    this.end = this.at + bytes;
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

  /** A copy of `src` carved from the block (so the core's functions can read it). */
  copyU32(src: Uint32Array): Uint32Array {
    const out = this.u32(src.length);
    out.set(src);
    return out;
  }

  /** Byte offset of the next `bytes`, 8-aligned; throws RangeError past the bound (a wrong bound, a bug). */
  private take(bytes: number): number {
    const at = this.at;
    this.at = at + Math.ceil(bytes / 8) * 8;
    if (this.at > this.end) throw new RangeError(`scratch block overrun by ${this.at - this.end} bytes`);
    return at;
  }
}

/** Bytes Scratch needs for arrays of these element counts and sizes: each rounded up to 8 bytes. */
export function scratchBytes(...arrays: [count: number, bytesPerElement: number][]): number {
  return arrays.reduce((s, [n, b]) => s + Math.ceil((n * b) / 8) * 8, 0);
}
