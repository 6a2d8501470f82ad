/**
 * One routing structure for every vehicle (issue: customizable contraction hierarchies) raced against today's
 * per-vehicle contraction hierarchies, side by side in one run on the same packs and pairs.
 *
 * Per pack (default: Hanoi and the whole of Ho Chi Minh City, `hcmc-2018-01-01.osm.pbf`; CCH_PACKS names test
 * regions, comma-separated; CCH_FILES pack files): the CCH's metric-independent build (turn tables, state graph, nested-dissection order,
 * shortcut topology; CPU ms), its size (states, shortcut arcs, the bytes a pack would store: the order, 4 B per
 * state; the bytes in memory: the topology; per customized metric its kept arcs, per topology arc) against the bytes of the pack's
 * hierarchies (`ch.*` sections); the customization of each vehicle × weighting (CPU ms); then CCH_PAIRS random
 * pairs per metric (default 300), each answered by today's router in TypeScript, today's router with the
 * WebAssembly core, and the CCH (elimination-tree query, path unpacked, measured by the same Router.measure):
 * medians and p99 of each, their ratios, and the pairs whose weights differ (relative 1e-9; 0 expected). Then per
 * metric a distance matrix of CCH_MATRIX × CCH_MATRIX random points (default 100), CCH_MATRIX_RUNS times (default 15),
 * by today's Router.table (stored hierarchies, WebAssembly core; runs up to 3 s where it has no hierarchy) and by the
 * CCH's many-to-many (CchTable, made once per metric: its CPU ms and bytes per topology arc), alternately: medians,
 * their ratio, the cells whose weights differ.
 *
 * Run: npm run bench -- cch   (builds the test packs when not cached).
 */
import { readFileSync } from 'node:fs';
import { Pack } from '../src/pack/reader.js';
import { ArcCosts, type Weighting } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { PROFILE_COUNT, VEHICLES } from '../src/route/profiles.js';
import { Router } from '../src/route/router.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { buildCch } from '../src/route/cch/build.js';
import { CchMetric } from '../src/route/cch/customize.js';
import { CchQuery } from '../src/route/cch/query.js';
import { CchTable } from '../src/route/cch/table.js';
import { testPack, type TestRegion } from '../test/helpers/packs.js';
import { randomEndpoints } from '../test/helpers/route-reference.js';
import { median, quantile, table } from './stats.js';

const regions = (process.env.CCH_PACKS ?? 'hanoi,hcmc-city').split(',').filter(Boolean) as TestRegion[];
/** Pack files to race as well (e.g. bench/route.ts's DIMACS New York pack in .cache/). */
const files = (process.env.CCH_FILES ?? '').split(',').filter(Boolean);
const pairs = Number(process.env.CCH_PAIRS ?? 300);
const side = Number(process.env.CCH_MATRIX ?? 100);
const runs = Number(process.env.CCH_MATRIX_RUNS ?? 15);
const MB = 1024 * 1024;

/** CPU milliseconds of a call, and its result. */
function cpu<T>(f: () => T): [T, number] {
  const a = process.cpuUsage();
  const out = f();
  const d = process.cpuUsage(a);
  return [out, (d.user + d.system) / 1000];
}

/**
 * Today's Router.table and the CCH's many-to-many on the same side × side random points of one metric, alternately
 * (each first call warms its side up and is not counted): medians, their ratio, cells whose weights differ.
 */
function matrixRace(
  router: Router,
  metric: CchMetric,
  p: number,
  weighting: Weighting,
): Record<string, string | number> {
  // The measures are made when a table first needs them: made here, so that tableMs counts them.
  const [tab, tableMs] = cpu(() => {
    const t = new CchTable(metric);
    void t.measures;
    return t;
  });
  const bytes = tab.measures.byteLength;
  const ends = randomEndpoints(metric.costs.graph, router, p, 2 * side, 31 + p);
  const origins = ends.slice(0, side),
    dests = ends.slice(side);
  const cells = side * side;
  const cch = () => {
    const out = { weight: new Float64Array(cells), dur: new Float64Array(cells), dist: new Float64Array(cells) };
    tab.table(origins, dests, out);
    return out;
  };
  const times = { today: [] as number[], cch: [] as number[] };
  let a = router.table(origins, dests, p, weighting),
    b = cch();
  for (let r = 0; r < runs; r++) {
    // Today's searches without a hierarchy (Dijkstra per origin) take seconds: a few runs make their median.
    let t = performance.now();
    if (times.today.reduce((x, y) => x + y, 0) < 3000) {
      a = router.table(origins, dests, p, weighting);
      times.today.push(performance.now() - t);
    }
    t = performance.now();
    b = cch();
    times.cch.push(performance.now() - t);
  }
  let differ = 0;
  for (let k = 0; k < cells; k++) {
    const x = a.weight[k]!,
      y = b.weight[k]!;
    if (x !== y && Math.abs(x - y) > 1e-9 * Math.max(1, x)) differ++;
  }
  return {
    'CCH table CPU ms (make)': Math.round(tableMs),
    'CCH table B/arc': (bytes / metric.topo.arcs).toFixed(1),
    'today p50': median(times.today),
    'CCH p50': median(times.cch),
    'CCH / today': median(times.cch) / median(times.today),
    'weights differ': differ,
  };
}

