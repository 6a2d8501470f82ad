/**
 * The linear memory of one instance of the WebAssembly core. Allocation is the core's own bump allocator (its
 * `alloc` export), which the core also uses for the buckets of many-to-many searches; nothing is ever freed.
 */
export class LinearMemory {
  private viewed: { buffer: ArrayBuffer; f64: Float64Array; i32: Int32Array } | null = null;

  constructor(
    readonly memory: WebAssembly.Memory,
    private readonly allocate: (bytes: number) => number,
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

  /** Address of `bytes` fresh bytes, 8-aligned. Throws RangeError when memory cannot grow (4 GiB or the host's cap). */
  alloc(bytes: number): number {
    const at = this.allocate(bytes);
    if (at === 0) throw new RangeError(`WebAssembly memory cannot grow by ${bytes} bytes`);
    return at;
  }

  /** Address of a copy of `src` (any typed array). */
  copy(src: ArrayBufferView): number {
    const at = this.alloc(src.byteLength);
    new Uint8Array(this.buffer, at, src.byteLength).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
    return at;
  }

  /**
   * Address of `bytes` bytes all set to `fill`. Zeros are not written: `alloc` hands out bytes never used before
   * (a bump allocator that frees nothing), which WebAssembly memory holds as zeros, so a big zeroed block (search
   * labels) costs no time and no resident memory until the pages are used.
   */
  filled(bytes: number, fill: number): number {
    const at = this.alloc(bytes);
    if (fill !== 0) new Uint8Array(this.buffer, at, bytes).fill(fill);
    return at;
  }

  /** Reads (`value` omitted) or writes a 4-byte signed field at a byte address. */
  i32(at: number, value?: number): number {
    const v = this.views().i32;
    if (value !== undefined) v[at >> 2] = value;
    return v[at >> 2]!;
  }
}
