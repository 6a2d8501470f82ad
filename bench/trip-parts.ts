/**
 * Where a trip's time goes: `npm run bench -- trip-parts` (the whole-HCMC test pack), or
 * `npx tsx bench/trip-parts.ts [pack file …] [--stops=100] [--trips=20] [--seed=11]`.
 *
 * Per trip of `--stops` random stops (seeded intersections of the pack's own road graph, so each snaps onto a road),
 * warm, CPU ms (process.cpuUsage): the whole `engine.trip` call, and its parts done again one by one as GET /trip
 * does them: locating the stops, the many-to-many table (Router.stopTable), the solver, the legs between consecutive
 * stops (unpacked from the table's walks on the customizable hierarchy, a point-to-point search each on the per-vehicle
 * hierarchies), their line and polyline, and the waypoints' place ids; then the DistanceMatrix call on the same stops.
 * Prints p50 and min of each.
 */
import { readFileSync } from 'node:fs';
import { createEngine } from '../src/index.js';
import { appendLine, encodePolyline, legLine } from '../src/route/geometry.js';
import { locate } from '../src/route/locate.js';
import { routerOf } from '../src/route/router.js';
import { nearestPlace } from '../src/places/reverse.js';
import { mulberry32 } from '../src/trip/rng.js';
import { solveTrip } from '../src/trip/solve.js';
import { testPack } from '../test/helpers/packs.js';
import { median, table } from './stats.js';

const argv = process.argv.slice(2);
const args = new Map(
  argv
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('='))
    .map(([k, v]) => [k!, Number(v)]),
);
const files = argv.filter((a) => !a.startsWith('--'));
const STOPS = args.get('stops') ?? 100;
const TRIPS = args.get('trips') ?? 20;
const SEED = args.get('seed') ?? 11;

/** CPU milliseconds of a call, and its value. */
function cpu<T>(f: () => T): [number, T] {
  const a = process.cpuUsage();
  const v = f();
  const d = process.cpuUsage(a);
  return [(d.user + d.system) / 1000, v];
}

/** Measures the trips of one pack and prints their parts. */
async function measure(name: string, bytes: Uint8Array): Promise<void> {
  const engine = await createEngine({ packs: [bytes] });
  const region = engine.regions[0]!;
  const g = region.graph;
  const router = routerOf(region);
  const rand = mulberry32(SEED);
  const stops = () =>
    Array.from({ length: STOPS }, () => {
      const v = Math.floor(rand() * g.nodeCount);
      return { lat: Number(g.lat(v).toFixed(6)), lng: Number(g.lon(v).toFixed(6)) };
    });
  const text = (p: { lat: number; lng: number }) => `${p.lat},${p.lng}`;

  const parts: Record<string, number[]> = {};
  const add = (k: string, ms: number) => (parts[k] ??= []).push(ms);
  // Two warm-up trips, then the measured ones.
  for (let t = -2; t < TRIPS; t++) {
    const pts = stops();
    const q = { origin: text(pts[0]!), waypoints: pts.slice(1).map(text).join(';') };
    const [whole, answer] = cpu(() => engine.trip(q));
    if (answer.code !== 'Ok') continue;
    const [matrix] = cpu(() =>
      engine.distanceMatrix({ origins: pts.map(text).join('|'), destinations: pts.map(text).join('|') }),
    );
    const [tLocate, located] = cpu(() => locate(engine.regions, pts, 0));
    if ('reason' in located) continue;
    const snaps = located.snaps;
    const [tTable, tab] = cpu(() => router.stopTable(snaps, 0, 'fastest'));
    const [tSolve, solved] = cpu(() => solveTrip(tab.table.weight, STOPS, { start: 0 }));
    if (solved.code !== 'Ok') continue;
    const order = solved.order;
    const [tLegs, legs] = cpu(() => order.map((a, p) => tab.leg(a, order[(p + 1) % STOPS]!)!));
    const [tLine] = cpu(() => {
      const line: number[] = [];
      for (const leg of legs) appendLine(line, legLine(g, leg).coords);
      return encodePolyline(line);
    });
    const places = engine.places.regions.filter((r) => r.region === region);
    const [tPlaces] = cpu(() => legs.map((l) => nearestPlace(places, l.from.lat, l.from.lon)));
    const [again] = cpu(() => engine.trip(q));
    if (t < 0) continue;
    add('trip', whole);
    add('trip again', again);
    add('matrix call', matrix);
    add('locate', tLocate);
    add('table', tTable);
    add('solve', tSolve);
    add('legs', tLegs);
    add('line+polyline', tLine);
    add('place ids', tPlaces);
  }
  table(
    `${name}: ${STOPS} stops, ${parts.trip?.length ?? 0} trips, CPU ms`,
    Object.entries(parts).map(([part, v]) => ({
      part,
      p50: median(v).toFixed(2),
      min: Math.min(...v).toFixed(2),
    })),
  );
  await engine.close();
}

if (files.length === 0) await measure('hcmc-city (test pack)', testPack('hcmc-city'));
for (const f of files) await measure(f.split('/').at(-1)!, new Uint8Array(readFileSync(f)));
