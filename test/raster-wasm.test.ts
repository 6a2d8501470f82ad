/**
 * The WebAssembly raster kernel (wasm/raster, src/render/raster/wasm-raster.ts) against the TypeScript kernels it was
 * ported from (scanline.ts, distance-stroke.ts, composite.ts), which canvases use where WebAssembly is unavailable:
 * every scene, from random shapes to the real map, must come out byte for byte the same from both.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { defaultStyle } from '../src/map/style/default-style.js';
import type { Region } from '../src/region.js';
import { drawBasemap } from '../src/render/map.js';
import { RenderCache } from '../src/render/render-cache.js';
import { Canvas, drawSdfText, shapeText, Viewport, type RGBA, type StrokeOptions } from '../src/render/raster/index.js';
import { loadRasterKernel } from '../src/render/raster/wasm-raster.js';

let region: Region;
const cache = new RenderCache();
beforeAll(async () => {
  expect(await loadRasterKernel()).not.toBeNull();
  region = (await createEngine()).regions[0]!;
  await cache.fonts.preload();
});

/** Draws `scene` on a TypeScript canvas and a WebAssembly one and expects the same bytes; returns the latter. */
function bothKernels(width: number, height: number, scene: (c: Canvas) => void): Canvas {
  const js = new Canvas(width, height, { wasm: false });
  const wasm = new Canvas(width, height);
  scene(js);
  scene(wasm);
  let differ = 0;
  const a = js.data,
    b = wasm.data;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
  expect(differ).toBe(0);
  return wasm;
}

/** Deterministic numbers in [0, 1) (a linear congruential generator). */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

const colour = (r: () => number, alpha = r()): RGBA => [r() * 255, r() * 255, r() * 255, alpha];

