/**
 * Core query bench (hierarchies that stop contracting at a core): direction p50 / p99 and matrices through the
 * TypeScript and the WebAssembly router, for Hanoi's full hierarchy and Hanoi contracted down to forced cores of
 * 1,000 and 5,000 states, and for any pack named in CORE_QUERY_PACKS (comma-separated files, e.g. the NY-as-OSM
 * pack of bench/build-scale.ts). Every query of both routers is timed interleaved, pair by pair, so load on the
 * machine hits all alike; every answer of the WebAssembly router is checked equal to the TypeScript one. The matrix
 * is also timed the way it was answered before the core-aware many-to-many (one direction per pair), on fewer
 * points, per element.
 * Every hierarchy of a pack is timed (through its first profile). With CORE_QUERY_BASELINE=<another checkout with
 * node_modules>, that checkout's routers are timed too, interleaved pair by pair in the same process (the checkouts
 * taking turns going first), each checkout on the same pack, and a second table gives this checkout ÷ baseline per
 * router (median of the rounds' p50 and p99) with the states the TypeScript query settles per direction (mean).
 * With CORE_QUERY_ENGINE=1, `engine.direction` is timed too on the packs of CORE_QUERY_PACKS (an engine per checkout
 * and router, the same pairs as text coordinates, interleaved the same way; p50 and p99 over all rounds).
 * Run: npx tsx bench/core-query.ts   (or npm run bench -- core-query). Environment: CORE_QUERY_PAIRS (default 300),
 * CORE_QUERY_MATRIX (points per side, default 100), CORE_QUERY_PACKS, CORE_QUERY_BASELINE, CORE_QUERY_ROUNDS
 * (default 1: rounds of all pairs, p50 and p99 the median of the rounds'), CORE_QUERY_ENGINE.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { createEngine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { VEHICLES } from '../src/route/profiles.js';
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
const BASELINE = process.env.CORE_QUERY_BASELINE;
const ROUNDS = Number(process.env.CORE_QUERY_ROUNDS ?? 1);
const ENGINE = process.env.CORE_QUERY_ENGINE === '1';

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

/** The modules a checkout's routers come from: this one's, or the baseline's (same API). */
interface Checkout {
  name: string;
  Pack: typeof Pack;
  RoadGraph: typeof RoadGraph;
  Router: typeof Router;
  createEngine: typeof createEngine;
}

