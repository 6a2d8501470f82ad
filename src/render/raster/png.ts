/**
 * PNG encoding with no dependency: scanlines with filter type 0 (none), deflated by the platform's zlib (Node's
 * native one, or the web platform's CompressionStream); where neither exists, zlib's stored (uncompressed) blocks, a
 * valid PNG that is only larger. Filter 0 on flat map imagery deflates smaller (by 25-35% at level 1) than the
 * adaptive filters, at a fraction of the time.
 */
import { crc32 } from '../../pack/crc32.js';
import { nodeBuiltin } from '../../node-builtin.js';
import { storedZlib } from './stored-zlib.js';

/** Deflates bytes into a zlib stream (RFC 1950), as a PNG's IDAT needs. */
type ZlibDeflate = (bytes: Uint8Array) => Promise<Uint8Array>;

let deflater: Promise<ZlibDeflate | null> | undefined;

/**
 * Node zlib options for the fastest deflate of `length` bytes of scanlines: level 1 (map images are large flat areas,
 * where level 6 costs 2.5 times the time for 13% less size, and levels 2-3 5-20% more time for 2-5%), the largest
 * hash table (memLevel 9: 1-4% faster here, size within 0.1%) and an output buffer of a quarter of the input, which
 * holds a map image's stream whole instead of in 16 KB chunks joined at the end. Measured on Hanoi and whole-HCMC
 * route images of 600x400 to 1280x1280: the filters Up, Sub or a per-row choice make the stream 20-30% larger and
 * cost more time than they save; Z_RLE after a filter is no faster overall and 30-40% larger; RGB scanlines (the
 * images are opaque) are 4-7% smaller and 18-29% slower.
 */
function fastestDeflate(length: number): { level: number; memLevel: number; chunkSize: number } {
  return { level: 1, memLevel: 9, chunkSize: Math.max(MIN_CHUNK, length >> 2) };
}
/** zlib's default output chunk, bytes. */
const MIN_CHUNK = 16384;

/**
 * The fastest zlib compressor of the platform: Node's native zlib (fastestDeflate), else the web platform's
 * CompressionStream, else null.
 */
function platformDeflate(): Promise<ZlibDeflate | null> {
  deflater ??= (async () => {
    const zlib = nodeBuiltin('node:zlib');
    if (zlib) return async (bytes: Uint8Array) => zlib.deflateSync(bytes, fastestDeflate(bytes.length));
    if (typeof CompressionStream === 'undefined') return null;
    return async (bytes: Uint8Array) => {
      const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate'));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    };
  })();
  return deflater;
}

/**
 * Encodes straight RGBA pixels as an 8-bit RGBA PNG, synchronously: Node's zlib where it exists, else stored blocks.
 * @param rgba straight RGBA bytes, row-major, `width * height * 4` long
 * @param width pixels
 * @param height pixels
 * @returns the PNG file bytes
 */
export function encodePNG(rgba: Uint8ClampedArray, width: number, height: number): Uint8Array {
  const raw = scanlines(rgba, width, height);
  const zlib = nodeBuiltin('node:zlib');
  return pngFile(width, height, zlib ? zlib.deflateSync(raw) : storedZlib(raw));
}

/**
 * Encodes straight RGBA pixels as an 8-bit RGBA PNG with the platform's native compressor (see platformDeflate),
 * else stored blocks.
 * @returns the PNG file bytes
 */
export function encodePNGFast(rgba: Uint8ClampedArray, width: number, height: number): Promise<Uint8Array> {
  return deflatePNG(width, height, () => scanlines(rgba, width, height));
}

/**
 * Encodes an 8-bit RGBA PNG from its scanlines with the platform's native compressor (see platformDeflate), else
 * stored blocks.
 * @param rows makes the scanlines (each row behind its filter-type byte 0), called once the compressor is ready; they
 *   are read before this returns to the event loop, so they may be a view of memory that changes later
 * @returns the PNG file bytes
 */
export async function deflatePNG(width: number, height: number, rows: () => Uint8Array): Promise<Uint8Array> {
  const deflate = await platformDeflate();
  const raw = rows();
  return pngFile(width, height, deflate ? await deflate(raw) : storedZlib(raw));
}

/** The image's rows, each behind its filter-type byte 0 (none): what a PNG's IDAT deflates. */
function scanlines(rgba: Uint8ClampedArray, width: number, height: number): Uint8Array {
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return raw;
}

/** Bytes of a chunk around its data: length, type, CRC-32. */
const CHUNK_OVERHEAD = 12;
const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** A PNG file of one IDAT (a zlib stream of the scanlines): signature, IHDR, IDAT, IEND, written into one buffer. */
function pngFile(width: number, height: number, idat: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, adaptive filtering, no interlace
  const out = new Uint8Array(SIGNATURE.length + 3 * CHUNK_OVERHEAD + ihdr.length + idat.length);
  out.set(SIGNATURE);
  let at = writeChunk(out, SIGNATURE.length, 'IHDR', ihdr);
  at = writeChunk(out, at, 'IDAT', idat);
  writeChunk(out, at, 'IEND', new Uint8Array(0));
  return out;
}

/** Writes a PNG chunk (length, type, data, CRC-32 of type and data) at `at` of `out`; returns the offset after it. */
function writeChunk(out: Uint8Array, at: number, type: string, data: Uint8Array): number {
  const view = new DataView(out.buffer, out.byteOffset);
  view.setUint32(at, data.length);
  for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
  out.set(data, at + 8);
  view.setUint32(at + 8 + data.length, crc32(out.subarray(at + 4, at + 8 + data.length)));
  return at + CHUNK_OVERHEAD + data.length;
}
