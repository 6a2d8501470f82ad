/**
 * `npm run bench -- osrm-services` (on demand): this engine's distance matrix and trips beside OSRM's table and trip
 * services on the same data and the same points (points inside random edges of the region's road graph, as
 * bench/osrm-routes.ts draws them). OSRM runs apart: `OSRM_CH=http://127.0.0.1:5005` an `osrm-routed --algorithm ch`
 * of the region's inputs (car.lua), `OSRM_MLD=…` optionally one with `--algorithm mld` on the same files (after
 * `osrm-partition` and `osrm-customize`); `OSRM_REGION` the test region (default hcmc-city, the whole-HCMC PBF).
 *
 * Matrix: one `OSRM_MATRIX` × `OSRM_MATRIX` request (default 100), measured in interleaved rounds, one request at a
 * time, from this process: wall milliseconds over loopback HTTP for OSRM's table and for bando's DistanceMatrix
 * endpoint served from this process (node:http → createRestHandler → engine: the same kind of measure, JSON made and
 * parsed), and wall and CPU milliseconds of `engine.distanceMatrix` in process; medians. The elements both answer are
 * compared: how many lie within max(10 m, 0.2 %) of OSRM's distance.
 * Trips: for 10, 25 and 100 stops, instances of the same points sent to OSRM's trip (`roundtrip=true&source=first`)
 * and to `engine.trip` (the first point its origin): the sums of the loops' routability weights (both engines'
 * `weight_name`; for a car OSRM's weight is the duration with penalties, as bando's), durations and distances as
 * ratios ours / OSRM's, how many of bando's loops weigh no more than OSRM's, and the wall milliseconds per call
 * (OSRM's trip over HTTP without geometry; bando in process and its /trip over HTTP, whose answer always carries the
 * loop's polyline).
 */
import { request } from 'node:http';
import { createEngine } from '../src/engine.js';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { startNodeServer } from '../src/adapters/http/node-server.js';
import { testPack, type TestRegion } from '../test/helpers/packs.js';
import { edgePoints, osrmCoords } from './edge-points.js';
import { median, table } from './stats.js';

const region = (process.env.OSRM_REGION ?? 'hcmc-city') as TestRegion;
const peers = (
  [
    ['OSRM CH', process.env.OSRM_CH],
    ['OSRM MLD', process.env.OSRM_MLD],
  ] as [string, string | undefined][]
).filter((p): p is [string, string] => !!p[1]);
const SIDE = Number(process.env.OSRM_MATRIX ?? 100);
const ROUNDS = 21;
const TRIPS: [stops: number, instances: number][] = [
  [10, 20],
  [25, 10],
  [100, 5],
];

/**
 * GET `url` on a connection of its own: the parsed JSON body and the wall milliseconds to it. Not kept alive: on a
 * reused loopback connection osrm-routed's answers wait 40 ms for the client's delayed acknowledgement (its header
 * and body go out as two segments), which would be measured instead of its work.
 */
function get(url: string): Promise<{ body: unknown; ms: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ body: JSON.parse(Buffer.concat(chunks).toString()), ms: performance.now() - t }));
    })
      .on('error', reject)
      .end();
  });
}

/** bando's `lat,lng|…` (or `;` for trip waypoints). */
const ourCoords = (pts: [number, number][], sep: string) => pts.map((p) => p.join(',')).join(sep);

