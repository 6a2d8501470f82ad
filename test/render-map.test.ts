import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { BASEMAP_KINDS, GeomType } from '../src/map/kinds.js';
import { defaultStyle } from '../src/map/style/default-style.js';
import type { Region } from '../src/region.js';
import { drawBasemap } from '../src/render/map.js';
import { RenderCache } from '../src/render/render-cache.js';
import { Canvas, Viewport } from '../src/render/raster/index.js';
import { compareGolden, insideRings, polylineDistance } from './fixtures/render/helpers.js';

const TEST_STYLE = JSON.parse(readFileSync(new URL('./fixtures/render/style.json', import.meta.url), 'utf8'));
/** Around Văn Miếu and Hồ Văn Chương (Đống Đa), zoom 16: buildings, water with an island, parks, a label. */
const VIEW = new Viewport([105.833, 21.028], 16, 600, 400);

let region: Region;
/** One render cache for the file, as an engine keeps one. */
const cache = new RenderCache();
beforeAll(async () => {
  region = (await createEngine()).regions[0]!;
});

const vectorStyle = (layers: unknown[]) => ({ version: 8, sources: { bando: { type: 'vector' } }, layers });
const background = { id: 'bg', type: 'background', paint: { 'background-color': '#ffffff' } };

function render(style: unknown, view = VIEW): Canvas {
  const c = new Canvas(view.width, view.height);
  drawBasemap(c, view, region, style, cache);
  return c;
}

/** Projected parts (flat pixel x, y pairs) of every feature of a source layer. */
function projected(
  layer: string,
  view = VIEW,
): { feature: number; type: number; name: string; parts: Float64Array[] }[] {
  const b = region.basemap!;
  const out = [];
  for (let f = 0; f < b.count; f++) {
    if (BASEMAP_KINDS[b.kind[f]!]!.layer !== layer) continue;
    const parts: Float64Array[] = [];
    for (let p = b.featPart.at(f); p < b.featPart.at(f + 1); p++) {
      const pts = [];
      const c = b.partCoords(p);
      for (let k = 0; k < c.length; k += 2) pts.push(view.x(c[k]! * 1e-7), view.y(c[k + 1]! * 1e-7));
      parts.push(Float64Array.from(pts));
    }
    out.push({ feature: f, type: b.type[f]!, name: region.strings.get(b.name[f]!), parts });
  }
  return out;
}

/** Byte equality of two canvases (vitest's deep equality is slow on megabyte arrays). */
const bytes = (c: Canvas) => Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength);
const same = (a: Canvas, b: Canvas) => bytes(a).equals(bytes(b));
const px = (c: Canvas, x: number, y: number) => c.getPixel(x, y)!.slice(0, 3).join(',');

