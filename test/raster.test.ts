import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  Canvas,
  Viewport,
  fitBounds,
  latToWorldY,
  lonToWorldX,
  measureText,
  worldXToLon,
  worldYToLat,
  type RGBA,
  type StrokeOptions,
} from '../src/render/raster/index.js';
import { glyphColumns } from '../src/render/raster/font5x7.js';

const WHITE: RGBA = [255, 255, 255, 1];
const BLACK: RGBA = [0, 0, 0, 1];

/** Sum of alpha / 255 over the canvas: the covered area in pixels when drawing opaque colours on transparency. */
function coveredArea(c: Canvas): number {
  let sum = 0;
  for (let i = 3; i < c.data.length; i += 4) sum += c.data[i]!;
  return sum / 255;
}

/** Coverage (0..1) of one pixel, from its alpha. */
function alphaAt(c: Canvas, x: number, y: number): number {
  return c.getPixel(x, y)![3] / 255;
}

function strokeArea(points: number[], options: Partial<StrokeOptions>, w = 200, h = 100): number {
  const c = new Canvas(w, h);
  c.strokePolyline(points, { color: WHITE, ...options });
  return coveredArea(c);
}

/** Shoelace area of a flat ring. */
function shoelace(ring: number[]): number {
  let s = 0;
  for (let i = 0; i < ring.length; i += 2) {
    const j = (i + 2) % ring.length;
    s += ring[i]! * ring[j + 1]! - ring[j]! * ring[i + 1]!;
  }
  return Math.abs(s) / 2;
}

function circleRing(cx: number, cy: number, r: number, n: number, clockwise = true): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = ((clockwise ? 1 : -1) * 2 * Math.PI * i) / n;
    out.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  return out;
}

