/**
 * The dependency-free PNG encoder (src/render/raster/png.ts): its files are read back by pngjs and its stored zlib
 * streams by Node's zlib, two independent decoders that check every checksum.
 */
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { encodePNG, encodePNGFast } from '../src/render/raster/png.js';
import { storedZlib } from '../src/render/raster/stored-zlib.js';

/** Deterministic pseudo-random bytes (a linear congruential generator): incompressible, unlike an image. */
function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let s = seed;
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

describe('PNG encoding', () => {
  // Sizes around the 65,535-byte stored block: empty, one byte, one block exactly, one byte over, several blocks.
  for (const length of [0, 1, 65_535, 65_536, 200_003])
    it(`stored zlib of ${length} bytes inflates back to them (Adler-32 checked by zlib)`, () => {
      const bytes = noise(length, length + 1);
      const z = storedZlib(bytes);
      expect(z.length).toBe(2 + Math.max(1, Math.ceil(length / 65_535)) * 5 + length + 4);
      expect(Buffer.compare(inflateSync(z), Buffer.from(bytes))).toBe(0);
    });

  // A small image, and one whose incompressible stream outgrows the deflate output buffer (a quarter of the input).
  for (const [name, encode, width, height] of [
    ['encodePNG', encodePNG, 37, 23],
    ['encodePNGFast', encodePNGFast, 37, 23],
    ['encodePNGFast', encodePNGFast, 300, 200],
  ] as const)
    it(`${name}: pngjs decodes the same straight RGBA pixels (${width}x${height})`, async () => {
      const rgba = new Uint8ClampedArray(noise(width * height * 4, 7));
      rgba[3] = 0; // one transparent pixel at least: the file must keep its alpha
      const file = await encode(rgba, width, height);
      expect(file[25]).toBe(6); // IHDR colour type: truecolour with alpha
      const png = PNG.sync.read(Buffer.from(file));
      expect([png.width, png.height]).toEqual([width, height]);
      expect(Buffer.compare(png.data, Buffer.from(rgba))).toBe(0);
    });

  for (const [name, encode] of [
    ['encodePNG', encodePNG],
    ['encodePNGFast', encodePNGFast],
  ] as const)
    it(`${name}: an image of opaque pixels is written as RGB, and decodes to the same pixels`, async () => {
      const [width, height] = [41, 17];
      const rgba = new Uint8ClampedArray(noise(width * height * 4, 11));
      for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
      const file = await encode(rgba, width, height);
      expect(file[25]).toBe(2); // IHDR colour type: truecolour
      const png = PNG.sync.read(Buffer.from(file));
      expect(Buffer.compare(png.data, Buffer.from(rgba))).toBe(0);
      // The last pixel alone not opaque: RGBA again.
      rgba[rgba.length - 1] = 254;
      const withAlpha = await encode(rgba, width, height);
      expect(withAlpha[25]).toBe(6);
      expect(Buffer.compare(PNG.sync.read(Buffer.from(withAlpha)).data, Buffer.from(rgba))).toBe(0);
    });
});