describe('style-driven basemap renderer', () => {
  it('matches the golden image of the test style on the Hanoi pack', () => {
    compareGolden('hanoi-test-style.png', render(TEST_STYLE));
  });

  it('matches the golden image of the default style on the Hanoi pack', () => {
    compareGolden('hanoi-default-style.png', render(defaultStyle('http://localhost')));
  });

  it('hides layers by visibility, minzoom and maxzoom (maxzoom exclusive)', () => {
    const road = {
      id: 'r',
      type: 'line',
      source: 'bando',
      'source-layer': 'road',
      paint: { 'line-color': '#ff0000', 'line-width': 3 },
    };
    const blank = render(vectorStyle([background]));
    expect(new Set(new Uint32Array(blank.data.buffer, blank.data.byteOffset, blank.width * blank.height)).size).toBe(1);
    const drawn = render(vectorStyle([background, road]));
    expect(same(drawn, blank)).toBe(false);
    for (const hidden of [{ layout: { visibility: 'none' } }, { minzoom: 16.5 }, { maxzoom: 16 }]) {
      expect(same(render(vectorStyle([background, { ...road, ...hidden }])), blank)).toBe(true);
    }
    expect(same(render(vectorStyle([background, { ...road, minzoom: 16, maxzoom: 16.01 }])), drawn)).toBe(true);
  });

  it('skips layers over non-vector sources and types it does not draw', () => {
    const blank = render(vectorStyle([background]));
    const style = {
      version: 8,
      sources: { bando: { type: 'vector' }, g: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
      layers: [
        background,
        { id: 'geo', type: 'line', source: 'g', paint: { 'line-color': '#ff0000' } },
        { id: 'c', type: 'circle', source: 'bando', 'source-layer': 'road' },
      ],
    };
    expect(same(render(style), blank)).toBe(true);
  });

  it('filters by class and evaluates data-driven colours per feature (name-dependent ones too)', () => {
    const style = vectorStyle([
      background,
      {
        id: 'named',
        type: 'line',
        source: 'bando',
        'source-layer': 'road',
        filter: ['!=', ['get', 'class'], 'path'],
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-width': 1, 'line-color': ['case', ['has', 'name'], '#ff0000', '#0000ff'] },
      },
    ]);
    const c = render(style);
    const roads = projected('road').filter((r) => BASEMAP_KINDS[region.basemap!.kind[r.feature]!]!.class !== 'path');
    const named = roads.filter((r) => r.name !== '').flatMap((r) => r.parts);
    const unnamed = roads.filter((r) => r.name === '').flatMap((r) => r.parts);
    const near = (x: number, y: number, parts: Float64Array[]) =>
      parts.some((p) => polylineDistance(x + 0.5, y + 0.5, p) <= 1.5);
    let red = 0,
      blue = 0;
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const [r, g, b] = c.getPixel(x, y)!;
        if (r > 200 && g < 60 && b < 60) {
          red++;
          expect(near(x, y, named)).toBe(true);
        } else if (b > 200 && r < 60 && g < 60) {
          blue++;
          expect(near(x, y, unnamed)).toBe(true);
        }
      }
    }
    expect(red).toBeGreaterThan(500);
    expect(blue).toBeGreaterThan(500);
  });

  it('fills polygons with holes by the even-odd rule, inside and only inside', () => {
    // Zoom onto the largest water polygon of the pack.
    const b = region.basemap!;
    let best = -1,
      bestSpan = 0;
    for (let f = 0; f < b.count; f++) {
      if (BASEMAP_KINDS[b.kind[f]!]!.layer !== 'water' || b.type[f] !== GeomType.polygon) continue;
      const span = b.bbox[4 * f + 2]! - b.bbox[4 * f]! + b.bbox[4 * f + 3]! - b.bbox[4 * f + 1]!;
      if (span > bestSpan) [best, bestSpan] = [f, span];
    }
    expect(best).toBeGreaterThanOrEqual(0);
    const center: [number, number] = [
      (b.bbox[4 * best]! + b.bbox[4 * best + 2]!) * 0.5e-7,
      (b.bbox[4 * best + 1]! + b.bbox[4 * best + 3]!) * 0.5e-7,
    ];
    const view = new Viewport(center, 16, 300, 200);
    const c = render(
      vectorStyle([
        background,
        { id: 'w', type: 'fill', source: 'bando', 'source-layer': 'water', paint: { 'fill-color': '#ff0000' } },
      ]),
      view,
    );
    const polygons = projected('water', view)
      .filter((w) => w.type === GeomType.polygon)
      .map((w) => w.parts);
    let inside = 0;
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const cx = x + 0.5,
          cy = y + 0.5;
        // Pixels more than a pixel from every ring are either fully in or fully out.
        if (polygons.some((rings) => rings.some((r) => polylineDistance(cx, cy, [...r, r[0]!, r[1]!]) < 1))) continue;
        const isIn = polygons.some((rings) => insideRings(cx, cy, rings));
        expect(px(c, x, y)).toBe(isIn ? '255,0,0' : '255,255,255');
        if (isIn) inside++;
      }
    }
    expect(inside).toBeGreaterThan(1000);
  });
});