describe('polygon fill', () => {
  it('covers the analytic area of an axis-aligned rectangle with fractional edges', () => {
    const c = new Canvas(200, 120);
    c.fillPolygon([[10.3, 20.7, 150.6, 20.7, 150.6, 90.2, 10.3, 90.2]], WHITE);
    const exact = (150.6 - 10.3) * (90.2 - 20.7);
    expect(Math.abs(coveredArea(c) - exact) / exact).toBeLessThan(0.01);
    // Fully inside pixels are fully covered, fully outside ones untouched, edge pixel has partial coverage.
    expect(alphaAt(c, 50, 50)).toBe(1);
    expect(alphaAt(c, 9, 50)).toBe(0);
    expect(alphaAt(c, 10, 50)).toBeCloseTo(0.7, 1);
  });

  it('covers the area of a circle polygon (shoelace and pi r^2)', () => {
    const c = new Canvas(200, 200);
    const ring = circleRing(100.4, 99.7, 63.3, 256);
    c.fillPolygon([ring], WHITE);
    const area = coveredArea(c);
    expect(Math.abs(area - shoelace(ring)) / shoelace(ring)).toBeLessThan(0.01);
    expect(Math.abs(area - Math.PI * 63.3 ** 2) / (Math.PI * 63.3 ** 2)).toBeLessThan(0.01);
  });

  it('leaves holes empty whatever their orientation (even-odd) and with reversed holes under non-zero', () => {
    const outer = [10, 10, 90, 10, 90, 90, 10, 90];
    const holeSame = [30, 30, 70, 30, 70, 70, 30, 70];
    const holeReversed = [30, 30, 30, 70, 70, 70, 70, 30];
    for (const [hole, rule, expectHole] of [
      [holeSame, 'evenodd', true],
      [holeReversed, 'evenodd', true],
      [holeReversed, 'nonzero', true],
      [holeSame, 'nonzero', false],
    ] as const) {
      const c = new Canvas(100, 100);
      c.fillPolygon([outer, hole], WHITE, { rule });
      let holeSum = 0;
      for (let y = 30; y < 70; y++) for (let x = 30; x < 70; x++) holeSum += alphaAt(c, x, y);
      expect(holeSum).toBe(expectHole ? 0 : 1600);
      expect(coveredArea(c)).toBeCloseTo(expectHole ? 6400 - 1600 : 6400, 0);
    }
  });

  it('without anti-aliasing covers whole pixels by their centres only', () => {
    const c = new Canvas(100, 100);
    c.fillPolygon([circleRing(50, 50, 30.3, 64)], WHITE, { antialias: false });
    for (let i = 3; i < c.data.length; i += 4) expect([0, 255]).toContain(c.data[i]);
    // Pixel centres inside the polygon, counted by brute force point-in-polygon.
    const ring = circleRing(50, 50, 30.3, 64);
    let inside = 0;
    for (let y = 0; y < 100; y++) {
      for (let x = 0; x < 100; x++) {
        let odd = false;
        for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
          const yi = ring[i + 1]!,
            yj = ring[j + 1]!;
          if (yi > y + 0.5 !== yj > y + 0.5) {
            const xc = ring[i]! + ((y + 0.5 - yi) * (ring[j]! - ring[i]!)) / (yj - yi);
            if (x + 0.5 < xc) odd = !odd;
          }
        }
        if (odd) inside++;
      }
    }
    expect(coveredArea(c)).toBe(inside);
  });

  it('translate moves the fill by whole pixels exactly', () => {
    const a = new Canvas(80, 80);
    const b = new Canvas(80, 80);
    const ring = circleRing(30.2, 30.7, 15, 40);
    a.fillPolygon([ring.map((v, i) => v + (i % 2 === 0 ? 7 : -3))], WHITE);
    b.fillPolygon([ring], WHITE, { translate: [7, -3] });
    expect(Buffer.from(b.data).equals(Buffer.from(a.data))).toBe(true);
  });

  it('draws the 1 px outline in the outline colour', () => {
    const c = new Canvas(60, 60);
    c.fillPolygon([[10, 10, 50, 10, 50, 50, 10, 50]], [0, 0, 255, 1], { outlineColor: [255, 0, 0, 1] });
    // The outline is centred on the ring: row 10 gets half of it (50% red over blue), row 9 the other half.
    expect(c.getPixel(30, 10)).toEqual([128, 0, 128, 255]);
    expect(c.getPixel(30, 30)).toEqual([0, 0, 255, 255]);
    expect(c.getPixel(30, 9)![3]).toBe(128); // outer half of the outline on transparency
  });
});

