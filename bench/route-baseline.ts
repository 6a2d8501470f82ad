/**
 * Query speed against another checkout: point-to-point legs (Router.leg, the WebAssembly core when it loads) and one
 * many-to-many table per pack, by this checkout's router and by a baseline checkout's, on the same pack and the same
 * seeded points, timed interleaved query by query so that load on the machine hits both alike. Every answer of this
 * checkout is checked equal to the baseline's (weight, seconds, metres). Prints per pack and vehicle the leg p50 and
 * p99 (ms) of both, their ratios, and the table's time.
 * Run: ROUTE_BASELINE=<other checkout> npx tsx bench/route-baseline.ts   Environment: ROUTE_BASELINE (required; a
 * checkout with its own node_modules or a link to these), ROUTE_BASELINE_PACKS (comma-separated pack files, default
 * the embedded pack, packs/hanoi.pack), ROUTE_BASELINE_PAIRS (legs per vehicle, default 300), ROUTE_BASELINE_PROFILES
 * (default 0,1,3: car, motorbike, truck), ROUTE_BASELINE_MATRIX (points per side of the table, default 30).
 */
import { fileURLToPath } from 'node:url';
import type { Endpoint } from '../src/route/search.js';
import { randomEndpoints } from '../test/helpers/route-reference.js';
import { median, quantile, table } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PAIRS = Number(process.env.ROUTE_BASELINE_PAIRS ?? 300);
const MATRIX = Number(process.env.ROUTE_BASELINE_MATRIX ?? 30);
const PROFILES = (process.env.ROUTE_BASELINE_PROFILES ?? '0,1,3').split(',').map(Number);

type RouterModule = typeof import('../src/route/router.js');

/** One checkout's routing code: its own pack reader, graph, router and WebAssembly core. */
async function checkout(root: string) {
  const { loadPack } = (await import(`${root}src/pack/load.ts`)) as typeof import('../src/pack/load.js');
  const { RoadGraph } = (await import(`${root}src/route/graph.ts`)) as typeof import('../src/route/graph.js');
  const { Router } = (await import(`${root}src/route/router.ts`)) as RouterModule;
  const { loadWasmCore } = (await import(
    `${root}src/route/wasm/load.ts`
  )) as typeof import('../src/route/wasm/load.js');
  if (!(await loadWasmCore())) throw new Error(`${root}: the WebAssembly core did not load`);
  return async (file: string) => {
    const pack = await loadPack(file);
    return new Router(new RoadGraph(pack), pack);
  };
}

async function main(): Promise<void> {
  const base = process.env.ROUTE_BASELINE;
  if (!base) throw new Error('ROUTE_BASELINE: set it to the checkout to compare against');
  const files = (process.env.ROUTE_BASELINE_PACKS ?? `${ROOT}packs/hanoi.pack`).split(',');
  const open = [await checkout(`${base.replace(/\/$/, '')}/`), await checkout(ROOT)];
  const rows: Record<string, string | number>[] = [];
  for (const file of files) {
    const routers = await Promise.all(open.map((o) => o(file)));
    const now = routers[1]!;
    for (const profile of PROFILES) {
      const pts: Endpoint[] = randomEndpoints(now.graph, now, profile, 2 * PAIRS, 17 + profile);
      // First use (hierarchy set-up) and warm-up outside the timings.
      for (const r of routers) for (let i = 0; i < 40; i += 2) r.leg(pts[i]!, pts[i + 1]!, profile);
      const ms: [number[], number[]] = [[], []];
      for (let i = 0; i < pts.length; i += 2) {
        const legs = routers.map((r, k) => {
          const t = performance.now();
          const leg = r.leg(pts[i]!, pts[i + 1]!, profile);
          ms[k]!.push(performance.now() - t);
          return leg && [leg.weight, leg.duration, leg.distance];
        });
        if (JSON.stringify(legs[0]) !== JSON.stringify(legs[1])) throw new Error(`pair ${i / 2}: answers differ`);
      }
      const side = pts.slice(0, 2 * MATRIX);
      const tableMs = routers.map((r) => {
        const t = performance.now();
        const out = r.table(side.slice(0, MATRIX), side.slice(MATRIX), profile);
        return [performance.now() - t, out] as const;
      });
      const [a, b] = [tableMs[0]![1], tableMs[1]![1]];
      for (const k of ['weight', 'dur', 'dist'] as const)
        if (a[k].some((v, j) => v !== b[k][j])) throw new Error(`table ${k} differs`);
      const p50 = ms.map((x) => median(x)),
        p99 = ms.map((x) => quantile(x, 0.99));
      rows.push({
        pack: file.split('/').pop()!,
        profile,
        'baseline p50 ms': p50[0]!.toFixed(3),
        'p50 ms': p50[1]!.toFixed(3),
        'p50 ratio': (p50[1]! / p50[0]!).toFixed(2),
        'baseline p99 ms': p99[0]!.toFixed(2),
        'p99 ms': p99[1]!.toFixed(2),
        'p99 ratio': (p99[1]! / p99[0]!).toFixed(2),
        [`baseline ${MATRIX}² table ms`]: tableMs[0]![0].toFixed(1),
        [`${MATRIX}² table ms`]: tableMs[1]![0].toFixed(1),
      });
    }
  }
  table(`legs and tables against the baseline (${PAIRS} seeded pairs per vehicle, interleaved)`, rows);
}

await main();
