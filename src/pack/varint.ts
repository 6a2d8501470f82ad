/**
 * Varints as packs store them: a whole number 0 ≤ x < 2^53, seven bits a byte, the low bits first, the high bit set on
 * every byte but the last (protobuf's). Numbers are JavaScript numbers, not 32-bit integers, so ids past 2^32 (OSM
 * node ids) fit; arithmetic is by multiplication, not shifts.
 */

/** Most bytes of a varint below 2^53 (8 × 7 = 56 bits). */
const VARINT_MAX_BYTES = 8;

/** Bytes of the varint of x (a whole number, 0 ≤ x < 2^53). */
export function varintBytes(x: number): number {
  let n = 1;
  for (; x >= 0x80; x = Math.floor(x / 0x80)) n++;
  return n;
}

/** Writes the varint of x (0 ≤ x < 2^53) at out[at ..]; returns the index after its last byte. */
export function putVarint(out: Uint8Array, at: number, x: number): number {
  for (; x >= 0x80; x = Math.floor(x / 0x80)) out[at++] = (x % 0x80) | 0x80;
  out[at++] = x;
  return at;
}

/** A signed whole number as an unsigned one, small magnitudes small: 0, -1, 1, -2, … → 0, 1, 2, 3, … */
export function zigzag(d: number): number {
  return d < 0 ? -2 * d - 1 : 2 * d;
}

/** The signed number whose zigzag is z. */
export function unzigzag(z: number): number {
  return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
}

/**
 * Reads varints one after another from bytes that may be damaged (a pack opened without checksums): `read` never
 * passes `end` nor reads more than `maxBytes` bytes for one number. Allocates nothing; one cursor serves any bytes.
 */
export class VarintCursor {
  /** The byte the next varint starts at. */
  at = 0;

  /**
   * The varint at `at` of `bytes`, `at` moved past it; -1 when it does not end before byte `end` within `maxBytes`
   * bytes (`at` is then left anywhere).
   */
  read(bytes: Uint8Array, end: number, maxBytes = VARINT_MAX_BYTES): number {
    let x = 0,
      scale = 1,
      at = this.at;
    for (let n = 0; n < maxBytes && at < end; n++, scale *= 0x80) {
      const b = bytes[at++]!;
      x += (b & 0x7f) * scale;
      if (b < 0x80) {
        this.at = at;
        return x;
      }
    }
    return -1;
  }
}
