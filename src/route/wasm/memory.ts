/** The core's allocator (wasm/src/alloc.rs): bump allocation, and a mark to roll back to. */
export interface Allocator {
  alloc(bytes: number): number;
  alloc_top(): number;
  alloc_reset(top: number): void;
}

/**
 * The linear memory of one instance of the WebAssembly core. Allocation is the core's own bump allocator (its
 * `alloc` export), which the core also uses for the buckets of many-to-many searches; nothing is freed, except that a
 * setup that did not fit is rolled back to a mark (Router).
 */
export class LinearMemory {
  private viewed: { buffer: ArrayBuffer; f64: Float64Array; i32: Int32Array } | null = null;
  /** End of the bytes ever handed out: above it memory is still all zeros (a rollback leaves bytes written below). */
  private dirty = 0;

  /**
   * `limit`: where the TypeScript side's allocations must end (default: where memory ends, 4 GiB; tests set it
   * lower). Addresses are unsigned 32-bit numbers: a 4-byte field holding one reads back as a negative Int32 from
   * 2 GiB on, so address reads go through `>>> 0`.
   */
  constructor(
    readonly memory: WebAssembly.Memory,
    private readonly allocator: Allocator,
    readonly limit = 2 ** 32,
  ) {}

  /**
   * Float64 and Int32 views of the whole memory (index = byte address / 8 or / 4), made again only after memory
   * grew, so a query reads its results without allocating views.
   */
  views(): { f64: Float64Array; i32: Int32Array } {
    const buffer = this.buffer;
    if (this.viewed?.buffer !== buffer)
      this.viewed = { buffer, f64: new Float64Array(buffer), i32: new Int32Array(buffer) };
    return this.viewed;
  }

  /** Current buffer (replaced whenever memory grows, so views must be taken after the last allocation or call). */
  get buffer(): ArrayBuffer {
    return this.memory.buffer as ArrayBuffer;
  }

  /**
   * Address of `bytes` fresh bytes, 8-aligned. Throws RangeError when memory cannot grow (4 GiB or the host's cap)
   * or the bytes would end past `limit` (then nothing is allocated).
   */
  alloc(bytes: number): number {
    const before = this.used;
    const at = this.allocator.alloc(bytes) >>> 0;
    if (at === 0) throw new RangeError(`WebAssembly memory cannot grow by ${bytes} bytes`);
    if (at + bytes > this.limit) {
      this.allocator.alloc_reset(before);
      throw new RangeError(`WebAssembly memory: ${bytes} more bytes would end past byte ${this.limit}`);
    }
    return at;
  }

  /** Address of a copy of `src` (any typed array). */
  copy(src: ArrayBufferView): number {
    const at = this.alloc(src.byteLength);
    new Uint8Array(this.buffer, at, src.byteLength).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
    return at;
  }

  /**
   * Address of `bytes` bytes all set to `fill`. Zeros are written only over bytes a rolled-back setup used: `alloc`
   * otherwise hands out bytes never used before, which WebAssembly memory holds as zeros, so a big zeroed block
   * (search labels) costs no time and no resident memory until the pages are used.
   */
  filled(bytes: number, fill: number): number {
    const at = this.alloc(bytes);
    if (fill !== 0) new Uint8Array(this.buffer, at, bytes).fill(fill);
    else if (at < this.dirty) new Uint8Array(this.buffer, at, Math.min(bytes, this.dirty - at)).fill(0);
    return at;
  }

  /** Bytes allocated so far (the allocator's mark). */
  get used(): number {
    return this.allocator.alloc_top() >>> 0;
  }

  /** Frees everything allocated after `mark` (a value of `used`): rolls back a setup that did not fit. */
  rollback(mark: number): void {
    this.dirty = Math.max(this.dirty, this.used);
    this.allocator.alloc_reset(mark);
  }

  /** Reads (`value` omitted) or writes a 4-byte signed field at a byte address. */
  i32(at: number, value?: number): number {
    const v = this.views().i32;
    if (value !== undefined) v[at >>> 2] = value;
    return v[at >>> 2]!;
  }
}
