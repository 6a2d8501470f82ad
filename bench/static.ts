/**
 * Static route image targets on the default Hanoi pack with the default style (issue 37): `engine.staticRoute` p50
 * at 600x400 ≤ 25 ms and at 1280x1280 ≤ 100 ms, for several real routes across central Hanoi (routing, basemap,
 * route overlay, labels and PNG encoding included). Wall-clock and CPU time are both reported (p50, min and p90): on
 * a loaded machine CPU time is the steadier of the two, and the minimum shows the unloaded cost. Also reports the
 * parts (route search, drawing, PNG) of one route.
 */
import { createEngine } from '../src/engine.js';
import { defaultStaticStyle, findRouteLine } from '../src/api/static-route-image.js';
import { drawStaticRoute } from '../src/render/static-route.js';
import { RenderCache } from '../src/render/render-cache.js';
import { median, quantile, table } from './stats.js';

const engine = await createEngine();
const region = engine.regions[0]!;
/** Origin and destination pairs (lat,lng) inside the pack. */
const ROUTES = [
  ['21.0285,105.8542', '21.0175,105.8320'],
  ['21.0330,105.8400', '21.0245,105.8412'],
  ['21.0300,105.8470', '21.0210,105.8530'],
  ['21.0400,105.8490', '21.0060,105.8430'],
  ['21.0180,105.8200', '21.0320,105.8560'],
];
const RUNS = 10;

function measure<T>(fn: () => T): { wall: number; cpu: number; value: T } {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = fn();
  const wall = performance.now() - t;
  const d = process.cpuUsage(c);
  return { wall, cpu: (d.user + d.system) / 1000, value };
}

const SIZES = [
  [600, 400, 25],
  [1280, 1280, 100],
] as const;
// Both sizes are measured interleaved (route by route, size by size) so that they see the same machine load.
const wall = SIZES.map(() => [] as number[]),
  cpu = SIZES.map(() => [] as number[]);
for (const [width, height] of SIZES)
  for (const [origin, destination] of ROUTES) await engine.staticRoute({ origin, destination, width, height }); // warm-up
for (let run = 0; run < RUNS; run++) {
  for (const [origin, destination] of ROUTES) {
    for (let s = 0; s < SIZES.length; s++) {
      const [width, height] = SIZES[s]!;
      const c = process.cpuUsage();
      const t = performance.now();
      const png = await engine.staticRoute({ origin, destination, width, height });
      wall[s]!.push(performance.now() - t);
      const d = process.cpuUsage(c);
      cpu[s]!.push((d.user + d.system) / 1000);
      if (!(png instanceof Uint8Array))
        throw new Error(`no image for ${origin} -> ${destination}: ${JSON.stringify(png)}`);
    }
  }
}
const rows = [];
for (let s = 0; s < SIZES.length; s++) {
  const [width, height, target] = SIZES[s]!;
  for (const [kind, v] of [
    ['wall', wall[s]!],
    ['CPU', cpu[s]!],
  ] as const) {
    rows.push({
      measure: `staticRoute ${width}x${height} p50 ${kind} (ms)`,
      value: median(v),
      min: Math.min(...v),
      p90: quantile(v, 0.9),
      target: `≤ ${target}`,
      ratio: median(v) / target,
    });
  }
}
table('static route image (default pack, default style)', rows);

// Parts of the first route.
const o = ROUTES[0]!.map((s) => s.split(',').map(Number));
const query = {
  origin: { lat: o[0]![0]!, lng: o[0]![1]! },
  destination: { lat: o[1]![0]!, lng: o[1]![1]! },
  vehicle: 'car',
  type: 'fastest',
} as const;
const found = findRouteLine([region], query);
if ('status' in found) throw new Error(found.error_message);
const line = found.line;
const parts = [];
for (const [width, height] of [
  [600, 400],
  [1280, 1280],
] as const) {
  // One cache for the run, as an engine keeps one: the first image builds the style plan and the basemap index.
  const cache = new RenderCache();
  const route = [],
    draw = [],
    png = [];
  for (let i = 0; i < RUNS; i++) {
    route.push(measure(() => findRouteLine([region], query)).cpu);
    const drawn = measure(() =>
      drawStaticRoute(region, defaultStaticStyle(), line, { width, height, color: [37, 52, 148, 1] }, cache),
    );
    draw.push(drawn.cpu);
    const c = process.cpuUsage();
    await drawn.value.toPNGAsync(); // which releases the canvas, as the engine's: the next one of this size reuses its memory
    const d = process.cpuUsage(c);
    png.push((d.user + d.system) / 1000);
  }
  parts.push({
    size: `${width}x${height}`,
    'route CPU ms': median(route),
    'draw CPU ms': median(draw),
    'png CPU ms': median(png),
  });
}
table('parts of one route (p50)', parts);
