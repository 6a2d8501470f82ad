/**
 * Routing bench: DIMACS New York (250 seeded random node pairs through engine.direction, every distance checked
 * against a plain Dijkstra, vs ngraph.path NBA* on the same queries), the same queries on the same graph routed by the
 * customizable hierarchy (a NY pack without hierarchies), Hanoi direction (as `build-pack` builds it), 100 × 100
 * matrices (Hanoi without and with hierarchies, NY by both).
 * Prints every target of issue 4 with the measured value and the ratio measured / target.
 * Run: npx tsx bench/route.ts   (the NY packs, with their hierarchy or CCH order, are cached under .cache/)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import createGraph from 'ngraph.graph';
import { nba } from 'ngraph.path';
import { buildHierarchies, CH_WEIGHTINGS } from '../data-tools/ch-pack.js';
import { buildDimacsPack } from '../data-tools/dimacs-pack.js';
import { Engine } from '../src/engine.js';
import { haversine } from '../src/geo.js';
import { Pack } from '../src/pack/reader.js';
import { CH_LAYOUT_VERSION, chSection, type ChArrays } from '../src/route/ch.js';
import { CCH_ORDER_LAYOUT } from '../src/route/cch/stored-order.js';
import { Region } from '../src/region.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { speedOf } from '../src/route/graph.js';
import { routerOf } from '../src/route/router.js';
import { testPack } from '../test/helpers/packs.js';
import { mulberry32 as rng } from '../src/trip/rng.js';

const DIMACS = fileURLToPath(new URL('../../shared/data/dimacs/', import.meta.url));
const CACHE = fileURLToPath(new URL('../.cache/', import.meta.url));

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
/** Rows of the report: what, measured, target (text), measured / target when both are numbers. */
const rows: [string, string, string, string][] = [];
function row(what: string, value: string, target = '', ratio?: number): void {
  rows.push([what, value, target, ratio === undefined ? '' : `${ratio.toFixed(2)}${ratio <= 1 ? ' ok' : ' MISSED'}`]);
}

/**
 * The NY pack (cached with the times of its build: the whole pack, and the contraction alone, measured by
 * contracting the pack's graph again when the pack is built).
 */
async function nyPack(): Promise<{ bytes: Uint8Array; buildMs: number; chMs: number }> {
  mkdirSync(CACHE, { recursive: true });
  // Named by the hierarchy layout, so a pack cached before a layout change is rebuilt rather than refused.
  const file = `${CACHE}ny-d-ch${CH_LAYOUT_VERSION}.pack`;
  if (existsSync(file) && existsSync(`${file}.json`)) {
    return {
      bytes: new Uint8Array(readFileSync(file)),
      ...(JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { buildMs: number; chMs: number }),
    };
  }
  let t0 = performance.now();
  const bytes = await buildDimacsPack(`${DIMACS}USA-road-d.NY.gr.gz`, `${DIMACS}USA-road-d.NY.co.gz`, 'ny');
  const buildMs = performance.now() - t0;
  t0 = performance.now();
  buildHierarchies(Pack.from(bytes), CH_WEIGHTINGS);
  const chMs = performance.now() - t0;
  writeFileSync(file, bytes);
  writeFileSync(`${file}.json`, JSON.stringify({ buildMs, chMs }));
  return { bytes, buildMs, chMs };
}

/** Bytes and number of the pack's hierarchies. */
function chStats(pack: Pack): { bytes: number; count: number } {
  if (!pack.has('ch.index')) return { bytes: 0, count: 0 };
  const list = pack.json<{ list: { id: number }[] }>('ch.index').list;
  const names: (keyof ChArrays)[] = ['rank', 'first', 'node', 'a', 'b', 'lmFrom', 'lmTo'];
  let bytes = 0;
  for (const e of list)
    for (const n of names) if (pack.has(chSection(e.id, n))) bytes += pack.array(chSection(e.id, n)).byteLength;
  return { bytes, count: list.length };
}

