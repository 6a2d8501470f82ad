/** Typed arrays the growable tables of the route code and the builder hold. */
export type GrowableArray = Uint32Array | Int32Array | Float64Array;

/**
 * A typed array of the same type as `x` and twice its length, holding `x`'s values first: the one growth step of
 * append-only tables (amortised O(1) per append).
 */
export function doubled<T extends GrowableArray>(x: T): T {
  const y = new (x.constructor as new (length: number) => T)(2 * x.length);
  y.set(x);
  return y;
}
