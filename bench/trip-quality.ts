/**
 * Trip benchmark on real road tables (standalone): `npx tsx bench/trip-quality.ts [--seconds=10] [--sizes=50,100,200]
 * [--packs=hanoi,dalat] [--seed=1]`.
 *
 * Instances: seeded random points in the central 70% of a pack's bounding box, snapped to roads for the car, kept
 * when mutually reachable with the best-connected point (so every table entry is finite), and the router's
 * routability-weight table between them — the very table GET /trip solves.
 * Quality, as ratios to the best tour a long seeded iterated local search (double-bridge kick + full Or-opt/2-opt/
 * segment-exchange local search, `--seconds` per instance, started from our tour) finds: plain farthest insertion,
 * `solveTrip`, and the reference itself (1.000).
 * Speed: 100 stops on Hanoi — snap + table + solve (median of 5), and the whole `engine.trip` call (legs and
 * geometry included).
 */
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { routerOf } from '../src/route/router.js';
import type { Snap } from '../src/route/snap.js';
import { farthestInsertion, localSearch, mulberry32, solveTrip, tourCost } from '../src/trip/index.js';
import { testPack } from '../test/helpers/packs.js';

/** A real instance: the points (degrees) and the n×n routability-weight table between their snaps. */
interface Instance {
  points: { lat: number; lng: number }[];
  table: Float64Array;
}

/** n mutually reachable random road points of a region and their weight table (car). */
export function realInstance(region: Region, n: number, seed: number): Instance {
  const router = routerOf(region);
  const [minLon, minLat, maxLon, maxLat] = region.meta.bbox!;
  const rnd = mulberry32(seed);
  const m = Math.ceil(n * 1.4) + 10;
  const points: { lat: number; lng: number }[] = [];
  const snaps: Snap[] = [];
  while (snaps.length < m) {
    const lat = minLat + (0.15 + 0.7 * rnd()) * (maxLat - minLat);
    const lng = minLon + (0.15 + 0.7 * rnd()) * (maxLon - minLon);
    const s = router.snap(lat, lng, 0);
    if (s) {
      points.push({ lat, lng });
      snaps.push(s);
    }
  }
  const big = router.table(snaps, snaps, 0, 'fastest').weight;
  let hub = 0;
  let most = -1;
  for (let i = 0; i < m; i++) {
    let finite = 0;
    for (let j = 0; j < m; j++) if (big[i * m + j] !== Infinity && big[j * m + i] !== Infinity) finite++;
    if (finite > most) [hub, most] = [i, finite];
  }
  // Reachable both ways from the hub ⇒ every kept pair is reachable (through the hub at worst).
  const keep = [...Array(m).keys()]
    .filter((i) => big[hub * m + i] !== Infinity && big[i * m + hub] !== Infinity)
    .slice(0, n);
  if (keep.length < n) throw new Error(`only ${keep.length} mutually reachable points for n=${n}`);
  const table = new Float64Array(n * n);
  keep.forEach((a, i) => keep.forEach((b, j) => (table[i * n + j] = i === j ? 0 : big[a * m + b]!)));
  return { points: keep.map((i) => points[i]!), table };
}

/** Seeded iterated local search from `initial` for `seconds`: double-bridge kick, full local search, keep if not worse. */
function referenceSearch(table: Float64Array, n: number, initial: Int32Array, seconds: number, seed: number) {
  const rnd = mulberry32(seed);
  let current = localSearch(table, n, initial);
  let currentCost = tourCost(table, n, current);
  let bestCost = currentCost;
  let rounds = 0;
  const kicked = new Int32Array(n);
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    rounds++;
    const cuts = [1 + Math.floor(rnd() * (n - 1)), 1 + Math.floor(rnd() * (n - 1)), 1 + Math.floor(rnd() * (n - 1))];
    cuts.sort((a, b) => a - b);
    const [p, q, r] = cuts as [number, number, number];
    kicked.set(current.subarray(0, p), 0);
    kicked.set(current.subarray(q, r), p);
    kicked.set(current.subarray(p, q), p + r - q);
    kicked.set(current.subarray(r), r);
    const candidate = localSearch(table, n, kicked);
    const cost = tourCost(table, n, candidate);
    if (cost <= currentCost) {
      current = candidate;
      currentCost = cost;
      bestCost = Math.min(bestCost, cost);
    }
  }
  return { cost: bestCost, rounds };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function arg(name: string, fallback: string): string {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : fallback;
}

