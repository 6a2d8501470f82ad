/**
 * PNG encoding through pngjs's browser build, which bundles a pure-JavaScript zlib: the same code runs in Node,
 * browsers and workers without `node:` imports.
 */
import pngjs from 'pngjs/browser.js';
import { nodeBuiltin } from '../../node-builtin.js';

/**
 * Encodes straight RGBA pixels as an 8-bit RGBA PNG.
 * @param rgba straight RGBA bytes, row-major, `width * height * 4` long
 * @param width pixels
 * @param height pixels
 * @returns the PNG file bytes
 */
export function encodePNG(rgba: Uint8ClampedArray, width: number, height: number): Uint8Array {
  const png = new pngjs.PNG({ width, height });
  png.data.set(rgba);
  const out = pngjs.PNG.sync.write(png, { colorType: 6, inputColorType: 6, inputHasAlpha: true });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** Deflates bytes into a zlib stream (RFC 1950), as a PNG's IDAT needs. */
type ZlibDeflate = (bytes: Uint8Array) => Promise<Uint8Array>;

let deflater: Promise<ZlibDeflate> | undefined;

/**
 * The fastest zlib compressor of the platform: Node's native zlib at level 1 (map images are large flat areas,
 * where higher levels cost several times the time for a few percent of size), else the web platform's
 * CompressionStream, else null.
 */
function platformDeflate(): Promise<ZlibDeflate | null> {
  deflater ??= (async () => {
    const zlib = nodeBuiltin('node:zlib');
    if (zlib) return async (bytes: Uint8Array) => zlib.deflateSync(bytes, { level: 1 });
    if (typeof CompressionStream === 'undefined') throw new Error('no CompressionStream');
    return async (bytes: Uint8Array) => {
      const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate'));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    };
  })();
  return deflater.catch(() => null);
}

/**
 * Encodes straight RGBA pixels as an 8-bit RGBA PNG with the platform's native compressor (see platformDeflate),
 * falling back to {@link encodePNG}. Rows use filter type 0 (none): on flat map imagery it compresses as well as
 * the adaptive filters at a fraction of the time.
 * @returns the PNG file bytes
 */
export async function encodePNGFast(rgba: Uint8ClampedArray, width: number, height: number): Promise<Uint8Array> {
  const deflate = await platformDeflate();
  if (!deflate) return encodePNG(rgba, width, height);
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const idat = await deflate(raw);
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
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

let crcTable: Uint32Array | undefined;

/**
 * CRC-32 (ISO 3309, as PNG uses) of bytes[start .. end): Node's native one where there is one (Node ≥ 20.15; a
 * megabyte IDAT costs milliseconds in JavaScript), else from a table.
 */
function crc32(bytes: Uint8Array, start: number, end: number): number {
  const native = nodeBuiltin('node:zlib')?.crc32;
  if (native) return native(bytes.subarray(start, end));
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
