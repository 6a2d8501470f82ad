/**
 * Metrics customized over a base (route/cch/arcs.ts KeptRows, CchMetric.base): a taxi's over a car's, a route
 * avoiding road kinds over the same vehicle's, keep only the rows that differ from the base's, and read, route and
 * measure exactly as the whole metric does; a vehicle whose rows mostly differ keeps them all. Routes are checked
 * against a plain edge-based Dijkstra, the kept arcs and tables against the same metric customized whole.
 */
import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { arcsProblem } from '../src/route/cch/arcs.js';
import { buildCch } from '../src/route/cch/build.js';
import { CchMetric } from '../src/route/cch/customize.js';
import type { MetricExchange, MetricPart } from '../src/route/cch/exchange.js';
import { CchMeasures } from '../src/route/cch/measures.js';
import { CchQuery } from '../src/route/cch/query.js';
import { AVOID_FACTOR, avoidedEdges } from '../src/route/avoid.js';
import { ArcCosts } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { AVOID_CONTEXTS_KEPT, Router } from '../src/route/router.js';
import { testPack } from './helpers/packs.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';

const pack = Pack.from(testPack('hanoi'));
const g = new RoadGraph(pack);
const router = new Router(g, pack);
const { topo, states } = buildCch(g);
const car = new CchMetric(topo, states, new ArcCosts(g, 0, 'fastest'));

/** Bytes of a metric's own kept arcs, both ways. */
const bytes = (m: CchMetric) =>
  [m.up, m.down].reduce((n, a) => n + Object.values(a).reduce((x, v: Uint8Array) => x + v.byteLength, 0), 0);

/** Every topology arc each way: kept or not, and its weight and middle when kept, as `m` reads them. */
function keptArcs(m: CchMetric): string[] {
  const out: string[] = [];
  for (const up of [true, false])
    for (let v = 0; v < topo.size; v++)
      for (let i = topo.upFirst[v]!; i < topo.upFirst[v + 1]!; i++) {
        const k = m.keptAt(up, v, topo.upHead[i]!);
        out.push(k < 0 ? '-' : `${m.arcsAt(up, v).weight[k - m.firstAt(up, v)]}/${m.midAt(up, k, v)}`);
      }
  return out;
}

/**
 * Per direction (up, then down) and vertex: '1' when `m`'s row as keptArcs reads it differs from `base`'s, else '0';
 * or, given `own`, whether the row is `own`'s own (CchArcs.own).
 */
function rows(m: CchMetric, base: CchMetric | null): string[] {
  const a = keptArcs(m),
    b = base && keptArcs(base);
  const out: string[] = [];
  let i = 0;
  for (const up of [true, false])
    for (let v = 0; v < topo.size; v++) {
      let differs = false;
      for (let k = topo.upFirst[v]!; k < topo.upFirst[v + 1]!; k++, i++) differs ||= b !== null && a[i] !== b[i];
      const own = (up ? m.up : m.down).own;
      out.push(b ? (differs ? '1' : '0') : String((own[v >> 5]! >>> (v & 31)) & 1));
    }
  return out;
}

/** A typed array's bytes, to compare whole (a diff of a million numbers would take minutes to print). */
const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** How many entries of two lists of one length differ (a count, not a diff of two million strings). */
function differing(a: string[], b: string[]): number {
  expect(a.length).toBe(b.length);
  return a.filter((x, i) => x !== b[i]).length;
}

