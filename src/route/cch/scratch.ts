import type { CoreExports } from '../wasm/core.js';

/**
 * Typed arrays carved one after another from a single block of a known bound, for the arrays a computation needs
 * only while it runs (a metric's customization: about 75 MB on whole HCMC). One block instead of a dozen arrays is
 * what lets a process give the memory back: glibc's malloc serves a block above its mmap threshold (at most 32 MiB)
 * by a mapping of its own, unmapped when it is freed, while arrays of a few MB each come from its heap, which keeps
 * them after they are freed (about 80 MB of RSS on whole HCMC before). Pages of the bound never written are never
 * committed. The views are zeroed (a new ArrayBuffer is, and memory a WebAssembly instance grows).
 *
 * Where the block lives:
 * - an ArrayBuffer, by default. The computation frees it itself when it is done ({@link release}) rather than
 *   leaving it to a collection: V8 collects only as a thread allocates, so a thread that goes idle after customizing
 *   (a server's worker after its warm-up, or after a burst of requests) held the dead block, and its 40–60 MB of RSS,
 *   for as long as it stayed idle. (A resizable buffer shrunk to nothing would give the pages back too, but V8 reads
 *   and writes views on one 1.5–2 times slower: customization is its hot loop.)
 * - the memory of a fresh instance of the WebAssembly core (`core`), whose loops then run over the arrays in place
 *   (wasm/src/cch.rs). Such memory cannot be given back early: it is freed with the instance, by a collection.
 * - shared memory (`shared`: a SharedArrayBuffer in Node, or in a browser with cross-origin isolation; else an
 *   ArrayBuffer), for a metric's final arrays (arcs.ts keptRows, measures.ts), so the threads of one process can read
 *   one copy (exchange.ts MetricExchange). Plain loads and stores on views of either kind run alike.
 */
export class Scratch {
  private readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** Byte offset of the next array, and where the block ends. */
  private at: number;
  private readonly end: number;
  /**
   * The instance of the WebAssembly core whose memory holds the block, or null. The byteOffset of an array carved
   * in it is the array's address for the core's functions.
   */
  readonly core: CoreExports | null = null;

  /**
   * @param bytes at least the bytes of every array carved, each counted rounded up to 8
   * @param where `core`: the compiled WebAssembly core to hold the block in an instance of (an ArrayBuffer holds it
   *   when that instance's memory cannot grow by `bytes`); `shared`: in shared memory when the platform has it
   */
  constructor(bytes: number, where: { core?: WebAssembly.Module | null; shared?: boolean } = {}) {
    const core = where.core ? (new WebAssembly.Instance(where.core, {}).exports as unknown as CoreExports) : null;
    // alloc grows the memory once to the whole block (0 when it cannot), so views carved from it stay valid.
    const at = core ? core.alloc(bytes) >>> 0 : 0;
    if (core && at !== 0) {
      this.core = core;
      this.buffer = core.memory.buffer as ArrayBuffer;
      this.at = at;
    } else {
      this.buffer =
        where.shared && typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
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

  /**
   * Frees an ArrayBuffer block now: every view carved from it becomes empty (the caller holds none any more). Node 20
   * has no `ArrayBuffer.prototype.transfer`, and a buffer's memory is otherwise freed only when a collection finds it
   * dead: transferring it in a message to a port whose other end is closed detaches it, and the dropped message frees
   * its memory at once. Where there is no MessageChannel, or the block is shared memory or the core's (which cannot
   * be detached), a collection frees it.
   */
  release(): void {
    if (typeof MessageChannel !== 'function' || this.core || !(this.buffer instanceof ArrayBuffer)) return;
    const { port1, port2 } = new MessageChannel();
    port2.close();
    port1.postMessage(null, [this.buffer]);
    port1.close();
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