describe('strokes', () => {
  it('a horizontal line of width w covers length x w pixels', () => {
    for (const w of [1, 2.5, 6]) {
      const area = strokeArea([20.3, 50.2, 170.8, 50.2], { width: w });
      expect(Math.abs(area - 150.5 * w) / (150.5 * w)).toBeLessThan(0.01);
    }
  });

  it('square caps add w^2 and round caps add pi (w/2)^2 over butt caps', () => {
    const w = 10;
    const line = [40, 50, 160, 50];
    const butt = strokeArea(line, { width: w, cap: 'butt' });
    const square = strokeArea(line, { width: w, cap: 'square' });
    const round = strokeArea(line, { width: w, cap: 'round' });
    expect(butt).toBeCloseTo(120 * w, 0);
    expect(square - butt).toBeCloseTo(w * w, 0);
    expect(Math.abs(round - butt - Math.PI * (w / 2) ** 2)).toBeLessThan(1);
  });

  it('joins at a right angle: miter adds (w/2)^2, bevel half of it, round a quarter disc, over the bare corner', () => {
    const w = 12,
      hw = w / 2;
    const corner = [30, 80, 100, 80, 100, 10];
    const bevel = strokeArea(corner, { width: w, join: 'bevel' });
    const miter = strokeArea(corner, { width: w, join: 'miter' });
    const round = strokeArea(corner, { width: w, join: 'round' });
    // Two butt rectangles overlapping in a hw x hw square at the inner corner, plus the outer wedge.
    const bare = 70 * w + 70 * w - hw * hw;
    expect(bevel - bare).toBeCloseTo((hw * hw) / 2, 0);
    expect(miter - bare).toBeCloseTo(hw * hw, 0);
    expect(Math.abs(round - bare - (Math.PI * hw * hw) / 4)).toBeLessThan(0.5);
    // miterLimit below sqrt(2) turns the right-angle miter into a bevel.
    expect(strokeArea(corner, { width: w, join: 'miter', miterLimit: 1.3 })).toBeCloseTo(bevel, 3);
  });

  it('a sharp miter beyond the limit is bevelled: nothing sticks out past the vertex', () => {
    // A 10 degree spike pointing right at x = 150; a miter would reach hw / sin(5deg) ~ 69 px further.
    const dy = Math.tan((5 * Math.PI) / 180) * 100;
    const c = new Canvas(300, 100);
    c.strokePolyline([50, 50 - dy, 150, 50, 50, 50 + dy], { color: WHITE, width: 12, join: 'miter' });
    let beyond = 0;
    for (let y = 0; y < 100; y++) for (let x = 157; x < 300; x++) beyond += alphaAt(c, x, y);
    expect(beyond).toBe(0);
    const spike = new Canvas(300, 100);
    spike.strokePolyline([50, 50 - dy, 150, 50, 50, 50 + dy], {
      color: WHITE,
      width: 12,
      join: 'miter',
      miterLimit: 100,
    });
    expect(alphaAt(spike, 200, 50)).toBeGreaterThan(0.5);
  });

  it('a dashed line covers about the dash fraction', () => {
    const w = 2;
    // 176 px = 22 whole periods of 8 px, so the drawn fraction is exactly the dash fraction.
    const solid = strokeArea([10, 50, 186, 50], { width: w });
    const half = strokeArea([10, 50, 186, 50], { width: w, dasharray: [2, 2] });
    const threeQuarters = strokeArea([10, 50, 186, 50], { width: w, dasharray: [3, 1] });
    expect(half / solid).toBeCloseTo(0.5, 2);
    expect(threeQuarters / solid).toBeCloseTo(0.75, 2);
    // Dashes start at the first point: pixels 10..13 are on, 14..17 off.
    const c = new Canvas(200, 100);
    c.strokePolyline([10, 50, 190, 50], { color: WHITE, width: w, dasharray: [2, 2] });
    expect(alphaAt(c, 11, 50)).toBe(1);
    expect(alphaAt(c, 15, 50)).toBe(0);
    expect(alphaAt(c, 19, 50)).toBe(1);
  });

  it('dash phase continues across vertices', () => {
    // Dashes of 4 px every 8 px (w = 2, [2, 2]); the corner is at distance 6, so on the vertical leg (distance
    // 6 + y - 20) dashes cover y in [22, 26) and [30, 34) and the gap y in [26, 30).
    const c = new Canvas(100, 100);
    c.strokePolyline([10, 20, 16, 20, 16, 60], { color: WHITE, width: 2, dasharray: [2, 2] });
    expect(alphaAt(c, 11, 20)).toBe(1);
    expect(alphaAt(c, 16, 24)).toBe(1);
    expect(alphaAt(c, 16, 27)).toBe(0);
    expect(alphaAt(c, 16, 31)).toBe(1);
  });

  it('casing (gapWidth) draws two lines of width w and leaves the centre uncovered', () => {
    const w = 3,
      gap = 8;
    const c = new Canvas(200, 100);
    c.strokePolyline([20, 50, 180, 50], { color: WHITE, width: w, gapWidth: gap });
    for (let y = 46; y < 54; y++) expect(alphaAt(c, 100, y)).toBe(0);
    for (let y = 43; y < 46; y++) expect(alphaAt(c, 100, y)).toBe(1);
    for (let y = 54; y < 57; y++) expect(alphaAt(c, 100, y)).toBe(1);
    expect(coveredArea(c)).toBeCloseTo(2 * 160 * w, 0);
  });

  it('offset moves the line to the right of its direction', () => {
    for (const [line, offset, axis, expected] of [
      [[20, 50, 180, 50], 10, 'y', 60], // heading east, right is south (y down)
      [[180, 50, 20, 50], 10, 'y', 40], // heading west, right is north
      [[100, 10, 100, 90], -15, 'x', 115], // heading south, left is east
    ] as const) {
      const c = new Canvas(200, 100);
      c.strokePolyline([...line], { color: WHITE, width: 4, offset });
      let sum = 0,
        weighted = 0;
      for (let y = 0; y < 100; y++) {
        for (let x = 0; x < 200; x++) {
          const a = alphaAt(c, x, y);
          sum += a;
          weighted += a * ((axis === 'y' ? y : x) + 0.5);
        }
      }
      expect(weighted / sum).toBeCloseTo(expected, 1);
    }
  });

  it('blur keeps the ramp inside the width: area w - blur per unit length, centre fully covered', () => {
    const w = 10,
      blur = 4;
    const c = new Canvas(200, 100);
    c.strokePolyline([20, 50, 180, 50], { color: WHITE, width: w, blur });
    expect(Math.abs(coveredArea(c) - 160 * (w - blur)) / (160 * (w - blur))).toBeLessThan(0.03);
    expect(alphaAt(c, 100, 49)).toBe(1);
    expect(alphaAt(c, 100, 45)).toBeLessThan(0.5);
    expect(alphaAt(c, 100, 44)).toBe(0);
  });

  it('overlapping parts of one polyline are not blended twice', () => {
    const c = new Canvas(100, 100);
    c.fillBackground(WHITE);
    c.strokePolyline([10, 50, 90, 50, 50, 50, 50, 10, 50, 90], { color: BLACK, width: 6, opacity: 0.5 });
    expect(c.getPixel(50, 50)).toEqual(c.getPixel(30, 50));
  });
});

