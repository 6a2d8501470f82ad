/**
 * Makes the README's pictures (assets/readme/): a static route image on the embedded default pack, the offline web
 * map of that pack as headless Chromium draws it (MapLibre GL JS on bando's tiles, style, glyphs and sprite), and, when
 * a whole-city pack is given, a static route image across it and its web map. Written as WebP (data-tools/webp.ts):
 * the package ships them, and as PNG they were 1.2 MB.
 *
 * Run: node --import tsx data-tools/readme-pictures.ts [whole-hcmc.pack]
 * (the whole-HCMC pack: npx bando build-pack --input ../shared/data/osm/hcmc-2018-01-01.osm.pbf
 *  --admin ../shared/data/admin --output hcmc.pack). Needs Debian's chromium (the web map and the WebP encoder).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { createMapResources } from '../src/adapters/http/map-resources.js';
import { startNodeServer } from '../src/adapters/http/node-server.js';
import { MemoryUsageStore } from '../src/adapters/http/usage.js';
import { createEngine, type Engine } from '../src/engine.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { CHROMIUM, launchChromium } from './chromium.js';
import { pngToWebp } from './webp.js';

const OUT = fileURLToPath(new URL('../assets/readme/', import.meta.url));

/** Writes one picture as WebP. */
async function writePicture(browser: Browser, file: string, png: Uint8Array): Promise<void> {
  const webp = await pngToWebp(browser, png);
  writeFileSync(`${OUT}${file}`, webp);
  console.log(`${file}: ${webp.length} bytes`);
}

/** Writes one static route image, refusing an answer that is not a PNG. */
async function routeImage(
  browser: Browser,
  engine: Engine,
  file: string,
  params: Record<string, string | number>,
): Promise<void> {
  const png = await engine.staticRoute(params as never);
  if (!(png instanceof Uint8Array)) throw new Error(`${file}: ${JSON.stringify(png)}`);
  await writePicture(browser, file, png);
}

/** The demo web map of the engine's packs, screenshot by headless Chromium at the style's opening view. */
async function webMap(browser: Browser, engine: Engine, file: string): Promise<void> {
  const tiles = createTileSource(engine.regions);
  const handler = createRestHandler(engine, {
    keys: [{ key: 'rest-key' }, { key: 'tiles-key', kind: 'tiles' }],
    usage: new MemoryUsageStore(),
    allowHttp: true,
    resources: createMapResources(tiles),
  });
  const server = await startNodeServer(handler, { port: 0, host: '127.0.0.1' });
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 500 } });
    await page.goto(`${server.url}/?key=tiles-key&api_key=rest-key`);
    await page.waitForFunction(() => (window as unknown as { bandoReady?: Promise<unknown> }).bandoReady !== undefined);
    await page.evaluate(() => (window as unknown as { bandoReady: Promise<unknown> }).bandoReady);
    await writePicture(browser, file, await page.screenshot({ type: 'png' }));
    await page.close();
  } finally {
    await server.close();
  }
}

/** The static route of each picture set: the default pack's (central Hanoi) and the whole-HCMC pack's. */
const ROUTES = {
  hanoi: { origin: '21.0368,105.8342', destination: '21.0245,105.8522', width: 640, height: 400 },
  hcmc: { origin: '10.7725,106.6980', destination: '10.8185,106.6588', width: 640, height: 480 },
};

/** Writes one set of pictures of an engine: `route-<name>.webp` and `webmap-<name>.webp`. */
async function pictures(browser: Browser, engine: Engine, name: keyof typeof ROUTES): Promise<void> {
  await routeImage(browser, engine, `route-${name}.webp`, ROUTES[name]);
  await webMap(browser, engine, `webmap-${name}.webp`);
}

if (!existsSync(CHROMIUM)) throw new Error(`the README's pictures need Debian's chromium at ${CHROMIUM}`);
mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  await pictures(browser, await createEngine(), 'hanoi');
  const city = process.argv[2];
  if (city) await pictures(browser, await createEngine({ packs: [city] }), 'hcmc');
} finally {
  await browser.close();
}
