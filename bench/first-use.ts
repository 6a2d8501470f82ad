/**
 * First-use bench (issue 14): how long the FIRST request of each kind takes on a freshly loaded pack, which is what a
 * phone that opens a country pack to ask one question waits for. Each measurement is a fresh process: createEngine,
 * then one request (timed: wall and CPU ms), with the resident memory after load and after the request.
 *
 * Kinds: direction per vehicle (car, bike, truck), a 5 × 5 matrix (car), reverse geocode, forward geocode,
 * autocomplete and place detail. Their inputs are drawn from the pack itself (graph nodes, a street place and its
 * name, a place's place_id) by this checkout's code before any process is timed.
 *
 * With FIRST_USE_BASELINE set to another checkout of the project (its own node_modules or a link to these), every
 * kind runs there too, interleaved round by round with this checkout (baseline, this, baseline, this, …), and the
 * table gives both medians and their ratio.
 *
 * Run: npx tsx bench/first-use.ts   (or npm run bench -- first-use). Environment:
 * - FIRST_USE_PACKS: comma-separated pack files (default the embedded pack, packs/hanoi.pack);
 * - FIRST_USE_BASELINE: a checkout to compare against (default none);
 * - FIRST_USE_BASELINE_PACKS: the pack files the baseline checkout loads instead, one per FIRST_USE_PACKS entry
 *   (default the same files): a pack layout change compares the old code on an old pack with this code on a new
 *   one, e.g. NY as OSM with hierarchies (BUILD_SCALE_TILES=1 npx tsx bench/build-scale.ts writes it under
 *   .cache/build-scale/ny/) built by each checkout's builder;
 * - FIRST_USE_ROUNDS: processes per kind and checkout (default 3);
 * - FIRST_USE_KINDS: comma-separated kinds to run (default all).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadPack } from '../src/pack/load.js';
import { Region } from '../src/region.js';
import { encodePlaceId, packTag } from '../src/places/place-id.js';
import { PlaceKind } from '../src/places/kinds.js';
import { median, table } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const MARK = 'FIRST-USE-RESULT ';

/** One first request: which endpoint and its query parameters. */
interface Request {
  kind: string;
  method: 'direction' | 'distanceMatrix' | 'geocode' | 'autocomplete' | 'placeDetail';
  params: Record<string, string>;
}

/** What one process measured: milliseconds and MB. */
interface Sample {
  loadMs: number;
  firstMs: number;
  firstCpuMs: number;
  rssLoadMb: number;
  rssFirstMb: number;
  status: string;
}

/** The first requests to time on a pack, from its own graph and places. */
async function requestsFor(file: string): Promise<Request[]> {
  const region = new Region(await loadPack(file));
  const g = region.graph;
  // Nodes spread over the graph by a fixed stride: the same points every run.
  const at = (k: number) => {
    const v = Math.floor(((k * 0.618034) % 1) * g.nodeCount);
    return `${g.lat(v).toFixed(6)},${g.lon(v).toFixed(6)}`;
  };
  const out: Request[] = [];
  for (const vehicle of ['car', 'bike', 'truck'])
    out.push({
      kind: `direction ${vehicle}`,
      method: 'direction',
      params: { origin: at(1), destination: at(2), vehicle },
    });
  const side = (from: number) => [0, 1, 2, 3, 4].map((i) => at(from + i)).join('|');
  out.push({ kind: 'matrix 5×5 car', method: 'distanceMatrix', params: { origins: side(3), destinations: side(8) } });
  out.push({ kind: 'reverse geocode', method: 'geocode', params: { latlng: at(13) } });
  const p = region.places;
  if (p && p.count > 0) {
    let street = 0;
    while (street < p.count && p.kind[street] !== PlaceKind.street) street++;
    const place = street < p.count ? street : 0;
    const name = region.strings.get(p.name[place]!) || 'a';
    out.push({ kind: 'geocode', method: 'geocode', params: { address: name } });
    out.push({
      kind: 'autocomplete',
      method: 'autocomplete',
      params: { input: name.slice(0, Math.max(3, name.length - 2)) },
    });
    out.push({
      kind: 'place detail',
      method: 'placeDetail',
      params: { place_id: encodePlaceId(packTag(region), region, Math.floor(p.count / 2)) },
    });
  }
  const wanted = process.env.FIRST_USE_KINDS?.split(',');
  return wanted ? out.filter((r) => wanted.some((w) => r.kind.startsWith(w))) : out;
}

