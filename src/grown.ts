/**
 * A copy of a typed array with room for at least `size` elements: twice its length when that is more, so a list grown
 * one element at a time is copied O(log n) times. The contents are kept; the rest is zero.
 */
export function grown<T extends Uint32Array | Int32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(size, 2 * a.length));
  b.set(a);
  return b;
}
