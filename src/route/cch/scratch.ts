import type { CchArena } from '../wasm/cch-arena.js';

/**
 * Typed arrays carved one after another from a few blocks, up to a known bound, for the arrays a computation needs
 * only while it runs (a metric's customization: about 50 MB on whole HCMC). One block instead of a dozen arrays is
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
 *   for as long as it stayed idle. Freed memory goes back only when the event loop turns, so released blocks are
 *   kept until then for the next scratches to carve from, an array in any released block with room for it, else
 *   in a block of the scratch's own for the rest of its bound: customizations run back to back in one synchronous
 *   call (an engine routing every vehicle in turn) hold one customization's blocks between them, not one per
 *   customization, and a first customization carves its arrays where the CCH's build (the state graph and the
 *   topology's working arrays, ≈ 13 bytes per topology arc) has just released its own, instead of beside them
 *   (docs/routing.md). (A resizable buffer shrunk to nothing gives the pages back at once, but V8 reads and writes
 *   views on one a fifth to twice slower: customization is its hot loop. The CCH's build asks for it on big graphs:
 *   `shrink`.)
 * - shared memory (`shared`: a SharedArrayBuffer in Node, or in a browser with cross-origin isolation; else an
 *   ArrayBuffer), for a metric's final arrays (arcs.ts KeptRows, measures.ts), so the threads of one process can read
 *   one copy (exchange.ts MetricExchange). Plain loads and stores on views of either kind run alike.
 * - a block of a router's arena (`arena`: the WebAssembly memory its CCH search reads, cch-arena.ts), for the arrays
 *   that search reads in place (the topology's rows and a metric's kept arcs).
 */
export class Scratch {
  /**
   * The block of shared memory (`shared`, or `arena`) and where in it the scratch starts, carved from there; null
   * for ArrayBuffer blocks.
   */
  private readonly sharedBlock: { buffer: SharedArrayBuffer; at: number } | null;
  /** The ArrayBuffer blocks carved from so far: released ones taken over, and at most one of its own. */
  private blocks: Block[] = [];
  /** Bytes carved so far, in all blocks. */
  private at = 0;
  /** The bytes asked for: reused blocks may be larger. */
  private readonly bound: number;
  /** False for a `shared` scratch: its arrays outlive the computation, so it never takes a released block. */
  private readonly reuse: boolean;
  /** The arena the block is carved from (`arena`, where it had room), else null. */
  private readonly arena: CchArena | null;
  /** Least bytes of a block of its own that is given back at once (see the constructor); Infinity for none. */
  private readonly shrinkFrom: number;

  /**
   * @param bytes at least the bytes of every array carved, each counted rounded up to 8
   * @param where `shared`: in shared memory when the platform has it (see above). `shrink`: a block of its own of at
   *   least {@link SHRINK_FROM} bytes is a resizable buffer, shrunk to nothing when released, so that its pages go
   *   back at once rather than when the event loop turns (it is never offered to later scratches): for working
   *   arrays a long computation follows in the same call (the CCH's build, before a first customization), where
   *   views a fifth slower matter less than the memory held beside what follows; a number: from that many bytes.
   *   `arena`: a block of the memory the WebAssembly search of a router's CCH reads (cch-arena.ts), for arrays it
   *   reads in place, kept as long as the router lives; where that memory has no room, as `shared`
   */
  constructor(bytes: number, where: { shared?: boolean; shrink?: boolean | number; arena?: CchArena | null } = {}) {
    this.bound = bytes;
    this.reuse = !where.shared && !where.arena;
    const from = typeof where.shrink === 'number' ? where.shrink : SHRINK_FROM;
    this.shrinkFrom = where.shrink !== undefined && where.shrink !== false && this.reuse && RESIZABLE ? from : Infinity;
    const inArena = where.arena?.alloc(bytes);
    this.arena = inArena ? where.arena! : null;
    this.sharedBlock =
      inArena ??
      (!this.reuse && typeof SharedArrayBuffer === 'function' ? { buffer: new SharedArrayBuffer(bytes), at: 0 } : null);
  }

  /**
   * Gives the arena back the end of this scratch's block past `last`, the last array carved (trimmed to what was
   * written: its pages past that were never written). Nothing is carved after. Only for a block of an arena.
   */
  giveBack(last: ArrayBufferView): void {
    const block = this.sharedBlock;
    if (this.arena && block) this.arena.shrink(block.at, this.bound, last.byteOffset + last.byteLength - block.at);
  }

  /** `n` float64 elements. */
  f64(n: number): Float64Array {
    const [buffer, at] = this.take(8 * n);
    return new Float64Array(buffer, at, n);
  }

  /** `n` uint32 elements. */
  u32(n: number): Uint32Array {
    const [buffer, at] = this.take(4 * n);
    return new Uint32Array(buffer, at, n);
  }

  /** `n` uint16 elements. */
  u16(n: number): Uint16Array {
    const [buffer, at] = this.take(2 * n);
    return new Uint16Array(buffer, at, n);
  }

  /** `n` int32 elements. */
  i32(n: number): Int32Array {
    const [buffer, at] = this.take(4 * n);
    return new Int32Array(buffer, at, n);
  }

  /** `n` uint8 elements. */
  u8(n: number): Uint8Array {
    const [buffer, at] = this.take(n);
    return new Uint8Array(buffer, at, n);
  }

