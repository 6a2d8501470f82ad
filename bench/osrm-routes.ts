/**
 * `npm run bench -- osrm-routes` (on demand): car routes of this engine beside OSRM's on the same data, between points
 * inside random edges of each region's road graph (never an intersection, so both snap to one place). OSRM runs
 * apart: `OSRM_URLS=monaco=http://127.0.0.1:5001,hcmc-city=http://127.0.0.1:5005` names an `osrm-routed` per test
 * region (osrm-backend v6 `osrm-extract -p profiles/car.lua` and `osrm-contract` on the region's inputs; the Overpass
 * inputs written as one OSM XML file, later inputs winning). Prints per region how many pairs both answer, the
 * median and p90 of |Δ distance|, the totals' ratios and how many agree within max(10 m, 0.2 %); `OSRM_PAIRS` pairs
 * per region (default 300). A pair whose distances differ may still be a tie: OSRM's own weight ('routability') of
 * this engine's route (OSRM asked to pass points inside it, VIA_POINTS of them) is set beside OSRM's best, and the
 * pairs where ours weighs over 1 % more are counted (an upper bound: a via point near two overlapping ways may snap
 * to the other one). `OSRM_FIXTURE=1` writes the pairs OSRM answers, with its distance and duration, to
 * test/fixtures/osrm/<region>.tsv, which test/route-osrm-agree.test.ts reads; `OSRM_SHOW=1` lists the pairs that
 * differ.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import polyline from '@mapbox/polyline';
import { haversine } from '../src/geo.js';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { testPack, type TestRegion } from '../test/helpers/packs.js';
import { edgePoints, osrmCoords } from './edge-points.js';

const FIXTURES = new URL('../test/fixtures/osrm/', import.meta.url);
/** Points of our route OSRM is asked to pass when it weighs that route. */
const VIA_POINTS = 20;
/** A segment of our route at least this long (m) may hold a via point: its middle, off every intersection. */
const VIA_SEGMENT_M = 12;
const pairs = Number(process.env.OSRM_PAIRS ?? 300);
const urls = (process.env.OSRM_URLS ?? '')
  .split(',')
  .filter(Boolean)
  .map((s) => s.split('=') as [TestRegion, string]);
if (urls.length === 0) console.log('osrm-routes: set OSRM_URLS=region=url,… (osrm-routed per test region) to run');

for (const [region, url] of urls) {
  const engine = new Engine([new Region(Pack.from(testPack(region)))]);
  const points = edgePoints(engine.regions[0]!.graph, 2 * pairs, 1);
  const rows: string[] = [];
  const diffs: number[] = [];
  let ours = 0,
    theirs = 0,
    within = 0,
    onlyOsrm = 0,
    heavier = 0;
  for (let i = 0; i < pairs; i++) {
    const [a, b] = [points[2 * i]!, points[2 * i + 1]!];
    const osrm = await osrmRoute(url, [a, b]);
    if (osrm.code !== 'Ok') continue;
    const { distance: od, duration: ot } = osrm.routes[0]!;
    rows.push(`${a.join(',')}\t${b.join(',')}\t${od.toFixed(1)}\t${ot.toFixed(1)}`);
    const r = engine.direction({ origin: a.join(','), destination: b.join(','), vehicle: 'car' });
    const leg = r.status === 'OK' ? r.routes![0]!.legs[0]! : null;
    if (!leg) {
      onlyOsrm++;
      continue;
    }
    ours += leg.distance.value;
    theirs += od;
    diffs.push(Math.abs(leg.distance.value - od));
    if (Math.abs(leg.distance.value - od) <= Math.max(10, 0.002 * od)) {
      within++;
      continue;
    }
    const vias = innerPoints(polyline.decode(r.routes![0]!.overview_polyline.points, 5));
    const weighed = await osrmRoute(url, [a, ...vias, b]);
    const ratio = (weighed.routes?.[0]?.weight ?? Infinity) / osrm.routes[0]!.weight;
    if (ratio > 1.01) heavier++;
    if (process.env.OSRM_SHOW === '1')
      console.log(
        `  ${a.join(',')} → ${b.join(',')}: ${leg.distance.value} m ${leg.duration.value} s, OSRM ${od} m ${ot} s; ` +
          `ours in OSRM's weight ${ratio.toFixed(4)} × its best`,
      );
  }
  diffs.sort((x, y) => x - y);
  const at = (q: number) => diffs[Math.floor(q * (diffs.length - 1))]?.toFixed(1);
  console.log(
    `${region}: ${diffs.length} pairs both route (${onlyOsrm} OSRM alone); |Δ distance| median ${at(0.5)} m, p90 ${at(0.9)} m; ` +
      `total distance ours / OSRM ${(ours / theirs).toFixed(4)}; within max(10 m, 0.2 %) ${within} (${((100 * within) / diffs.length).toFixed(1)} %); ` +
      `of the others, ${heavier} weigh over 1 % more than OSRM's best in its own weight`,
  );
  if (process.env.OSRM_FIXTURE === '1') {
    mkdirSync(FIXTURES, { recursive: true });
    const head =
      `# Car routes of osrm-backend v6.0.0 (profiles/car.lua) on the inputs of test region ${region}, written by\n` +
      `# bench/osrm-routes.ts: origin <TAB> destination (lat,lng) <TAB> OSRM distance (m) <TAB> OSRM duration (s)\n`;
    writeFileSync(new URL(`${region}.tsv`, FIXTURES), head + rows.join('\n') + '\n');
  }
}

interface OsrmRoute {
  code: string;
  routes: { distance: number; duration: number; weight: number }[];
}

/** OSRM's car route through `points` ([lat, lng]), without geometry. */
async function osrmRoute(url: string, points: readonly (readonly number[])[]): Promise<OsrmRoute> {
  return (await (await fetch(`${url}/route/v1/driving/${osrmCoords(points)}?overview=false`)).json()) as OsrmRoute;
}

/** Up to VIA_POINTS points spread along a line ([lat, lng]): middles of its segments of VIA_SEGMENT_M or more. */
function innerPoints(line: readonly [number, number][]): [number, number][] {
  const middles: [number, number][] = [];
  for (let i = 0; i + 1 < line.length; i++) {
    const [p, q] = [line[i]!, line[i + 1]!];
    if (haversine(p[0], p[1], q[0], q[1]) >= VIA_SEGMENT_M) middles.push([(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]);
  }
  const out: [number, number][] = [];
  for (let k = 1; k <= VIA_POINTS; k++) {
    const m = middles[Math.floor((k * middles.length) / (VIA_POINTS + 1))];
    if (m && !out.includes(m)) out.push(m);
  }
  return out;
}