describe('compositing', () => {
  it('50% black over white gives mid grey; straight-alpha source-over on transparency', () => {
    const c = new Canvas(4, 4);
    c.fillBackground(WHITE);
    c.fillPolygon([[0, 0, 4, 0, 4, 4, 0, 4]], BLACK, { opacity: 0.5 });
    expect(c.getPixel(1, 1)).toEqual([128, 128, 128, 255]);
    const t = new Canvas(4, 4);
    t.fillBackground([255, 0, 0, 0.5]);
    t.fillBackground([0, 0, 255, 1], 0.5);
    // The first layer stores alpha 127.5 -> 128. Then keep = 128/255 * 0.5, outA = 0.5 + keep = 0.75098 (191.5 ->
    // 192), red = 255 * keep / outA = 85.2, blue = 255 * 0.5 / outA = 169.8.
    expect(t.getPixel(2, 2)).toEqual([85, 0, 170, 192]);
  });
});

describe('clipping and robustness', () => {
  it('shapes outside the canvas draw nothing; crossing shapes cover only their part inside', () => {
    const c = new Canvas(100, 80);
    c.fillPolygon([[-50, 10, -0.5, 10, -0.5, 50, -50, 50]], WHITE);
    c.fillPolygon([[100, 10, 150, 10, 150, 50, 100, 50]], WHITE);
    c.fillPolygon([[10, -40, 50, -40, 50, 0, 10, 0]], WHITE);
    c.strokePolyline([0, 90, 100, 90], { color: WHITE, width: 10 });
    expect(coveredArea(c)).toBe(0);
    c.fillPolygon([[-30, -30, 40, -30, 40, 20, -30, 20]], WHITE);
    expect(coveredArea(c)).toBeCloseTo(40 * 20, 3);
  });

  it('huge coordinates fill the canvas exactly and return (no unbounded work or memory)', () => {
    const c = new Canvas(300, 200);
    c.fillPolygon([[-1e12, -1e12, 1e12, -1e12, 1e12, 1e12, -1e12, 1e12]], WHITE);
    expect(coveredArea(c)).toBe(300 * 200);
    const d = new Canvas(300, 200);
    // A 2e9 px dashed line (~5e8 dashes if nothing were clipped) crossing the canvas at y = 100.
    d.strokePolyline([-1e9, 100.5, 1e9, 100.5], { color: WHITE, width: 1, dasharray: [2, 2], join: 'round' });
    expect(coveredArea(d) / 300).toBeCloseTo(0.5, 1);
    const e = new Canvas(300, 200);
    e.strokePolyline([1e300, 5, -1e300, 7, NaN, 3, 20, 20, 1e15, 1e15], {
      color: WHITE,
      width: 3,
      join: 'round',
      cap: 'round',
    });
    e.fillPolygon([[1e300, 0, -1e300, 1e300, Infinity, 5, 10, 10]], WHITE);
    expect(Number.isFinite(coveredArea(e))).toBe(true);
  });

  it('ignores invalid sizes, colours and empty input without throwing', () => {
    const c = new Canvas(20, 20);
    c.strokePolyline([], { color: WHITE });
    c.strokePolyline([5, 5], { color: WHITE, width: 4 }); // single point, butt cap: nothing
    c.strokePolyline([1, 1, 10, 10], { color: WHITE, width: -2 });
    c.strokePolyline([1, 1, 10, 10], { color: [NaN, 0, 0, 1] });
    c.fillPolygon([[1, 1, 5, 5]], WHITE);
    c.fillPolygon([], WHITE);
    expect(coveredArea(c)).toBe(0);
    c.strokePolyline([5, 5], { color: WHITE, width: 4, cap: 'round' }); // a dot
    expect(Math.abs(coveredArea(c) - Math.PI * 4)).toBeLessThan(0.04);
    expect(() => new Canvas(0, 10)).toThrow(RangeError);
  });
});

