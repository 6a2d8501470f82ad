/**
 * Typed arrays carved one after another from a single block of a known bound, for the arrays a computation needs
 * only while it runs (a metric's customization: about 75 MB on whole HCMC). One block instead of a dozen arrays is
 * what lets a process give the memory back: glibc's malloc serves a block above its mmap threshold (at most 32 MiB)
 * by a mapping of its own, unmapped when it is freed, while arrays of a few MB each come from its heap, which keeps
 * them after they are freed (about 80 MB of RSS on whole HCMC before). Pages of the bound never written are never
 * committed. The views are zeroed (a new ArrayBuffer is). On Linux an ArrayBuffer block is never smaller than
 * {@link MAPPED_FLOOR}, so freeing it leaves malloc's thresholds as they were.
 *
 * Where the block lives:
 * - an ArrayBuffer, by default. The computation frees it itself when it is done ({@link release}) rather than
 *   leaving it to a collection: V8 collects only as a thread allocates, so a thread that goes idle after customizing
 *   (a server's worker after its warm-up, or after a burst of requests) held the dead block, and its 40–60 MB of RSS,
 *   for as long as it stayed idle. A released block is kept until the event loop next turns, for the next Scratch
 *   to reuse: customizations run back to back in one synchronous call (an engine routing every vehicle in turn)
 *   then hold one block between them, not one per customization until the loop turns. (A resizable buffer shrunk
 *   to nothing would give the pages back too, but V8 reads and writes views on one 1.5–2 times slower:
 *   customization is its hot loop.)
 * - shared memory (`shared`: a SharedArrayBuffer in Node, or in a browser with cross-origin isolation; else an
 *   ArrayBuffer), for a metric's final arrays (arcs.ts keptRows, measures.ts), so the threads of one process can read
 *   one copy (exchange.ts MetricExchange). Plain loads and stores on views of either kind run alike.
 */
export class Scratch {
  private readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** Bytes carved so far. */
  private at = 0;
  /** The bytes asked for: a reused block may be larger. */
  private readonly bound: number;

  /**
   * @param bytes at least the bytes of every array carved, each counted rounded up to 8
   * @param where `shared`: in shared memory when the platform has it (see above)
   */
  constructor(bytes: number, where: { shared?: boolean } = {}) {
    this.bound = bytes;
    this.buffer =
      where.shared && typeof SharedArrayBuffer === 'function'
        ? new SharedArrayBuffer(bytes)
        : reuseOrNew(Math.max(bytes, MAPPED_FLOOR));
  }

  /** `n` float64 elements. */
  f64(n: number): Float64Array {
    return new Float64Array(this.buffer, this.take(8 * n), n);
  }

  /** `n` uint32 elements. */
  u32(n: number): Uint32Array {
    return new Uint32Array(this.buffer, this.take(4 * n), n);
  }

  /** `n` uint16 elements. */
  u16(n: number): Uint16Array {
    return new Uint16Array(this.buffer, this.take(2 * n), n);
  }

  /** `n` int32 elements. */
  i32(n: number): Int32Array {
    return new Int32Array(this.buffer, this.take(4 * n), n);
  }

  /** `n` uint8 elements. */
  u8(n: number): Uint8Array {
    return new Uint8Array(this.buffer, this.take(n), n);
  }

  /**
   * Gives an ArrayBuffer block up: every view carved from it must be dropped (the caller holds none any more). The
   * block waits for the next Scratch until the event loop turns, and is then freed at once (see {@link detach}).
   * Shared memory is left to a collection.
   */
  release(): void {
    if (!(this.buffer instanceof ArrayBuffer)) return;
    if (spare) detach(spare.buffer);
    spare = { buffer: this.buffer, written: this.at };
    if (typeof setTimeout === 'function') {
      const timer: { unref?: () => void } | number = setTimeout(dropSpare, 0);
      if (typeof timer === 'object') timer.unref?.();
    }
  }

  /** Byte offset of the next `bytes`, 8-aligned; throws RangeError past the bound (a wrong bound, a bug). */
  private take(bytes: number): number {
    const at = this.at;
    this.at = at + Math.ceil(bytes / 8) * 8;
    if (this.at > this.bound) throw new RangeError(`scratch of ${this.bound} bytes overrun`);
    return at;
  }
}

/**
 * Least bytes of an ArrayBuffer block: past glibc's largest mmap threshold (32 MiB), so malloc always maps the block
 * apart and unmaps it when it is freed, whatever the threshold is then. Freeing a mapped block of at most 32 MiB
 * raises the threshold to its size for the rest of the process (glibc's dynamic threshold, and the trim threshold
 * with it to twice that): a 12 MB block freed once made every later array of up to 12 MB come from malloc's heaps,
 * which keep their freed memory (`bando serve` on whole HCMC: the state topology's build did it at each worker's
 * warm-up). The pages of the block never carved are never touched, so they cost address space, not memory. Only
 * on Linux (glibc's malloc, in Node); elsewhere 0.
 */
const MAPPED_FLOOR =
  (globalThis as { process?: { platform?: string } }).process?.platform === 'linux' ? 32 * 1024 * 1024 + 65536 : 0;

/** Bytes Scratch needs for arrays of these element counts and sizes: each rounded up to 8 bytes. */
export function scratchBytes(...arrays: [count: number, bytesPerElement: number][]): number {
  return arrays.reduce((s, [n, b]) => s + Math.ceil((n * b) / 8) * 8, 0);
}

/** The last released block and how many of its leading bytes were carved (written, perhaps). */
let spare: { buffer: ArrayBuffer; written: number } | undefined;

/** The spare block when it is large enough, its written bytes zeroed (as a new buffer's are); else a new buffer. */
function reuseOrNew(bytes: number): ArrayBuffer {
  const s = spare;
  spare = undefined;
  if (!s) return new ArrayBuffer(bytes);
  if (s.buffer.byteLength < bytes) {
    detach(s.buffer);
    return new ArrayBuffer(bytes);
  }
  new Uint8Array(s.buffer, 0, s.written).fill(0);
  return s.buffer;
}

function dropSpare(): void {
  if (spare) detach(spare.buffer);
  spare = undefined;
}

/**
 * Frees a buffer's memory without waiting for a collection. Node 20 has no `ArrayBuffer.prototype.transfer`:
 * transferring the buffer in a message to a port whose other end is closed detaches it, and the dropped message's
 * memory is freed when the event loop next turns. Where there is no MessageChannel a collection frees it.
 */
function detach(buffer: ArrayBuffer): void {
  if (typeof MessageChannel !== 'function') return;
  const { port1, port2 } = new MessageChannel();
  port2.close();
  port1.postMessage(null, [buffer]);
  port1.close();
}
