import type { Carver } from './label-memory.js';

/**
 * Binary min-heap of integer items 0..capacity-1 keyed by float keys, with decrease-key through a position
 * array. Allocated once per search context; `clear()` costs O(items still queued), not O(capacity).
 */
export class IndexHeap {
  private readonly items: Int32Array;
  private readonly keys: Float64Array;
  /** Position of each item in `items`, -1 when not queued. */
  private readonly pos: Int32Array;
  size = 0;

  /** @param carve where the arrays are laid (16 bytes per item; default: arrays of the heap's own) */
  constructor(capacity: number, carve?: Carver) {
    this.keys = carve ? carve.f64(capacity) : new Float64Array(capacity);
    this.items = carve ? carve.i32(capacity) : new Int32Array(capacity);
    this.pos = (carve ? carve.i32(capacity) : new Int32Array(capacity)).fill(-1);
  }

  /** Smallest key queued (Infinity when empty). */
  minKey(): number {
    return this.size > 0 ? this.keys[this.items[0]!]! : Infinity;
  }

  /** True when the item is queued. */
  has(item: number): boolean {
    return this.pos[item]! >= 0;
  }

  /** Queues the item or lowers its key (a higher key is ignored). */
  push(item: number, key: number): void {
    const p = this.pos[item]!;
    if (p >= 0) {
      if (key >= this.keys[item]!) return;
      this.keys[item] = key;
      this.up(p);
      return;
    }
    this.keys[item] = key;
    this.items[this.size] = item;
    this.pos[item] = this.size;
    this.up(this.size++);
  }

  /** Queues the item or changes its key, up or down. */
  set(item: number, key: number): void {
    const p = this.pos[item]!;
    if (p < 0) return this.push(item, key);
    const old = this.keys[item]!;
    this.keys[item] = key;
    if (key < old) this.up(p);
    else if (key > old) this.down(p);
  }

  /** The k-th queued item in heap order (0 ≤ k < size), to scan the queue without popping. */
  itemAt(k: number): number {
    return this.items[k]!;
  }

  /** Key of a queued item (meaningless when not queued). */
  keyOf(item: number): number {
    return this.keys[item]!;
  }

  /** Removes and returns the item with the smallest key. Precondition: size > 0. */
  pop(): number {
    const items = this.items;
    const top = items[0]!;
    this.pos[top] = -1;
    const last = items[--this.size]!;
    if (this.size > 0) {
      items[0] = last;
      this.pos[last] = 0;
      this.down(0);
    }
    return top;
  }

  /** Empties the heap. */
  clear(): void {
    for (let i = 0; i < this.size; i++) this.pos[this.items[i]!] = -1;
    this.size = 0;
  }

  private up(i: number): void {
    const items = this.items;
    const keys = this.keys;
    const item = items[i]!;
    const k = keys[item]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pi = items[parent]!;
      if (keys[pi]! <= k) break;
      items[i] = pi;
      this.pos[pi] = i;
      i = parent;
    }
    items[i] = item;
    this.pos[item] = i;
  }

  private down(i: number): void {
    const items = this.items;
    const keys = this.keys;
    const n = this.size;
    const item = items[i]!;
    const k = keys[item]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && keys[items[c + 1]!]! < keys[items[c]!]!) c++;
      const ci = items[c]!;
      if (keys[ci]! >= k) break;
      items[i] = ci;
      this.pos[ci] = i;
      i = c;
    }
    items[i] = item;
    this.pos[item] = i;
  }
}
