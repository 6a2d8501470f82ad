/**
 * PNG encoding with no dependency: scanlines with filter type 0 (none), deflated by the platform's zlib (Node's
 * native one, or the web platform's CompressionStream); where neither exists, zlib's stored (uncompressed) blocks, a
 * valid PNG that is only larger. Filter 0 on flat map imagery compresses as well as the adaptive filters at a
 * fraction of the time.
 */
import { crc32 } from '../../pack/crc32.js';
import { nodeBuiltin } from '../../node-builtin.js';
import { storedZlib } from './stored-zlib.js';

/** Deflates bytes into a zlib stream (RFC 1950), as a PNG's IDAT needs. */
type ZlibDeflate = (bytes: Uint8Array) => Promise<Uint8Array>;

let deflater: Promise<ZlibDeflate | null> | undefined;

/**
 * The fastest zlib compressor of the platform: Node's native zlib at level 1 (map images are large flat areas,
 * where higher levels cost several times the time for a few percent of size), else the web platform's
 * CompressionStream, else null.
 */
function platformDeflate(): Promise<ZlibDeflate | null> {
  deflater ??= (async () => {
    const zlib = nodeBuiltin('node:zlib');
    if (zlib) return async (bytes: Uint8Array) => zlib.deflateSync(bytes, { level: 1 });
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
export async function encodePNGFast(rgba: Uint8ClampedArray, width: number, height: number): Promise<Uint8Array> {
  const deflate = await platformDeflate();
  const raw = scanlines(rgba, width, height);
  return pngFile(width, height, deflate ? await deflate(raw) : storedZlib(raw));
}

/** The image's rows, each behind its filter-type byte 0 (none): what a PNG's IDAT deflates. */
function scanlines(rgba: Uint8ClampedArray, width: number, height: number): Uint8Array {
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return raw;
}

/** A PNG file of one IDAT (a zlib stream of the scanlines): signature, IHDR, IDAT, IEND. */
function pngFile(width: number, height: number, idat: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, adaptive filtering, no interlace
  const chunks = [chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(8 + chunks.reduce((n, c) => n + c.length, 0));
  out.set([137, 80, 78, 71, 13, 10, 26, 10]);
  let at = 8;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
