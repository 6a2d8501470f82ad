/**
 * The recipes of examples/ run as written, from the packed tarball: one app folder has the tarball installed (with
 * maplibre-gl, for the map recipe) and a copy of each example; Node runs the worker_threads recipe, Vite, webpack and
 * esbuild build the browser recipes as the examples' READMEs say, and headless Chromium runs the builds. Each recipe
 * prints a geocode and a route answered by the engine inside its worker; they must be the answers of the engine built
 * from the sources, here in Node.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { build as esbuild } from 'esbuild';
import { PbfReader } from 'pbf';
import type { Browser } from 'playwright-core';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { withoutTimes } from './helpers/answers.js';
import { CHROMIUM, launchChromium, serveStatic, type StaticSite } from './helpers/chromium.js';
import { installTarball } from './helpers/tarball.js';

if (!existsSync(CHROMIUM))
  console.warn(`test/recipes.test.ts: browser recipes skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const app = mkdtempSync(join(tmpdir(), 'bando-recipes-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** The queries every Web Worker recipe makes (see examples/*-worker/main.js and examples/worker-threads/main.mjs). */
const ADDRESS = 'Hàng Bài, Hoàn Kiếm';
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';

/** The folders of examples/, one recipe each. */
const RECIPES = ['maplibre', 'service-worker', 'vite-worker', 'webpack-worker', 'worker-threads'];

let engine: Engine;
/** What the recipes print: the geocoded address, then the route's distance and duration. */
let printed = '';

beforeAll(async () => {
  installTarball(app, ['maplibre-gl@^6.17.0']);
  // Each recipe as an app starts from it: the copy the package ships.
  const shipped = join(app, 'node_modules/bando/examples');
  expect(readdirSync(shipped).sort()).toEqual(RECIPES);
  for (const example of RECIPES) cpSync(join(shipped, example), join(app, example), { recursive: true });
  engine = await createEngine();
  const place = engine.geocode({ address: ADDRESS });
  const leg = engine.direction({ origin: A, destination: B }).routes[0]!.legs[0]!;
  expect(place.status).toBe('OK');
  printed = `${place.results[0]!.formatted_address}\n${leg.distance.text} ${leg.duration.text}`;
});