describe('text and markers', () => {
  it('draws exactly the glyph pixels of the bitmap font', () => {
    const c = new Canvas(80, 20);
    const text = '© OSM';
    c.drawText(text, 2, 3, { color: WHITE });
    let bits = 0;
    for (const ch of text) for (const col of Array.from(glyphColumns(ch.charCodeAt(0)))) bits += popcount(col);
    expect(coveredArea(c)).toBe(bits);
    // Glyph widths 7 + 5 + 5 + 5 + 5 plus four 1-column gaps.
    expect(measureText(text)).toEqual({ width: 31, height: 7 });
    // Top-left of 'O' (second glyph after "© "): column 0 of 'O' is 0x3e, so row 0 is empty and row 1 is set.
    const ox = 2 + 8 + 6;
    expect(alphaAt(c, ox, 3)).toBe(0);
    expect(alphaAt(c, ox, 4)).toBe(1);
  });

  it('markers draw their colour at the point (origin) and just above the tip (destination)', () => {
    const c = new Canvas(100, 100);
    c.fillBackground(WHITE);
    c.drawMarker(30, 50, { kind: 'origin', color: [255, 0, 0, 1] });
    c.drawMarker(70, 80, { kind: 'destination', color: [0, 0, 255, 1] });
    expect(c.getPixel(30, 50)).toEqual([255, 255, 255, 255]); // white centre dot
    expect(c.getPixel(34, 50)).toEqual([255, 0, 0, 255]); // red ring
    expect(c.getPixel(70, 64)).toEqual([0, 0, 255, 255]); // pin body above the tip
    expect(c.getPixel(70, 40)).toEqual([255, 255, 255, 255]); // above the pin head
  });
});

