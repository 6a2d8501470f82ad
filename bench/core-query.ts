/**
 * Core query bench (hierarchies that stop contracting at a core): direction p50 / p99 and matrices through the
 * TypeScript and the WebAssembly router, for Hanoi's full hierarchy and Hanoi contracted down to forced cores of
 * 1,000 and 5,000 states, and for any pack named in CORE_QUERY_PACKS (comma-separated files, e.g. the NY-as-OSM
 * pack of bench/build-scale.ts). Every query of both routers is timed interleaved, pair by pair, so load on the
 * machine hits all alike; every answer of the WebAssembly router is checked equal to the TypeScript one. The matrix
 * is also timed the way it was answered before the core-aware many-to-many (one direction per pair), on fewer
 * points, per element.
 * Run: npx tsx bench/core-query.ts   (or npm run bench -- core-query). Environment: CORE_QUERY_PAIRS (default 300),
 * CORE_QUERY_MATRIX (points per side, default 100), CORE_QUERY_PACKS.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import type { Endpoint } from '../src/route/search.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { OSM, PACK_INPUTS } from '../test/helpers/packs.js';
import { randomEndpoints } from '../test/helpers/route-reference.js';
import { median, quantile, table } from './stats.js';

const CACHE = fileURLToPath(new URL('../.cache/core-query/', import.meta.url));
const PAIRS = Number(process.env.CORE_QUERY_PAIRS ?? 300);
const MATRIX = Number(process.env.CORE_QUERY_MATRIX ?? 100);
/** Points per side of the one-direction-per-pair matrix (the old way is slow on big cores). */
const PER_PAIR = 20;

/** Hanoi built with a forced core of `coreSize` states (0: the full hierarchy), cached. */
function hanoi(coreSize: number): string {
  mkdirSync(CACHE, { recursive: true });
  const file = `${CACHE}hanoi-core${coreSize}.pack`;
  if (!existsSync(file)) {
    const bytes = buildOsmPack({
      inputs: PACK_INPUTS.hanoi.map((f) => OSM + f),
      name: 'hanoi',
      admin: null,
      contraction: coreSize > 0 ? { coreSize } : {},
    });
    writeFileSync(file, bytes);
  }
  return file;
}

/** Milliseconds of one call. */
function time(f: () => unknown): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

await loadWasmCore();
const packs = [
  { name: 'Hanoi, full hierarchy', file: hanoi(0) },
  { name: 'Hanoi, core 1,000', file: hanoi(1000) },
  { name: 'Hanoi, core 5,000', file: hanoi(5000) },
  ...(process.env.CORE_QUERY_PACKS ?? '')
    .split(',')
    .filter(Boolean)
    .map((file) => ({ name: file.replace(/^.*\//, ''), file })),
];
const rows: Record<string, string | number>[] = [];
for (const { name, file } of packs) {
  const pack = Pack.from(new Uint8Array(readFileSync(file)));
  const g = new RoadGraph(pack);
  const routers = [new Router(g, pack, { wasm: false }), new Router(g, pack)];
  const profile = 0;
  const ch = routers[0]!.context(profile).ch;
  if (routers[1]!.core(profile) !== 'wasm') throw new Error(`${name}: the WebAssembly router is not in use`);
  const pts = randomEndpoints(g, routers[0]!, profile, 2 * PAIRS, 7);
  for (const r of routers) for (let i = 0; i < 40; i += 2) r.leg(pts[i]!, pts[i + 1]!, profile);
  const legMs: number[][] = [[], []];
  for (let i = 0; i < PAIRS; i++) {
    const a = pts[2 * i]!,
      b = pts[2 * i + 1]!;
    const got = routers.map((r, k) => {
      let leg: ReturnType<Router['leg']> = null;
      legMs[k]!.push(time(() => (leg = r.leg(a, b, profile))));
      return leg as ReturnType<Router['leg']>;
    });
    if (got[0]?.weight !== got[1]?.weight) throw new Error(`${name}: the routers differ on pair ${i}`);
  }
  const m = pts.slice(0, MATRIX);
  const matrixMs = routers.map(() => [] as number[]);
  for (let rep = 0; rep < 3; rep++) routers.forEach((r, k) => matrixMs[k]!.push(time(() => r.table(m, m, profile))));
  const few: Endpoint[] = pts.slice(0, PER_PAIR);
  const perPair = routers.map((r) => time(() => few.forEach((a) => few.forEach((b) => r.leg(a, b, profile)))));
  routers.forEach((_, k) =>
    rows.push({
      pack: name,
      core: `${ch?.core ?? 0} of ${ch?.states ?? 0}`,
      router: k === 0 ? 'TypeScript' : 'WebAssembly',
      'leg p50 ms': median(legMs[k]!),
      'leg p99 ms': quantile(legMs[k]!, 0.99),
      [`${MATRIX}×${MATRIX} ms`]: median(matrixMs[k]!),
      'µs / element': (1000 * median(matrixMs[k]!)) / (MATRIX * MATRIX),
      'µs / element, a leg per pair': (1000 * perPair[k]!) / (PER_PAIR * PER_PAIR),
    }),
  );
}
table(`direction (${PAIRS} seeded pairs, car) and matrices, both routers interleaved`, rows);
