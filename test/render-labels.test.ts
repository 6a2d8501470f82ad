import fc from 'fast-check';
import { PbfReader } from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { BASEMAP_KINDS, GeomType } from '../src/map/kinds.js';
import { GLYPH_FONTSTACKS, glyphIndex, glyphs } from '../src/map/glyphs.js';
import { defaultStyle } from '../src/map/style/default-style.js';
import type { Region } from '../src/region.js';
import { GlyphFonts } from '../src/render/glyph-font.js';
import { RenderCache } from '../src/render/render-cache.js';
import { overlaps, type LabelBox } from '../src/render/label-collision.js';
import { longestStretch } from '../src/render/labels.js';
import { drawBasemap } from '../src/render/map.js';
import { Canvas, decodeGlyphs, drawSdfText, GlyphRange, shapeText, Viewport } from '../src/render/raster/index.js';
import type { SdfGlyph } from '../src/render/raster/sdf-glyphs.js';
import { polylineDistance } from './fixtures/render/helpers.js';

/** Around Văn Miếu (Đống Đa), zoom 16: many named streets. */
const VIEW = new Viewport([105.833, 21.028], 16, 600, 400);

let region: Region;
beforeAll(async () => {
  region = (await createEngine()).regions[0]!;
});

/** The glyphs of a PBF read with the `pbf` package (an independent decoder). */
function referenceGlyphs(
  bytes: Uint8Array,
): Map<number, { width: number; height: number; left: number; top: number; advance: number; bitmap: number[] }> {
  const out = new Map();
  new PbfReader(bytes).readFields((tag: number, _: unknown, pbf: PbfReader) => {
    if (tag !== 1) return;
    pbf.readMessage((t: number, _s: unknown, p: PbfReader) => {
      if (t !== 3) return;
      const g = p.readMessage(
        (f: number, g: Record<string, unknown>, q: PbfReader) => {
          if (f === 1) g.id = q.readVarint();
          else if (f === 2) g.bitmap = [...q.readBytes()];
          else if (f === 3) g.width = q.readVarint();
          else if (f === 4) g.height = q.readVarint();
          else if (f === 5) g.left = q.readSVarint();
          else if (f === 6) g.top = q.readSVarint();
          else if (f === 7) g.advance = q.readVarint();
        },
        { bitmap: [] } as Record<string, unknown>,
      );
      out.set(g.id, g);
    }, null);
  }, null);
  return out;
}

/** Whether point (x, y) lies inside an oriented box shrunk by `inset` pixels on every side. */
function inBox(b: LabelBox, x: number, y: number, inset = 0): boolean {
  const dx = x - b.cx,
    dy = y - b.cy;
  return (
    Math.abs(dx * b.ux + dy * b.uy) < b.halfLength - inset && Math.abs(-dx * b.uy + dy * b.ux) < b.halfHeight - inset
  );
}

/** Corners of an oriented box, counter-clockwise in y-down pixels. */
function corners(b: LabelBox): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, t] of [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ] as const) {
    out.push([
      b.cx + s * b.halfLength * b.ux - t * b.halfHeight * b.uy,
      b.cy + s * b.halfLength * b.uy + t * b.halfHeight * b.ux,
    ]);
  }
  return out;
}

/** Area of the intersection of two convex polygons (Sutherland-Hodgman clipping, then the shoelace formula). */
function intersectionArea(a: [number, number][], b: [number, number][]): number {
  const orient = (p: [number, number][]) =>
    p.reduce((s, [x, y], i) => s + x * p[(i + 1) % p.length]![1] - p[(i + 1) % p.length]![0] * y, 0);
  const sign = Math.sign(orient(b));
  let poly = a;
  for (let i = 0; i < b.length && poly.length > 0; i++) {
    const [ax, ay] = b[i]!,
      [bx, by] = b[(i + 1) % b.length]!;
    const side = ([x, y]: [number, number]) => sign * ((bx - ax) * (y - ay) - (by - ay) * (x - ax));
    const next: [number, number][] = [];
    for (let k = 0; k < poly.length; k++) {
      const p = poly[k]!,
        q = poly[(k + 1) % poly.length]!;
      const sp = side(p),
        sq = side(q);
      if (sp >= 0) next.push(p);
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        next.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
      }
    }
    poly = next;
  }
  return poly.length < 3 ? 0 : Math.abs(orient(poly)) / 2;
}