describe('a metric customized over a base', () => {
  for (const [name, profile, avoid, base] of [
    ['a taxi over a car', 2, 0, () => car],
    ['a car avoiding highways over a car', 0, 2, () => car],
    ['a truck avoiding tolls, highways and ferries over a truck', 3, 7, () => trucks()],
  ] as const)
    it(`${name}: keeps only the rows that differ, and routes and measures as the whole metric`, () => {
      const costs = new ArcCosts(g, profile, 'fastest', undefined, undefined, avoid);
      const whole = new CchMetric(topo, states, costs);
      const over = new CchMetric(topo, states, costs, undefined, undefined, base());
      expect(over.base).toBe(base());
      expect(differing(keptArcs(over), keptArcs(whole))).toBe(0);
      expect(bytes(over)).toBeLessThan(bytes(whole) / 4);
      // Its own rows are exactly those that differ from the base's.
      expect(differing(rows(over, null), rows(whole, base()))).toBe(0);
      // Rows of its own: none would be an empty test of the reading.
      expect(over.up.slot.length + over.down.slot.length).toBeGreaterThan(0);

      const avoided = avoidedEdges(g, avoid);
      const plain = new PlainDijkstra(g, profile, 'fastest', (e) => (avoided[e] ? AVOID_FACTOR : 1));
      const [q, qWhole] = [new CchQuery(over), new CchQuery(whole)];
      const ends = randomEndpoints(g, router, profile, 24, 300 + profile);
      let found = 0;
      for (const a of ends.slice(0, 3)) {
        const dist = plain.run(a.edge, a.t);
        for (const b of ends.slice(3)) {
          const got = q.route(a, b);
          expect(got).toEqual(qWhole.route(a, b));
          const want = plain.to(dist, a, b.edge, b.t);
          if (want === Infinity) {
            expect(got).toBeNull();
            continue;
          }
          expect(got!.weight).toBeCloseTo(want, 6);
          expect(plain.pathOk(got!.arcs)).toBe(true);
          found++;
        }
      }
      expect(found).toBeGreaterThan(40);

      // Every kept arc's seconds and metres, and a table's, as the whole metric's (to the bit).
      const [m, mWhole] = [new CchMeasures(over), new CchMeasures(whole)];
      for (const up of [true, false])
        for (let v = 0; v < topo.size; v += 3)
          for (let i = topo.upFirst[v]!; i < topo.upFirst[v + 1]!; i++) {
            const h = topo.upHead[i]!,
              k = over.keptAt(up, v, h);
            if (k < 0) continue;
            expect([m.read(up, k, v, h), m.len]).toEqual([mWhole.read(up, whole.keptAt(up, v, h), v, h), mWhole.len]);
          }
    });

  it('customized by parts (windows of 5,000 arcs), keeps the same rows as in one piece', () => {
    const costs = new ArcCosts(g, 0, 'fastest', undefined, undefined, 2);
    const [piece, parts] = [undefined, 5000].map((w) => new CchMetric(topo, states, costs, undefined, w, car));
    for (const way of ['up', 'down'] as const)
      for (const f of ['rowBase', 'rowOff', 'slot', 'weight', 'viaMid', 'midRank', 'mid', 'far', 'own'] as const)
        expect(bytesOf(parts![way][f]).equals(bytesOf(piece![way][f]))).toBe(true);
    expect(parts!.base).toBe(car);
  });

  it('a vehicle whose rows mostly differ from the base’s keeps them all', () => {
    const bike = new CchMetric(topo, states, new ArcCosts(g, 1, 'fastest'), undefined, undefined, car);
    expect(bike.base).toBeNull();
    expect(bike.up.own).toHaveLength(0);
    expect(differing(keptArcs(bike), keptArcs(new CchMetric(topo, states, new ArcCosts(g, 1, 'fastest'))))).toBe(0);
  });

  it('refuses a base that is itself over a base', () => {
    const taxi = new CchMetric(topo, states, new ArcCosts(g, 2, 'fastest'), undefined, undefined, car);
    expect(() => new CchMetric(topo, states, new ArcCosts(g, 2, 'shortest'), undefined, undefined, taxi)).toThrow(
      /every row/,
    );
  });
});

let truck: CchMetric | undefined;
function trucks(): CchMetric {
  return (truck ??= new CchMetric(topo, states, new ArcCosts(g, 3, 'fastest')));
}

