/**
 * PNG encoding with no dependency: scanlines with filter type 0 (none), deflated by the platform's zlib (Node's
 * native one, or the web platform's CompressionStream); where neither exists, zlib's stored (uncompressed) blocks, a
 * valid PNG that is only larger. Filter 0 on flat map imagery deflates smaller (by 25-35% at level 1) than the
 * adaptive filters, at a fraction of the time. An image whose every pixel is opaque (a map under an opaque
 * background) is written as RGB: a quarter less to deflate, and zlib's 3-byte hash then keys whole pixels, so the
 * stream is 3-5% smaller (see fastestDeflate).
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
 * hash table (memLevel 9: 1-4% faster here, size within 0.1%) and an output buffer of half the input, which holds a
 * map image's stream whole instead of in chunks joined at the end (a quarter did not hold whole HCMC's 800x600, 28 %
 * of its scanlines: two chunks and their join, 100 fresh 4 KB pages more, each a page fault of ~25 us on a fresh
 * process; zlib writes the same stream whatever the chunk size, and pages of the chunk it does not write are never
 * touched). Measured on Hanoi and whole-HCMC
 * route images of 600x400 to 1280x1280: the filters Up, Sub or a per-row choice make the stream 20-30% larger and
 * cost more time than they save; Z_RLE after a filter is no faster overall and 30-40% larger. RGB scanlines (written
 * for opaque images, see `scanlines`) deflate 3-5% smaller; timed alone, deflate only, on six whole-HCMC views (21
 * runs each, interleaved, loaded machine) their minimum was lower in five and the medians within noise (an earlier
 * measure had found them 18-29% slower; the sizes agree).
 */
function fastestDeflate(length: number): { level: number; memLevel: number; chunkSize: number } {
  return { level: 1, memLevel: 9, chunkSize: Math.max(MIN_CHUNK, length >> 1) };
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
  return pngFile(width, height, raw.channels, zlib ? zlib.deflateSync(raw.rows) : storedZlib(raw.rows));
}

/**
 * Encodes straight RGBA pixels as an 8-bit RGBA PNG with the platform's native compressor (see platformDeflate),
 * else stored blocks.
 * @returns the PNG file bytes
 */
export function encodePNGFast(rgba: Uint8ClampedArray, width: number, height: number): Promise<Uint8Array> {
  return deflatePNG(width, height, () => scanlines(rgba, width, height));
}

/** A PNG's scanlines: each row behind its filter-type byte 0 (none), `channels` bytes per pixel (3 RGB, 4 RGBA). */
export interface Scanlines {
  rows: Uint8Array;
  channels: 3 | 4;
}

/**
 * Encodes an 8-bit RGB or RGBA PNG from its scanlines with the platform's native compressor (see platformDeflate),
 * else stored blocks.
 * @param rows makes the scanlines, called once the compressor is ready; they are read before this returns to the
 *   event loop, so they may be a view of memory that changes later
 * @returns the PNG file bytes
 */
export async function deflatePNG(width: number, height: number, rows: () => Scanlines): Promise<Uint8Array> {
  const deflate = await platformDeflate();
  const raw = rows();
  return pngFile(width, height, raw.channels, deflate ? await deflate(raw.rows) : storedZlib(raw.rows));
}

/**
 * The image's scanlines (what a PNG's IDAT deflates): RGB when every pixel is opaque, else RGBA. The kernel's
 * `scanlines` (wasm/raster/lib.rs) makes the same bytes.
 */
function scanlines(rgba: Uint8ClampedArray, width: number, height: number): Scanlines {
  let opaque = true;
  for (let i = 3; i < rgba.length && opaque; i += 4) opaque = rgba[i] === 255;
  const channels = opaque ? 3 : 4;
  const stride = width * channels;
  const rows = new Uint8Array((stride + 1) * height);
  if (!opaque) {
    for (let y = 0; y < height; y++) rows.set(rgba.subarray(y * 4 * width, (y + 1) * 4 * width), y * (stride + 1) + 1);
    return { rows, channels };
  }
  for (let y = 0, i = 0; y < height; y++) {
    let o = y * (stride + 1) + 1;
    for (let x = 0; x < width; x++, i += 4) {
      rows[o++] = rgba[i]!;
      rows[o++] = rgba[i + 1]!;
      rows[o++] = rgba[i + 2]!;
    }
  }
  return { rows, channels };
}

/** Bytes of a chunk around its data: length, type, CRC-32. */
const CHUNK_OVERHEAD = 12;
const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** Colour types of IHDR by bytes per pixel: 2 truecolour (RGB), 6 truecolour with alpha (RGBA). */
const COLOR_TYPE = { 3: 2, 4: 6 } as const;

/** A PNG file of one IDAT (a zlib stream of the scanlines): signature, IHDR, IDAT, IEND, written into one buffer. */
function pngFile(width: number, height: number, channels: 3 | 4, idat: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, COLOR_TYPE[channels], 0, 0, 0], 8); // 8 bits per channel, RGB(A), deflate, adaptive filtering, no interlace
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
