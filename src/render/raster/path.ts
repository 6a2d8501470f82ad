/**
 * A reusable list of closed rings in pixel coordinates, stored flat in growable typed arrays so that building
 * stroke outlines and clipped polygons does not allocate per point.
 *
 * Invariant: ring `i` occupies points `ringStart[i] .. ringStart[i + 1] - 1` (point `k` is `xy[2k], xy[2k + 1]`);
 * every ring is implicitly closed (the last point connects back to the first).
 */
export class Path {
  /** Flat x, y pairs (pixels); only the first `2 * pointCount` entries are meaningful. */
  xy = new Float64Array(256);
  /** Number of points stored. */
  pointCount = 0;
  /** Start point index of each ring, plus a trailing entry equal to `pointCount` once the ring is closed. */
  ringStart: number[] = [0];

  /** Number of closed rings. */
  get ringCount(): number {
    return this.ringStart.length - 1;
  }

  /** Removes every ring, keeping the allocated storage. */
  reset(): void {
    this.pointCount = 0;
    this.ringStart.length = 1;
    this.ringStart[0] = 0;
  }

  /**
   * Appends a point (pixels) to the ring being built. Consecutive duplicates are dropped.
   * @param x pixels
   * @param y pixels
   */
  lineTo(x: number, y: number): void {
    const n = this.pointCount;
    const open = this.ringStart[this.ringStart.length - 1]!;
    if (n > open && this.xy[2 * n - 2] === x && this.xy[2 * n - 1] === y) return;
    if (2 * n + 2 > this.xy.length) {
      const grown = new Float64Array(this.xy.length * 2);
      grown.set(this.xy);
      this.xy = grown;
    }
    this.xy[2 * n] = x;
    this.xy[2 * n + 1] = y;
    this.pointCount = n + 1;
  }

  /**
   * Closes the ring being built. Rings with fewer than 3 points enclose nothing and are discarded.
   * @param orient when true the ring is reversed if needed so that its signed area (y down) is positive, which lets
   *   overlapping stroke pieces union under the non-zero rule instead of cancelling
   */
  closeRing(orient = false): void {
    const start = this.ringStart[this.ringStart.length - 1]!;
    let end = this.pointCount;
    const xy = this.xy;
    // Drop a closing point equal to the first point: the ring is implicitly closed.
    if (end - start >= 2 && xy[2 * end - 2] === xy[2 * start] && xy[2 * end - 1] === xy[2 * start + 1]) end--;
    if (end - start < 3) {
      this.pointCount = start;
      return;
    }
    this.pointCount = end;
    if (orient && ringArea(xy, start, end) < 0) reverseRing(xy, start, end);
    this.ringStart.push(end);
  }
}

/**
 * Twice the signed area (shoelace) of the ring made of points `start .. end - 1`; positive means clockwise on screen
 * (y axis pointing down).
 */
function ringArea(xy: ArrayLike<number>, start: number, end: number): number {
  let sum = 0;
  let px = xy[2 * end - 2]!;
  let py = xy[2 * end - 1]!;
  for (let i = start; i < end; i++) {
    const x = xy[2 * i]!;
    const y = xy[2 * i + 1]!;
    sum += px * y - x * py;
    px = x;
    py = y;
  }
  return sum;
}

function reverseRing(xy: Float64Array, start: number, end: number): void {
  for (let i = start, j = end - 1; i < j; i++, j--) {
    const tx = xy[2 * i]!;
    const ty = xy[2 * i + 1]!;
    xy[2 * i] = xy[2 * j]!;
    xy[2 * i + 1] = xy[2 * j + 1]!;
    xy[2 * j] = tx;
    xy[2 * j + 1] = ty;
  }
}