describe('a router’s metrics over a base', () => {
  const pts = randomEndpoints(g, router, 0, 14, 77);
  /** Legs and a table of a vehicle (profile), weighting and avoid mask, from a router asked in the order given. */
  const answers = (r: Router, asks: [number, number][]) =>
    asks.map(([profile, avoid]) => ({
      legs: pts.slice(1).map((b) => r.leg(pts[0]!, b, profile, 'fastest', avoid)),
      table: r.table(pts.slice(0, 5), pts.slice(5), profile, 'fastest', avoid),
    }));

  it('customizes a taxi and avoided highways over the car it holds, answering as routers that hold them whole', () => {
    const over = new Router(new RoadGraph(Pack.from(testPack('hanoi'))), Pack.from(testPack('hanoi')));
    const asks: [number, number][] = [
      [0, 0],
      [2, 0],
      [0, 2],
    ];
    const got = answers(over, asks);
    expect(over.context(2).metric()!.base).toBe(over.context(0).metric());
    expect(over.context(0, 'fastest', 2).metric()!.base).toBe(over.context(0).metric());
    // Asked first, each is customized whole (no base held yet).
    const wholes = asks.map(([p, a]) => {
      const r = new Router(new RoadGraph(Pack.from(testPack('hanoi'))), Pack.from(testPack('hanoi')));
      const [answer] = answers(r, [[p, a]]);
      expect(r.context(p, 'fastest', a).metric()!.base).toBeNull();
      return answer;
    });
    expect(got).toEqual(wholes);
  });

  it('offers a metric with its base’s key; another router adopts it over its own base, and refuses a wrong one', () => {
    const store = new Map<string, MetricPart>();
    const exchange = (): MetricExchange => ({
      offer: (k) => store.get(k),
      adopted: () => {},
      published: (k, p) => void store.set(k, p),
    });
    const fresh = () => {
      const r = new Router(new RoadGraph(Pack.from(testPack('hanoi'))), Pack.from(testPack('hanoi')));
      r.exchange = exchange();
      return r;
    };
    const maker = fresh();
    const want = answers(maker, [
      [0, 0],
      [2, 0],
    ]);
    const [key, taxi] = [...store].find(([k, p]) => p.kind === 'arcs' && p.base !== '' && k.endsWith(':2:fastest'))!;
    if (taxi.kind !== 'arcs') throw new Error('no arcs');
    expect(taxi.base).toBe('0:fastest');
    // Asked the taxi first, the adopter makes the car its base (adopting that too) and answers alike.
    const adopter = fresh();
    expect(answers(adopter, [[2, 0]])).toEqual([want[1]]);
    expect(adopter.metricCounts().metrics).toEqual({ made: 0, adopted: 2 });
    expect(adopter.context(2).metric()!.base).toBe(adopter.context(0).metric());
    // A base that names no metric, none of the taxi's, or none at all, or rows left to the base that hold arcs:
    // refused, made here instead.
    for (const wrong of [
      { ...taxi, base: '9:fastest' },
      { ...taxi, base: '0:fastest:2' },
      { ...taxi, base: '2:fastest' },
      { ...taxi, base: '' },
      { ...taxi, up: { ...taxi.up, own: taxi.up.own.map(() => 0) } },
    ]) {
      store.set(key, wrong);
      const r = fresh();
      expect(answers(r, [[2, 0]])).toEqual([want[1]]);
      expect(r.metricCounts().refused).toBeGreaterThan(0);
    }
    expect(arcsProblem({ ...taxi.up, own: taxi.up.own.map(() => 0) }, topo.upFirst)).toMatch(/base's but has arcs/);
  });

  it('lets go of a dropped avoiding context’s parts, its measures keyed with its base’s', () => {
    const r = new Router(new RoadGraph(Pack.from(testPack('hanoi'))), Pack.from(testPack('hanoi')));
    r.exchange = { offer: () => undefined, adopted: () => {}, published: () => {} };
    const own = (r as unknown as { own: Map<string, unknown> }).own;
    answers(r, [
      [0, 0],
      [0, 2],
    ]);
    const mine = [...own.keys()].filter((k) => k.endsWith(':0:fastest:2') || k.endsWith(':0:fastest:2>0:fastest'));
    expect(mine.map((k) => k.split(':')[0])).toEqual(['arcs', 'measures']);
    const others = [1, 3].flatMap((p) => (['fastest', 'shortest'] as const).map((w) => () => r.context(p, w, 2)));
    expect(others).toHaveLength(AVOID_CONTEXTS_KEPT);
    for (const other of others) other();
    expect(mine.filter((k) => own.has(k))).toEqual([]);
    expect([...own.keys()].some((k) => k.endsWith(':0:fastest'))).toBe(true);
  });
});
