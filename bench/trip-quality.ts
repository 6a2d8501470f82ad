/**
 * Trip solver quality and speed benchmark (standalone): `npx tsx bench/trip-quality.ts [--seconds=10]
 * [--sizes=50,100,200] [--instances=1] [--seed=1]`.
 *
 * For each instance it reports, as ratios to the best tour found by a long seeded iterated local search (double-bridge
 * kicks + Or-opt/2-opt, time-limited): plain farthest insertion, `solveTrip`, and the ILS reference itself (1.000),
 * plus the solve time of `solveTrip` (median of several runs, table excluded).
 *
 * The instance generator is a `TableFn`; real road tables from the routing engine can replace
 * `euclideanAsymmetric` later without touching the rest.
 */
import { farthestInsertion, localSearch, mulberry32, solveTrip, tourCost } from '../src/trip/index.js';

/** Builds an n×n row-major cost table (seconds) for instance `seed`. */
export type TableFn = (n: number, seed: number) => Float64Array;

/**
 * Random points in a 20 km square, travel time at 10 m/s along the straight line times a per-direction detour factor
 * in [1.1, 1.6) (so i→j ≠ j→i, like one-way streets), plus a per-direction 0–60 s turn/approach penalty.
 */
export const euclideanAsymmetric: TableFn = (n, seed) => {
  const rnd = mulberry32(seed);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = rnd() * 20_000;
    y[i] = rnd() * 20_000;
  }
  const table = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const metres = Math.hypot((x[i] as number) - (x[j] as number), (y[i] as number) - (y[j] as number));
      table[i * n + j] = (metres / 10) * (1.1 + 0.5 * rnd()) + 60 * rnd();
    }
  }
  return table;
};

/** Seeded iterated local search from `initial`: double-bridge kick, local search, keep if not worse. */
function iteratedLocalSearch(table: Float64Array, n: number, initial: Int32Array, seconds: number, seed: number) {
  const rnd = mulberry32(seed);
  let current = localSearch(table, n, initial);
  let currentCost = tourCost(table, n, current);
  let best = current;
  let bestCost = currentCost;
  let rounds = 0;
  const kicked = new Int32Array(n);
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    rounds++;
    // Double bridge A B C D → A C B D keeps every segment's direction, which suits asymmetric tables.
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
      if (cost < bestCost) {
        best = candidate;
        bestCost = cost;
      }
    }
  }
  return { order: best, cost: bestCost, rounds };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function arg(name: string, fallback: string): string {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : fallback;
}

function main(tableFn: TableFn): void {
  const seconds = Number(arg('seconds', '10'));
  const sizes = arg('sizes', '50,100,200').split(',').map(Number);
  const instances = Number(arg('instances', '1'));
  const seed0 = Number(arg('seed', '1'));
  console.log(`ILS reference: ${seconds} s per instance; ratios are cost / best ILS cost (lower is better)`);
  console.log('n    seed  farthest  solveTrip  ILS   solve ms (median)  ILS rounds');
  for (const n of sizes) {
    for (let k = 0; k < instances; k++) {
      const seed = seed0 + 1000 * n + k;
      const table = tableFn(n, seed);
      const times: number[] = [];
      let result = solveTrip(table, n);
      for (let run = 0; run < 15; run++) {
        const t0 = performance.now();
        result = solveTrip(table, n);
        times.push(performance.now() - t0);
      }
      if (result.code !== 'Ok') throw new Error(`solveTrip failed on n=${n}: ${result.message}`);
      const fi = tourCost(table, n, farthestInsertion(table, n));
      const ils = iteratedLocalSearch(table, n, Int32Array.from(result.order), seconds, seed);
      const ref = Math.min(ils.cost, result.cost);
      console.log(
        `${String(n).padEnd(4)} ${String(seed).padEnd(5)} ${(fi / ref).toFixed(4)}    ${(result.cost / ref).toFixed(4)}     ` +
          `${(ils.cost / ref).toFixed(3)} ${median(times).toFixed(2).padStart(8)}           ${ils.rounds}`,
      );
    }
  }
}

main(euclideanAsymmetric);
