import { doubled } from '../src/route/doubled.js';

type Store = Int32Array | Uint32Array | Float64Array;

/** A growable list of numbers in one typed array (doubling), for builder tables with millions of entries. */
class Growable<T extends Store> {
  private data: T;
  private n = 0;

  constructor(make: (length: number) => T) {
    this.data = make(1024);
  }

  /** Number of values. */
  get length(): number {
    return this.n;
  }

  /** Appends a value (of the array's element type). */
  push(v: number): void {
    if (this.n === this.data.length) {
      this.data = doubled(this.data);
    }
    this.data[this.n++] = v;
  }

  /** The value at index i (0 ≤ i < length). */
  at(i: number): number {
    return this.data[i]!;
  }

  /** Overwrites the value at index i (0 ≤ i < length). */
  set(i: number, v: number): void {
    this.data[i] = v;
  }

  /** The values as a view of the current array (valid until the next push). */
  view(): T {
    return this.data.subarray(0, this.n) as T;
  }

  /** Drops the values from index n on (n ≤ length). */
  truncate(n: number): void {
    this.n = n;
  }
}

/** A growable list of int32 values. */
export class GrowableInt32 extends Growable<Int32Array> {
  constructor() {
    super((n) => new Int32Array(n));
  }
}

/** A growable list of uint32 values. */
export class GrowableUint32 extends Growable<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n));
  }
}

/** A growable list of float64 values (coordinates in degrees). */
export class GrowableFloat64 extends Growable<Float64Array> {
  constructor() {
    super((n) => new Float64Array(n));
  }
}
