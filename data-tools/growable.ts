/** A growable list of int32 values in one typed array (doubling), for builder tables with millions of entries. */
export class GrowableInt32 {
  private data = new Int32Array(1024);
  private n = 0;

  /** Number of values. */
  get length(): number {
    return this.n;
  }

  /** Appends a value (an int32). */
  push(v: number): void {
    if (this.n === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.n++] = v;
  }

  /** The value at index i (0 ≤ i < length). */
  at(i: number): number {
    return this.data[i]!;
  }

  /** Drops the values from index n on (n ≤ length). */
  truncate(n: number): void {
    this.n = n;
  }
}
