/**
 * PNG encoding through pngjs's browser build, which bundles a pure-JavaScript zlib: the same code runs in Node,
 * browsers and workers without `node:` imports.
 */
import pngjs from 'pngjs/browser.js';

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
