/**
 * Web map serving: tile requests through the fetch handler (key check, counting, route, gzip) at z14–16 around
 * central Hanoi, cold (first request of the tile: cut + encode + gzip) and warm (tile and its gzip cached); then the
 * demo page's time from navigation start to the map's first idle in headless Chromium (median of 5 fresh pages).
 * Run: npx tsx bench/webmap.ts
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createFetchHandler, createRestHandler } from '../src/adapters/http/handler.js';
import { createMapResources } from '../src/adapters/http/map-resources.js';
import { startNodeServer } from '../src/adapters/http/node-server.js';
import { createEngine } from '../src/engine.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { CHROMIUM, launchChromium } from '../test/helpers/chromium.js';
import { median, quantile, table } from './stats.js';

const engine = await createEngine();
const KEYS = [{ key: 'rest' }, { key: 'tiles', kind: 'tiles' as const }];
const CENTER: [number, number] = [105.845, 21.028];
const tileAt = (lon: number, lat: number, z: number): [number, number] => {
  const r = (lat * Math.PI) / 180;
  return [Math.floor(((lon + 180) / 360) * 2 ** z), Math.floor(((1 - Math.asinh(Math.tan(r)) / Math.PI) / 2) * 2 ** z)];
};

const rows: Record<string, string | number>[] = [];
for (const z of [14, 15, 16]) {
  const source = createTileSource(engine.regions);
  source.prepare();
  const handle = createFetchHandler(engine, { keys: KEYS, resources: createMapResources(source) });
  const [cx, cy] = tileAt(...CENTER, z);
  const r = z === 14 ? 4 : z === 15 ? 6 : 8; // a square of (2r+1)^2 tiles
  const urls: string[] = [];
  for (let x = cx - r; x <= cx + r; x++)
    for (let y = cy - r; y <= cy + r; y++) urls.push(`https://maps.test/tiles/${z}/${x}/${y}.pbf?key=tiles`);
  const time = async (gz: boolean) => {
    const ms: number[] = [];
    let bytes = 0;
    for (const u of urls) {
      const t0 = performance.now();
      const res = await handle(new Request(u, { headers: gz ? { 'accept-encoding': 'gzip' } : {} }));
      const body = await res.arrayBuffer();
      ms.push(performance.now() - t0);
      bytes += body.byteLength;
    }
    return { ms, bytes: bytes / urls.length };
  };
  const cold = await time(true);
  const warm = await time(true);
  const identity = await time(false);
  rows.push({
    zoom: z,
    tiles: urls.length,
    'cold gzip p50 ms': quantile(cold.ms, 0.5).toFixed(2),
    'cold p95 ms': quantile(cold.ms, 0.95).toFixed(2),
    'warm gzip p50 ms': quantile(warm.ms, 0.5).toFixed(3),
    'warm identity p50 ms': quantile(identity.ms, 0.5).toFixed(3),
    'mean gzip KiB': (cold.bytes / 1024).toFixed(1),
    'mean raw KiB': (identity.bytes / 1024).toFixed(1),
  });
}
table('Tile requests through createFetchHandler (central Hanoi)', rows);

if (!existsSync(CHROMIUM)) console.log(`page load to idle: skipped (${CHROMIUM} absent)`);
else {
  const source = createTileSource(engine.regions);
  source.prepare();
  const server = await startNodeServer(
    createRestHandler(engine, { keys: KEYS, allowHttp: true, resources: createMapResources(source) }),
    { port: 0 },
  );
  const browser = await launchChromium();
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) {
    // A fresh context each time: empty HTTP cache, so every load fetches MapLibre, style, tiles and glyphs.
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${server.url}/?key=tiles&api_key=rest#15/${CENTER[1]}/${CENTER[0]}`);
    await page.waitForFunction(() => (window as unknown as { bandoReady?: unknown }).bandoReady !== undefined);
    loads.push(
      await page.evaluate(async () => {
        await (window as unknown as { bandoReady: Promise<unknown> }).bandoReady;
        return performance.now();
      }),
    );
    await context.close();
  }
  await browser.close();
  await server.close();
  console.log(
    `demo page load to first idle (1024x768, z15, fresh context, software WebGL): median ${median(loads).toFixed(0)} ms; runs ${loads.map((x) => x.toFixed(0)).join(', ')}`,
  );
}
