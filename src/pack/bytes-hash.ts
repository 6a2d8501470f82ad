/**
 * Hash of typed arrays' bytes in order (FNV-1a, as an unsigned 32-bit number). Stored data derived at build time
 * (hierarchies, components, place indexes) keeps the hash of what it was derived from, so the engine trusts it
 * only when its own inputs hash the same. Not a checksum against corruption (that is the sections' CRC-32).
 */
export function bytesHash(...arrays: ArrayBufferView[]): number {
  let h = 0x811c9dc5;
  for (const x of arrays) {
    const bytes = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  }
  return h >>> 0;
}