/** Plain node-based Dijkstra over the pack's arcs (metres), written for the check. */
function plainDijkstra(g: Region['graph'], s: number, t: number): number {
  const speeds = g.speeds();
  const dist = new Float64Array(g.nodeCount).fill(Infinity);
  const heap: number[] = [];
  const key = (i: number) => dist[heap[i]!]!;
  const push = (v: number) => {
    heap.push(v);
    let i = heap.length - 1;
    while (i > 0 && key((i - 1) >> 1) > key(i)) {
      [heap[i], heap[(i - 1) >> 1]] = [heap[(i - 1) >> 1]!, heap[i]!];
      i = (i - 1) >> 1;
    }
  };
  const pop = () => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= heap.length) break;
        if (c + 1 < heap.length && key(c + 1) < key(c)) c++;
        if (key(c) >= key(i)) break;
        [heap[i], heap[c]] = [heap[c]!, heap[i]!];
        i = c;
      }
    }
    return top;
  };
  const done = new Uint8Array(g.nodeCount);
  dist[s] = 0;
  push(s);
  while (heap.length) {
    const v = pop();
    if (done[v]) continue;
    done[v] = 1;
    if (v === t) return dist[v]!;
    for (let i = g.adjFirst[v]!; i < g.adjFirst[v + 1]!; i++) {
      const a = g.adjArc[i]!;
      if (speedOf(speeds, a >> 1, 0, a & 1) === 0) continue;
      const x = g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
      const nd = dist[v]! + g.edgeLen[a >> 1]!;
      if (nd < dist[x]!) {
        dist[x] = nd;
        push(x);
      }
    }
  }
  return Infinity;
}

/**
 * The NY pack without hierarchies, routed by the customizable hierarchy (its order in the stored indexes, the car's
 * metric customized at the first query); cached, named by the stored order's layout.
 */
async function nyCchPack(): Promise<{ bytes: Uint8Array; buildMs: number }> {
  const file = `${CACHE}ny-d-cch${CCH_ORDER_LAYOUT}.pack`;
  if (existsSync(file) && existsSync(`${file}.json`)) {
    return {
      bytes: new Uint8Array(readFileSync(file)),
      ...(JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { buildMs: number }),
    };
  }
  const t0 = performance.now();
  const bytes = await buildDimacsPack(`${DIMACS}USA-road-d.NY.gr.gz`, `${DIMACS}USA-road-d.NY.co.gz`, 'ny', false);
  const buildMs = performance.now() - t0;
  writeFileSync(file, bytes);
  writeFileSync(`${file}.json`, JSON.stringify({ buildMs }));
  return { bytes, buildMs };
}

/**
 * engine.direction over the NY pairs after a warm-up on other pairs (so the measured queries run JIT-compiled code,
 * steady state, as in a server): per-query milliseconds and each answer's metres (-1 when there is none).
 */
function nyDirections(
  engine: Engine,
  g: Region['graph'],
  pairs: readonly [number, number][],
  warm: readonly [number, number][],
): { ms: number[]; got: number[] } {
  const str = (v: number) => `${g.lat(v)},${g.lon(v)}`;
  for (const [s, d] of warm) engine.direction({ origin: str(s), destination: str(d) });
  const ms: number[] = [];
  const got: number[] = [];
  for (const [s, d] of pairs) {
    const t = performance.now();
    const r = engine.direction({ origin: str(s), destination: str(d) });
    ms.push(performance.now() - t);
    got.push(r.status === 'OK' ? r.routes[0]!.legs[0]!.distance.value : -1);
  }
  return { ms, got };
}

