/**
 * The engine on a pack that routes by the customizable hierarchy (built with `--no-ch`: the stored order only)
 * against the same pack with today's per-vehicle hierarchies, side by side in one run, each in its own process (so
 * RSS is its own): the whole of Ho Chi Minh City (`hcmc-2018-01-01.osm.pbf`) by default, or the pack files named in
 * CCH_ENGINE_PACKS (comma-separated). Per pack: its size, the process's RSS before the engine (Node and the
 * bench's modules), RSS after load, each vehicle's first route (what a metric's customization costs at first use)
 * and RSS after routing every vehicle, as read then and after forced collections; then warm, CPU ms per call:
 * Direction p50 / p99 over 300 random pairs (car), `avoid=highways` first and warm, DistanceMatrix 100 × 100 and a
 * trip of 100 stops (each's first call, then the median of WARM warm calls on fresh points), and last Direction p99
 * over 300 more pairs. The first 300 are the engine's first directions: process CPU counts V8's compiling of the
 * direction code on its own threads, which lands on a few of them (the p99); the last 300 show the code compiled.
 *
 * Run: npm run bench -- cch-engine   (builds and caches the two whole-HCMC packs when not given).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../src/index.js';
import { mulberry32 } from '../src/trip/rng.js';
import { testPack } from '../test/helpers/packs.js';
import { median, quantile, table } from './stats.js';

const CACHE = fileURLToPath(new URL('../.cache/', import.meta.url));
const MB = 1e6;
/** Warm matrices and trips timed per pack (after a first call and two untimed ones). */
const WARM = 10;

/** CPU milliseconds of a call. */
function cpu(f: () => unknown): number {
  const a = process.cpuUsage();
  f();
  const d = process.cpuUsage(a);
  return (d.user + d.system) / 1000;
}

/** The two whole-HCMC packs the tests build (with hierarchies, and as `build-pack` builds by default), as files. */
function defaultPacks(): string[] {
  mkdirSync(CACHE, { recursive: true });
  const withCh = `${CACHE}hcmc-city-ch.pack`;
  writeFileSync(withCh, testPack('hcmc-city', { hierarchies: true }));
  const noCh = `${CACHE}hcmc-city-no-ch.pack`;
  writeFileSync(noCh, testPack('hcmc-city'));
  return [withCh, noCh];
}

function fail(): never {
  throw new Error('the trip was not answered');
}

/** One pack's measurements, in this process. */
async function measure(file: string): Promise<Record<string, string | number>> {
  const rss = () => (process.memoryUsage().rss / MB).toFixed(0);
  const start = rss();
  const engine = await createEngine({ packs: [new Uint8Array(readFileSync(file))] });
  const loaded = rss();
  // Points at random intersections of the engine's own road graph (views on its pack: nothing copied), so nearly
  // every request is answered.
  const g = engine.regions[0]!.graph;
  const rand = mulberry32(11);
  const pt = () => {
    const v = Math.floor(rand() * g.nodeCount);
    return `${g.lat(v).toFixed(6)},${g.lon(v).toFixed(6)}`;
  };
  let ok = 0;
  const firsts = (['car', 'bike', 'taxi', 'truck', 'hd'] as const).map((vehicle) =>
    cpu(() => engine.direction({ origin: pt(), destination: pt(), vehicle })),
  );
  const routed = rss();
  // What the engine holds once the garbage of first use is collected and the event loop has turned twice (a
  // customization's released scratch block waits for the next one until the first turn, and the message that frees
  // it is dropped at the next: scratch.ts; one turn measured the block still held in some runs).
  for (let turn = 0; turn < 2; turn++) await new Promise((r) => setTimeout(r, 10));
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const collected = rss();
  const times = (n: number, f: () => unknown) => Array.from({ length: n }, () => cpu(f));
  const dir = times(300, () => (ok += engine.direction({ origin: pt(), destination: pt() }).status === 'OK' ? 1 : 0));
  const avoidFirst = cpu(() => engine.direction({ origin: pt(), destination: pt(), avoid: 'highways' }));
  const avoid = times(300, () => engine.direction({ origin: pt(), destination: pt(), avoid: 'highways' }));
  // Matrices and trips over fresh random points each: the first call of each timed apart (it makes what they first
  // need: the metric's table measures, and for the trip the place index naming its waypoints), two more untimed
  // (the solver's code is still being optimized), then WARM calls timed. A trip whose random stops cannot all be
  // reached (a point nearest to a road the car may not use) is drawn again.
  const points = () => Array.from({ length: 100 }, pt);
  const matrixCall = () => {
    const pts = points().join('|');
    return cpu(() => engine.distanceMatrix({ origins: pts, destinations: pts }));
  };
  const tripCall = (): number => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const pts = points();
      let ok = false;
      const t = cpu(() => (ok = engine.trip({ origin: pts[0], waypoints: pts.slice(1).join(';') }).code === 'Ok'));
      if (ok) return t;
    }
    return fail();
  };
  const matrixFirst = matrixCall();
  for (let k = 0; k < 2; k++) matrixCall();
  const matrix = Array.from({ length: WARM }, matrixCall);
  const tripFirst = tripCall();
  for (let k = 0; k < 2; k++) tripCall();
  const trip = Array.from({ length: WARM }, tripCall);
  const dirAgain = times(300, () => engine.direction({ origin: pt(), destination: pt() }));
  await engine.close();
  return {
    pack: file.split('/').at(-1)!,
    MB: (statSync(file).size / MB).toFixed(1),
    'RSS start': start,
    'RSS loaded': loaded,
    'first route per vehicle ms': firsts.map((t) => t.toFixed(0)).join(' / '),
    'RSS routed': routed,
    'RSS routed, collected': collected,
    'direction OK': `${ok}/300`,
    'direction p50': median(dir).toFixed(2),
    'direction p99': quantile(dir, 0.99).toFixed(2),
    'avoid first': avoidFirst.toFixed(0),
    'avoid p50': median(avoid).toFixed(2),
    'matrix first': matrixFirst.toFixed(0),
    'matrix 100²': median(matrix).toFixed(1),
    'trip first': tripFirst.toFixed(0),
    'trip 100': median(trip).toFixed(1),
    'direction p99, next 300': quantile(dirAgain, 0.99).toFixed(2),
  };
}

const child = process.argv[2];
if (child) {
  process.stdout.write(JSON.stringify(await measure(child)));
} else {
  const files = process.env.CCH_ENGINE_PACKS?.split(',').filter(Boolean) ?? defaultPacks();
  const rows = files.map(
    (f) =>
      JSON.parse(
        execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), f], {
          encoding: 'utf8',
        }),
      ) as Record<string, string | number>,
  );
  table('the engine by the customizable hierarchy (no-ch) against per-vehicle hierarchies (CPU ms)', rows);
}
