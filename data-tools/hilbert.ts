/** Hilbert curve index of (x, y) on a 2^16 × 2^16 grid; used to lay nodes out so nearby nodes sit together in memory. */
export function hilbert16(x: number, y: number): number {
  let d = 0;
  for (let s = 1 << 15; s > 0; s >>>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}