function popcount(v: number): number {
  let n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

describe('Web Mercator', () => {
  it('projects known points at zoom 0 (512 px world) and round-trips', () => {
    expect(lonToWorldX(0, 0)).toBe(256);
    expect(latToWorldY(0, 0)).toBeCloseTo(256, 9);
    expect(lonToWorldX(180, 1)).toBe(1024);
    expect(latToWorldY(85.0511287798066, 0)).toBeCloseTo(0, 6);
    expect(lonToWorldX(-180, 3, 256)).toBe(0);
    for (const [lon, lat] of [
      [105.85, 21.03],
      [106.7, 10.78],
      [-70, -33],
    ] as const) {
      expect(worldXToLon(lonToWorldX(lon, 13.4), 13.4)).toBeCloseTo(lon, 9);
      expect(worldYToLat(latToWorldY(lat, 13.4), 13.4)).toBeCloseTo(lat, 9);
    }
  });

  it('fitBounds fits the box tightly inside the padded image, centred like cameraForBounds', () => {
    const bbox = [105.78, 20.98, 105.9, 21.07] as const; // central Hanoi
    const fit = fitBounds(bbox, 600, 400, { padding: 40 })!;
    const view = new Viewport(fit.center, fit.zoom, 600, 400);
    const left = view.x(bbox[0]),
      right = view.x(bbox[2]),
      top = view.y(bbox[3]),
      bottom = view.y(bbox[1]);
    expect(left).toBeGreaterThanOrEqual(40 - 1e-6);
    expect(right).toBeLessThanOrEqual(560 + 1e-6);
    expect(top).toBeGreaterThanOrEqual(40 - 1e-6);
    expect(bottom).toBeLessThanOrEqual(360 + 1e-6);
    // Tight in the limiting dimension and centred in both.
    expect(Math.max(right - left - 520, bottom - top - 320)).toBeCloseTo(0, 6);
    expect((left + right) / 2).toBeCloseTo(300, 6);
    expect((top + bottom) / 2).toBeCloseTo(200, 6);
    // Asymmetric padding shifts the box centre by half the difference.
    const shifted = fitBounds(bbox, 600, 400, { padding: { top: 10, bottom: 50, left: 100, right: 20 } })!;
    const v2 = new Viewport(shifted.center, shifted.zoom, 600, 400);
    expect((v2.x(bbox[0]) + v2.x(bbox[2])) / 2).toBeCloseTo(300 + 40, 6);
    expect((v2.y(bbox[1]) + v2.y(bbox[3])) / 2).toBeCloseTo(200 - 20, 6);
    // A single point uses maxZoom; impossible padding and non-finite input give null.
    expect(fitBounds([105.8, 21, 105.8, 21], 600, 400, { maxZoom: 17 })).toEqual({
      zoom: 17,
      center: [expect.closeTo(105.8, 9), expect.closeTo(21, 9)],
    });
    expect(fitBounds(bbox, 600, 400, { padding: 300 })).toBeNull();
    expect(fitBounds([NaN, 0, 1, 1], 600, 400)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Golden images: REGEN=1 writes them; otherwise every channel must match within a small tolerance.

const FIXTURES = new URL('./fixtures/raster/', import.meta.url);
const TOLERANCE = 3;

function compareGolden(name: string, c: Canvas): void {
  const file = new URL(name, FIXTURES);
  if (process.env.REGEN === '1' || !existsSync(file)) {
    if (process.env.REGEN !== '1') throw new Error(`missing golden ${name}; run with REGEN=1`);
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(file, c.toPNG());
    return;
  }
  const golden = PNG.sync.read(readFileSync(file));
  expect([golden.width, golden.height]).toEqual([c.width, c.height]);
  let worst = 0;
  for (let i = 0; i < c.data.length; i++) worst = Math.max(worst, Math.abs(golden.data[i]! - c.data[i]!));
  expect(worst).toBeLessThanOrEqual(TOLERANCE);
}

function fillsScene(): Canvas {
  const c = new Canvas(320, 200);
  c.fillBackground([242, 239, 233, 1]);
  c.fillPolygon(
    [
      [20, 20, 140, 20, 140, 120, 20, 120],
      [50, 50, 110, 50, 80, 100],
    ],
    [170, 211, 223, 1],
    {
      outlineColor: [60, 90, 140, 1],
    },
  );
  c.fillPolygon([circleRing(220, 70, 50, 96)], [200, 60, 60, 1], { opacity: 0.6 });
  c.fillPolygon([circleRing(250, 100, 40, 7)], [60, 160, 60, 1], { opacity: 0.6, translate: [10, 20] });
  const star: number[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? 45 : 18,
      a = (Math.PI * i) / 5 - Math.PI / 2;
    star.push(80 + r * Math.cos(a), 160 + r * Math.sin(a) * 0.8);
  }
  c.fillPolygon([star], [240, 180, 40, 1]);
  c.fillPolygon([circleRing(180, 165, 25, 12)], [80, 80, 80, 1], { antialias: false });
  return c;
}

function strokesScene(): Canvas {
  const c = new Canvas(320, 240);
  c.fillBackground(WHITE);
  const zig = (y: number): number[] => [20, y + 20, 60, y, 100, y + 20, 140, y];
  const caps = ['butt', 'square', 'round'] as const;
  caps.forEach((cap, i) =>
    c.strokePolyline(zig(15 + i * 30), {
      color: [37, 52, 148, 1],
      width: 9,
      cap,
      join: (['miter', 'bevel', 'round'] as const)[i],
    }),
  );
  c.strokePolyline([170, 20, 300, 20], { color: BLACK, width: 2, dasharray: [4, 2] });
  c.strokePolyline([170, 40, 300, 40], { color: BLACK, width: 4, dasharray: [0, 2], cap: 'round' });
  c.strokePolyline([170, 70, 230, 60, 300, 90], { color: [150, 150, 150, 1], width: 2, gapWidth: 8, join: 'round' });
  c.strokePolyline([170, 70, 230, 60, 300, 90], { color: [255, 255, 255, 1], width: 8 });
  c.strokePolyline([170, 110, 300, 110], { color: [200, 0, 0, 1], width: 3, offset: 8 });
  c.strokePolyline([170, 110, 300, 110], { color: BLACK, width: 1 });
  c.strokePolyline([20, 150, 300, 150], { color: [37, 52, 148, 1], width: 12, blur: 5 });
  c.strokePolyline([20, 200, 80, 175, 40, 215, 150, 190], {
    color: [20, 140, 60, 1],
    width: 7,
    join: 'miter',
    miterLimit: 10,
    opacity: 0.7,
  });
  c.strokePolyline([180, 230, 240, 170, 300, 230, 180, 230], {
    color: [120, 60, 180, 1],
    width: 4,
    closed: true,
    join: 'round',
  });
  return c;
}

function mapScene(): Canvas {
  const w = 600,
    h = 400;
  const c = new Canvas(w, h);
  const route = [105.8412, 21.0245, 105.8455, 21.0281, 105.8521, 21.0279, 105.8549, 21.0228, 105.8602, 21.0202];
  const fit = fitBounds([105.8412, 21.0202, 105.8602, 21.0281], w, h, { padding: 50 })!;
  const view = new Viewport(fit.center, fit.zoom, w, h);
  c.fillBackground([242, 239, 233, 1]);
  // A lake and a park block, drawn in lon/lat around the route.
  const lake = circleRing(105.8523, 21.0287, 0.0023, 40).map((v, i) =>
    i % 2 === 0 ? v : 21.0287 + (v - 21.0287) * 0.7,
  );
  c.fillPolygon([view.project(lake)], [170, 211, 223, 1]);
  c.fillPolygon(
    [view.project([105.843, 21.019, 105.849, 21.019, 105.849, 21.023, 105.843, 21.023])],
    [200, 230, 180, 1],
    {
      outlineColor: [150, 200, 130, 1],
    },
  );
  for (let k = 0; k < 8; k++) {
    const lat = 21.017 + k * 0.0018;
    c.strokePolyline(view.project([105.836, lat, 105.866, lat + 0.001]), {
      color: [210, 200, 190, 1],
      width: 7,
      cap: 'round',
    });
    c.strokePolyline(view.project([105.836, lat, 105.866, lat + 0.001]), { color: WHITE, width: 5, cap: 'round' });
  }
  c.strokePolyline(view.project([105.85, 21.015, 105.851, 21.035]), {
    color: [250, 200, 120, 1],
    width: 3,
    gapWidth: 6,
  });
  c.strokePolyline(view.project([105.838, 21.03, 105.865, 21.016]), {
    color: [120, 120, 120, 1],
    width: 1.5,
    dasharray: [3, 2],
  });
  const px = view.project(route);
  c.strokePolyline(px, { color: WHITE, width: 9, join: 'round', cap: 'round' });
  c.strokePolyline(px, { color: [37, 52, 148, 1], width: 6, join: 'round', cap: 'round' });
  c.drawMarker(px[0]!, px[1]!, { kind: 'origin', color: [37, 52, 148, 1] });
  c.drawMarker(px[px.length - 2]!, px[px.length - 1]!, { kind: 'destination', color: [220, 50, 40, 1] });
  const text = '© OpenStreetMap contributors';
  const size = measureText(text);
  c.fillPolygon(
    [[w - size.width - 8, h - size.height - 6, w, h - size.height - 6, w, h, w - size.width - 8, h]],
    WHITE,
    { opacity: 0.7 },
  );
  c.drawText(text, w - size.width - 4, h - size.height - 3, { color: [50, 50, 50, 1] });
  return c;
}

describe('golden images', () => {
  it('fills', () => compareGolden('fills.png', fillsScene()));
  it('strokes', () => compareGolden('strokes.png', strokesScene()));
  it('map with route, markers and attribution', () => compareGolden('map.png', mapScene()));
});

describe('throughput (printed, not asserted)', () => {
  it('600x400: ~5,000 polygons of 20 points and ~5,000 polylines', () => {
    let seed = 12345;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const polygons: number[][] = [];
    for (let i = 0; i < 5000; i++) {
      const cx = rand() * 640 - 20,
        cy = rand() * 440 - 20,
        r = 3 + rand() * 25;
      const ring: number[] = [];
      for (let k = 0; k < 20; k++) {
        const a = (2 * Math.PI * k) / 20,
          rr = r * (0.6 + 0.4 * rand());
        ring.push(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
      }
      polygons.push(ring);
    }
    const lines: number[][] = [];
    for (let i = 0; i < 5000; i++) {
      let x = rand() * 600,
        y = rand() * 400;
      const line = [x, y];
      for (let k = 0; k < 9; k++) {
        x += (rand() - 0.5) * 60;
        y += (rand() - 0.5) * 60;
        line.push(x, y);
      }
      lines.push(line);
    }
    const c = new Canvas(600, 400);
    c.fillBackground(WHITE);
    const t0 = performance.now();
    for (const ring of polygons) c.fillPolygon([ring], [100, 150, 200, 1], { opacity: 0.5 });
    const t1 = performance.now();
    for (let i = 0; i < lines.length; i++) {
      c.strokePolyline(lines[i]!, {
        color: [200, 100, 50, 1],
        width: 1 + (i % 5),
        join: i % 2 ? 'round' : 'miter',
        cap: i % 3 ? 'butt' : 'round',
      });
    }
    const t2 = performance.now();
    const png = c.toPNG();
    const t3 = performance.now();
    console.log(
      `raster throughput: 5000 polygons x 20 pts ${(t1 - t0).toFixed(0)} ms, 5000 polylines x 10 pts ${(t2 - t1).toFixed(0)} ms, ` +
        `PNG encode ${(t3 - t2).toFixed(0)} ms (${png.length} bytes)`,
    );
    expect(coveredArea(c)).toBe(600 * 400);
  });
});