function quality(regions: Map<string, Region>): void {
  const seconds = Number(arg('seconds', '10'));
  const sizes = arg('sizes', '50,100,200').split(',').map(Number);
  const seed0 = Number(arg('seed', '1'));
  console.log(
    `Reference: ${seconds} s iterated local search per instance; ratios are cost / best cost found (lower is better)`,
  );
  console.log('pack   n    farthest  solveTrip  reference  solve ms  reference rounds');
  for (const [name, region] of regions) {
    for (const n of sizes) {
      const seed = seed0 + 1000 * n;
      const { table } = realInstance(region, n, seed);
      const times: number[] = [];
      let result = solveTrip(table, n);
      for (let run = 0; run < 3; run++) {
        const t0 = performance.now();
        result = solveTrip(table, n);
        times.push(performance.now() - t0);
      }
      if (result.code !== 'Ok') throw new Error(`solveTrip failed on n=${n}: ${result.message}`);
      const fi = tourCost(table, n, farthestInsertion(table, n));
      const ref = referenceSearch(table, n, Int32Array.from(result.order), seconds, seed);
      const best = Math.min(ref.cost, result.cost);
      console.log(
        `${name.padEnd(6)} ${String(n).padEnd(4)} ${(fi / best).toFixed(4)}    ${(result.cost / best).toFixed(4)}     ` +
          `${(ref.cost / best).toFixed(4)}    ${median(times).toFixed(1).padStart(6)}    ${ref.rounds}`,
      );
    }
  }
}

function speed(region: Region): void {
  const router = routerOf(region);
  const { points } = realInstance(region, 100, 4242);
  const engine = new Engine([region]);
  const waypoints = points.map((p) => `${p.lat},${p.lng}`).join(';');
  engine.trip({ waypoints }); // warm-up: arc costs, snap index, JIT
  const core: number[] = [];
  const whole: number[] = [];
  for (let run = 0; run < 5; run++) {
    let t0 = performance.now();
    const snaps = points.map((p) => router.snap(p.lat, p.lng, 0)!);
    const table = router.table(snaps, snaps, 0, 'fastest');
    const r = solveTrip(table.weight, 100);
    if (r.code !== 'Ok') throw new Error(r.message);
    core.push(performance.now() - t0);
    t0 = performance.now();
    const res = engine.trip({ waypoints });
    if (res.code !== 'Ok') throw new Error('trip failed');
    whole.push(performance.now() - t0);
  }
  const t0 = performance.now();
  const snaps = points.map((p) => router.snap(p.lat, p.lng, 0)!);
  const t1 = performance.now();
  const table = router.table(snaps, snaps, 0, 'fastest');
  const t2 = performance.now();
  solveTrip(table.weight, 100);
  const t3 = performance.now();
  console.log(
    `\nHanoi, 100 stops: snap + table + solve ${median(core).toFixed(1)} ms (median of 5; last run: snap ${(t1 - t0).toFixed(1)}, table ${(t2 - t1).toFixed(1)}, solve ${(t3 - t2).toFixed(1)} ms); whole engine.trip ${median(whole).toFixed(1)} ms`,
  );
}

const packs = arg('packs', 'hanoi,dalat').split(',') as ('hanoi' | 'dalat')[];
const regions = new Map(packs.map((p) => [p, new Region(Pack.from(testPack(p)))] as const));
quality(regions);
if (regions.has('hanoi')) speed(regions.get('hanoi')!);