const checkouts: Checkout[] = [{ name: '', Pack, RoadGraph, Router, createEngine }];
await loadWasmCore();
if (BASELINE) {
  const from = async <T>(file: string) => (await import(join(BASELINE, file))) as T;
  const old = {
    ...(await from<{ Pack: typeof Pack }>('src/pack/reader.ts')),
    ...(await from<{ RoadGraph: typeof RoadGraph }>('src/route/graph.ts')),
    ...(await from<{ Router: typeof Router }>('src/route/router.ts')),
    ...(await from<{ createEngine: typeof createEngine }>('src/engine.ts')),
  };
  await (await from<{ loadWasmCore: typeof loadWasmCore }>('src/route/wasm/load.ts')).loadWasmCore();
  checkouts.push({ name: ' (baseline)', ...old });
}
const packs = [
  { name: 'Hanoi, full hierarchy', file: hanoi(0), engine: false },
  { name: 'Hanoi, core 1,000', file: hanoi(1000), engine: false },
  { name: 'Hanoi, core 5,000', file: hanoi(5000), engine: false },
  ...(process.env.CORE_QUERY_PACKS ?? '')
    .split(',')
    .filter(Boolean)
    .map((file) => ({ name: file.replace(/^.*\//, ''), file, engine: ENGINE })),
];
const rows: Record<string, string | number>[] = [];
const ratios: Record<string, string | number>[] = [];
const engineRows: Record<string, string | number>[] = [];
for (const { name, file, engine } of packs) {
  const bytes = new Uint8Array(readFileSync(file));
  const index = Pack.from(bytes).json<{ list: { profiles: number[] }[] }>('ch.index');
  // Per checkout: its graph and its TypeScript and WebAssembly routers.
  const built = checkouts.map((c) => {
    const pack = c.Pack.from(bytes);
    const g = new c.RoadGraph(pack);
    return { c, g, routers: [new c.Router(g, pack, { wasm: false }), new c.Router(g, pack)] };
  });
  const g = built[0]!.g;
  const routers = built.flatMap((b) => b.routers);
  const names = built.flatMap((b) => ['TypeScript', 'WebAssembly'].map((r) => r + b.c.name));
  const engines = engine
    ? await Promise.all(checkouts.flatMap((c) => [false, true].map((wasm) => c.createEngine({ packs: [bytes], wasm }))))
    : [];
  for (const profile of index.list.map((h) => h.profiles[0]!)) {
    const ch = routers[0]!.context(profile).ch;
    routers.forEach((r, k) => {
      if (k % 2 === 1 && r.core(profile) !== 'wasm') throw new Error(`${name}: ${names[k]} is not in use`);
    });
    const pts = randomEndpoints(g, routers[0]!, profile, 2 * PAIRS, 7);
    for (const r of routers) for (let i = 0; i < 40; i += 2) r.leg(pts[i]!, pts[i + 1]!, profile);
    const p50 = routers.map(() => [] as number[]),
      p99 = routers.map(() => [] as number[]),
      settled = routers.map(() => 0);
    for (let round = 0; round < ROUNDS; round++) {
      const legMs = routers.map(() => [] as number[]);
      for (let i = 0; i < PAIRS; i++) {
        const a = pts[2 * i]!,
          b = pts[2 * i + 1]!;
        // The checkouts take turns going first: the first router to answer a pair runs slower (cold caches).
        const got = routers.map(() => Infinity);
        for (let q = 0; q < routers.length; q++) {
          const k = (q + 2 * i) % routers.length,
            r = routers[k]!;
          let leg: ReturnType<Router['leg']> = null;
          legMs[k]!.push(time(() => (leg = r.leg(a, b, profile))));
          if (k % 2 === 0) settled[k]! += r.context(profile).ch?.settled ?? 0;
          got[k] = (leg as ReturnType<Router['leg']>)?.weight ?? Infinity;
        }
        // The routers of one checkout agree to the bit; checkouts may pick another route of the same weight.
        for (let k = 0; k < got.length; k += 2)
          if (got[k] !== got[k + 1] || Math.abs(got[k]! - got[0]!) > 1e-9 * got[0]!)
            throw new Error(`${name}, profile ${profile}: the routers differ on pair ${i}: ${got.join(', ')}`);
      }
      legMs.forEach((ms, k) => {
        p50[k]!.push(median(ms));
        p99[k]!.push(quantile(ms, 0.99));
      });
    }
    if (engines.length > 0) {
      const vehicle = VEHICLES[profile]!;
      const at = (p: Endpoint) => `${p.lat},${p.lon}`;
      const direction = (e: (typeof engines)[number], a: Endpoint, b: Endpoint) =>
        e.direction({ origin: at(a), destination: at(b), vehicle });
      for (const e of engines) for (let i = 0; i < 40; i += 2) direction(e, pts[i]!, pts[i + 1]!);
      const ms = engines.map(() => [] as number[]);
      for (let round = 0; round < ROUNDS; round++)
        for (let i = 0; i < PAIRS; i++)
          for (let q = 0; q < engines.length; q++) {
            const k = (q + 2 * i) % engines.length;
            ms[k]!.push(time(() => direction(engines[k]!, pts[2 * i]!, pts[2 * i + 1]!)));
          }
      engines.forEach((_, k) =>
        engineRows.push({
          pack: name,
          vehicle,
          engine: names[k]!,
          'direction p50 ms': median(ms[k]!),
          'direction p99 ms': quantile(ms[k]!, 0.99),
          'p50 ratio': BASELINE && k < 2 ? median(ms[k]!) / median(ms[k + 2]!) : '',
          'p99 ratio': BASELINE && k < 2 ? quantile(ms[k]!, 0.99) / quantile(ms[k + 2]!, 0.99) : '',
        }),
      );
    }
    const m = pts.slice(0, MATRIX);
    const matrixMs = routers.map(() => [] as number[]);
    for (let rep = 0; rep < 3; rep++) routers.forEach((r, k) => matrixMs[k]!.push(time(() => r.table(m, m, profile))));
    const few: Endpoint[] = pts.slice(0, PER_PAIR);
    const perPair = routers.map((r) => time(() => few.forEach((a) => few.forEach((b) => r.leg(a, b, profile)))));
    routers.forEach((_, k) =>
      rows.push({
        pack: name,
        profile,
        core: `${ch?.core ?? 0} of ${ch?.states ?? 0}`,
        router: names[k]!,
        'leg p50 ms': median(p50[k]!),
        'leg p99 ms': median(p99[k]!),
        [`${MATRIX}×${MATRIX} ms`]: median(matrixMs[k]!),
        'µs / element': (1000 * median(matrixMs[k]!)) / (MATRIX * MATRIX),
        'µs / element, a leg per pair': (1000 * perPair[k]!) / (PER_PAIR * PER_PAIR),
      }),
    );
    if (BASELINE)
      for (const k of [0, 1])
        ratios.push({
          pack: name,
          profile,
          router: names[k]!,
          'p50 ms': `${median(p50[k]!).toFixed(3)} / ${median(p50[k + 2]!).toFixed(3)}`,
          'p50 ratio': median(p50[k]!) / median(p50[k + 2]!),
          'p99 ms': `${median(p99[k]!).toFixed(3)} / ${median(p99[k + 2]!).toFixed(3)}`,
          'p99 ratio': median(p99[k]!) / median(p99[k + 2]!),
          [`${MATRIX}×${MATRIX} ratio`]: median(matrixMs[k]!) / median(matrixMs[k + 2]!),
          'settled / direction (TS)': `${Math.round(settled[0]! / (ROUNDS * PAIRS))} / ${Math.round(settled[2]! / (ROUNDS * PAIRS))}`,
        });
  }
}
table(`direction (${PAIRS} seeded pairs × ${ROUNDS} rounds) and matrices, all routers interleaved`, rows);
if (BASELINE) table('this checkout ÷ baseline (same pack, interleaved)', ratios);
if (engineRows.length > 0) table(`engine.direction (${PAIRS} pairs × ${ROUNDS} rounds, interleaved)`, engineRows);
