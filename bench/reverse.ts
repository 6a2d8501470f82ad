/**
 * Reverse geocoding at a city's scale, on the whole-HCMC test pack (or the pack given as argument):
 * - where the top result lies: its distance from the query point by kind (POI, address, street, ward), for points
 *   inside the official ward polygons (a ward at a time) and for points near the roads (within 40 m of a random
 *   point of the road graph, by length);
 * - its ward: the share of top results whose 2025 ward is the official polygon's holding the query point;
 * - speed, warm (every point answered twice before three timed passes): p50 / p99 / max per call, in wall time and
 *   in the process's CPU time (the steadier figure when other work shares the machine).
 * Run: npx tsx bench/reverse.ts [pack]
 */
import { readFileSync } from 'node:fs';
import { createEngine } from '../src/engine';
import { haversine } from '../src/geo';
import { decodePlaceId } from '../src/places/place-id';
import { nameKey } from '../src/places/text/fold';
import { mulberry32 } from '../src/trip/rng';
import { testPack } from '../test/helpers/packs';
import { pointsInWards } from '../test/helpers/reverse-points';
import { referenceWardAt } from '../test/helpers/ward-reference';

const POINTS = 2000;
const file = process.argv[2];
const engine = await createEngine({ packs: [file ? new Uint8Array(readFileSync(file)) : testPack('hcmc-city')] });
const state = engine.places;
const region = state.regions[0]!.region;

/** Points within 40 m of the road graph: a random point of a random edge (by length), moved by up to 20 m per axis. */
function pointsNearRoads(count: number, seed: number): Array<{ lat: number; lng: number }> {
  const g = region.graph;
  const rand = mulberry32(seed);
  const cum = new Float64Array(g.edgeCount + 1);
  for (let e = 0; e < g.edgeCount; e++) cum[e + 1] = cum[e]! + g.edgeLen[e]!;
  const out: Array<{ lat: number; lng: number }> = [];
  while (out.length < count) {
    const x = rand() * cum[g.edgeCount]!;
    let lo = 0,
      hi = g.edgeCount;
    while (hi - lo > 1) {
      const m = (lo + hi) >> 1;
      if (cum[m]! <= x) lo = m;
      else hi = m;
    }
    const a = g.edgeNodes[2 * lo]!,
      b = g.edgeNodes[2 * lo + 1]!;
    const t = rand();
    const lat = (g.nodeLat[a]! + t * (g.nodeLat[b]! - g.nodeLat[a]!)) / 1e7 + ((rand() - 0.5) * 40) / 111_320;
    const lng = (g.nodeLon[a]! + t * (g.nodeLon[b]! - g.nodeLon[a]!)) / 1e7 + ((rand() - 0.5) * 40) / 109_000;
    out.push({ lat, lng });
  }
  return out;
}

const KINDS = ['', 'poi', 'address', 'street', 'ward', 'district', 'province'];
const BANDS = [25, 50, 100, 200, 400, 1000, Infinity];
const band = (d: number) => BANDS.findIndex((b) => d <= b);
const bandName = (i: number) =>
  i === 0 ? '≤ 25 m' : BANDS[i] === Infinity ? '> 1000 m' : `${BANDS[i - 1]}–${BANDS[i]} m`;
const pct = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

const samples = {
  'in ward polygons': pointsInWards(region.meta.bbox!, POINTS, 1),
  'near roads': pointsNearRoads(POINTS, 2),
};
for (const [label, points] of Object.entries(samples)) {
  const table: Record<string, Record<string, number>> = {};
  let wards = 0,
    agree = 0;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let pass = 0; pass < 5; pass++)
    for (const { lat, lng } of points) {
      const c = process.cpuUsage();
      const t = performance.now();
      engine.geocode({ latlng: `${lat},${lng}` });
      if (pass < 2) continue;
      times.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
  for (const { lat, lng } of points) {
    const res = engine.geocode({ latlng: `${lat},${lng}` });
    const top = res.results[0];
    const id = top ? decodePlaceId(top.place_id, state.packs, state.tags) : null;
    const r = id?.status === 'ok' ? state.regions[id.regionIndex]! : null;
    const kind = id?.status === 'ok' ? KINDS[r!.places.kind[id.place]!]! : 'none';
    const d = top ? haversine(lat, lng, top.geometry.location.lat, top.geometry.location.lng) : Infinity;
    const row = (table[bandName(band(d))] ??= {});
    row[kind] = (row[kind] ?? 0) + 1;
    const truth = referenceWardAt(lat, lng);
    if (!truth) continue;
    wards++;
    const shown = top?.address_components.find((c) => /^(Phường|Xã|Đặc khu) /.test(c.long_name));
    if (shown && nameKey(shown.short_name) === nameKey(truth.name)) agree++;
  }
  console.log(`\n${label}: ${points.length} points; distance of the top result by its kind`);
  console.table(Object.fromEntries(BANDS.map((_, i) => [bandName(i), table[bandName(i)] ?? {}])));
  console.log(
    `top result's ward = the polygon's holding the point: ${agree} of ${wards} (${((100 * agree) / wards).toFixed(2)} %)`,
  );
  const speed = (xs: number[]) =>
    `p50 ${pct(xs, 0.5).toFixed(3)} ms, p99 ${pct(xs, 0.99).toFixed(3)} ms, max ${Math.max(...xs).toFixed(3)} ms`;
  console.log(`speed (warm), wall: ${speed(times)}; CPU: ${speed(cpu)}`);
}
