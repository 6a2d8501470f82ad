/**
 * WebAssembly core against the TypeScript core, same queries in one run: DIMACS New York (node-based pack
 * hierarchy) and the Hanoi pack (edge-based hierarchy), point to point (Router.leg on seeded random snapped pairs)
 * and 100 × 100 matrices (Router.table), plus the same through the engine (direction, distanceMatrix) for context.
 * Every answer of one core is checked equal to the other's. Each query's time is its fastest of several rounds. Target: WebAssembly ≥ 2× faster on both.
 * Run: npx tsx bench/wasm.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDimacsPack } from '../data-tools/dimacs-pack.js';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { Router } from '../src/route/router.js';
import type { Endpoint } from '../src/route/search.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { testPack } from '../test/helpers/packs.js';
import { mulberry32 as rng } from '../src/trip/rng.js';
import { CH_LAYOUT_VERSION } from '../src/route/ch.js';

const DIMACS = fileURLToPath(new URL('../../shared/data/dimacs/', import.meta.url));
const CACHE = fileURLToPath(new URL('../.cache/', import.meta.url));
const PAIRS = 1000;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const rows: [string, string, string, string, string][] = [
  ['query', 'TypeScript', 'WebAssembly', 'ratio', 'target ≥ 2×'],
];

/** The NY pack with its hierarchy (cached under .cache/, shared with bench/route.ts). */
async function nyPack(): Promise<Uint8Array> {
  mkdirSync(CACHE, { recursive: true });
  // Named by the hierarchy layout, so a pack cached before a layout change is rebuilt rather than refused.
  const file = `${CACHE}ny-d-ch${CH_LAYOUT_VERSION}.pack`;
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const bytes = await buildDimacsPack(`${DIMACS}USA-road-d.NY.gr.gz`, `${DIMACS}USA-road-d.NY.co.gz`, 'ny');
  writeFileSync(file, bytes);
  return bytes;
}

function row(what: string, ts: number, wa: number, unit: string): void {
  const r = ts / wa;
  rows.push([
    what,
    `${ts.toFixed(3)} ${unit}`,
    `${wa.toFixed(3)} ${unit}`,
    `${r.toFixed(2)}×`,
    r >= 2 ? 'met' : 'MISSED',
  ]);
}

/**
 * Times each item with both cores, alternating query by query so load drift on a shared machine hits both alike,
 * over `rounds` rounds; an item's time is its fastest round (noise only ever adds time). Counts items whose
 * answers differ between the cores.
 */
function timeBoth<T>(
  items: T[],
  ts: (x: T) => unknown,
  wa: (x: T) => unknown,
  rounds: number,
): { ts: number[]; wa: number[]; differ: number } {
  const out = { ts: items.map(() => Infinity), wa: items.map(() => Infinity), differ: 0 };
  for (const x of items.slice(0, 50)) {
    ts(x);
    wa(x);
  }
  for (let r = 0; r < rounds; r++) {
    items.forEach((x, i) => {
      let t = performance.now();
      const a = ts(x);
      out.ts[i] = Math.min(out.ts[i]!, performance.now() - t);
      t = performance.now();
      const b = wa(x);
      out.wa[i] = Math.min(out.wa[i]!, performance.now() - t);
      if (r === 0 && JSON.stringify(a) !== JSON.stringify(b)) out.differ++;
    });
  }
  return out;
}

async function region(name: string, bytes: Uint8Array, seed: number): Promise<void> {
  const pack = Pack.from(bytes);
  const g = new Region(pack).graph;
  const ts = new Router(g, pack, { wasm: false });
  const wa = new Router(g, pack);
  if (wa.core(0) !== 'wasm') throw new Error('the WebAssembly core is not in use');
  const ctx = ts.context(0);
  console.log(
    `${name}: ${g.nodeCount} nodes, ${2 * g.edgeCount} arcs, hierarchy ${ctx.ch ? (ctx.ch.edgeBased ? 'edge-based' : 'node-based') : 'none'}`,
  );
  const rand = rng(seed);
  const pts: Endpoint[] = [];
  while (pts.length < 2 * PAIRS) {
    const v = Math.floor(rand() * g.nodeCount);
    const s = ts.snap(g.lat(v) + (rand() - 0.5) * 0.001, g.lon(v) + (rand() - 0.5) * 0.001, 0);
    if (s) pts.push(s);
  }
  const pairs = Array.from({ length: PAIRS }, (_, i) => [pts[2 * i]!, pts[2 * i + 1]!] as const);
  const p2p = timeBoth(
    pairs,
    ([a, b]) => ts.leg(a, b, 0),
    ([a, b]) => wa.leg(a, b, 0),
    5,
  );
  row(`${name} point to point, mean`, sum(p2p.ts) / PAIRS, sum(p2p.wa) / PAIRS, 'ms');
  row(`${name} point to point, p50`, pct(p2p.ts, 50), pct(p2p.wa, 50), 'ms');
  const m = pts.slice(0, 100);
  const mat = timeBoth(
    [0],
    () => ts.table(m, m, 0),
    () => wa.table(m, m, 0),
    15,
  );
  row(`${name} 100×100 matrix`, mat.ts[0]!, mat.wa[0]!, 'ms');
  if (p2p.differ || mat.differ)
    throw new Error(`${name}: ${p2p.differ} legs and ${mat.differ} matrices differ between the cores`);

  // Through the engine: snapping, the API's parsing and response building included (two copies of the region).
  const et = new Engine([new Region(Pack.from(bytes))], { wasm: false });
  const ew = new Engine([new Region(Pack.from(bytes))]);
  const str = (p: Endpoint) => `${p.lat},${p.lon}`;
  const q = pairs.slice(0, 300).map(([a, b]) => ({ origin: str(a), destination: str(b) }));
  const dir = timeBoth(
    q,
    (x) => et.direction(x),
    (x) => ew.direction(x),
    3,
  );
  row(`${name} engine.direction, mean`, sum(dir.ts) / q.length, sum(dir.wa) / q.length, 'ms');
  const list = m.map(str).join('|');
  const dm = timeBoth(
    [{ origins: list, destinations: list }],
    (x) => et.distanceMatrix(x),
    (x) => ew.distanceMatrix(x),
    9,
  );
  row(`${name} engine.distanceMatrix 100×100`, dm.ts[0]!, dm.wa[0]!, 'ms');
  if (dir.differ || dm.differ)
    throw new Error(`${name}: ${dir.differ} directions and ${dm.differ} matrices differ between the cores`);
}

async function main(): Promise<void> {
  if (!(await loadWasmCore())) throw new Error('WebAssembly core failed to load');
  await region('NY (DIMACS)', await nyPack(), 2024);
  await region('Hanoi', testPack('hanoi'), 5);
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  '));
}

await main();
