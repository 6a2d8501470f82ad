/**
 * The recipes of examples/ run as written, from the packed tarball: one app folder has the tarball installed (with
 * maplibre-gl, for the map recipe) and a copy of each example; Node runs the worker_threads recipe, Vite, webpack and
 * esbuild build the browser recipes as the examples' READMEs say, and headless Chromium runs the builds. Each recipe
 * prints a geocode and a route answered by the engine inside its worker; they must be the answers of the engine built
 * from the sources, here in Node.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import type { Browser } from 'playwright-core';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine.js';
import { CHROMIUM, launchChromium, serveStatic, type StaticSite } from './helpers/chromium.js';
import { installTarball, ROOT } from './helpers/tarball.js';

const app = mkdtempSync(join(tmpdir(), 'bando-recipes-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** The queries every Web Worker recipe makes (see examples/*-worker/main.js and examples/worker-threads/main.mjs). */
const ADDRESS = 'Hàng Bài, Hoàn Kiếm';
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';

let engine: Engine;
/** What the recipes print: the geocoded address, then the route's distance and duration. */
let printed = '';

beforeAll(async () => {
  installTarball(app, ['maplibre-gl@^6.17.0']);
  for (const example of readdirSync(join(ROOT, 'examples')))
    cpSync(join(ROOT, 'examples', example), join(app, example), { recursive: true });
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
      // The main thread's chunk holds createWorkerEngine only; the engine is in the worker's chunk.
      const chunks = readdirSync(join(dir, 'dist/assets')).filter((f) => f.endsWith('.js'));
      expect(chunks.length).toBe(2);
      expect(await pageOutput(join(dir, 'dist'), 'index.html', LOADING)).toBe(printed);
    });

    it('Web Worker with webpack: webpack with the example config, then the page prints the same answers', async () => {
      const dir = join(app, 'webpack-worker');
      const config = (await import(join(dir, 'webpack.config.js'))).default;
      const stats = await new Promise<webpack.Stats>((resolve, reject) =>
        webpack({ ...config, context: dir }, (err, s) => (err ? reject(err) : resolve(s!))),
      );
      expect(stats.hasErrors(), stats.toString('errors-only')).toBe(false);
      expect(await pageOutput(dir, 'index.html', LOADING)).toBe(printed);
    });
  });
});
