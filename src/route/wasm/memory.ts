/**
 * The linear memory of one instance of the WebAssembly core, with a bump allocator above the module's own data.
 * Nothing is ever freed: a router allocates its graph, search state and per-vehicle costs once.
 */
export class LinearMemory {
  private top: number;

  constructor(readonly memory: WebAssembly.Memory, heapBase: number) {
    this.top = heapBase;
  }

  /** Current buffer (replaced whenever memory grows, so views must be taken after the last allocation). */
  get buffer(): ArrayBuffer {
    return this.memory.buffer as ArrayBuffer;
  }

  /** Address of `bytes` fresh bytes, 8-aligned, growing memory as needed (throws RangeError past 4 GiB). */
  alloc(bytes: number): number {
    const at = Math.ceil(this.top / 8) * 8;
    this.top = at + bytes;
    const have = this.memory.buffer.byteLength;
    if (this.top > have) this.memory.grow(Math.ceil((this.top - have) / 65536));
    return at;
  }

  /** Address of a copy of `src` (any typed array). */
  copy(src: ArrayBufferView): number {
    const at = this.alloc(src.byteLength);
    new Uint8Array(this.buffer, at, src.byteLength).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
    return at;
  }

  /** Address of `bytes` bytes all set to `fill`. */
  filled(bytes: number, fill: number): number {
    const at = this.alloc(bytes);
    new Uint8Array(this.buffer, at, bytes).fill(fill);
    return at;
  }
}