/** Child: loads the pack with the checkout at `root`, answers one request, prints a Sample. */
async function child(root: string, file: string, request: Request): Promise<void> {
  const { createEngine } = (await import(`${root}src/engine.ts`)) as typeof import('../src/engine.js');
  const mb = () => process.memoryUsage().rss / 1e6;
  let t = performance.now();
  const engine = await createEngine({ packs: [file] });
  const loadMs = performance.now() - t;
  const rssLoadMb = mb();
  const c0 = process.cpuUsage();
  t = performance.now();
  const answer = engine[request.method].bind(engine) as unknown as (p: Record<string, string>) => { status: string };
  const res = answer(request.params);
  const firstMs = performance.now() - t;
  const c = process.cpuUsage(c0);
  const sample: Sample = {
    loadMs,
    firstMs,
    firstCpuMs: (c.user + c.system) / 1000,
    rssLoadMb,
    rssFirstMb: mb(),
    status: res.status,
  };
  console.log(MARK + JSON.stringify(sample));
}

/** Runs one request in a fresh process with the checkout at `root`. */
function run(root: string, file: string, request: Request): Sample {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', SELF, '--child', root, file, JSON.stringify(request)],
    {
      encoding: 'utf8',
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = out.split('\n').find((l) => l.startsWith(MARK));
  if (!line) throw new Error(`no result from ${root} for ${request.kind}`);
  return JSON.parse(line.slice(MARK.length)) as Sample;
}

async function main(): Promise<void> {
  const files = (process.env.FIRST_USE_PACKS ?? `${ROOT}packs/hanoi.pack`).split(',');
  const baseline = process.env.FIRST_USE_BASELINE ? `${process.env.FIRST_USE_BASELINE.replace(/\/$/, '')}/` : null;
  const rounds = Number(process.env.FIRST_USE_ROUNDS ?? 3);
  const baselineFiles = process.env.FIRST_USE_BASELINE_PACKS?.split(',') ?? files;
  const roots = baseline ? [baseline, ROOT] : [ROOT];
  for (const [i, file] of files.entries()) {
    const packOf = (k: number) => (k === roots.length - 1 ? file : baselineFiles[i]!);
    const rows: Record<string, string | number>[] = [];
    for (const request of await requestsFor(file)) {
      const samples: Sample[][] = roots.map(() => []);
      for (let r = 0; r < rounds; r++) roots.forEach((root, k) => samples[k]!.push(run(root, packOf(k), request)));
      const med = (k: number, f: (s: Sample) => number) => median(samples[k]!.map(f));
      const now = roots.length - 1;
      const row: Record<string, string | number> = { request: request.kind, status: samples[now]![0]!.status };
      if (baseline) {
        row['baseline ms'] = med(0, (s) => s.firstMs).toFixed(0);
        row['baseline CPU ms'] = med(0, (s) => s.firstCpuMs).toFixed(0);
      }
      row['ms'] = med(now, (s) => s.firstMs).toFixed(0);
      row['CPU ms'] = med(now, (s) => s.firstCpuMs).toFixed(0);
      if (baseline) row['ratio'] = (med(now, (s) => s.firstMs) / med(0, (s) => s.firstMs)).toFixed(2);
      if (baseline)
        row['baseline RSS MB load / after'] =
          `${med(0, (s) => s.rssLoadMb).toFixed(0)} / ${med(0, (s) => s.rssFirstMb).toFixed(0)}`;
      row['RSS MB load / after'] =
        `${med(now, (s) => s.rssLoadMb).toFixed(0)} / ${med(now, (s) => s.rssFirstMb).toFixed(0)}`;
      row['load ms'] = med(now, (s) => s.loadMs).toFixed(0);
      rows.push(row);
    }
    table(`first request of each kind, ${file.split('/').pop()} (medians of ${rounds} fresh processes each)`, rows);
  }
}

const at = process.argv.indexOf('--child');
if (at >= 0) await child(process.argv[at + 1]!, process.argv[at + 2]!, JSON.parse(process.argv[at + 3]!) as Request);
else await main();
