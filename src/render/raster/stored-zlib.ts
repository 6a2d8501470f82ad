/**
 * zlib streams without compression, for a platform with no zlib at all (src/render/raster/png.ts): every PNG reader
 * inflates stored blocks.
 */

/** Most bytes of one stored deflate block (its length field is 16 bits). */
const STORED_BLOCK = 65535;

/**
 * A zlib stream (RFC 1950) of `bytes` in stored deflate blocks (RFC 1951 §3.2.4, BTYPE 00): no compression, for a
 * platform with no zlib at all.
 */
export function storedZlib(bytes: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(bytes.length / STORED_BLOCK));
  const out = new Uint8Array(2 + blocks * 5 + bytes.length + 4);
  out.set([0x78, 0x01]); // deflate, 32 KB window, no dictionary, fastest level; (0x7801 % 31 === 0)
  let at = 2;
  for (let b = 0; b < blocks; b++) {
    const part = bytes.subarray(b * STORED_BLOCK, (b + 1) * STORED_BLOCK);
    out[at] = b === blocks - 1 ? 1 : 0; // BFINAL on the last block, BTYPE 00
    out[at + 1] = part.length & 0xff;
    out[at + 2] = part.length >>> 8;
    out[at + 3] = ~part.length & 0xff;
    out[at + 4] = (~part.length >>> 8) & 0xff;
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  new DataView(out.buffer).setUint32(at, adler32(bytes));
  return out;
}

/** Adler-32 (RFC 1950 §8) of `bytes`, the checksum that ends a zlib stream. */
function adler32(bytes: Uint8Array): number {
  // 5552 is the most bytes whose sums cannot overflow 2^32 before the modulo (zlib's NMAX).
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i += 5552) {
    const end = Math.min(i + 5552, bytes.length);
    for (let j = i; j < end; j++) {
      a += bytes[j]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
