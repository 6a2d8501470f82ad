/**
 * The demo map in a real browser: headless Debian Chromium loads `/` from bando's node server on 127.0.0.1, MapLibre GL
 * JS draws our style from our tiles, glyphs and sprite, and its pixels are compared with bando's own static renderer
 * (src/render/map.ts) for the same view and style.
 *
 * Pixel metric (documented in the report): both images are converted to CIE L*a*b* and a pixel "agrees" when its
 * colour difference ΔE76 to the other image's pixel at the same place is at most 12 (antialiasing, label fonts and
 * label placement differ between the renderers; areas, road fills and casings must not). The agreement fraction
 * over the whole canvas must be at least 0.9 — and the test proves the metric can fail: against our renderer with
 * the view shifted 40 pixels east, or with the road colours changed, the disagreeing fraction must be at least
 * twice as large. (Most of a street map is pale background and landuse within ΔE 12 of each other, so a wrong
 * picture still agrees on much of the canvas; the ratio, not the absolute drop, separates right from wrong.)
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../data-tools/browser-bundle.js';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { createMapResources } from '../src/adapters/http/map-resources.js';
import { startNodeServer, type RunningServer } from '../src/adapters/http/node-server.js';
import { MemoryUsageStore } from '../src/adapters/http/usage.js';
import { createEngine, type Engine } from '../src/engine.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { drawBasemap } from '../src/render/map.js';
import { RenderCache } from '../src/render/render-cache.js';
import { Canvas, Viewport } from '../src/render/raster/index.js';
import { CHROMIUM, launchChromium } from './helpers/chromium.js';

const WIDTH = 800;
const HEIGHT = 600;
/** Views compared: [lon, lat], zoom (MapLibre's zoom of 512-px tiles = our Viewport's zoom with tileSize 512). */
const VIEWS: { center: [number, number]; zoom: number }[] = [
  { center: [105.8522, 21.0285], zoom: 16 }, // Hoàn Kiếm lake
  { center: [105.842, 21.03], zoom: 15 }, // Old Quarter to Văn Miếu
  { center: [105.845, 21.025], zoom: 13.5 },
];
const MAX_DELTA_E = 12;
const MIN_AGREEMENT = 0.9;
const MIN_DISAGREEMENT_RATIO = 2;

if (!existsSync(CHROMIUM))
  console.warn(`test/browser-map.test.ts skipped: ${CHROMIUM} is absent (apt-get install chromium)`);

/** sRGB bytes → CIE L*a*b* (D65), written into out[o..o+2]. */
function lab(r: number, g: number, b: number, out: Float32Array, o: number): void {
  const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const R = lin(r),
    G = lin(g),
    B = lin(b);
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const x = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
  const y = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
  const z = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
  out[o] = 116 * y - 16;
  out[o + 1] = 500 * (x - y);
  out[o + 2] = 200 * (y - z);
}

/** L*a*b* of every pixel of straight-alpha RGBA composited over white (MapLibre's canvas is opaque anyway). */
function toLab(rgba: Uint8Array | Uint8ClampedArray): Float32Array {
  const out = new Float32Array((rgba.length / 4) * 3);
  for (let i = 0, p = 0; i < rgba.length; i += 4, p += 3) {
    const a = rgba[i + 3]! / 255;
    lab(rgba[i]! * a + 255 * (1 - a), rgba[i + 1]! * a + 255 * (1 - a), rgba[i + 2]! * a + 255 * (1 - a), out, p);
  }
  return out;
}

/** Fraction of pixels whose ΔE76 between the two images is at most MAX_DELTA_E. */
function agreement(a: Float32Array, b: Float32Array): number {
  let ok = 0;
  for (let p = 0; p < a.length; p += 3) {
    const dl = a[p]! - b[p]!,
      da = a[p + 1]! - b[p + 1]!,
      db = a[p + 2]! - b[p + 2]!;
    if (dl * dl + da * da + db * db <= MAX_DELTA_E * MAX_DELTA_E) ok++;
  }
  return ok / (a.length / 3);
}

