/**
 * A least-recently-used cache bounded by entry count and by total byte size (values are byte arrays; `null`
 * entries, remembered empty tiles, cost nothing but still count as entries).
 */
export class ByteLru<K> {
  private map = new Map<K, Uint8Array | null>();
  private bytes = 0;

  /**
   * @param maxEntries most entries kept
   * @param maxBytes most bytes kept (sum of value lengths)
   */
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  /** Number of entries held. */
  get size(): number {
    return this.map.size;
  }

  /** Total bytes held. */
  get byteSize(): number {
    return this.bytes;
  }

  /** The cached value (marking it most recently used), or undefined when absent. */
  get(key: K): Uint8Array | null | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    // Re-insertion moves the key to the end of the Map's iteration order: the most recent end.
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** Stores a value, evicting the least recently used entries beyond the bounds. */
  set(key: K, value: Uint8Array | null): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.bytes -= old?.byteLength ?? 0;
      this.map.delete(key);
    }
    this.map.set(key, value);
    this.bytes += value?.byteLength ?? 0;
    for (const [k, v] of this.map) {
      if (this.map.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v?.byteLength ?? 0;
    }
  }
}