describe('the WebAssembly raster kernel draws what the TypeScript kernels draw', () => {
  it('on its own canvas (not shared with TypeScript canvases)', () => {
    const c = new Canvas(8, 8);
    c.fillBackground([10, 20, 30, 1]);
    expect(new Canvas(8, 8, { wasm: false }).data.every((v) => v === 0)).toBe(true);
    expect(c.getPixel(3, 3)).toEqual([10, 20, 30, 255]);
  });

  for (const seed of [1, 2, 3, 4, 5, 6])
    it(`random polygons, both fill rules, with and without anti-aliasing, translucent on transparent (seed ${seed})`, () => {
      bothKernels(157, 113, (c) => {
        const r = random(seed);
        if (seed % 2 === 0) c.fillBackground(colour(r, 0.5)); // translucent: the general straight-alpha blend
        for (let k = 0; k < 40; k++) {
          const rings: number[][] = [];
          for (let ring = 0; ring < 1 + (k % 3); ring++) {
            const pts: number[] = [];
            const n = 3 + Math.floor(r() * 9);
            // Some far outside the canvas, some with a non-finite point.
            const spread = k % 7 === 0 ? 4000 : 180;
            for (let i = 0; i < n; i++) pts.push(r() * spread - spread / 4, r() * spread - spread / 4);
            if (k % 11 === 0) pts.push(NaN, 5);
            if (k % 13 === 0) pts.push(pts[0]!, pts[1]!, 7); // a closing repeat, and an odd coordinate left over
            rings.push(pts);
          }
          c.fillPolygon(rings, colour(r, k % 4 === 0 ? 1 : r()), {
            rule: k % 2 === 0 ? 'evenodd' : 'nonzero',
            antialias: k % 5 !== 0,
            translate: k % 3 === 0 ? [r() * 4 - 2, r() * 4 - 2] : undefined,
            opacity: k % 6 === 0 ? 0.5 : 1,
            outlineColor: k % 9 === 0 ? colour(r, 1) : undefined,
          });
        }
        c.fillCircle(80, 60, 33.3, [200, 10, 10, 0.8]);
      });
    });

  const strokes: [string, Partial<StrokeOptions>][] = [
    ['hairline', { width: 0.4 }],
    ['thin butt', { width: 1, cap: 'butt' }],
    ['2 px square miter', { width: 2, cap: 'square', join: 'miter' }],
    ['round', { width: 7, cap: 'round', join: 'round' }],
    ['wide miter (the outline stroker)', { width: 9, join: 'miter', cap: 'square' }],
    ['wide bevel, blurred (nested outline fills in the mask)', { width: 8, join: 'bevel', blur: 3 }],
    ['round, blurred', { width: 6, join: 'round', cap: 'round', blur: 2.5 }],
    ['dashed butt', { width: 2, dasharray: [3, 2] }],
    ['dashed round dots', { width: 4, join: 'round', cap: 'round', dasharray: [0, 2] }],
    ['dashed square', { width: 1.5, cap: 'square', dasharray: [2, 1, 0.5, 1] }],
    ['dashes too fine to draw (opacity)', { width: 1, dasharray: [0.2, 0.3] }],
    ['dashes of a long period (no table)', { width: 2, dasharray: [150, 20] }],
    ['casing with a gap', { width: 2, gapWidth: 5, join: 'round' }],
    ['offset', { width: 3, offset: -4, join: 'round' }],
    ['translated', { width: 2.5, translate: [3, -2] }],
  ];
  for (const [name, options] of strokes)
    for (const closed of [false, true])
      it(`strokes: ${name}${closed ? ', closed' : ''}`, () => {
        bothKernels(203, 151, (c) => {
          const r = random(name.length * 31 + (closed ? 7 : 0));
          c.fillBackground([242, 239, 233, 1]);
          // Several polylines as one shape (a layer's batch), one a lone point, one with a repeated point.
          const xy: number[] = [];
          const ends: number[] = [];
          for (let k = 0; k < 12; k++) {
            const n = k === 0 ? 1 : 2 + Math.floor(r() * 6);
            for (let i = 0; i < n; i++) xy.push(r() * 260 - 30, r() * 200 - 25);
            if (k === 3) xy.push(xy[xy.length - 2]!, xy[xy.length - 1]!);
            ends.push(xy.length);
          }
          c.strokePolylines(xy, ends, { color: colour(r, 0.85), closed, ...options });
          c.strokePolyline([-1e9, 75.5, 1e9, 75.5], { color: [0, 0, 0, 1], closed, ...options });
        });
      });

  // The kernel strokes a batch in bands of rows, a band's mask reused (64 Ki pixels: 31 rows of this canvas), and
  // draws a label over its own rows: lines, polygon outlines and labels that cross bands must draw the same pixels.
  it('strokes, outlines and labels across the bands of rows the kernel strokes in', () => {
    bothKernels(2100, 200, (c) => {
      const r = random(99);
      c.fillBackground([242, 239, 233, 1]);
      for (const options of [{ width: 3 }, { width: 1.5, dasharray: [4, 2] }, { width: 5, cap: 'square' as const }]) {
        const xy: number[] = [];
        const ends: number[] = [];
        for (let k = 0; k < 20; k++) {
          for (let i = 0; i < 2 + (k % 5); i++) xy.push(r() * 2200 - 50, r() * 260 - 30);
          ends.push(xy.length);
        }
        c.strokePolylines(xy, ends, { color: colour(r, 0.7), ...options });
      }
      c.fillPolygon([[100, -20, 900, 40, 700, 230, 60, 150]], colour(r, 0.5), { outlineColor: colour(r, 0.8) });
      c.drawText('© OpenStreetMap contributors', 1500, 25, { color: [51, 51, 51, 1], haloColor: [255, 255, 255, 1] });
      const shaped = shapeText('Phố Nguyễn Đình Chiểu', cache.fonts.font(['Noto Sans Regular'])!);
      drawSdfText(c, shaped, 1200, 100, {
        size: 16,
        color: [51, 51, 51, 1],
        haloColor: [255, 255, 255, 0.9],
        angle: 1,
      });
    });
  });

  it('text (bitmap font with a halo), markers and a translucent background', () => {
    bothKernels(300, 120, (c) => {
      c.fillBackground([255, 255, 255, 0.6]);
      c.drawText('© OpenStreetMap contributors', 10, 10, { color: [51, 51, 51, 1], haloColor: [255, 255, 255, 1] });
      // The kernel covers bitmap text in a window of its rows (WasmRaster.coverRows): text past the top and bottom
      // edges, beyond them and past the sides, over other text, larger and with wider, translucent halos.
      const label = { color: [61, 58, 54, 0.9], haloColor: [255, 255, 255, 0.85], haloWidth: 1.6 } as const;
      for (const [x, y, scale] of [
        [40, -5, 1],
        [-12, 112, 1],
        [30, 118, 2],
        [20, 130, 1],
        [5, -30, 2],
        [150, 40, 2],
      ])
        c.drawText('Phuong Ben Thanh', x!, y!, { ...label, scale });
      c.drawText('Q1', 160, 44, { color: [200, 30, 30, 0.5], haloColor: [0, 0, 0, 0.3], haloWidth: 3, scale: 3 });
      c.drawMarker(60, 80, { kind: 'origin', color: [37, 52, 148, 1], size: 7 });
      c.drawMarker(200, 90, { kind: 'destination', color: [220, 53, 45, 1], size: 9 });
    });
  });

  it('SDF labels at any angle, with and without a halo, over and past the edges', () => {
    const font = cache.fonts.font(['Noto Sans Regular'])!;
    const text = 'Phố Nguyễn Đình Chiểu';
    const shaped = shapeText(text, font);
    // The font has a glyph for every character, spaces included: the labels drawn below are the whole text.
    expect(shaped.glyphs.length).toBe([...text].length);
    bothKernels(320, 200, (c) => {
      c.fillBackground([242, 239, 233, 1]);
      [0, 0.3, -1.2, Math.PI / 2, 2.9].forEach((angle, i) =>
        drawSdfText(c, shaped, 40 + 60 * i, 30 + 35 * i, {
          size: 10 + 4 * i,
          color: [51, 51, 51, 1],
          haloColor: i % 2 === 0 ? [255, 255, 255, 0.9] : null,
          haloWidth: 1.5,
          opacity: i === 3 ? 0.6 : 1,
          angle,
        }),
      );
    });
  });

  for (const [zoom, ratio] of [
    [12, 1],
    [14, 1],
    [15, 2],
    [16, 1],
    [17, 1],
    [18, 2],
  ] as const)
    it(`the default style's map of central Hanoi at zoom ${zoom}${ratio > 1 ? ', twice the pixels' : ''}`, () => {
      const view = new Viewport([105.845, 21.03], zoom, 480 * ratio, 320 * ratio, 512 * ratio);
      const c = bothKernels(view.width, view.height, (c) =>
        drawBasemap(c, view, region, defaultStyle('http://localhost'), cache),
      );
      expect(new Set(new Uint32Array(c.data.buffer, c.data.byteOffset, 4096)).size).toBeGreaterThan(1);
    });
});

