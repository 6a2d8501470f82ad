/**
 * Build-scale bench (issue 14): builds packs from deterministic synthetic OSM inputs of growing size (the DIMACS New
 * York graph written as OSM, then k × k tiled copies joined at their borders: bench/scale/input.ts) and reports, per
 * size: wall time and peak RSS per build stage (the hierarchies are contracted in parallel worker threads, a stage
 * per round: the first, then each overlay round of cell-wise hierarchies; the builder's thread extracts places, the
 * basemap and the stored indexes during the first round, so those stages' CPU time includes the workers'), pack
 * size, engine load time, per hierarchy its core size and query p50 / p99 through the TypeScript and the WebAssembly
 * router (interleaved) and through engine.direction, and exactness against a plain edge-based Dijkstra (one per
 * origin for all destinations); then the growth exponent of each stage between sizes.
 *
 * Each size builds in its own process, then loads and queries the pack in another, so each peak RSS is its own.
 * Generated inputs are cached in .cache/build-scale/ (git-ignored; made again when the generator's version changes).
 *
 * Run: npx tsx bench/build-scale.ts   (or npm run bench -- build-scale). Environment:
 * - BUILD_SCALE_TILES: tiles per side, comma-separated (default "1,2,4": 264 k, 1.06 M and 4.2 M nodes).
 * - BUILD_SCALE_DIMACS: folder with USA-road-d.NY.gr.gz, USA-road-t.NY.gr.gz and USA-road-d.NY.co.gz (default the
 *   shared NY files); a cut-out of them gives quick runs.
 * - BUILD_SCALE_PAIRS: pairs checked and timed per hierarchy (default 256), from BUILD_SCALE_ORIGINS origins (one
 *   plain Dijkstra each) to pairs ÷ origins destinations each. Default origins: 16, or 2 on graphs of more than
 *   1.5 M nodes, where one plain Dijkstra takes minutes (about 10 s on NY as OSM's 666 k states).
 * - BUILD_SCALE_CH=0: build without hierarchies (as build-pack builds by default), for the builder's other stages
 *   and loading at sizes where contraction takes hours: the pack stores the customizable hierarchy's order instead,
 *   and queries are then the CCH's (car, its metric customized at the first query), reported as hierarchy -1.
 * - BUILD_SCALE_CELLS: contract every hierarchy cell-wise with cells of at most this many states (data-tools/
 *   ch-partition.ts; default: PARTITION decides), to compare cell sizes; the pack file is named after it.
 * - BUILD_SCALE_CELL_CORE: "fraction,degree", when a cell stops (ch-partition.ts CellCoreRule; default
 *   PARTITION.cellCore); "0,Infinity" contracts each cell's interior to its last state.
 * - BUILD_SCALE_THREADS: contraction threads (default: contractAll's).
 */
import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { osmPack } from '../data-tools/build-pack.js';
import { writePackFile } from '../data-tools/pack-file.js';
import { Progress } from '../data-tools/progress.js';
import { createEngine, type Engine } from '../src/engine.js';
import { loadPack } from '../src/pack/load.js';
import { RoadGraph } from '../src/route/graph.js';
import { VEHICLES } from '../src/route/profiles.js';
import type { MetricExchange, MetricPart } from '../src/route/cch/exchange.js';
import { Router } from '../src/route/router.js';
import { loadWasmCore, wasmLoadFailure } from '../src/route/wasm/load.js';
import { PlainDijkstra, randomEndpoints } from '../test/helpers/route-reference.js';
import { scaleInput } from './scale/input.js';
import { quantile, table } from './stats.js';

const SELF = fileURLToPath(import.meta.url);
const SHARED_DIMACS = fileURLToPath(new URL('../../shared/data/dimacs/', import.meta.url));
const CACHE = fileURLToPath(new URL('../.cache/build-scale/', import.meta.url));
const MARK = 'BUILD-SCALE-RESULT ';