async function main(): Promise<void> {
  // As createEngine does: the engines below route with the WebAssembly core and the CCH's search where they can.
  await loadWasmCore();
  const built = await nyPack();
  const ny = new Region(Pack.from(built.bytes));
  const engine = new Engine([ny]);
  const g = ny.graph;
  let t = performance.now();
  const ctx = routerOf(ny).context(0, 'fastest');
  const load = performance.now() - t;
  let arcs = 0;
  const speeds = g.speeds();
  for (let a = 0; a < 2 * g.edgeCount; a++) if (speedOf(speeds, a >> 1, 0, a & 1) > 0) arcs++;
  const st = chStats(ny.pack);
  row('NY nodes / arcs', `${g.nodeCount} / ${arcs}`);
  row(
    'NY CH preprocessing (contraction, in build-pack)',
    `${(built.chMs / 1000).toFixed(1)} s (${st.count} hierarchy)`,
    '≤ 120 s',
    built.chMs / 120000,
  );
  row('NY whole pack build (read, pair, contract, write)', `${(built.buildMs / 1000).toFixed(1)} s`);
  row('NY CH bytes per arc (pack)', (st.bytes / arcs).toFixed(1));
  row(
    'NY engine load of the CH (arc costs + record sums)',
    `${load.toFixed(0)} ms ${ctx.ch ? (ctx.ch.edgeBased ? 'edge-based' : 'node-based') : 'NO CH'}`,
  );
  const rand = rng(2024);
  const node = () => Math.floor(rand() * g.nodeCount);
  const pairs: [number, number][] = [];
  while (pairs.length < 250) pairs.push([node(), node()]);
  const warm = Array.from({ length: 150 }, () => [node(), node()] as [number, number]);
  const want = pairs.map(([s, d]) => plainDijkstra(g, s, d));
  const wrong = (got: number[]) =>
    want.filter((w, i) => Math.round(w) !== got[i] && !(w === Infinity && got[i] === -1)).length;

  const chRun = nyDirections(engine, g, pairs, warm);
  const ours = chRun.ms;
  row('NY direction p50', `${pct(ours, 50).toFixed(3)} ms`, '≤ 1 ms', pct(ours, 50) / 1);
  row('NY direction p99', `${pct(ours, 99).toFixed(3)} ms`, '≤ 5 ms', pct(ours, 99) / 5);
  const bad = wrong(chRun.got);
  row('NY distances differing from plain Dijkstra', `${bad} of ${pairs.length}`, '0', bad === 0 ? 0 : Infinity);

  // The same queries on the same graph routed by the customizable hierarchy (pack without hierarchies).
  const cchBuilt = await nyCchPack();
  const nyCch = new Region(Pack.from(cchBuilt.bytes));
  const cchEngine = new Engine([nyCch]);
  t = performance.now();
  routerOf(nyCch).context(0, 'fastest').cch();
  const customize = performance.now() - t;
  row(
    'NY CCH: pack / build / first customization',
    `${(cchBuilt.bytes.byteLength / 1e6).toFixed(1)} MB / ${(cchBuilt.buildMs / 1000).toFixed(1)} s / ${customize.toFixed(0)} ms`,
  );
  const cchRun = nyDirections(cchEngine, nyCch.graph, pairs, warm);
  const cchCore = cchEngine.info().packs[0]!.routeCore.customizable;
  row('NY CCH search', cchCore ? `${cchCore.core}${cchCore.reason ? ` (${cchCore.reason})` : ''}` : 'none made');
  const cchBad = wrong(cchRun.got);
  row('NY CCH direction p50', `${pct(cchRun.ms, 50).toFixed(3)} ms`, '≤ 1 ms', pct(cchRun.ms, 50) / 1);
  row('NY CCH direction p99', `${pct(cchRun.ms, 99).toFixed(3)} ms`, '≤ 5 ms', pct(cchRun.ms, 99) / 5);
  row(
    'NY CCH distances differing from plain Dijkstra',
    `${cchBad} of ${pairs.length}`,
    '0',
    cchBad === 0 ? 0 : Infinity,
  );

  // ngraph.path NBA* with a haversine / best-metres-per-metre heuristic (admissible).
  const ng = createGraph<{ lat: number; lon: number }, { w: number }>();
  for (let v = 0; v < g.nodeCount; v++) ng.addNode(v, { lat: g.lat(v), lon: g.lon(v) });
  let ratio = Infinity;
  for (let a = 0; a < 2 * g.edgeCount; a++) {
    if (speedOf(speeds, a >> 1, 0, a & 1) === 0) continue;
    const u = g.edgeNodes[(a & ~1) + (a & 1)]!,
      x = g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
    ng.addLink(u, x, { w: g.edgeLen[a >> 1]! });
    const h = haversine(g.lat(u), g.lon(u), g.lat(x), g.lon(x));
    if (h > 0) ratio = Math.min(ratio, g.edgeLen[a >> 1]! / h);
  }
  ratio *= 0.99;
  const finder = nba(ng, {
    oriented: true,
    distance: (_a, _b, link) => link.data.w,
    heuristic: (a, b) => ratio * haversine(a.data.lat, a.data.lon, b.data.lat, b.data.lon),
  });
  const theirs: number[] = [];
  for (const [s, d] of pairs) {
    t = performance.now();
    finder.find(s, d);
    theirs.push(performance.now() - t);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  row('ngraph.path NBA* p50 / mean', `${pct(theirs, 50).toFixed(2)} / ${mean(theirs).toFixed(2)} ms`);
  for (const [name, xs] of [
    ['', ours],
    ['CCH ', cchRun.ms],
  ] as const) {
    const r50 = pct(theirs, 50) / pct(xs, 50),
      rMean = mean(theirs) / mean(xs);
    row(`${name}speed vs NBA*, p50 / p50`, `${r50.toFixed(1)}×`, '≥ 40×', 40 / r50);
    row(`${name}speed vs NBA*, mean / mean`, `${rMean.toFixed(1)}×`, '≥ 40×', 40 / rMean);
  }

  const m100 = (reg: Region, seed: number) => {
    const [minLon, minLat, maxLon, maxLat] = reg.meta.bbox!;
    const r = rng(seed);
    const list = () =>
      Array.from(
        { length: 100 },
        () => `${minLat + (0.15 + 0.7 * r()) * (maxLat - minLat)},${minLon + (0.15 + 0.7 * r()) * (maxLon - minLon)}`,
      ).join('|');
    const e = new Engine([reg]);
    // Warm-up on other point sets (the first call runs in the interpreter: reported as "first call").
    let t0 = performance.now();
    const warm = list();
    e.distanceMatrix({ origins: warm, destinations: warm });
    const first = performance.now() - t0;
    for (let k = 0; k < 4; k++) {
      const w = list();
      e.distanceMatrix({ origins: w, destinations: w });
    }
    const pts = list();
    const times: number[] = [];
    let status = '';
    for (let k = 0; k < 5; k++) {
      t0 = performance.now();
      status = e.distanceMatrix({ origins: pts, destinations: pts }).status;
      times.push(performance.now() - t0);
    }
    return { ms: pct(times, 50), status, first };
  };
  // Hanoi as `build-pack` builds it (the customizable hierarchy), and with the hierarchies of `--ch` beside it.
  const hanoi = new Region(Pack.from(testPack('hanoi')));
  const hanoiCh = new Region(Pack.from(testPack('hanoi', { hierarchies: true })));
  const he = new Engine([hanoi]);
  const [minLon, minLat, maxLon, maxLat] = hanoi.meta.bbox!;
  const hr = rng(5);
  const hp = () =>
    `${minLat + (0.15 + 0.7 * hr()) * (maxLat - minLat)},${minLon + (0.15 + 0.7 * hr()) * (maxLon - minLon)}`;
  const hq = Array.from({ length: 250 }, () => [hp(), hp()] as const);
  // Warm-up on other pairs.
  for (let k = 0; k < 150; k++) he.direction({ origin: hp(), destination: hp() });
  const ht: number[] = [];
  for (const [o, d] of hq) {
    t = performance.now();
    he.direction({ origin: o, destination: d });
    ht.push(performance.now() - t);
  }
  row('Hanoi direction p50', `${pct(ht, 50).toFixed(3)} ms`, '≤ 0.5 ms', pct(ht, 50) / 0.5);
  row('Hanoi direction p99', `${pct(ht, 99).toFixed(3)} ms`);
  const hst = chStats(hanoiCh.pack);
  row(
    'Hanoi --ch: CH bytes per arc (pack, all hierarchies)',
    `${(hst.bytes / (2 * hanoiCh.graph.edgeCount)).toFixed(1)} (${hst.count} hierarchies, ${(hst.bytes / 1e6).toFixed(2)} MB; pack ${(hanoiCh.pack.byteLength / 1e6).toFixed(2)} MB, ${(hanoi.pack.byteLength / 1e6).toFixed(2)} MB without)`,
  );
  for (const [name, reg, seed, target] of [
    ['Hanoi', hanoi, 9, 30],
    ['Hanoi --ch', hanoiCh, 9, 30],
    ['NY', ny, 10, 300],
    ['NY CCH', nyCch, 10, 300],
  ] as const) {
    const m = m100(reg, seed);
    row(
      `${name} matrix 100×100 (median of 5)`,
      `${m.ms.toFixed(1)} ms (${m.status}; first call ${m.first.toFixed(0)} ms)`,
      `≤ ${target} ms`,
      m.ms / target,
    );
  }
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(
    `| ${'metric'.padEnd(widths[0]!)} | ${'measured'.padEnd(widths[1]!)} | ${'target'.padEnd(widths[2]!)} | measured/target`,
  );
  for (const r of rows)
    console.log(`| ${r[0].padEnd(widths[0]!)} | ${r[1].padEnd(widths[1]!)} | ${r[2].padEnd(widths[2]!)} | ${r[3]}`);
}

await main();