describe('polygons filled in one call (Canvas.fillPolygons)', () => {
  /** Random polygons of 1-3 rings (holes, overlaps, points off the canvas, a non-finite one, empty rings) in one buffer. */
  function polygons(seed: number): { xy: Float64Array; ends: number[]; ringCounts: number[] } {
    const r = random(seed);
    const xy: number[] = [];
    const ends: number[] = [];
    const ringCounts: number[] = [];
    for (let k = 0; k < 60; k++) {
      const rings = k % 17 === 0 ? 0 : 1 + (k % 3);
      for (let ring = 0; ring < rings; ring++) {
        const n = k % 19 === 0 ? 0 : 3 + Math.floor(r() * 7);
        const [cx, cy, size] = [r() * 160 - 10, r() * 120 - 10, k % 7 === 0 ? 400 : 8 + r() * 40];
        for (let i = 0; i < n; i++) xy.push(cx + (r() - 0.5) * size, cy + (r() - 0.5) * size);
        if (k % 11 === 0 && n > 0) xy.push(NaN, 3);
        ends.push(xy.length);
      }
      ringCounts.push(rings);
    }
    return { xy: Float64Array.from(xy), ends, ringCounts };
  }

  for (const seed of [1, 2, 3, 4])
    it(`draw what fillPolygon draws polygon by polygon, with both kernels (seed ${seed})`, () => {
      const { xy, ends, ringCounts } = polygons(seed);
      const r = random(seed + 100);
      const fill = colour(r, seed === 3 ? 0 : seed % 2 ? 1 : 0.6); // seed 3: outlines alone
      const options = {
        opacity: seed === 4 ? 0.7 : 1,
        antialias: seed !== 2,
        rule: seed === 2 ? ('nonzero' as const) : ('evenodd' as const),
        translate: seed % 2 ? ([r() * 4 - 2, r() * 4 - 2] as const) : undefined,
        outlineColor: seed === 1 ? undefined : colour(r, seed === 4 ? 0.5 : 1),
      };
      const batched = bothKernels(160, 120, (c) => {
        c.fillBackground([240, 238, 230, 1]);
        c.fillPolygons(xy, ends, ringCounts, fill, options);
      });
      // The kernel's single call against the canvas's own polygon-by-polygon path.
      const single = new Canvas(160, 120);
      single.fillBackground([240, 238, 230, 1]);
      for (let j = 0, k = 0; j < ringCounts.length; j++) {
        const rings: Float64Array[] = [];
        for (const end = k + ringCounts[j]!; k < end; k++) rings.push(xy.subarray(k > 0 ? ends[k - 1]! : 0, ends[k]!));
        single.fillPolygon(rings, fill, options);
      }
      expect(Buffer.from(batched.data).equals(Buffer.from(single.data))).toBe(true);
      expect(new Set(new Uint32Array(batched.data.slice().buffer)).size).toBeGreaterThan(10);
    });
});