/**
 * One build stage: its progress label, wall and CPU milliseconds (CPU: user + system of this process, which on a
 * loaded machine tracks the work better than wall time), and the process's peak RSS (MB) when it ended.
 */
interface Stage {
  name: string;
  ms: number;
  cpuMs: number;
  peakMb: number;
}

/** What building one size measured (in the build's own process). */
interface BuildResult {
  tiles: number;
  nodes: number;
  ways: number;
  inputMb: number;
  generateMs: number;
  stages: Stage[];
  buildMs: number;
  buildCpuMs: number;
  peakMb: number;
  packMb: number;
  /** The pack written. */
  file: string;
  /** Wall ms of contracting all hierarchies (the stages of all rounds: they run in parallel worker threads). */
  contractMs: number;
}

/** What loading and querying one size's pack measured (in a process of its own). */
interface QueryResult {
  /** createEngine's wall ms, and the resident memory it added (MB). */
  loadMs: number;
  loadRssMb: number;
  /** The query process's peak RSS (MB). */
  queryPeakMb: number;
  /**
   * A pack without hierarchies: the CCH's first customization (the car's: its topology from the stored order, then
   * the metric), wall and CPU ms, the topology's arcs and the metric's kept arcs (both directions), the process's peak
   * RSS (MB) by then and its RSS once the customization's working blocks are freed; its RSS once the queries are
   * timed (the engine's CCH adopted, its snapping index made), before the plain Dijkstras; null with hierarchies.
   */
  customization: {
    ms: number;
    cpuMs: number;
    topologyArcs: number;
    keptArcs: number;
    rssMb: number;
    peakMb: number;
    routedRssMb: number;
  } | null;
  hierarchies: {
    id: number;
    profile: number;
    records: number;
    /** Uncontracted states (0: a full hierarchy) and its landmarks. */
    core: number;
    landmarks: number;
    /** Query times (ms) through the TypeScript and the WebAssembly router (a core hierarchy runs in TypeScript). */
    p50: number;
    p99: number;
    wasmP50: number;
    wasmP99: number;
    /** Time (ms) of engine.direction between the same points, as an application sees it. */
    apiP50: number;
    apiP99: number;
    pairs: number;
    /** Pairs whose weight differs from plain Dijkstra, in either router. */
    differ: number;
    /** Why the WebAssembly router would answer in TypeScript (Router.coreInfo; then not timed), or null. */
    wasmFallback: string | null;
  }[];
}

type SizeResult = BuildResult & QueryResult;

/** Records each progress step's start; a stage ends where the next one starts. */
class StageClock extends Progress {
  readonly marks: { name: string; t: number; cpu: number; peakMb: number }[] = [];
  override step(phase: string): void {
    this.marks.push({ name: phase, t: performance.now(), cpu: cpuMs(), peakMb: peakMb() });
    super.step(phase);
  }
  override done(summary: string): void {
    this.marks.push({ name: 'done', t: performance.now(), cpu: cpuMs(), peakMb: peakMb() });
    super.done(summary);
  }
}

