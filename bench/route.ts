/**
 * Routing bench: DIMACS New York (250 seeded random node pairs through engine.direction, every distance checked
 * against a plain Dijkstra, vs ngraph.path NBA* on the same queries), Hanoi direction, 100 × 100 matrices.
 * Run: npx tsx bench/route.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import createGraph from 'ngraph.graph';
import { nba } from 'ngraph.path';
import { buildDimacsPack } from '../data-tools/dimacs-pack.js';
import { Engine } from '../src/engine.js';
import { haversine } from '../src/geo.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { routerOf } from '../src/route/router.js';
import { testPack } from '../test/helpers/packs.js';

const DIMACS = fileURLToPath(new URL('../../shared/data/dimacs/', import.meta.url));
const CACHE = fileURLToPath(new URL('../.cache/', import.meta.url));

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const rows: [string, string][] = [];

async function nyPack(): Promise<Uint8Array> {
  mkdirSync(CACHE, { recursive: true });
  const file = `${CACHE}ny-d.pack`;
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const bytes = await buildDimacsPack(`${DIMACS}USA-road-d.NY.gr.gz`, `${DIMACS}USA-road-d.NY.co.gz`, 'ny');
  writeFileSync(file, bytes);
  return bytes;
}

/** Plain node-based Dijkstra over the pack's arcs (metres), written for the check. */
function plainDijkstra(g: Region['graph'], s: number, t: number): number {
  const dist = new Float64Array(g.nodeCount).fill(Infinity);
  const heap: number[] = [];
  const key = (i: number) => dist[heap[i]!]!;
  const push = (v: number) => {
    heap.push(v);
    let i = heap.length - 1;
    while (i > 0 && key((i - 1) >> 1) > key(i)) { [heap[i], heap[(i - 1) >> 1]] = [heap[(i - 1) >> 1]!, heap[i]!]; i = (i - 1) >> 1; }
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
      if (g.speed(a >> 1, 0, a & 1) === 0) continue;
      const x = g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
      const nd = dist[v]! + g.edgeLen[a >> 1]!;
      if (nd < dist[x]!) { dist[x] = nd; push(x); }
    }
  }
  return Infinity;
}

async function main(): Promise<void> {
  const ny = new Region(Pack.from(await nyPack()));
  const engine = new Engine([ny]);
  const g = ny.graph;
  let t = performance.now();
  const ctx = routerOf(ny).context(0, 'fastest');
  const prep = performance.now() - t;
  rows.push(['NY nodes / arcs', `${g.nodeCount} / ${2 * g.edgeCount}`]);
  rows.push(['NY preprocessing (arc costs + CH)', `${(prep / 1000).toFixed(1)} s`]);
  rows.push(['NY CH bytes per arc', ctx.ch ? ctx.ch.bytesPerArc().toFixed(1) : 'no CH']);
  const rand = rng(2024);
  const pairs: [number, number][] = [];
  while (pairs.length < 250) pairs.push([Math.floor(rand() * g.nodeCount), Math.floor(rand() * g.nodeCount)]);
  const str = (v: number) => `${g.lat(v)},${g.lon(v)}`;
  // Warm-up.
  for (const [s, d] of pairs.slice(0, 20)) engine.direction({ origin: str(s), destination: str(d) });
  const ours: number[] = [];
  const got: number[] = [];
  for (const [s, d] of pairs) {
    t = performance.now();
    const r = engine.direction({ origin: str(s), destination: str(d) });
    ours.push(performance.now() - t);
    got.push(r.status === 'OK' ? r.routes[0]!.legs[0]!.distance.value : -1);
  }
  let bad = 0;
  pairs.forEach(([s, d], i) => {
    const want = plainDijkstra(g, s, d);
    if (Math.round(want) !== got[i] && !(want === Infinity && got[i] === -1)) bad++;
  });
  rows.push(['NY direction p50 / p99', `${pct(ours, 50).toFixed(3)} / ${pct(ours, 99).toFixed(3)} ms`]);
  rows.push(['NY distances differing from plain Dijkstra', `${bad} of ${pairs.length}`]);

  // ngraph.path NBA* with a haversine / best-metres-per-metre heuristic (admissible).
  const ng = createGraph<{ lat: number; lon: number }, { w: number }>();
  for (let v = 0; v < g.nodeCount; v++) ng.addNode(v, { lat: g.lat(v), lon: g.lon(v) });
  let ratio = Infinity;
  for (let a = 0; a < 2 * g.edgeCount; a++) {
    if (g.speed(a >> 1, 0, a & 1) === 0) continue;
    const u = g.edgeNodes[(a & ~1) + (a & 1)]!, x = g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
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
  rows.push(['ngraph.path NBA* p50 / mean', `${pct(theirs, 50).toFixed(2)} / ${mean(theirs).toFixed(2)} ms`]);
  rows.push(['speed ratio (NBA* p50 / ours p50; mean / mean)', `${(pct(theirs, 50) / pct(ours, 50)).toFixed(1)}× ; ${(mean(theirs) / mean(ours)).toFixed(1)}×`]);

  const m100 = (reg: Region, seed: number) => {
    const [minLon, minLat, maxLon, maxLat] = reg.meta.bbox!;
    const r = rng(seed);
    const pts = Array.from({ length: 100 }, () => `${minLat + (0.15 + 0.7 * r()) * (maxLat - minLat)},${minLon + (0.15 + 0.7 * r()) * (maxLon - minLon)}`).join('|');
    const e = new Engine([reg]);
    e.distanceMatrix({ origins: pts, destinations: pts });
    const t0 = performance.now();
    const res = e.distanceMatrix({ origins: pts, destinations: pts });
    return `${(performance.now() - t0).toFixed(1)} ms (${res.status})`;
  };
  const hanoi = new Region(Pack.from(testPack('hanoi')));
  const he = new Engine([hanoi]);
  const [minLon, minLat, maxLon, maxLat] = hanoi.meta.bbox!;
  const hr = rng(5);
  const hp = () => `${minLat + (0.15 + 0.7 * hr()) * (maxLat - minLat)},${minLon + (0.15 + 0.7 * hr()) * (maxLon - minLon)}`;
  const hq = Array.from({ length: 250 }, () => [hp(), hp()] as const);
  for (const [o, d] of hq.slice(0, 30)) he.direction({ origin: o, destination: d });
  const ht: number[] = [];
  for (const [o, d] of hq) {
    t = performance.now();
    he.direction({ origin: o, destination: d });
    ht.push(performance.now() - t);
  }
  rows.push(['Hanoi direction p50 / p99', `${pct(ht, 50).toFixed(3)} / ${pct(ht, 99).toFixed(3)} ms`]);
  rows.push(['Hanoi matrix 100×100', m100(hanoi, 9)]);
  rows.push(['NY matrix 100×100', m100(ny, 10)]);
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
}

await main();