describe('PNG files', () => {
  it("from the kernel's scanlines are the TypeScript canvas's, byte for byte", async () => {
    const view = new Viewport([105.845, 21.03], 15, 600, 400);
    const [js, wasm] = [new Canvas(600, 400, { wasm: false }), new Canvas(600, 400)];
    for (const c of [js, wasm]) drawBasemap(c, view, region, defaultStyle('http://localhost'), cache);
    const sync = js.toPNG();
    expect(Buffer.from(wasm.toPNG()).equals(Buffer.from(sync))).toBe(true);
    const [a, b] = [await js.toPNGAsync(), await wasm.toPNGAsync()];
    expect(b.length).toBeGreaterThan(10_000);
    expect(b[25]).toBe(2); // an opaque map: RGB scanlines
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    // Encoding released both canvases.
    expect(() => wasm.fillBackground([0, 0, 0, 1])).toThrow(/released/);
    expect(() => js.toPNG()).toThrow(/released/);
  });

  it('of a canvas with transparent pixels keep their alpha (RGBA), the same from both kernels', async () => {
    // One column and one row too: the kernel writes the scanlines over the pixels, RGBA rows a byte longer each.
    for (const [w, h] of [
      [90, 60],
      [1, 9],
      [9, 1],
    ] as const) {
      const [js, wasm] = [new Canvas(w, h, { wasm: false }), new Canvas(w, h)];
      for (const c of [js, wasm]) {
        c.strokePolyline([5, 5, 80, 50, 10, 55], { color: [20, 90, 200, 0.6], width: 4 });
        c.strokePolyline([0, 0, 9, 9], { color: [200, 30, 20, 0.8], width: 1 });
      }
      const [a, b] = [await js.toPNGAsync(), await wasm.toPNGAsync()];
      expect(b[25]).toBe(6);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    }
  });
});

describe('released canvases', () => {
  it('hand their memory to the next canvas of their size, which starts transparent and draws as a new one', () => {
    const a = new Canvas(64, 48);
    a.fillBackground([1, 2, 3, 1]);
    a.strokePolyline([0, 0, 64, 48], { color: [200, 0, 0, 1], width: 3 });
    a.release();
    expect(() => a.data).toThrow(/released/);
    expect(() => a.fillBackground([0, 0, 0, 1])).toThrow(/released/);
    expect(() => a.toPNGAsync()).toThrow(/released/);
    const b = bothKernels(64, 48, (c) => c.strokePolyline([0, 48, 64, 0], { color: [0, 0, 200, 0.5], width: 2 }));
    expect(b.getPixel(0, 0)).toEqual([0, 0, 0, 0]);
  });
});
