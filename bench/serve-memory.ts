/**
 * `bando serve`'s memory under a mixed load: the RSS of the whole process (every thread) idle, after 100 calls and
 * after 20 s of calls. The load is routes (every vehicle, with and without alternatives; some shortest), reverse
 * and forward geocodes, autocompletes, 10 × 10 distance matrices, 20-stop trips, static maps and vector tiles, 4 at
 * a time, over the pack's central area (a fixed seed, so every run sends the same calls in the same order).
 *
 * SERVE_MEMORY_PACKS: the pack files (comma-separated; default the whole-HCMC `--no-ch` pack cch-engine caches).
 * SERVE_MEMORY_CLIS: the built CLI bundles to race (comma-separated; default this checkout's dist/cli.js: run
 * `npm run build` first), run interleaved, SERVE_MEMORY_RUNS rounds (default 2). SERVE_MEMORY_KINDS: the kinds of
 * call sent (comma-separated: direction, shortest, alternatives, reverse, geocode, autocomplete, matrix, trip,
 * staticmap, tiles; default all, in that order, in turn). SERVE_MEMORY_ARGS: more `serve`
 * flags (space-separated, e.g. `--threads 1`). SERVE_MEMORY_CALLS: a number of calls (e.g. 1500) after which RSS is
 * read once more (within the 20 s or after them, the load going on until then): 20 s is 40–1,900 calls on a loaded
 * 2-core machine, so runs compare at equal work there. Each run also gives the server's CPU seconds (`cpuS`: start, warm-up and load)
 * and, over the 20 s, the wall ms of light calls (routes without alternatives, geocodes, autocompletes: `lightP50`,
 * `lightP99`) and heavy ones (tables, trips, static maps, alternatives: `heavyP50`, `heavyP99`), which tell what
 * a thread count trades (a light call waits behind a heavy one when no worker is kept for light calls).
 *
 * Run: npm run bench -- serve-memory
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VEHICLES } from '../src/route/profiles.js';
import { mulberry32 } from '../src/trip/rng.js';
import { quantile, table } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CALLS_FIRST = 100;
const LOAD_MS = 20_000;
const AT_ONCE = 4;
/** SERVE_MEMORY_KINDS: the kinds of call the load cycles through (comma-separated names of `paths`; default all). */
const KINDS = (process.env.SERVE_MEMORY_KINDS ?? '').split(',').filter(Boolean);
/** SERVE_MEMORY_CALLS: RSS is read again once this many calls are sent, the load going on past the 20 s until then. */
const CALLS_MORE = Number(process.env.SERVE_MEMORY_CALLS ?? 0);

/** RSS of process `pid` (MB), and its anonymous part, from /proc. */
function rss(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return `${Math.round(kb('VmRSS') / 1024)} (anon ${Math.round(kb('RssAnon') / 1024)})`;
}

/** CPU seconds (user and system, every thread) process `pid` has used, from /proc (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised name, which may hold spaces: utime and stime are fields 14 and 15.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** A running `bando serve`: its process, base URL and dev keys. */
interface Server {
  child: ChildProcess;
  url: string;
  rest: string;
  tiles: string;
}

/** Starts `cli serve` on `pack` with dev keys in a fresh directory; resolves once it prints its keys. */
function serve(cli: string, pack: string, dir: string): Promise<Server> {
  const extra = (process.env.SERVE_MEMORY_ARGS ?? '').split(' ').filter(Boolean);
  const args = [cli, 'serve', '--pack', pack, '--dev', '--port', '0', '--keys', join(dir, 'keys.json'), ...extra];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /serving on (\S+)/.exec(out)?.[1];
      const keys = /rest (\S+), tiles (\S+)/.exec(out);
      if (url && keys) resolve({ child, url, rest: keys[1]!, tiles: keys[2]! });
    });
    child.on('exit', (code) => reject(new Error(`bando serve exited (${code})`)));
  });
}

