/** Bytes of a WebAssembly page. */
const PAGE = 65536;
/** Numbers per hole of CchArena.holes. */
const HOLE = 3;
/** A wasm32 memory's last byte is below 4 GiB. */
const MAX_BYTES = 2 ** 32;

/** Exports of bando-cch.wasm (wasm/cch/lib.rs). */
interface CchExports {
  /** Runs the query laid at an address (cch-search.ts); 0 answered, 1 lists too short, 2 widths not read. */
  search(query: number): number;
  /** The first byte past the module's stack and data. */
  __heap_base: WebAssembly.Global;
}

/**
 * The memory the customizable hierarchy's WebAssembly search (bando-cch.wasm, from wasm/cch) reads, and the one
 * instance of the search over it: a router's (one per engine and pack). The router's topology, the kept arcs of its
 * metrics that avoid nothing and the labels of its searches are carved here where they are made (Scratch `arena`,
 * LabelMemory), so the search reads them in place and nothing is copied in. The memory is shared (its buffer a
 * SharedArrayBuffer): growing it never moves or detaches what the TypeScript side's views see, which keep reading
 * and writing the same bytes (a non-shared memory's views are detached at each grow). Blocks are 8-aligned; freed
 * ones are reused first fit (the labels' block when it is outgrown, and the room a block's arrays did not fill).
 * Pages never written are never committed, nor touched when handed out again (an arena cannot give pages back).
 * Only where shared memory exists: Node, or a browser page or worker that is cross-origin isolated.
 */
export class CchArena {
  readonly memory: WebAssembly.Memory;
  private readonly exports: CchExports;
  /** The first byte not handed out (blocks freed at the end lower it). */
  private top: number;
  /** The end of the bytes ever handed out: past it the memory is still all zeros. */
  private dirty = 0;
  /**
   * Blocks given back, by address, as HOLE numbers each: address, bytes, and 1 when never written (`shrink`) else 0;
   * none ends at the top.
   */
  private readonly holes: number[] = [];
  /** Every buffer the memory has had: a view is in the memory when its buffer is one of them. */
  private readonly buffers = new WeakSet<ArrayBufferLike>();

  /**
   * @param limit where the blocks must end (default: where a wasm32 memory ends, 4 GiB; tests set it lower)
   */
  private constructor(
    module: WebAssembly.Module,
    private readonly limit: number,
  ) {
    this.memory = new WebAssembly.Memory({ initial: 1, maximum: MAX_BYTES / PAGE, shared: true });
    this.exports = new WebAssembly.Instance(module, { env: { memory: this.memory } }).exports as unknown as CchExports;
    this.top = align(this.exports.__heap_base.value as number);
    this.grow(this.top);
  }

  /**
   * An arena over module `module` (cch-load: cchModule), or null where the platform has no shared WebAssembly memory
   * (a browser page that is not cross-origin isolated) or refuses one.
   * @param limit see the constructor
   */
  static create(module: WebAssembly.Module, limit = MAX_BYTES): CchArena | null {
    if (typeof SharedArrayBuffer !== 'function') return null;
    try {
      return new CchArena(module, limit);
    } catch {
      return null;
    }
  }

  /** Runs the search on the query laid at byte `query` (see the exports). */
  search(query: number): number {
    return this.exports.search(query);
  }

  /**
   * A block of `bytes` bytes, zeroed, 8-aligned: the memory's buffer (for views) and the block's address, or null
   * when it does not fit under the limit (the caller keeps its arrays elsewhere, searched in TypeScript). Only bytes
   * that may have been written are zeroed: a page never written is never touched, so never committed (a block's room
   * is mostly such pages).
   */
  alloc(bytes: number): { buffer: SharedArrayBuffer; at: number } | null {
    const size = align(Math.max(bytes, 8));
    const holes = this.holes;
    for (let i = 0; i < holes.length; i += HOLE)
      if (holes[i + 1]! >= size) {
        const at = holes[i]!,
          clean = holes[i + 2] === 1;
        if (holes[i + 1] === size) holes.splice(i, HOLE);
        else ((holes[i] = at + size), (holes[i + 1] -= size));
        const buffer = this.buffer();
        if (!clean) new Uint8Array(buffer, at, size).fill(0);
        return { buffer, at };
      }
    const at = this.top;
    if (at + size > this.limit || !this.grow(at + size)) return null;
    this.top = at + size;
    const buffer = this.buffer();
    if (at < this.dirty) new Uint8Array(buffer, at, Math.min(size, this.dirty - at)).fill(0);
    this.dirty = Math.max(this.dirty, this.top);
    return { buffer, at };
  }

  /** Gives back block `bytes` bytes long at `at` (what `alloc` gave). */
  free(at: number, bytes: number): void {
    this.release(at, align(bytes), false);
  }

  /**
   * Gives back the end of block `bytes` bytes long at `at`, past its first `keep` bytes, which the caller never wrote
   * (so that it is not zeroed, nor its pages touched, when it is handed out again).
   */
  shrink(at: number, bytes: number, keep: number): void {
    const kept = align(keep);
    if (kept < align(bytes)) this.release(at + kept, align(bytes) - kept, true);
  }

  /**
   * Adds `bytes` at `at` to the holes, merged with a hole it touches of the same kind (`clean`: never written), or to
   * the free end of the memory, with every hole that then ends there.
   */
  private release(at: number, bytes: number, clean: boolean): void {
    const holes = this.holes,
      kind = clean ? 1 : 0;
    let start = at,
      end = at + bytes,
      i = 0;
    while (i < holes.length && holes[i]! < start) i += HOLE;
    if (i > 0 && holes[i - HOLE]! + holes[i - HOLE + 1]! === start && holes[i - HOLE + 2] === kind)
      ((i -= HOLE), (start = holes[i]!), holes.splice(i, HOLE));
    if (i < holes.length && holes[i] === end && holes[i + 2] === kind) ((end += holes[i + 1]!), holes.splice(i, HOLE));
    holes.splice(i, 0, start, end - start, kind);
    // Holes at the end go back to it; past the last byte ever written, the memory is clean again.
    for (let last = holes.length - HOLE; last >= 0 && holes[last]! + holes[last + 1]! === this.top; last -= HOLE) {
      this.top = holes[last]!;
      if (holes[last + 2] === 1 && this.dirty === this.top + holes[last + 1]!) this.dirty = this.top;
      holes.splice(last, HOLE);
    }
  }

  /** True when `view`'s bytes lie in this memory (the search reads them at `view.byteOffset`). */
  holds(view: ArrayBufferView): boolean {
    return this.buffers.has(view.buffer);
  }

  /** Bytes handed out and not given back (blocks and the module's own), for reports and tests. */
  get used(): number {
    let free = 0;
    for (let i = 1; i < this.holes.length; i += HOLE) free += this.holes[i]!;
    return this.top - free;
  }

  /** The memory's current buffer (a new object after each grow, over the same bytes), remembered as its own. */
  private buffer(): SharedArrayBuffer {
    const buffer = this.memory.buffer as unknown as SharedArrayBuffer;
    this.buffers.add(buffer);
    return buffer;
  }

  /** Grows the memory to at least `bytes` bytes; false when it cannot (the platform's limit, or its memory). */
  private grow(bytes: number): boolean {
    const have = this.memory.buffer.byteLength;
    if (bytes <= have) return true;
    try {
      this.memory.grow(Math.ceil((bytes - have) / PAGE));
      return true;
    } catch {
      return false;
    }
  }
}

/** `bytes` rounded up to a multiple of 8. */
function align(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}