await loadWasmCore();
const sizes: Record<string, string | number>[] = [];
const races: Record<string, string | number>[] = [];
const matrices: Record<string, string | number>[] = [];
for (const region of [...regions, ...files]) {
  const bytes = files.includes(region)
    ? new Uint8Array(readFileSync(region))
    : testPack(region as TestRegion, { hierarchies: true });
  const pack = Pack.from(bytes);
  const g = new RoadGraph(pack);
  let km = 0;
  for (let e = 0; e < g.edgeCount; e++) km += g.edgeLen[e]! / 1000;
  let chBytes = 0;
  for (const s of pack.sections.values()) if (s.name.startsWith('ch.')) chBytes += s.byteLength;
  const [cch, buildMs] = cpu(() => buildCch(g));
  const { topo, states } = cch;
  const topoBytes =
    topo.upFirst.byteLength +
    topo.upHead.byteLength +
    topo.parent.byteLength +
    topo.rankOf.byteLength +
    topo.stateOf.byteLength;
  sizes.push({
    pack: region,
    'km of road': Math.round(km),
    states: states.size,
    'CCH arcs': topo.arcs,
    'CCH build CPU ms': Math.round(buildMs),
    'hierarchies MB (pack)': (chBytes / MB).toFixed(2),
    'CCH order MB (pack)': ((4 * states.size) / MB).toFixed(2),
    'hierarchies B/km': Math.round(chBytes / km),
    'CCH order B/km': Math.round((4 * states.size) / km),
    'CCH topology MB (memory)': (topoBytes / MB).toFixed(1),
  });
  const ts = new Router(g, pack, { wasm: false });
  const wasm = new Router(g, pack);
  for (let p = 0; p < PROFILE_COUNT; p++)
    for (const weighting of ['fastest', 'shortest'] as Weighting[]) {
      const ctx = ts.context(p, weighting);
      const costs = new ArcCosts(g, p, weighting);
      const [metric, customizeMs] = cpu(() => new CchMetric(topo, states, costs));
      const q = new CchQuery(metric);
      let metricBytes = 0;
      for (const a of [metric.up, metric.down])
        metricBytes += Object.values(a).reduce((s, x: ArrayBufferView) => s + x.byteLength, 0);
      const ends = randomEndpoints(g, ts, p, 2 * pairs, 11 + p);
      const times = { ts: [] as number[], wasm: [] as number[], cch: [] as number[] };
      let differ = 0;
      for (let i = 0; i + 1 < ends.length; i += 2) {
        const [a, b] = [ends[i]!, ends[i + 1]!];
        let t = performance.now();
        const l1 = ts.leg(a, b, p, weighting);
        times.ts.push(performance.now() - t);
        t = performance.now();
        const l2 = wasm.leg(a, b, p, weighting);
        times.wasm.push(performance.now() - t);
        t = performance.now();
        const path = q.route(a, b);
        const l3 = path ? ts.measure(path, ctx) : null;
        times.cch.push(performance.now() - t);
        const w = [l1?.weight ?? Infinity, l2?.weight ?? Infinity, l3?.weight ?? Infinity];
        if (w.some((x) => Math.abs(x - w[0]!) > 1e-9 * Math.max(1, w[0]!) && x !== w[0])) differ++;
      }
      races.push({
        pack: region,
        metric: `${VEHICLES[p]} ${weighting}`,
        'customize CPU ms': Math.round(customizeMs),
        'metric B/arc': (metricBytes / topo.arcs).toFixed(1),
        'metric MB': (metricBytes / MB).toFixed(1),
        'today TS p50': median(times.ts),
        'today wasm p50': median(times.wasm),
        'CCH p50': median(times.cch),
        'CCH / wasm p50': median(times.cch) / median(times.wasm),
        'today TS p99': quantile(times.ts, 0.99),
        'today wasm p99': quantile(times.wasm, 0.99),
        'CCH p99': quantile(times.cch, 0.99),
        'weights differ': differ,
      });
      matrices.push({ pack: region, metric: `${VEHICLES[p]} ${weighting}`, ...matrixRace(wasm, metric, p, weighting) });
    }
}
table('CCH structure against the per-vehicle hierarchies', sizes);
table(`legs, ${pairs} random pairs per metric (ms, warm after the first pairs)`, races);
table(`distance matrix ${side} × ${side} (ms, ${runs} runs, alternately)`, matrices);