describe.skipIf(!existsSync(CHROMIUM))('demo map in headless Chromium (MapLibre GL JS on bando tiles)', () => {
  let engine: Engine;
  let server: RunningServer;
  let browser: Browser;
  const usage = new MemoryUsageStore();

  beforeAll(async () => {
    engine = await createEngine();
    const tiles = createTileSource(engine.regions);
    tiles.prepare();
    const handler = createRestHandler(engine, {
      keys: [{ key: 'rest-key' }, { key: 'tiles-key', kind: 'tiles' }],
      usage,
      allowHttp: true,
      resources: createMapResources(tiles),
    });
    server = await startNodeServer(handler, { port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('reaches idle with requests to 127.0.0.1 only, counts one map load, and draws what our renderer draws', async () => {
    const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // Records when the demo's first idle happens, on the page's own clock (ms since navigation start).
    await page.addInitScript(() => {
      let ready: Promise<unknown> | undefined;
      Object.defineProperty(window, 'bandoReady', {
        configurable: true,
        get: () => ready,
        set(p: Promise<unknown>) {
          ready = p;
          p.then(() => ((window as unknown as { idleAt: number }).idleAt = performance.now()));
        },
      });
    });
    const v0 = VIEWS[0]!;
    await page.goto(`${server.url}/?key=tiles-key&api_key=rest-key#${v0.zoom}/${v0.center[1]}/${v0.center[0]}`);
    await page.waitForFunction(() => (window as unknown as { idleAt?: number }).idleAt !== undefined, null, {
      timeout: 60_000,
    });
    const idleAt = await page.evaluate(() => (window as unknown as { idleAt: number }).idleAt);
    console.log(
      `demo map: page load to first idle ${idleAt.toFixed(0)} ms (headless Chromium, software WebGL, ${WIDTH}x${HEIGHT})`,
    );
    expect(errors).toEqual([]);
    // One page load = one map load; its tiles, glyphs and sprites are free.
    const month = Object.values(usage.report()['tiles-key']!)[0]!;
    expect(month.requests.style).toBe(1);
    expect(month.requests.tiles).toBeGreaterThan(0);
    expect(month.billable).toBe(1);

    // The style the page got (this fetch is a second map load).
    const style = await (await fetch(`${server.url}/styles/default/style.json?key=tiles-key`)).json();
    const region = engine.regions[0]!;
    const cache = new RenderCache();
    const ours = (view: Viewport, s: unknown) => {
      const c = new Canvas(WIDTH, HEIGHT);
      drawBasemap(c, view, region, s, cache);
      return toLab(c.data);
    };
    // The same style with other road colours: a wrong style must fail the comparison.
    const recoloured = JSON.parse(JSON.stringify(style));
    for (const l of recoloured.layers)
      if (l['source-layer'] === 'road' && l.type === 'line') l.paint['line-color'] = '#c03030';

    for (const [i, v] of VIEWS.entries()) {
      if (i > 0) {
        await page.evaluate(({ center, zoom }) => {
          const map = (
            window as unknown as { bandoMap: { jumpTo(o: unknown): void; once(e: string, f: () => void): void } }
          ).bandoMap;
          return new Promise<void>((resolve) => {
            map.once('idle', () => resolve());
            map.jumpTo({ center, zoom });
          });
        }, v);
      }
      const shown = await page.evaluate(() => {
        const map = (
          window as unknown as {
            bandoMap: { getCenter(): { lng: number; lat: number }; getZoom(): number; getCanvas(): HTMLCanvasElement };
          }
        ).bandoMap;
        const c = map.getCenter();
        return { center: [c.lng, c.lat], zoom: map.getZoom(), png: map.getCanvas().toDataURL('image/png') };
      });
      expect(shown.zoom).toBeCloseTo(v.zoom, 6);
      const img = PNG.sync.read(Buffer.from(shown.png.slice(shown.png.indexOf(',') + 1), 'base64'));
      expect([img.width, img.height]).toEqual([WIDTH, HEIGHT]);
      const browserLab = toLab(img.data);
      const view = new Viewport(shown.center as [number, number], shown.zoom, WIDTH, HEIGHT);
      const same = agreement(browserLab, ours(view, style));
      const east40px = (40 / (512 * 2 ** shown.zoom)) * 360;
      const shifted = agreement(
        browserLab,
        ours(new Viewport([view.center[0] + east40px, view.center[1]], shown.zoom, WIDTH, HEIGHT), style),
      );
      const wrongRoads = agreement(browserLab, ours(view, recoloured));
      console.log(
        `view ${i} (z${v.zoom}): agreement ${same.toFixed(3)}; shifted 40 px ${shifted.toFixed(3)}; other road colours ${wrongRoads.toFixed(3)}`,
      );
      expect(same).toBeGreaterThanOrEqual(MIN_AGREEMENT);
      expect(1 - shifted).toBeGreaterThanOrEqual(MIN_DISAGREEMENT_RATIO * (1 - same));
      expect(1 - wrongRoads).toBeGreaterThanOrEqual(MIN_DISAGREEMENT_RATIO * (1 - same));
    }

    // Nothing left the machine: every request went to the server on 127.0.0.1 (or stayed inside the page).
    const origin = new URL(server.url).origin;
    const outside = requests.filter(
      (u) => !u.startsWith(`${origin}/`) && !u.startsWith('blob:') && !u.startsWith('data:'),
    );
    expect(outside).toEqual([]);
    expect(requests.some((u) => u.includes('/tiles/'))).toBe(true);
    expect(requests.some((u) => u.includes('/fonts/'))).toBe(true);
    await context.close();
  }, 180_000);

  it('the Service-Worker example serves the demo map (style, tiles, glyphs, sprite) offline from the page', async () => {
    const ROOT = fileURLToPath(new URL('../', import.meta.url));
    const site = mkdtempSync(join(tmpdir(), 'bando-map-site-'));
    let statics: Server | undefined;
    try {
      await build({
        ...BROWSER_BUNDLE,
        entryPoints: { sw: join(ROOT, 'examples/service-worker/sw.ts') },
        outdir: site,
        alias: { bando: join(ROOT, 'src/index.ts') },
      });
      // The static site of examples/service-worker/README.md: the pack, and the demo page's files under demo/.
      mkdirSync(join(site, 'demo'));
      copyFileSync(join(ROOT, 'packs/hanoi.pack'), join(site, 'hanoi.pack'));
      for (const f of ['index.html', 'map.js']) copyFileSync(join(ROOT, 'assets/demo', f), join(site, 'demo', f));
      for (const f of ['maplibre-gl.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css'])
        copyFileSync(join(ROOT, 'node_modules/maplibre-gl/dist', f), join(site, 'demo', f));
      cpSync(join(ROOT, 'assets/fonts'), join(site, 'assets/fonts'), { recursive: true });
      cpSync(join(ROOT, 'assets/sprites'), join(site, 'assets/sprites'), { recursive: true });
      writeFileSync(join(site, 'blank.html'), '<!doctype html><meta charset="utf-8"><title>register</title>');
      const types: Record<string, string> = {
        '.js': 'text/javascript',
        '.mjs': 'text/javascript',
        '.html': 'text/html',
        '.css': 'text/css',
      };
      statics = createServer((req, res) => {
        const file = join(site, new URL(req.url!, 'http://x').pathname);
        if (!file.startsWith(site) || !existsSync(file)) return void res.writeHead(404).end();
        res
          .writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' })
          .end(readFileSync(file));
      });
      await new Promise<void>((r) => statics!.listen(0, '127.0.0.1', r));
      const origin = `http://127.0.0.1:${(statics.address() as AddressInfo).port}`;

      const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
      const requests: { url: string; fromSw: boolean; status: number }[] = [];
      context.on('requestfinished', async (r) => {
        const res = await r.response();
        requests.push({ url: r.url(), fromSw: res?.fromServiceWorker() ?? false, status: res?.status() ?? 0 });
      });
      const page = await context.newPage();
      await page.goto(`${origin}/blank.html`);
      await page.evaluate(async () => {
        await navigator.serviceWorker.register(
          '/sw.js?base=https%3A%2F%2Fapi.example.vn&key=rest-key&tiles_key=tiles-key&pack=/hanoi.pack',
          { type: 'module' },
        );
        await navigator.serviceWorker.ready;
      });
      await page.goto(`${origin}/demo/index.html?key=tiles-key&api_key=rest-key#15/21.0285/105.8522`);
      await page.waitForFunction(
        () => (window as unknown as { bandoReady?: Promise<unknown> }).bandoReady !== undefined,
      );
      await page.evaluate(() => (window as unknown as { bandoReady: Promise<unknown> }).bandoReady);
      // The map's resources were answered by the worker, with the tiles key; a wrong key is refused there too.
      const map = requests.filter((r) => /^\/(styles|tiles|fonts|sprites)\//.test(new URL(r.url).pathname));
      expect(map.some((r) => r.url.includes('/styles/default/style.json'))).toBe(true);
      expect(map.filter((r) => r.url.includes('/tiles/')).length).toBeGreaterThan(0);
      for (const r of map) expect([r.url, r.fromSw, r.status]).toEqual([r.url, true, 200]);
      expect(
        requests.every((r) => r.url.startsWith(`${origin}/`) || r.url.startsWith('blob:') || r.url.startsWith('data:')),
      ).toBe(true);
      const refused = await page.evaluate(async () => {
        const r = await fetch('/tiles/15/26018/14425.pbf?key=rest-key');
        return [r.status, (await r.json()).status];
      });
      expect(refused).toEqual([403, 'API_KEY_UNAUTHORIZED']);
      await context.close();
    } finally {
      await new Promise((r) => (statics ? statics.close(r) : r(null)));
      rmSync(site, { recursive: true, force: true });
    }
  }, 180_000);
});