/** Whether two glyph lookups gave the same glyph (both none, or equal metrics and bitmap). */
function sameGlyph(a: SdfGlyph | undefined, b: SdfGlyph | undefined): boolean {
  if (!a || !b) return a === b;
  const { bitmap: x, ...ma } = a,
    { bitmap: y, ...mb } = b;
  return JSON.stringify(ma) === JSON.stringify(mb) && Buffer.from(x).equals(Buffer.from(y));
}

describe('SDF glyphs', () => {
  it('decodes the shipped glyph PBFs exactly as the pbf package reads them', () => {
    for (const range of ['0-255', '7680-7935']) {
      const r = glyphs('Noto Sans Regular', range);
      if (!r.ok) throw new Error(r.error);
      const ours = decodeGlyphs(r.bytes);
      const ref = referenceGlyphs(r.bytes);
      expect(ours.size).toBe(ref.size);
      expect(ours.size).toBeGreaterThan(90);
      for (const [id, g] of ref) {
        const o = ours.get(id)!;
        expect({ width: o.width, height: o.height, left: o.left, top: o.top, advance: o.advance }).toEqual({
          width: g.width ?? 0,
          height: g.height ?? 0,
          left: g.left ?? 0,
          top: g.top ?? 0,
          advance: g.advance ?? 0,
        });
        expect([...o.bitmap]).toEqual(g.bitmap);
      }
    }
  });

  it('returns the glyphs before the damage of a truncated file, without throwing', () => {
    const r = glyphs('Noto Sans Regular', '0-255');
    if (!r.ok) throw new Error(r.error);
    const whole = decodeGlyphs(r.bytes);
    const cut = decodeGlyphs(r.bytes.subarray(0, Math.floor(r.bytes.length / 2)));
    expect(cut.size).toBeLessThan(whole.size);
    for (const [id, g] of cut) expect(g).toEqual(whole.get(id));
    expect(decodeGlyphs(Uint8Array.of(0xff, 0xff, 0xff)).size).toBe(0);
  });

  it('finds through the shipped index the glyphs it finds by reading the file, and no wrong glyph through a wrong index', () => {
    for (const font of GLYPH_FONTSTACKS) {
      for (const range of ['0-255', '256-511', '768-1023', '7680-7935', '8192-8447']) {
        const r = glyphs(font, range);
        if (!r.ok) throw new Error(r.error);
        const index = glyphIndex(font, range)!;
        const read = new GlyphRange(r.bytes);
        const indexed = new GlyphRange(r.bytes, index);
        expect([...indexed.codes()]).toEqual([...read.codes()].sort((a, b) => a - b));
        const start = Number(range.split('-')[0]);
        const differ: number[] = [];
        for (let code = start - 1; code <= start + 256; code++)
          if (!sameGlyph(indexed.get(code), read.get(code))) differ.push(code);
        expect(differ).toEqual([]);
        // Another range's index: its spans land on other glyphs or outside the file, and none is given as this code's.
        const other = new GlyphRange(r.bytes, glyphIndex(font, range === '0-255' ? '7680-7935' : '0-255')!);
        const wrong = [...other.codes()].filter(
          (code) => other.get(code) && !sameGlyph(other.get(code), read.get(code)),
        );
        expect(wrong).toEqual([]);
      }
    }
    // An index that is not whole entries is not used: the file is read.
    const r = glyphs('Noto Sans Bold', '0-255');
    if (!r.ok) throw new Error(r.error);
    expect(new GlyphRange(r.bytes, Uint8Array.of(1, 2, 3)).get(72)).toEqual(new GlyphRange(r.bytes).get(72));
  });

  it('shapes Vietnamese text with a glyph per letter (precomposed or decomposed input)', () => {
    const font = new GlyphFonts().font(['Noto Sans Regular'])!;
    expect(font).not.toBeNull();
    const name = 'Phố Nguyễn Đình Chiểu';
    for (const input of [name, name.normalize('NFD')]) {
      const shaped = shapeText(input, font);
      expect(shaped.glyphs.map((g) => g.id)).toEqual([...name.normalize('NFC')].map((c) => c.codePointAt(0)));
      let pen = 0;
      shaped.glyphs.forEach((g, i) => {
        expect(shaped.pens[i]).toBe(pen);
        pen += g.advance;
      });
      expect(shaped.width).toBe(pen);
    }
  });

  it('draws a glyph with the area of its outline, the same rotated by a right angle', () => {
    const font = new GlyphFonts().font(['Noto Sans Regular'])!;
    const shaped = shapeText('H', font);
    const g = shaped.glyphs[0]!;
    // Area inside the outline from the distance field itself: bitmap pixels above the edge value, at 24 px.
    let insidePixels = 0;
    for (const v of g.bitmap) if (v >= 191.25) insidePixels++;
    const size = 72,
      scale = size / 24;
    const ink = (angle: number) => {
      const c = new Canvas(160, 160);
      c.fillBackground([255, 255, 255, 1]);
      drawSdfText(c, shaped, 80, 80, { size, color: [0, 0, 0, 1], angle });
      let sum = 0,
        x0 = 160,
        x1 = 0,
        y0 = 160,
        y1 = 0;
      for (let y = 0; y < 160; y++) {
        for (let x = 0; x < 160; x++) {
          const dark = (255 - c.getPixel(x, y)![0]) / 255;
          sum += dark;
          if (dark > 0.5)
            ((x0 = Math.min(x0, x)), (x1 = Math.max(x1, x)), (y0 = Math.min(y0, y)), (y1 = Math.max(y1, y)));
        }
      }
      return { sum, w: x1 - x0 + 1, h: y1 - y0 + 1 };
    };
    const flat = ink(0),
      turned = ink(Math.PI / 2);
    expect(flat.sum).toBeGreaterThan(insidePixels * scale * scale * 0.85);
    expect(flat.sum).toBeLessThan(insidePixels * scale * scale * 1.15);
    expect(Math.abs(turned.sum - flat.sum)).toBeLessThan(flat.sum * 0.02);
    expect(Math.abs(turned.w - flat.h)).toBeLessThanOrEqual(1);
    expect(Math.abs(turned.h - flat.w)).toBeLessThanOrEqual(1);
    // The capital's box is about its glyph box at this size.
    expect(Math.abs(flat.w - g.width * scale)).toBeLessThanOrEqual(3);
    expect(Math.abs(flat.h - g.height * scale)).toBeLessThanOrEqual(3);
  });
});

