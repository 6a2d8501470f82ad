/** Bytes of a WebAssembly page. */
const PAGE = 65536;
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
 * ones are reused first fit (only the labels' block is freed, when it is outgrown). Pages never written are never
 * committed. Only where shared memory exists: Node, or a browser page or worker that is cross-origin isolated.
 */
export class CchArena {
  readonly memory: WebAssembly.Memory;
  private readonly exports: CchExports;
  /** The first byte not handed out (blocks freed at the end lower it). */
  private top: number;
  /** The end of the bytes ever handed out: past it the memory is still all zeros. */
  private dirty = 0;
  /** Freed blocks as (address, bytes) pairs, by address, none touching another or the top. */
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
   * when it does not fit under the limit (the caller keeps its arrays elsewhere, searched in TypeScript).
   */
  alloc(bytes: number): { buffer: SharedArrayBuffer; at: number } | null {
    const size = align(Math.max(bytes, 8));
    const holes = this.holes;
    for (let i = 0; i < holes.length; i += 2)
      if (holes[i + 1]! >= size) {
        const at = holes[i]!;
        if (holes[i + 1] === size) holes.splice(i, 2);
        else ((holes[i] = at + size), (holes[i + 1] -= size));
        const buffer = this.buffer();
        new Uint8Array(buffer, at, size).fill(0);
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

  /** Gives back block `bytes` bytes long at `at` (what `alloc` gave, or its end: see `shrink`). */
  free(at: number, bytes: number): void {
    let start = at,
      end = at + align(bytes);
    const holes = this.holes;
    let i = 0;
    while (i < holes.length && holes[i]! < start) i += 2;
    // Merged with the hole before it and the one after it when they touch.
    if (i > 0 && holes[i - 2]! + holes[i - 1]! === start) ((i -= 2), (start = holes[i]!), holes.splice(i, 2));
    if (i < holes.length && holes[i] === end) ((end += holes[i + 1]!), holes.splice(i, 2));
    if (end === this.top) this.top = start;
    else holes.splice(i, 0, start, end - start);
  }

  /** Gives back the end of block `bytes` bytes long at `at`, past its first `keep` bytes. */
  shrink(at: number, bytes: number, keep: number): void {
    const kept = align(keep);
    if (kept < align(bytes)) this.free(at + kept, align(bytes) - kept);
  }

  /** True when `view`'s bytes lie in this memory (the search reads them at `view.byteOffset`). */
  holds(view: ArrayBufferView): boolean {
    return this.buffers.has(view.buffer);
  }

  /** Bytes handed out and not given back (blocks and the module's own), for reports and tests. */
  get used(): number {
    let free = 0;
    for (let i = 1; i < this.holes.length; i += 2) free += this.holes[i]!;
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
