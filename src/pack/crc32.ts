import { nodeBuiltin } from '../node-builtin.js';

/** CRC-32 (IEEE 802.3, the zlib/PNG polynomial), table-driven. Used for pack header and section checksums. */
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/**
 * zlib's own CRC-32 where the runtime has it (Node ≥ 20.15): the same polynomial, several times faster than the table
 * loop, which matters because checking a pack's sections at load reads every byte (a country pack is hundreds of MB).
 */
const native = nodeBuiltin('node:zlib')?.crc32;

/** Below this many bytes the call into zlib costs more than the table loop saves. */
const NATIVE_MIN_BYTES = 256;

/** CRC-32 of `bytes`; pass a previous result as `crc` to continue over several chunks. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  if (native && bytes.length >= NATIVE_MIN_BYTES) return native(bytes, crc) >>> 0;
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