describe('label placement', () => {
  it('collision test agrees with the exact intersection area of two oriented boxes', () => {
    const box = fc
      .record({
        cx: fc.integer({ min: 0, max: 100 }),
        cy: fc.integer({ min: 0, max: 100 }),
        angle: fc.integer({ min: 0, max: 359 }),
        halfLength: fc.integer({ min: 1, max: 40 }),
        halfHeight: fc.integer({ min: 1, max: 15 }),
      })
      .map(({ angle, ...b }): LabelBox => ({
        ...b,
        ux: Math.cos((angle * Math.PI) / 180),
        uy: Math.sin((angle * Math.PI) / 180),
      }));
    fc.assert(
      fc.property(box, box, (a, b) => {
        const area = intersectionArea(corners(a), corners(b));
        if (area > 1e-6) expect(overlaps(a, b)).toBe(true);
        else if (area === 0 && overlaps(a, b)) {
          // Only touching boxes may disagree by rounding: then the overlap is degenerate.
          expect(
            intersectionArea(
              corners({ ...a, halfLength: a.halfLength - 1e-3, halfHeight: a.halfHeight - 1e-3 }),
              corners(b),
            ),
          ).toBe(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('finds the longest straight stretch of a polyline, clipped to the image', () => {
    // An L: 100 px east, then 40 px south; with a 1 px wiggle on the long leg.
    const l = [0, 50, 50, 51, 100, 50, 100, 90];
    expect(longestStretch(l, 0, l.length, 30, 200, 200)).toMatchObject({ x0: 0, y0: 50, x1: 100, y1: 50, length: 100 });
    // Only half of the long leg is in a 50 px wide image.
    const clipped = longestStretch(l, 0, l.length, 30, 50, 200)!;
    expect(clipped.x1).toBeCloseTo(50, 6);
    expect(clipped.length).toBeCloseTo(Math.hypot(50, 1), 6);
    // A right-angle bend splits the line (the corner is 9.7 px off the chord): the 40 px leg wins.
    expect(longestStretch([0, 0, 10, 0, 10, 40], 0, 6, 100, 200, 200)!.length).toBe(40);
    // A 2.3 degree bend whose corner is 1 px off the chord: one stretch within text-max-angle, two beyond it.
    const bent = [0, 0, 50, 0, 100, 2];
    expect(longestStretch(bent, 0, 6, 30, 200, 200)!.length).toBeCloseTo(Math.hypot(100, 2), 9);
    expect(longestStretch(bent, 0, 6, 1, 200, 200)!.length).toBeCloseTo(Math.hypot(50, 2), 9);
  });

  it('draws street names along named roads, inside their label boxes, and no two labels overlap', () => {
    const base = defaultStyle('http://localhost') as { layers: Record<string, unknown>[] };
    const roadLabel = base.layers.find((l) => l.id === 'road-label')!;
    const style = {
      ...base,
      layers: [
        { id: 'bg', type: 'background', paint: { 'background-color': '#ffffff' } },
        { ...roadLabel, paint: { 'text-color': '#ff0000' } },
      ],
    };
    const c = new Canvas(VIEW.width, VIEW.height);
    const { labels } = drawBasemap(c, VIEW, region, style, new RenderCache());
    expect(labels.length).toBeGreaterThanOrEqual(5);

    // Every label lies inside the image and along a named road: its centre within the straightness tolerance
    // (1.5 px) of one, and its direction that of the road's nearby segment.
    const b = region.basemap!;
    const named: Float64Array[] = [];
    for (let f = 0; f < b.count; f++) {
      if (
        BASEMAP_KINDS[b.kind[f]!]!.layer !== 'road' ||
        b.type[f] !== GeomType.line ||
        region.strings.get(b.name[f]!) === ''
      )
        continue;
      for (let p = b.featPart.at(f); p < b.featPart.at(f + 1); p++) {
        const pts: number[] = [];
        const c = b.partCoords(p);
        for (let k = 0; k < c.length; k += 2) pts.push(VIEW.x(c[k]! * 1e-7), VIEW.y(c[k + 1]! * 1e-7));
        named.push(Float64Array.from(pts));
      }
    }
    for (const box of labels) {
      for (const [x, y] of corners(box)) {
        expect(x).toBeGreaterThanOrEqual(-1e-9);
        expect(y).toBeGreaterThanOrEqual(-1e-9);
        expect(x).toBeLessThanOrEqual(c.width + 1e-9);
        expect(y).toBeLessThanOrEqual(c.height + 1e-9);
      }
      expect(Math.min(...named.map((l) => polylineDistance(box.cx, box.cy, l)))).toBeLessThanOrEqual(2);
      // Upright: text never runs right to left.
      expect(box.ux > 0 || (box.ux === 0 && box.uy > 0)).toBe(true);
    }

    // Red text pixels exist in every box and nowhere outside the boxes.
    const inkPerBox = labels.map(() => 0);
    let ink = 0;
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const [r, g] = c.getPixel(x, y)!;
        if (r < 250 || g > 128) continue;
        ink++;
        const inside = labels.findIndex((bx) => inBox(bx, x + 0.5, y + 0.5, -0.75));
        if (inside < 0) throw new Error(`text pixel ${x},${y} outside every label box`);
        inkPerBox[inside]!++;
      }
    }
    expect(ink).toBeGreaterThan(300);
    for (const n of inkPerBox) expect(n).toBeGreaterThan(10);

    // No overlap, by sampling each box on a 0.5 px grid against the others shrunk by a hair.
    let shared = 0;
    for (let i = 0; i < labels.length; i++) {
      const a = labels[i]!;
      for (let s = -a.halfLength; s <= a.halfLength; s += 0.5) {
        for (let t = -a.halfHeight; t <= a.halfHeight; t += 0.5) {
          const x = a.cx + s * a.ux - t * a.uy,
            y = a.cy + s * a.uy + t * a.ux;
          for (let j = 0; j < labels.length; j++) if (j !== i && inBox(labels[j]!, x, y, 1e-6)) shared++;
        }
      }
    }
    expect(shared).toBe(0);
  });

  it('keeps every label of the default style apart, street names and place names together', () => {
    const c = new Canvas(VIEW.width, VIEW.height);
    const { labels } = drawBasemap(c, VIEW, region, defaultStyle('http://localhost'), new RenderCache());
    expect(labels.length).toBeGreaterThanOrEqual(5);
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++)
        expect(intersectionArea(corners(labels[i]!), corners(labels[j]!))).toBeLessThan(1e-6);
    }
  });
});
