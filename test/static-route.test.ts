import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine.js';
import type { Region } from '../src/region.js';
import { defaultStaticStyle, findRouteLine } from '../src/api/static-route-image.js';
import { drawStaticRoute, routeViewport, type RouteGeometry } from '../src/render/static-route.js';
import { RenderCache } from '../src/render/render-cache.js';
import { polylineDistance } from './fixtures/render/helpers.js';

const ORIGIN = { lat: 21.0285, lng: 105.8542 };
const DESTINATION = { lat: 21.0175, lng: 105.832 };
const QUERY = { origin: '21.0285,105.8542', destination: '21.0175,105.8320' };
/** A route colour no style layer uses. */
const MAGENTA = [228, 0, 124, 1] as const;

let engine: Engine;
let region: Region;
let route: RouteGeometry;
beforeAll(async () => {
  engine = await createEngine();
  region = engine.regions[0]!;
  const r = findRouteLine([region], { origin: ORIGIN, destination: DESTINATION, vehicle: 'car', type: 'fastest' });
  if ('status' in r) throw new Error(r.error_message);
  route = r.line;
});

const isRouteColour = (p: readonly number[]) => Math.abs(p[0]! - 228) < 24 && p[1]! < 40 && Math.abs(p[2]! - 124) < 24;

/** The route image in the test colour, drawn with a fresh render cache. */
const draw = (width: number, height: number) =>
  drawStaticRoute(region, defaultStaticStyle(), route, { width, height, color: MAGENTA }, new RenderCache());