describe('recipes from the packed tarball', () => {
  it('worker_threads: node main.mjs prints the answers of the engine in its worker thread', () => {
    const out = execFileSync(process.execPath, ['main.mjs'], { cwd: join(app, 'worker-threads'), encoding: 'utf8' });
    expect(out.trim()).toBe(printed);
  });

  describe.skipIf(!existsSync(CHROMIUM))('in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(() => browser?.close());

    /** Opens `path` of a static server on `dir` and returns the text of #out once the recipe has written it. */
    async function pageOutput(dir: string, path: string, initial: string): Promise<string> {
      const site: StaticSite = await serveStatic(dir);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      try {
        await page.goto(`${site.origin}/${path}`);
        await page.waitForFunction((start) => document.getElementById('out')!.textContent !== start, initial, {
          timeout: 60_000,
        });
        expect(errors).toEqual([]);
        return await page.locator('#out').innerText();
      } finally {
        await page.close();
        await site.close();
      }
    }
    const LOADING = 'loading the engine in a worker…';

    it('Web Worker with Vite: vite build, then the page prints the answers of the engine in its worker', async () => {
      const dir = join(app, 'vite-worker');
      await viteBuild({ root: dir, logLevel: 'warn' });
      // The main thread's chunk holds createWorkerEngine only, the worker's chunk the engine (issue 38's targets:
      // ≤ 50 KB and ≤ 600 KB).
      const chunks = readdirSync(join(dir, 'dist/assets')).filter((f) => f.endsWith('.js'));
      expect(chunks.map((f) => f.split('-')[0]).sort()).toEqual(['index', 'worker']);
      const size = (prefix: string) => {
        const chunk = chunks.find((f) => f.startsWith(prefix))!;
        return statSync(join(dir, 'dist/assets', chunk)).size;
      };
      expect(size('index-')).toBeLessThanOrEqual(50_000);
      expect(size('worker-')).toBeLessThanOrEqual(600_000);
      expect(await pageOutput(join(dir, 'dist'), 'index.html', LOADING)).toBe(printed);
    });

    it('Web Worker with webpack: webpack with the example config, then the page prints the same answers', async () => {
      const dir = join(app, 'webpack-worker');
      // The page and worker code are those of the Vite recipe, unchanged (README: "the same main.js and worker.js").
      for (const f of ['main.js', 'worker.js'])
        expect(readFileSync(join(dir, f), 'utf8'), f).toBe(readFileSync(join(app, 'vite-worker', f), 'utf8'));
      const config = (await import(join(dir, 'webpack.config.js'))).default;
      const stats = await new Promise<webpack.Stats>((resolve, reject) =>
        webpack({ ...config, context: dir }, (err, s) => (err ? reject(err) : resolve(s!))),
      );
      expect(stats.hasErrors(), stats.toString('errors-only')).toBe(false);
      // Only webpack's size hints (the pack is 6 MB): no "Critical dependency" on bando's own files.
      const warnings = stats.compilation.warnings.map((w) => w.name).filter((n) => !/OverSizeLimit/.test(n));
      expect(warnings, stats.toString('errors-warnings')).toEqual([]);
      expect(await pageOutput(dir, 'index.html', LOADING)).toBe(printed);
    });

    /** The esbuild command of examples/service-worker/README.md, run in the app folder: the worker into `outfile`. */
    const buildServiceWorker = (outfile: string) =>
      esbuild({
        absWorkingDir: app,
        entryPoints: ['node_modules/bando/examples/service-worker/sw.ts'],
        bundle: true,
        format: 'esm',
        outfile,
        logLevel: 'warning',
      });

    it('Service Worker: the page fetches the online URL; the engine in the worker answers as in Node', async () => {
      const site = join(app, 'site');
      await buildServiceWorker('site/sw.js');
      for (const f of ['examples/service-worker/index.html', 'packs/hanoi.pack'])
        cpSync(join(app, 'node_modules/bando', f), join(site, f.split('/').pop()!));
      const out = await pageOutput(site, 'index.html', 'registering the service worker…');
      expect(withoutTimes(JSON.parse(out))).toEqual(withoutTimes(engine.direction({ origin: A, destination: B })));
    });

    it('MapLibre 6 with the offline style: Vite build; every map resource from the Service Worker; features as in Node', async () => {
      const dir = join(app, 'maplibre');
      const pub = join(dir, 'public');
      // The steps of examples/maplibre/README.md: the worker, the pack and the glyphs and sprite into public/.
      await buildServiceWorker('maplibre/public/sw.js');
      cpSync(join(app, 'node_modules/bando/packs/hanoi.pack'), join(pub, 'hanoi.pack'));
      mkdirSync(join(pub, 'assets'));
      for (const d of ['fonts', 'sprites'])
        cpSync(join(app, 'node_modules/bando/assets', d), join(pub, 'assets', d), { recursive: true });
      await viteBuild({ root: dir, logLevel: 'warn' });

      const site = await serveStatic(join(dir, 'dist'));
      const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
      try {
        const requests: { url: string; fromSw: boolean; status: number }[] = [];
        context.on('requestfinished', async (r) => {
          const res = await r.response();
          requests.push({ url: r.url(), fromSw: res?.fromServiceWorker() ?? false, status: res?.status() ?? 0 });
        });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(`${site.origin}/index.html`);
        type MapView = {
          loaded(): boolean;
          areTilesLoaded(): boolean;
          queryRenderedFeatures(): { sourceLayer: string; properties: { name?: string } }[];
        };
        await page.waitForFunction(
          () => {
            const map = (window as unknown as { map?: MapView }).map;
            // window.map is the #map element until main.js sets it to the map.
            return typeof map?.loaded === 'function' && map.loaded() && map.areTilesLoaded();
          },
          null,
          { timeout: 60_000 },
        );
        expect(errors).toEqual([]);
        const rendered = await page.evaluate(() =>
          (window as unknown as { map: MapView }).map
            .queryRenderedFeatures()
            .map((f) => [f.sourceLayer, f.properties.name ?? ''] as [string, string]),
        );
        // The style, tiles, glyphs and sprite were answered by the Service Worker; nothing left the page's origin.
        const map = requests.filter((r) => /^\/(styles|tiles|fonts|sprites)\//.test(new URL(r.url).pathname));
        for (const kind of ['styles', 'tiles', 'fonts', 'sprites'])
          expect(
            map.some((r) => new URL(r.url).pathname.startsWith(`/${kind}/`)),
            kind,
          ).toBe(true);
        for (const r of map) expect([r.url, r.fromSw, r.status]).toEqual([r.url, true, 200]);
        for (const r of requests)
          expect(/^(blob|data):/.test(r.url) || r.url.startsWith(`${site.origin}/`), r.url).toBe(true);
        // What the map drew comes from the tiles the engine cuts in Node for the tiles the map asked for.
        const tiles = createTileSource(engine.regions);
        const inNode = new Set<string>();
        for (const r of map) {
          const m = /\/tiles\/(\d+)\/(\d+)\/(\d+)\.pbf/.exec(new URL(r.url).pathname);
          const bytes = m && tiles.tile(Number(m[1]), Number(m[2]), Number(m[3]));
          if (!bytes) continue;
          const tile = new VectorTile(new PbfReader(bytes));
          for (const [name, layer] of Object.entries(tile.layers))
            for (let i = 0; i < layer.length; i++) inNode.add(`${name}/${layer.feature(i).properties.name ?? ''}`);
        }
        const drawn = new Set(rendered.map(([layer, name]) => `${layer}/${name}`));
        expect(drawn.size).toBeGreaterThan(10);
        expect([...drawn].filter((n) => n.split('/')[1]).length).toBeGreaterThan(5);
        expect([...drawn].filter((f) => !inNode.has(f))).toEqual([]);
      } finally {
        await context.close();
        await site.close();
      }
    });
  });
});