  /**
   * Gives back the pages of this scratch's resizable block (`shrink`) from byte `at` of `buffer` on, when that is
   * the block: nothing carved there is read again (views reaching past it read as empty), nor carved again. Else
   * nothing (an ArrayBuffer block is freed whole by `release`).
   */
  cut(buffer: ArrayBufferLike, at: number): void {
    const b = this.blocks.find((x) => x.buffer === buffer);
    if (!b || !(b.buffer as Resizable).resizable || at >= b.buffer.byteLength) return;
    (b.buffer as Resizable).resize(at);
    b.at = Math.min(b.at, at);
    b.written = Math.min(b.written, at);
  }

  /**
   * Gives the ArrayBuffer blocks up: every view carved from them must be dropped (the caller holds none any more).
   * They wait for the next scratches until the event loop turns, and are then freed at once (see {@link detach}).
   * Shared memory is left to a collection (an arena's block to its router's).
   */
  release(): void {
    if (!this.reuse) return;
    for (const b of this.blocks)
      if ((b.buffer as Resizable).resizable) (b.buffer as Resizable).resize(0);
      else spares.push({ buffer: b.buffer, at: 0, written: Math.max(b.written, b.at) });
    this.blocks = [];
    if (spares.length > 0 && !dropping && typeof setTimeout === 'function') {
      dropping = true;
      const timer: { unref?: () => void } | number = setTimeout(dropSpares, 0);
      if (typeof timer === 'object') timer.unref?.();
    }
  }

  /**
   * Where the next `bytes` go, 8-aligned: the buffer and byte offset, zeroed. From the first block of this scratch
   * with room, else the smallest released block with room (taken over whole: no two scratches carve from one
   * block), else a block of its own for what is left of the bound. Throws RangeError past the bound (a wrong bound,
   * a bug).
   */
  private take(bytes: number): [ArrayBuffer | SharedArrayBuffer, number] {
    const size = Math.ceil(bytes / 8) * 8;
    const left = this.bound - this.at;
    this.at += size;
    if (this.at > this.bound) throw new RangeError(`scratch of ${this.bound} bytes overrun`);
    if (this.sharedBlock) return [this.sharedBlock.buffer, this.sharedBlock.at + this.at - size];
    let b = this.blocks.find((x) => x.buffer.byteLength - x.at >= size);
    if (!b) {
      let best = -1;
      for (let i = 0; this.reuse && i < spares.length; i++)
        if (
          spares[i]!.buffer.byteLength >= size &&
          (best < 0 || spares[i]!.buffer.byteLength < spares[best]!.buffer.byteLength)
        )
          best = i;
      b =
        best >= 0
          ? spares.splice(best, 1)[0]!
          : {
              buffer:
                left >= this.shrinkFrom
                  ? new (ArrayBuffer as unknown as ResizableConstructor)(left, { maxByteLength: left })
                  : new ArrayBuffer(Math.max(left, MAPPED_FLOOR)),
              at: 0,
              written: 0,
            };
      this.blocks.push(b);
    }
    const at = b.at;
    b.at += size;
    // A released block's bytes written before are zeroed, as a new buffer's are.
    if (at < b.written) new Uint8Array(b.buffer, at, Math.min(size, b.written - at)).fill(0);
    return [b.buffer, at];
  }
}

/**
 * An ArrayBuffer block a scratch carves from: `at` bytes carved so far, of which its earlier users may have written
 * the first `written` (to be zeroed before they are handed out again).
 */
interface Block {
  buffer: ArrayBuffer;
  at: number;
  written: number;
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
export const MAPPED_FLOOR =
  (globalThis as { process?: { platform?: string } }).process?.platform === 'linux' ? 32 * 1024 * 1024 + 65536 : 0;

/**
 * Least bytes of a block a `shrink` scratch makes resizable: below it the memory is small beside what follows, and
 * views on a plain buffer are faster (V8 reads and writes views on a resizable one about a fifth slower).
 */
const SHRINK_FROM = 256 * 1024 * 1024;

/** An ArrayBuffer that may be resizable (ES2024, which the project's lib predates). */
type Resizable = ArrayBuffer & { resizable?: boolean; resize(bytes: number): void };
type ResizableConstructor = new (bytes: number, options: { maxByteLength: number }) => Resizable;

/** Whether this platform has resizable ArrayBuffers (Node 20, browsers since 2023). */
const RESIZABLE = typeof (ArrayBuffer.prototype as Partial<Resizable>).resize === 'function';

/** Bytes Scratch needs for arrays of these element counts and sizes: each rounded up to 8 bytes. */
export function scratchBytes(...arrays: [count: number, bytesPerElement: number][]): number {
  return arrays.reduce((s, [n, b]) => s + Math.ceil((n * b) / 8) * 8, 0);
}

/**
 * The blocks released since the event loop last turned, each free for the next scratches (its `at` 0): freed when
 * the loop turns. Taking one over whole, a scratch may carve a big array from it where a dead array of another
 * computation lay (the CCH's build: the state graph and the topology's working arrays, then a customization's),
 * instead of mapping new memory beside it while it waits to be freed.
 */
const spares: Block[] = [];
/** True while a timer is set to free the spares. */
let dropping = false;

function dropSpares(): void {
  dropping = false;
  for (const b of spares.splice(0)) detach(b.buffer);
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