describe('static route image', () => {
  it('draws the route colour along the projected route geometry and nowhere else', () => {
    const c = draw(600, 400);
    const view = routeViewport(route, 600, 400);
    const line = route.coordinates.flatMap(([lon, lat]) => [view.x(lon), view.y(lat)]);
    const [ox, oy] = [line[0]!, line[1]!];
    let coloured = 0;
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        if (!isRouteColour(c.getPixel(x, y)!)) continue;
        coloured++;
        // Route line half-width 2.5 plus anti-aliasing, or the origin marker (route-coloured dot of radius 7).
        const near = polylineDistance(x + 0.5, y + 0.5, line) <= 3.5 || Math.hypot(x + 0.5 - ox, y + 0.5 - oy) <= 8;
        expect(near, `route-coloured pixel ${x},${y} away from the route`).toBe(true);
      }
    }
    // Every vertex of the route away from both markers shows the route colour, and the line is about 5 px wide.
    const [dx, dy] = [line[line.length - 2]!, line[line.length - 1]!];
    let length = 0;
    for (let i = 0; i + 3 < line.length; i += 2)
      length += Math.hypot(line[i + 2]! - line[i]!, line[i + 3]! - line[i + 1]!);
    for (let i = 0; i < line.length; i += 2) {
      const [x, y] = [line[i]!, line[i + 1]!];
      if (Math.hypot(x - ox, y - oy) < 12 || Math.hypot(x - dx, y - dy - 20) < 30) continue;
      expect(isRouteColour(c.getPixel(Math.floor(x), Math.floor(y))!), `vertex ${i / 2} at ${x},${y}`).toBe(true);
    }
    expect(coloured).toBeGreaterThan(length * 3.5);
    expect(coloured).toBeLessThan(length * 6 + 400);
    // The fitted view keeps the whole route inside the image.
    for (let i = 0; i < line.length; i += 2) {
      expect(line[i]!).toBeGreaterThan(0);
      expect(line[i]!).toBeLessThan(600);
      expect(line[i + 1]!).toBeGreaterThan(30);
      expect(line[i + 1]!).toBeLessThan(400);
    }
  });

  it('engine.staticRoute returns a PNG of the requested size that decodes to the drawn pixels', async () => {
    const png = await engine.staticRoute({ ...QUERY, width: '320', height: 240, color: '%23e4007c' });
    expect(png).toBeInstanceOf(Uint8Array);
    const decoded = PNG.sync.read(Buffer.from(png as Uint8Array));
    expect([decoded.width, decoded.height]).toEqual([320, 240]);
    const c = draw(320, 240);
    expect(Buffer.from(decoded.data).equals(Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength))).toBe(
      true,
    );
  });

  it('scale=2 draws the same map area, lines and labels at twice the pixels', async () => {
    const one = PNG.sync.read(
      Buffer.from((await engine.staticRoute({ ...QUERY, width: 300, height: 200 })) as Uint8Array),
    );
    const png = await engine.staticRoute({ ...QUERY, width: 300, height: 200, scale: 2 });
    const two = PNG.sync.read(Buffer.from(png as Uint8Array));
    expect([two.width, two.height]).toEqual([600, 400]);
    // Averaged over each 2 x 2 block, the retina image is the plain one: the same view, the same sizes. A view of
    // another area or zoom, or lines and labels left at one-pixel sizes, differs by far more on a city map.
    let diff = 0;
    for (let y = 0; y < 200; y++) {
      for (let x = 0; x < 300; x++) {
        for (let ch = 0; ch < 3; ch++) {
          const at = (xx: number, yy: number) => two.data[4 * (yy * 600 + xx) + ch]!;
          const mean = (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1)) / 4;
          diff += Math.abs(mean - one.data[4 * (y * 300 + x) + ch]!);
        }
      }
    }
    // 1.2 here; 6.2 when the style's sizes are left at one image pixel per style pixel.
    expect(diff / (300 * 200 * 3)).toBeLessThan(3);
  });

  it('draws with the engine style when one was given', async () => {
    const style = {
      version: 8,
      sources: {},
      layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#00ff00' } }],
    };
    const own = await createEngine({ style });
    const png = PNG.sync.read(Buffer.from((await own.staticRoute({ ...QUERY, width: 50, height: 50 })) as Uint8Array));
    expect([...png.data.subarray(0, 4)]).toEqual([0, 255, 0, 255]);
  });

  it('answers bad input with BAD_REQUEST naming the parameter, never throwing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ width: 0 }, 'width'],
      [{ width: 2049 }, 'width'],
      [{ height: -5 }, 'height'],
      [{ height: 'abc' }, 'height'],
      [{ color: 'bleu' }, 'color'],
      [{ color: '#12345' }, 'color'],
      [{ vehicle: 'plane' }, 'vehicle'],
      [{ type: 'quickest' }, 'type'],
      [{ origin: '21.02' }, 'origin'],
      [{ destination: 'x,y' }, 'destination'],
      [{ scale: 3 }, 'scale'],
      [{ scale: '1.5' }, 'scale'],
    ];
    for (const [extra, name] of cases) {
      const r = await engine.staticRoute({ ...QUERY, ...extra });
      expect(r).toEqual({ status: 'BAD_REQUEST', error_message: expect.stringContaining(`invalid ${name}:`) });
    }
    expect(await engine.staticRoute(null as never)).toMatchObject({ status: 'BAD_REQUEST' });
  });

  it('answers NOT_FOUND outside the packs and when no road is near', async () => {
    expect(await engine.staticRoute({ ...QUERY, destination: '10.7769,106.7009' })).toMatchObject({
      status: 'NOT_FOUND',
    });
    // Inside the pack's box but more than the snapping distance (here 1 km) from any road: the pack's corner is open
    // country.
    const [minLon, minLat] = region.meta.bbox!;
    const far = findRouteLine(
      [region],
      {
        origin: { lat: minLat - 0.0095, lng: minLon - 0.0095 },
        destination: DESTINATION,
        vehicle: 'car',
        type: 'fastest',
      },
      1000,
    );
    expect(far).toMatchObject({ status: 'NOT_FOUND' });
  });

  it('routes a point nearest to a cut-off road piece from the main network instead (no NOT_FOUND)', async () => {
    // The nearest car road to this point (Phố Bắc Sơn, 184 m away) is a piece the car network does not connect to
    // the rest; snapping prefers the big component (Đường Độc Lập, 213 m away), as OSRM does, so a route is drawn.
    const origin = { lat: 21.0368, lng: 105.8345 };
    const line = findRouteLine([region], { origin, destination: DESTINATION, vehicle: 'car', type: 'fastest' });
    if ('status' in line) throw new Error(line.error_message);
    const [lon, lat] = line.line.coordinates[0]!;
    const metres = Math.hypot(
      (lon - origin.lng) * 111320 * Math.cos((origin.lat * Math.PI) / 180),
      (lat - origin.lat) * 110574,
    );
    expect(metres).toBeGreaterThan(190);
    expect(metres).toBeLessThan(240);
    expect(await engine.staticRoute({ ...QUERY, origin: '21.0368,105.8345' })).toBeInstanceOf(Uint8Array);
  });
});