/** The mixed load's paths (without keys), in order: `n` of them over the bounding box `bbox` (w, s, e, n). */
function paths(bbox: number[], n: number): { path: string; tiles: boolean; heavy: boolean }[] {
  const rnd = mulberry32(36);
  const [w, s, e, north] = bbox as [number, number, number, number];
  // The middle 40 % of the box each way, where the roads and places are.
  const lat = () => s + (north - s) * (0.3 + 0.4 * rnd());
  const lng = () => w + (e - w) * (0.3 + 0.4 * rnd());
  const pt = () => `${lat().toFixed(5)},${lng().toFixed(5)}`;
  const pts = (k: number, sep: string) => Array.from({ length: k }, pt).join(sep);
  const words = [
    'Nguyễn Huệ',
    'Lê Lợi',
    'Bến Thành',
    'Pasteur',
    'Hai Bà Trưng',
    'Điện Biên Phủ',
    'Chợ Lớn',
    'Tân Bình',
  ];
  const tile = (z: number) => {
    const x = Math.floor(((lng() + 180) / 360) * 2 ** z);
    const r = (lat() * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
    return `/tiles/${z}/${x}/${y}.pbf?`;
  };
  const kinds: Record<string, () => string> = {
    direction: () =>
      `/Direction?origin=${pt()}&destination=${pt()}&vehicle=${VEHICLES[Math.floor(rnd() * VEHICLES.length)]}`,
    shortest: () => `/Direction?origin=${pt()}&destination=${pt()}&vehicle=car&type=shortest`,
    alternatives: () =>
      `/Direction?origin=${pt()}&destination=${pt()}&vehicle=${VEHICLES[Math.floor(rnd() * VEHICLES.length)]}&alternatives=true`,
    reverse: () => `/Geocode?latlng=${pt()}`,
    geocode: () => `/Geocode?address=${encodeURIComponent(words[Math.floor(rnd() * words.length)]!)}`,
    autocomplete: () =>
      `/Place/AutoComplete?input=${encodeURIComponent(words[Math.floor(rnd() * words.length)]!.slice(0, 4))}`,
    matrix: () => `/DistanceMatrix?origins=${pts(10, '|')}&destinations=${pts(10, '|')}&vehicle=car`,
    trip: () => `/trip?origin=${pt()}&waypoints=${pts(18, ';')}&destination=${pt()}&vehicle=bike`,
    staticmap: () => `/staticmap/route?origin=${pt()}&destination=${pt()}&width=600&height=400`,
    tiles: () => tile(12 + Math.floor(rnd() * 4)),
  };
  const only = KINDS.filter((k) => k in kinds);
  if (only.length < KINDS.length) throw new Error(`SERVE_MEMORY_KINDS: one of ${Object.keys(kinds).join(', ')}`);
  const chosen = Object.entries(kinds)
    .filter(([k]) => only.length === 0 || only.includes(k))
    .map(([, make]) => make);
  return Array.from({ length: n }, (_, i) => {
    const path = chosen[i % chosen.length]!();
    const heavy = /^\/(DistanceMatrix|trip|staticmap)|alternatives=true/.test(path);
    return { path, tiles: path.startsWith('/tiles/'), heavy };
  });
}

/**
 * One server's run: RSS idle, after the first 100 calls, after LOAD_MS of calls and after CALLS_MORE calls (the same
 * process), and its CPU seconds.
 */
async function run(cli: string, pack: string, bbox: number[]): Promise<Record<string, string | number>> {
  const dir = mkdtempSync(join(tmpdir(), 'bando-serve-memory-'));
  const server = await serve(cli, pack, dir);
  const pid = server.child.pid!;
  try {
    await new Promise((r) => setTimeout(r, 2000));
    const idle = rss(pid);
    const agent = new Agent({ keepAlive: true, maxSockets: AT_ONCE });
    const statuses = new Map<number, number>();
    // Wall ms of the light and heavy engine calls answered within the 20 s (tiles are cut in the serving thread).
    const ms = { light: [] as number[], heavy: [] as number[] };
    let timing = true;
    const get = (p: { path: string; tiles: boolean; heavy: boolean }) =>
      new Promise<void>((done) => {
        const key = p.tiles ? `key=${server.tiles}` : `api_key=${server.rest}`;
        const t0 = performance.now();
        const req = request(`${server.url}${p.path}&${key}`, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
            if (timing && !p.tiles) ms[p.heavy ? 'heavy' : 'light'].push(performance.now() - t0);
            done();
          });
        });
        req.on('error', () => done());
        req.end();
      });
    const list = paths(bbox, Math.max(5000, CALLS_MORE));
    let next = 0;
    let after100 = '';
    let afterMore = '';
    /** Sends the list's next calls, AT_ONCE at a time, while `more()`. */
    const load = (more: () => boolean) =>
      Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          while (more() && next < list.length) {
            await get(list[next++]!);
            if (next === CALLS_FIRST) after100 = rss(pid);
            if (next === CALLS_MORE) afterMore = rss(pid);
          }
        }),
      );
    const end = Date.now() + LOAD_MS;
    await load(() => Date.now() < end);
    timing = false;
    const row: Record<string, string | number> = { idle, after100, after20s: rss(pid), calls: next };
    row.lightP50 = Math.round(quantile(ms.light, 0.5));
    row.lightP99 = Math.round(quantile(ms.light, 0.99));
    row.heavyP50 = Math.round(quantile(ms.heavy, 0.5));
    row.heavyP99 = Math.round(quantile(ms.heavy, 0.99));
    if (CALLS_MORE > 0) {
      await load(() => next < CALLS_MORE);
      row[`after${CALLS_MORE}`] = afterMore;
    }
    agent.destroy();
    row.cpuS = cpuSeconds(pid);
    row.statuses = [...statuses].map(([s, n]) => `${s}×${n}`).join(' ');
    return row;
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The pack's bounding box (w, s, e, n), as an engine on it tells it. */
async function bboxOf(pack: string): Promise<number[]> {
  const { createEngine } = await import('../src/index.js');
  const engine = await createEngine({ packs: [pack] });
  const bbox = engine.info().packs[0]?.bbox;
  await engine.close();
  if (!bbox) throw new Error(`${pack} has no bounding box`);
  return [...bbox];
}

const packs = (process.env.SERVE_MEMORY_PACKS ?? join(ROOT, '.cache/hcmc-city-no-ch.pack')).split(',');
const clis = (process.env.SERVE_MEMORY_CLIS ?? join(ROOT, 'dist/cli.js')).split(',');
const runs = Number(process.env.SERVE_MEMORY_RUNS ?? 2);
for (const cli of clis) if (!existsSync(cli)) throw new Error(`no ${cli} (run npm run build first)`);
for (const pack of packs) {
  if (!existsSync(pack)) throw new Error(`no pack ${pack} (npm run bench -- cch-engine builds it)`);
  const bbox = await bboxOf(pack);
  const rows: Record<string, string | number>[] = [];
  for (let r = 0; r < runs; r++)
    for (const cli of clis) rows.push({ run: r + 1, cli, ...(await run(cli, pack, bbox)) });
  table(`bando serve RSS (MB) on ${pack}`, rows);
}