if (peers.length === 0) console.log('osrm-services: set OSRM_CH=url (and OSRM_MLD=url) of an osrm-routed to run');
else {
  const engine = await createEngine({ packs: [testPack(region)] });
  const server = await startNodeServer(
    createRestHandler(engine, { keys: [{ key: 'bench', monthlyQuota: 1e9 }], allowHttp: true }),
    { port: 0 },
  );
  const graph = engine.regions[0]!.graph;

  // Matrix.
  const pts = edgePoints(graph, SIDE, 7);
  const mParams = { origins: ourCoords(pts, '|'), destinations: ourCoords(pts, '|'), vehicle: 'car' as const };
  const mUrl = `${server.url}/DistanceMatrix?${new URLSearchParams({ ...mParams, api_key: 'bench' })}`;
  const times: Record<string, number[]> = {};
  const add = (k: string, ms: number) => (times[k] ??= []).push(ms);
  let ours = engine.distanceMatrix(mParams);
  const osrmTables: Record<string, { distances: (number | null)[][] }> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const [label, url] of peers) {
      const { body, ms } = await get(`${url}/table/v1/driving/${osrmCoords(pts)}?annotations=duration,distance`);
      osrmTables[label] = body as { distances: (number | null)[][] };
      add(`${label} table, HTTP wall`, ms);
    }
    add('bando DistanceMatrix, HTTP wall', (await get(mUrl)).ms);
    const c = process.cpuUsage();
    const t = performance.now();
    ours = engine.distanceMatrix(mParams);
    add('bando engine.distanceMatrix, in-process wall', performance.now() - t);
    const cpu = process.cpuUsage(c);
    add('bando engine.distanceMatrix, in-process CPU', (cpu.user + cpu.system) / 1000);
  }
  const rows: Record<string, string | number>[] = Object.entries(times).map(([what, v]) => ({
    what,
    'p50 ms': median(v).toFixed(1),
  }));
  table(`Distance matrix ${SIDE} × ${SIDE}, ${region}, car, ${ROUNDS} interleaved rounds`, rows);
  if (ours.status === 'OK')
    for (const [label, t] of Object.entries(osrmTables)) {
      let both = 0,
        within = 0;
      ours.rows.forEach((row, i) =>
        row.elements.forEach((e, j) => {
          const d = t.distances[i]?.[j];
          if (e.status !== 'OK' || d == null) return;
          both++;
          if (Math.abs(e.distance.value - d) <= Math.max(10, 0.002 * d)) within++;
        }),
      );
      console.log(
        `${label}: ${both} elements both answer, ${within} (${((100 * within) / both).toFixed(1)} %) within max(10 m, 0.2 %)`,
      );
    }

  // Trips.
  type Loop = { weight: number; duration: number; distance: number };
  const tripRows: Record<string, string | number>[] = [];
  for (const [n, count] of TRIPS) {
    const ours: Loop[] = [];
    const oursMs: number[] = [];
    const oursHttpMs: number[] = [];
    const theirs: Record<string, { loops: Loop[]; ms: number[] }> = {};
    for (let k = 0; k < count; k++) {
      const stops = edgePoints(graph, n, 1000 * n + k);
      const params = {
        origin: stops[0]!.join(','),
        waypoints: ourCoords(stops.slice(1), ';'),
        vehicle: 'car' as const,
      };
      const t = performance.now();
      const mine = engine.trip(params);
      oursMs.push(performance.now() - t);
      oursHttpMs.push((await get(`${server.url}/trip?${new URLSearchParams({ ...params, api_key: 'bench' })}`)).ms);
      const answers = [];
      for (const [label, url] of peers) {
        const o = await get(`${url}/trip/v1/driving/${osrmCoords(stops)}?roundtrip=true&source=first&overview=false`);
        answers.push({ label, ms: o.ms, body: o.body as { code: string; trips: Loop[] } });
      }
      // Only instances every engine answers (a stop off the roads or cut off fails the whole trip).
      if (mine.code !== 'Ok' || answers.some((a) => a.body.code !== 'Ok')) continue;
      ours.push(mine.trips[0]!);
      for (const a of answers) {
        const x = (theirs[a.label] ??= { loops: [], ms: [] });
        x.loops.push(a.body.trips[0]!);
        x.ms.push(a.ms);
      }
    }
    const sum = (loops: Loop[], k: keyof Loop) => loops.reduce((acc, l) => acc + l[k], 0);
    for (const [label, x] of Object.entries(theirs))
      tripRows.push({
        stops: n,
        peer: label,
        'both answer': `${ours.length}/${count}`,
        'weight ours/OSRM': (sum(ours, 'weight') / sum(x.loops, 'weight')).toFixed(3),
        'duration ours/OSRM': (sum(ours, 'duration') / sum(x.loops, 'duration')).toFixed(3),
        'distance ours/OSRM': (sum(ours, 'distance') / sum(x.loops, 'distance')).toFixed(3),
        'ours ≤ OSRM': ours.filter((l, i) => l.weight <= x.loops[i]!.weight + 0.1).length,
        'bando p50 ms in process / HTTP': `${median(oursMs).toFixed(1)} / ${median(oursHttpMs).toFixed(1)}`,
        'OSRM p50 ms HTTP': median(x.ms).toFixed(1),
      });
  }
  table(`Trips (round trips from the first stop), ${region}, car`, tripRows);
  await server.close();
}