/** CPU time of this process so far (user + system), ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The process's peak resident set so far, MB. */
function peakMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** Builds the pack of k × k tiles (in this process, so the peak RSS is the build's) and writes it to a file. */
async function buildSize(k: number, dimacs: string): Promise<BuildResult> {
  const cache = `${CACHE}${dimacs === SHARED_DIMACS ? 'ny' : basename(dimacs.replace(/\/$/, ''))}/`;
  let t0 = performance.now();
  const input = await scaleInput(k, dimacs, cache);
  const generateMs = performance.now() - t0;
  const clock = new StageClock(process.stderr, !process.env.BUILD_SCALE_VERBOSE);
  t0 = performance.now();
  const c0 = cpuMs();
  const cells = process.env.BUILD_SCALE_CELLS ? Number(process.env.BUILD_SCALE_CELLS) : undefined;
  const threads = process.env.BUILD_SCALE_THREADS ? Number(process.env.BUILD_SCALE_THREADS) : undefined;
  const [fraction, degree] = (process.env.BUILD_SCALE_CELL_CORE ?? '').split(',').map(Number);
  const cellCore = degree === undefined ? undefined : { fraction: fraction!, degree };
  const built = osmPack({
    inputs: [input.file],
    name: `ny-${k}x${k}`,
    progress: clock,
    hierarchies: process.env.BUILD_SCALE_CH !== '0',
    contraction: { cellStates: cells, threads, cellCore },
  });
  const cellName = cells ? `-cells${cells}${cellCore ? `-${fraction}-${degree}` : ''}` : '';
  const file = `${cache}ny-${k}x${k}${cellName}.pack`;
  // Written section by section, as `bando build-pack` does: a pack past 4 GiB fits no one buffer (format version 2).
  writePackFile(built, file);
  const buildMs = performance.now() - t0;
  const buildCpuMs = cpuMs() - c0;
  const stages: Stage[] = [];
  for (let i = 0; i + 1 < clock.marks.length; i++) {
    const m = clock.marks[i]!,
      next = clock.marks[i + 1]!;
    const name = m.name
      .replace(/ \(.*$/, '')
      .replace(/ (of )?[^ ]*\.(pbf|osm)$/, '')
      .split(':')[0]!;
    stages.push({ name, ms: next.t - m.t, cpuMs: next.cpu - m.cpu, peakMb: next.peakMb });
  }
  const contractMs = stages.filter((s) => s.name.startsWith('contracting ')).reduce((x, s) => x + s.ms, 0);
  return {
    tiles: input.tiles,
    nodes: input.nodes,
    ways: input.ways,
    inputMb: input.bytes / 1e6,
    generateMs,
    stages,
    buildMs,
    buildCpuMs,
    peakMb: peakMb(),
    packMb: statSync(file).size / 1e6,
    file,
    contractMs,
  };
}

/**
 * Loads the pack `file` and queries it (in a process of its own, after the build's has ended): engine load time and
 * resident memory, then per hierarchy the routers and engine.direction against plain Dijkstra (one search per origin
 * for all its destinations, PlainDijkstra.toMany). Each hierarchy gets its own engine, pack and routers, so that one
 * vehicle's records and weights are resident at a time (a 4 × 4 hierarchy: about 3.7 GB per router). The WebAssembly
 * router is timed only where its vehicle fits in the core's memory (else it would time TypeScript again).
 */
async function querySize(file: string, pairs: number, originsEnv: number | undefined): Promise<QueryResult> {
  // The engine below routes in TypeScript; the WebAssembly router needs the core loaded.
  if (!(await loadWasmCore())) throw new Error(`build-scale: ${wasmLoadFailure()}`);
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  // The engine and the routers below share the CCH they customize (a pack without hierarchies), as `bando serve`'s
  // workers do, so the process holds it once.
  const metrics = metricExchange();
  let engine: Engine | null = await createEngine({ packs: [file], wasm: false, metrics });
  const loadMs = performance.now() - t0;
  const loadRssMb = (process.memoryUsage().rss - rss0) / 2 ** 20;
  type Entry = { id: number; profiles: number[]; records: number; core?: number; landmarks?: number };
  const index = await loadPack(file, { verify: false });
  // A pack built without hierarchies (BUILD_SCALE_CH=0) is timed once, by the CCH for the first vehicle.
  const list = index.has('ch.index')
    ? index.json<{ list: Entry[] }>('ch.index').list
    : [{ id: -1, profiles: [0], records: 0 } as Entry];
  const hierarchies: QueryResult['hierarchies'] = [];
  let customization: QueryResult['customization'] = null;
  for (const h of list) {
    engine ??= await createEngine({ packs: [file], wasm: false, metrics });
    const pack = await loadPack(file, { verify: false });
    const g = new RoadGraph(pack);
    const ts = new Router(g, pack, { wasm: false });
    ts.exchange = metrics;
    const profile = h.profiles[0]!;
    // The CCH is made by a router that searches it in WebAssembly, in the memory it lays it in (cch-arena.ts), and
    // offered to the TypeScript router and the engine, which read it in place: the process holds it once.
    const cchWasm = h.id < 0 ? new Router(g, pack, { wasm: true }) : null;
    if (cchWasm) cchWasm.exchange = metrics;
    if (cchWasm) {
      const [t, c] = [performance.now(), cpuMs()];
      const q = cchWasm.context(profile).cch()!;
      const { up, down } = q.metric;
      customization = {
        ms: performance.now() - t,
        cpuMs: cpuMs() - c,
        topologyArcs: q.metric.topo.arcs,
        keptArcs: up.weight.length + down.weight.length,
        rssMb: 0,
        peakMb: peakMb(),
        routedRssMb: 0,
      };
      // The working blocks of the topology and the customization are freed once the event loop turns twice
      // (scratch.ts release): what a server holds between requests.
      for (let i = 0; i < 2; i++) await new Promise((r) => setTimeout(r, 10));
      customization.rssMb = process.memoryUsage().rss / 2 ** 20;
      // Said at once: on a big pack the plain Dijkstras below take many minutes more.
      console.error(`build-scale: first CCH customization ${JSON.stringify(customization)}`);
    }
    let wasm: Router | null = cchWasm ?? new Router(g, pack, { wasm: true });
    const cchCore = cchWasm && {
      ...cchWasm.coreInfo().customizable!,
      ...(!cchWasm.context(profile).cch()!.inWasm && {
        core: 'typescript',
        reason: 'its kept arcs or labels found no room in the WebAssembly memory',
      }),
    };
    const info = cchWasm || wasm.core(profile) === 'wasm' ? null : wasm.coreInfo();
    const wasmFallback = cchCore
      ? cchCore.core === 'wasm'
        ? null
        : `the customizable hierarchy routes in TypeScript: ${cchCore.reason}`
      : info && (info.reason ?? info.inTypeScript?.join('; ') ?? null);
    if (wasmFallback !== null) wasm = null;
    const routers = wasm ? [ts, wasm] : [ts];
    const O = originsEnv ?? (g.nodeCount > 1_500_000 ? 2 : 16);
    const pts = randomEndpoints(g, ts, profile, O + Math.ceil(pairs / O), 14 + h.id);
    const origins = pts.slice(0, O),
      dests = pts.slice(O);
    // Warm-up on other points, so timed queries run JIT-compiled code.
    const warm = randomEndpoints(g, ts, profile, 40, 99);
    for (const router of routers)
      for (let i = 0; i + 1 < warm.length; i += 2) router.leg(warm[i]!, warm[i + 1]!, profile);
    const plain = new PlainDijkstra(g, profile, 'fastest');
    const times: number[][] = [[], []];
    const api: number[] = [];
    const vehicle = VEHICLES[profile]!;
    const at = (p: { lat: number; lon: number }) => `${p.lat},${p.lon}`;
    for (let i = 0; i + 1 < warm.length; i += 2)
      engine.direction({ origin: at(warm[i]!), destination: at(warm[i + 1]!), vehicle });
    if (customization) customization.routedRssMb = process.memoryUsage().rss / 2 ** 20;
    let differ = 0;
    for (const a of origins) {
      // One plain Dijkstra per origin serves all its destinations.
      const wants = plain.toMany(a, dests);
      for (const [j, b] of dests.entries()) {
        const want = wants[j]!;
        // The routers interleaved, pair by pair, so load on the machine hits both alike.
        routers.forEach((router, r) => {
          const t = performance.now();
          const leg = router.leg(a, b, profile);
          times[r]!.push(performance.now() - t);
          const got = leg ? leg.weight : Infinity;
          if (want === Infinity ? got !== Infinity : Math.abs(got - want) > 1e-6 * Math.max(1, want)) differ++;
        });
        // The same pair through the engine API (it snaps the coordinates again; timed only).
        const t = performance.now();
        engine.direction({ origin: at(a), destination: at(b), vehicle });
        api.push(performance.now() - t);
      }
    }
    const q = (x: number[], p: number) => (x.length > 0 ? quantile(x, p) : NaN);
    hierarchies.push({
      id: h.id,
      profile,
      records: h.records,
      core: h.core ?? 0,
      landmarks: h.landmarks ?? 0,
      p50: q(times[0]!, 0.5),
      p99: q(times[0]!, 0.99),
      wasmP50: q(times[1]!, 0.5),
      wasmP99: q(times[1]!, 0.99),
      apiP50: q(api, 0.5),
      apiP99: q(api, 0.99),
      pairs: times[0]!.length,
      differ,
      wasmFallback,
    });
    engine = null;
  }
  return { loadMs, loadRssMb, queryPeakMb: peakMb(), customization, hierarchies };
}

/** A MetricExchange within one process: the first router to make a part offers it to the others. */
function metricExchange(): MetricExchange {
  const parts = new Map<string, MetricPart>();
  return {
    offer: (key) => parts.get(key),
    adopted: () => {},
    published: (key, part) => void parts.set(key, part),
  };
}

/** Milliseconds with 3 decimals; "—" for a quantile not taken (NaN, which JSON carries as null). */
function ms(x: number | null): string {
  return x !== null && Number.isFinite(x) ? x.toFixed(3) : '—';
}

/** log(b / a) ÷ log(nb / na): how a cost grows with the node count. */
function exponent(a: number, b: number, na: number, nb: number): string {
  return a > 0 && b > 0 ? (Math.log(b / a) / Math.log(nb / na)).toFixed(2) : '';
}

/** Runs this file with `args` in a child process and returns the result it prints. */
function child<T>(...args: string[]): T {
  const out = execFileSync(process.execPath, ['--import', 'tsx', SELF, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = out.split('\n').find((l) => l.startsWith(MARK));
  if (!line) throw new Error(`build-scale ${args.join(' ')}: no result`);
  return JSON.parse(line.slice(MARK.length)) as T;
}

async function main(): Promise<void> {
  const dimacs = process.env.BUILD_SCALE_DIMACS
    ? `${process.env.BUILD_SCALE_DIMACS.replace(/\/$/, '')}/`
    : SHARED_DIMACS;
  const pairs = Number(process.env.BUILD_SCALE_PAIRS ?? 256);
  const origins = process.env.BUILD_SCALE_ORIGINS ? Number(process.env.BUILD_SCALE_ORIGINS) : undefined;
  const size = process.argv.indexOf('--size');
  if (size >= 0) {
    console.log(MARK + JSON.stringify(await buildSize(Number(process.argv[size + 1]), dimacs)));
    return;
  }
  const query = process.argv.indexOf('--query');
  if (query >= 0) {
    console.log(MARK + JSON.stringify(await querySize(process.argv[query + 1]!, pairs, origins)));
    return;
  }
  const sizes = (process.env.BUILD_SCALE_TILES ?? '1,2,4').split(',').map(Number);
  const results: SizeResult[] = [];
  for (const k of sizes) {
    console.log(`\n# ${k} × ${k} tiles`);
    const built = child<BuildResult>('--size', String(k));
    const r: SizeResult = { ...built, ...child<QueryResult>('--query', built.file) };
    results.push(r);
    table(
      `${k} × ${k} tiles: ${r.nodes} nodes, ${r.ways} ways, input ${r.inputMb.toFixed(1)} MB (generated in ${(r.generateMs / 1000).toFixed(1)} s)`,
      r.stages.map((s) => ({
        stage: s.name,
        'wall s': s.ms / 1000,
        'CPU s': s.cpuMs / 1000,
        'peak RSS MB': Math.round(s.peakMb),
      })),
    );
    table('pack and queries', [
      {
        what: 'whole build',
        value: `${(r.buildMs / 1000).toFixed(1)} s wall, ${(r.buildCpuMs / 1000).toFixed(1)} s CPU, peak RSS ${Math.round(r.peakMb)} MB`,
      },
      { what: 'pack size', value: `${r.packMb.toFixed(2)} MB` },
      {
        what: 'createEngine (no WASM)',
        value: `${r.loadMs.toFixed(0)} ms, resident memory +${Math.round(r.loadRssMb)} MB`,
      },
      { what: 'query process', value: `peak RSS ${Math.round(r.queryPeakMb)} MB` },
      { what: 'contracting all hierarchies', value: `${(r.contractMs / 1000).toFixed(1)} s wall` },
      ...(r.customization
        ? [
            {
              what: 'first CCH customization (car)',
              value: `${(r.customization.ms / 1000).toFixed(1)} s wall, ${(r.customization.cpuMs / 1000).toFixed(1)} s CPU (topology and metric); ${r.customization.topologyArcs} topology arcs, ${r.customization.keptArcs} kept arcs; peak RSS ${Math.round(r.customization.peakMb)} MB, ${Math.round(r.customization.rssMb)} MB once its working blocks are freed, ${Math.round(r.customization.routedRssMb)} MB once queried`,
            },
          ]
        : []),
      ...r.hierarchies.map((h) => ({
        what: `hierarchy ${h.id} (profile ${h.profile})`,
        value: `${h.records} records, core ${h.core} states (${h.landmarks} landmarks); leg p50 / p99 TypeScript ${ms(h.p50)} / ${ms(h.p99)} ms, WebAssembly router ${ms(h.wasmP50)} / ${ms(h.wasmP99)} ms, engine.direction ${ms(h.apiP50)} / ${ms(h.apiP99)} ms; ${h.differ} of ${h.pairs} differ from plain Dijkstra${h.wasmFallback ? ` (the WebAssembly router fell back to TypeScript: ${h.wasmFallback})` : ''}`,
      })),
    ]);
  }
  for (let i = 1; i < results.length; i++) {
    const a = results[i - 1]!,
      b = results[i]!;
    const rows: Record<string, string>[] = [];
    const names = [...new Set(b.stages.map((s) => s.name))];
    for (const name of names) {
      const sum = (r: SizeResult, f: (s: Stage) => number) =>
        r.stages.filter((s) => s.name === name).reduce((x, s) => x + f(s), 0);
      rows.push({
        stage: name,
        exponent: exponent(
          sum(a, (s) => s.ms),
          sum(b, (s) => s.ms),
          a.nodes,
          b.nodes,
        ),
        'CPU exponent': exponent(
          sum(a, (s) => s.cpuMs),
          sum(b, (s) => s.cpuMs),
          a.nodes,
          b.nodes,
        ),
      });
    }
    rows.push({
      stage: 'whole build',
      exponent: exponent(a.buildMs, b.buildMs, a.nodes, b.nodes),
      'CPU exponent': exponent(a.buildCpuMs, b.buildCpuMs, a.nodes, b.nodes),
    });
    rows.push({ stage: 'peak RSS', exponent: exponent(a.peakMb, b.peakMb, a.nodes, b.nodes), 'CPU exponent': '' });
    rows.push({ stage: 'pack size', exponent: exponent(a.packMb, b.packMb, a.nodes, b.nodes), 'CPU exponent': '' });
    rows.push({
      stage: 'leg p50 (hierarchy 0)',
      exponent: exponent(a.hierarchies[0]?.p50 ?? 0, b.hierarchies[0]?.p50 ?? 0, a.nodes, b.nodes),
      'CPU exponent': '',
    });
    table(`growth exponents, ${a.nodes} → ${b.nodes} nodes (time ∝ nodes^exponent)`, rows);
  }
  writeFileSync(`${CACHE}last-run.json`, JSON.stringify(results, null, 1));
}

await main();
