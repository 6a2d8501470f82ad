/**
 * The map of a whole city (the whole-HCMC pack, `hcmc-2018-01-01.osm.pbf`, or the pack file `CITY_MAP_PACK` names):
 * the first static route image of a fresh engine (target ≤ 150 ms) in its two parts, the route's first search (the
 * router's setup: graph and hierarchy into WebAssembly, per-vehicle costs, snap index; timed as the engine's first
 * Direction between the image's two points) and then the image (the renderer's first draw: style plan, basemap
 * index, glyphs, drawing and PNG; the renderer's modules are imported and timed before), then the same image again,
 * then z14 vector tiles over central HCMC (6 × 6 km around Bến Thành, each tile's first cut; target p50 ≤ 5 ms) and every tile of the pack at
 * zooms 8–16 (target ≤ 20 ms each), after the tile source's prepare (as a server does at start). Wall-clock and CPU
 * time of the process (on a loaded machine CPU is the steadier), and for the first image the main thread's CPU
 * (Linux); tiles report both per tile.
 * Run: npx tsx bench/city-map.ts. With CITY_MAP_DIST=1 the engine is the built package (`npm run build` first;
 * `dist/index.js`, what users run) instead of the TypeScript sources, whose on-the-fly compile under tsx inflates a
 * fresh process's module loading and cold code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { testPack } from '../test/helpers/packs.js';

/** The package's entry: the built one (a specifier in a variable, so type checks need no build) or the sources. */
const DIST_ENTRY = '../dist/index.js';
const { createEngine, createTileSource }: typeof import('../src/index.js') =
  process.env.CITY_MAP_DIST === '1' ? await import(DIST_ENTRY) : await import('../src/index.js');
const file = process.env.CITY_MAP_PACK;
const bytes = file ? new Uint8Array(readFileSync(file)) : testPack('hcmc-city');
const QUERY = { origin: '10.7725,106.6980', destination: '10.8185,106.6588', width: 800, height: 600 };

const SCHEDSTAT = '/proc/thread-self/schedstat';
/** CPU milliseconds of this (the main) thread so far, where Linux tells it, else NaN. */
const threadCpu = (): number =>
  existsSync(SCHEDSTAT) ? Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6 : Number.NaN;

/** Wall, process CPU and main-thread CPU milliseconds of an async call. */
async function timed(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number; main: number }> {
  const c = process.cpuUsage();
  const m = threadCpu();
  const t = performance.now();
  const out = await fn();
  const wall = performance.now() - t;
  const main = threadCpu() - m;
  if (!(out instanceof Uint8Array) && out !== null) throw new Error(`failed: ${JSON.stringify(out)}`);
  const d = process.cpuUsage(c);
  return { wall, cpu: (d.user + d.system) / 1000, main };
}
const ms = (t: { wall: number; cpu: number; main: number }) =>
  `${t.wall.toFixed(0)} ms wall, ${t.cpu.toFixed(0)} ms CPU (main thread ${t.main.toFixed(0)})`;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const engine = await createEngine({ packs: [bytes] });
// The renderer's modules, which the engine imports on its first call, are loaded first and timed apart (a request
// answered BAD_REQUEST imports them and draws nothing): run from the TypeScript sources (tsx) their loading is mostly
// the on-the-fly compile (100-300 ms), which a built package does not pay; the first image below is then the
// engine's own work.
const modules = await timed(async () => {
  const answer = await engine.staticRoute({ ...QUERY, width: 0 });
  if (answer instanceof Uint8Array || answer.status !== 'BAD_REQUEST') throw new Error('expected BAD_REQUEST');
  return null;
});
const from = process.env.CITY_MAP_DIST === '1' ? 'the built package' : 'the sources';
console.log(`renderer modules (import, from ${from}): ${ms(modules)}`);
const setup = await timed(async () => {
  const answer = engine.direction({ origin: QUERY.origin, destination: QUERY.destination });
  if (answer.status !== 'OK') throw new Error(`no route: ${JSON.stringify(answer)}`);
  return null;
});
const image = await timed(() => engine.staticRoute(QUERY));
console.log(`first static image (800x600, fresh engine): route setup ${ms(setup)}; image ${ms(image)}`);
console.log(
  `  together: ${(setup.wall + image.wall).toFixed(0)} ms wall, ${(setup.cpu + image.cpu).toFixed(0)} ms CPU`,
);
/** p50 wall and CPU of `runs` calls. */
async function p50(runs: number, fn: () => Promise<unknown>): Promise<string> {
  const wall: number[] = [],
    cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = await timed(fn);
    wall.push(t.wall);
    cpu.push(t.cpu);
  }
  return `p50 ${pct(wall, 50).toFixed(1)} ms wall, ${pct(cpu, 50).toFixed(1)} ms CPU`;
}
console.log(`same image again: ${await p50(5, () => engine.staticRoute(QUERY))}`);
console.log(`600x400: ${await p50(10, () => engine.staticRoute({ ...QUERY, width: 600, height: 400 }))}`);

const tileOf = (lon: number, lat: number, z: number): [number, number] => {
  const r = (lat * Math.PI) / 180;
  return [Math.floor(((lon + 180) / 360) * 2 ** z), Math.floor(((1 - Math.asinh(Math.tan(r)) / Math.PI) / 2) * 2 ** z)];
};
const source = createTileSource(engine.regions);
let t0 = performance.now();
source.prepare();
console.log(`tile index (prepare): ${(performance.now() - t0).toFixed(0)} ms`);
/**
 * Each tile of zoom z over the box [west, south, east, north] (degrees) cut once: their count, and p50 and max of
 * wall-clock and CPU ms.
 */
function cutAll(z: number, [w, s, e, n]: readonly number[]): string {
  const [x0, y0] = tileOf(w!, n!, z);
  const [x1, y1] = tileOf(e!, s!, z);
  const wall: number[] = [],
    cpu: number[] = [];
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      const c = process.cpuUsage();
      const t = performance.now();
      source.tile(z, x, y);
      wall.push(performance.now() - t);
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
    }
  }
  const f = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms, max ${pct(xs, 100).toFixed(2)} ms`;
  return `${wall.length} tiles, wall ${f(wall)}; CPU ${f(cpu)}`;
}
console.log(`z14 central HCMC: ${cutAll(14, [106.67, 10.74, 106.73, 10.8])}`);
for (let z = 8; z <= 16; z++) console.log(`z${z} whole pack: ${cutAll(z, engine.regions[0]!.meta.bbox!)}`);
