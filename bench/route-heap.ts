/**
 * Priority queues in a route search: our IndexHeap (src/route/heap.ts: typed arrays, decrease-key through a position
 * array) against tinyqueue (the usual JavaScript binary heap, used here the usual way: [key, node] pairs with lazy
 * deletion, stale entries skipped when popped). The same node-based Dijkstra over two car graphs, the Hanoi pack's
 * (small) and DIMACS New York's (264,346 nodes, built in memory from ../shared/data), one-to-all from the same random
 * sources, the two queues interleaved source by source; every distance of one is checked against the other.
 * Run: npx tsx bench/route-heap.ts
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import TinyQueue from 'tinyqueue';
import { buildDimacsPack } from '../data-tools/dimacs-pack.js';
import { Pack } from '../src/pack/reader.js';
import { IndexHeap } from '../src/route/heap.js';
import { vehicleIndex } from '../src/route/profiles.js';
import { RoadGraph, speedOf } from '../src/route/graph.js';
import { mulberry32 as rng } from '../src/trip/rng.js';
import { median, quantile, table } from './stats.js';

/** The car graph's out-arcs as a forward star: node v's arcs are first[v] .. first[v+1], to head[k] costing w[k] s. */
function carStar(g: RoadGraph): { first: Uint32Array; head: Uint32Array; w: Float64Array } {
  const car = vehicleIndex('car');
  const first = new Uint32Array(g.nodeCount + 1);
  const head: number[] = [];
  const w: number[] = [];
  const speeds = g.speeds();
  for (let v = 0; v < g.nodeCount; v++) {
    for (let k = g.adjFirst[v]!; k < g.adjFirst[v + 1]!; k++) {
      const arc = g.adjArc[k]!;
      const e = arc >> 1;
      const speed = speedOf(speeds, e, car, arc & 1);
      if (speed === 0) continue;
      head.push(g.edgeNodes[2 * e + 1 - (arc & 1)]!);
      w.push(g.edgeDuration ? g.edgeDuration[e]! : (g.edgeLen[e]! / speed) * 3.6);
    }
    first[v + 1] = head.length;
  }
  return { first, head: Uint32Array.from(head), w: Float64Array.from(w) };
}

/** What the search needs of a queue: queue or lower a node's key; the node with the smallest key, -1 when empty. */
interface Queue {
  push(node: number, key: number): void;
  pop(): number;
}

/** IndexHeap as it is used by the engine's searches (decrease-key). */
class IndexQueue implements Queue {
  constructor(private readonly heap: IndexHeap) {}
  push(node: number, key: number): void {
    this.heap.push(node, key);
  }
  pop(): number {
    return this.heap.size > 0 ? this.heap.pop() : -1;
  }
}

/** tinyqueue with lazy deletion: a lowered key is a new entry; entries whose key is no longer the node's are stale. */
class LazyQueue implements Queue {
  private readonly q = new TinyQueue<[number, number]>([], (a, b) => a[0] - b[0]);
  constructor(private readonly dist: Float64Array) {}
  push(node: number, key: number): void {
    this.q.push([key, node]);
  }
  pop(): number {
    while (this.q.length > 0) {
      const [key, node] = this.q.pop()!;
      if (key === this.dist[node]) return node;
    }
    return -1;
  }
}

/** Dijkstra from `source` to every node; `dist` is filled (Infinity = unreachable). Returns the nodes settled. */
function dijkstra(star: ReturnType<typeof carStar>, source: number, dist: Float64Array, queue: Queue): number {
  dist.fill(Infinity);
  dist[source] = 0;
  queue.push(source, 0);
  let settled = 0;
  for (let u = queue.pop(); u >= 0; u = queue.pop()) {
    settled++;
    const du = dist[u]!;
    for (let k = star.first[u]!; k < star.first[u + 1]!; k++) {
      const v = star.head[k]!;
      const dv = du + star.w[k]!;
      if (dv < dist[v]!) {
        dist[v] = dv;
        queue.push(v, dv);
      }
    }
  }
  return settled;
}

/** Races the two queues on one graph and prints a table. */
function race(label: string, graph: RoadGraph, queries: number): void {
  const star = carStar(graph);
  const n = graph.nodeCount;
  const rand = rng(7);
  const sources = Array.from({ length: queries }, () => Math.floor(rand() * n));
  const ours = new Float64Array(n);
  const theirs = new Float64Array(n);
  const heap = new IndexHeap(n);
  const times = { IndexHeap: [] as number[], tinyqueue: [] as number[] };
  let settled = 0;
  const run = (name: keyof typeof times, dist: Float64Array, queue: Queue, s: number): number => {
    const t = performance.now();
    const count = dijkstra(star, s, dist, queue);
    times[name].push(performance.now() - t);
    return count;
  };
  // Warm-up (JIT) on a few sources, not timed.
  for (const s of sources.slice(0, 5)) {
    dijkstra(star, s, ours, new IndexQueue(heap));
    dijkstra(star, s, theirs, new LazyQueue(theirs));
  }
  sources.forEach((s, i) => {
    // Alternate which queue goes first, so neither always runs on a warmer cache.
    const a = () => run('IndexHeap', ours, new IndexQueue(heap), s);
    const b = () => run('tinyqueue', theirs, new LazyQueue(theirs), s);
    settled += i % 2 ? (b(), a()) : (a(), b());
    for (let v = 0; v < n; v++) {
      if (ours[v] !== theirs[v] && Math.abs(ours[v]! - theirs[v]!) > 1e-9 * ours[v]!) {
        throw new Error(`${label}: distance from ${s} to ${v} differs: IndexHeap ${ours[v]}, tinyqueue ${theirs[v]}`);
      }
    }
  });
  const base = median(times.IndexHeap);
  const title = `${label}: one-to-all Dijkstra, car, ${n} nodes, ${star.head.length} arcs, ${queries} sources`;
  table(`${title} (${Math.round(settled / queries)} nodes settled each)`, [
    ...(['IndexHeap', 'tinyqueue'] as const).map((name) => ({
      queue: name,
      'p50 ms': median(times[name]),
      'p99 ms': quantile(times[name], 0.99),
      'p50 / IndexHeap p50': median(times[name]) / base,
    })),
  ]);
}

const hanoi = fileURLToPath(new URL('../packs/hanoi.pack', import.meta.url));
race('Hanoi pack', new RoadGraph(Pack.from(readFileSync(hanoi), { source: hanoi })), 400);
const dimacs = fileURLToPath(new URL('../../shared/data/dimacs/', import.meta.url));
const ny = await buildDimacsPack(`${dimacs}USA-road-d.NY.gr.gz`, `${dimacs}USA-road-d.NY.co.gz`, 'ny');
race('DIMACS New York', new RoadGraph(Pack.from(ny, { source: 'ny' })), 40);
console.log('(every distance equal between the two queues; both run interleaved in one process, under the same load.)');
