/**
 * PNG to WebP through headless Chromium's canvas encoder, for the README's pictures (data-tools/readme-pictures.ts):
 * at quality 0.9 a map picture is about a quarter of its PNG's bytes and as legible, which keeps the published package
 * small.
 */
import type { Browser } from 'playwright-core';

/** WebP quality (0..1) of the README's pictures: below 0.9 small labels start to blur. */
export const README_WEBP_QUALITY = 0.9;

/**
 * Encodes a PNG's pixels as a lossy WebP.
 * @param browser a Chromium launched by data-tools/chromium.ts
 * @param png the PNG file bytes
 * @param quality 0..1, as canvas.toDataURL takes it
 * @returns the WebP file bytes
 */
export async function pngToWebp(browser: Browser, png: Uint8Array, quality = README_WEBP_QUALITY): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const url = await page.evaluate(
      async ([base64, q]) => {
        const img = new Image();
        img.src = `data:image/png;base64,${base64}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        canvas.getContext('2d')!.drawImage(img, 0, 0);
        return canvas.toDataURL('image/webp', q);
      },
      [Buffer.from(png).toString('base64'), quality] as const,
    );
    if (!url.startsWith('data:image/webp;base64,')) throw new Error('this Chromium cannot encode WebP');
    return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
  } finally {
    await page.close();
  }
}
