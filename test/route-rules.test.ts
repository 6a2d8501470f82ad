import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import type { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { haversine } from '../src/geo.js';
import { alternatives } from '../src/route/alternatives.js';
import { Router } from '../src/route/router.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import type { Endpoint } from '../src/route/search.js';
import { PlainDijkstra } from './helpers/route-reference.js';
import { asciiMapPack, type AsciiMap } from './helpers/ascii-map.js';

/** Grid step of the hand-drawn maps, degrees (see AsciiMap). */
const STEP = 0.001;

/** Each engine's map built without hierarchies: the same graph, routed by its customizable hierarchy. */
const customizable = new WeakMap<Engine, Pack>();

/** Tiny hand-drawn maps (see AsciiMap) answered by an engine over the map's pack with hierarchies. */
function engineOf(spec: AsciiMap): { engine: Engine; at: (ch: string) => [number, number] } {
  const { pack, at } = asciiMapPack(spec, 'test', true);
  const engine = new Engine([new Region(pack)]);
  customizable.set(engine, asciiMapPack(spec).pack);
  return { engine, at };
}

/** "lat,lng" of a point a fraction f of the way from node p to node q. */
function between(at: (ch: string) => [number, number], p: string, q: string, f = 0.5): string {
  const [a, b] = [at(p), at(q)];
  return `${a[0] + f * (b[0] - a[0])},${a[1] + f * (b[1] - a[1])}`;
}

/** True when the route's overview line passes within 2 m of node `ch`. */
function passes(
  route: { overview_polyline: { points: string } },
  at: (ch: string) => [number, number],
  ch: string,
): boolean {
  const [lat, lon] = at(ch);
  return polyline.decode(route.overview_polyline.points, 5).some(([y, x]) => haversine(y, x, lat, lon) < 2);
}

const m = (d: number) => d * ((STEP * Math.PI) / 180) * 6372797.560856; // metres of d grid steps north-south

describe('one-way streets per vehicle', () => {
  //  A---B---C      A→C one-way for cars, two-way for motorbikes (oneway:motorcycle=no)
  //  |       |
  //  D-------E
  const { engine, at } = engineOf({
    rows: ['A   B   C', '', 'D       E'],
    ways: [
      { nodes: 'ABC', tags: { oneway: 'yes', 'oneway:motorcycle': 'no', name: 'Một Chiều' } },
      { nodes: 'ADEC', tags: { name: 'Vòng' } },
    ],
  });
  it('cars go around, motorbikes go straight against the one-way', () => {
    const params = { origin: between(at, 'B', 'C', 0.5), destination: between(at, 'A', 'B', 0.5) };
    const car = engine.direction({ ...params, vehicle: 'car' });
    const bike = engine.direction({ ...params, vehicle: 'bike' });
    expect(car.status).toBe('OK');
    expect(bike.status).toBe('OK');
    expect(passes(car.routes[0]!, at, 'E')).toBe(true);
    expect(passes(car.routes[0]!, at, 'D')).toBe(true);
    expect(passes(bike.routes[0]!, at, 'E')).toBe(false);
    // Motorbike: straight back one grid step east-west; car: forward half a step, around (2 down, 2 west, 2 up)
    // and half a step in.
    const ew = haversine(21, 105.8, 21, 105.8 + STEP);
    expect(bike.routes[0]!.legs[0]!.distance.value).toBeCloseTo(ew, -1);
    expect(car.routes[0]!.legs[0]!.distance.value).toBeCloseTo(0.5 * ew + 2 * m(2) + 2 * ew + 0.5 * ew, -1);
    expect(bike.routes[0]!.legs[0]!.steps[0]!.travel_mode).toBe('TWO_WHEELER');
    expect(car.routes[0]!.legs[0]!.steps[0]!.travel_mode).toBe('DRIVING');
  });
});

describe('turn restrictions', () => {
  //      N---P      ways: 0 S-X, 1 X-N, 2 X-W... loop N-P-Q-W
  //      |   |
  //  W---X---E
  //  |   |
  //  Q   S
  const rows = ['    N   P', '', 'W   X   E', '', 'Q   S'];
  const ways = [
    { nodes: 'SX', tags: { name: 'Nam' } },
    { nodes: 'XN', tags: { name: 'Bắc' } },
    { nodes: 'XW', tags: { name: 'Tây' } },
    { nodes: 'XE', tags: { name: 'Đông' } },
    { nodes: 'NPE', tags: { name: 'Vòng' } },
    { nodes: 'WQS', tags: { name: 'Vòng Tây' } },
  ];
  it('no_left_turn: from Nam onto Tây the car goes another way', () => {
    const free = engineOf({ rows, ways });
    const restricted = engineOf({ rows, ways, restrictions: [{ from: 0, via: 'X', to: 2, kind: 'no_left_turn' }] });
    const q = { origin: between(free.at, 'S', 'X', 0.5), destination: between(free.at, 'X', 'W', 0.5) };
    const a = free.engine.direction(q);
    const b = restricted.engine.direction(q);
    expect(a.status).toBe('OK');
    expect(b.status).toBe('OK');
    expect(a.routes[0]!.legs[0]!.steps.some((s) => s.maneuver === 'turn-left')).toBe(true);
    // Restricted: back along S-Q-W (the start may head either way on its street).
    expect(passes(b.routes[0]!, free.at, 'Q')).toBe(true);
    expect(b.routes[0]!.legs[0]!.distance.value).toBeGreaterThan(a.routes[0]!.legs[0]!.distance.value + 100);
  });
  it('only_straight_on: from Nam the car may only continue onto Bắc', () => {
    const r = engineOf({ rows, ways, restrictions: [{ from: 0, via: 'X', to: 1, kind: 'only_straight_on' }] });
    // Start just north of S heading north is forced by the destination being on X-E; turning right at X is refused.
    const res = r.engine.direction({ origin: between(r.at, 'S', 'X', 0.9), destination: between(r.at, 'X', 'E', 0.5) });
    expect(res.status).toBe('OK');
    const route = res.routes[0]!;
    // Either north through N-P-E, or back through Q-W-X: never the direct right turn at X.
    expect(passes(route, r.at, 'P') || passes(route, r.at, 'Q')).toBe(true);
    expect(route.legs[0]!.distance.value).toBeGreaterThan(m(2) * 0.1 + 300);
  });
});

/** Mid-points of every edge of a region's graph. */
function midpoints(g: Engine['regions'][number]['graph']): Endpoint[] {
  const mids: Endpoint[] = [];
  for (let e = 0; e < g.edgeCount; e++) {
    const u = g.edgeNodes[2 * e]!,
      v = g.edgeNodes[2 * e + 1]!;
    mids.push({ edge: e, t: 0.5, lat: (g.lat(u) + g.lat(v)) / 2, lon: (g.lon(u) + g.lon(v)) / 2 });
  }
  return mids;
}

/** A* and hierarchy queries, each in TypeScript and in the WebAssembly core, over one engine's only region. */
function routersOf(engine: Engine): Record<'astarTs' | 'astarWasm' | 'chTs' | 'chWasm' | 'cch', Router> {
  const region = engine.regions[0]!;
  const g = region.graph;
  return {
    astarTs: new Router(g, null, { wasm: false }),
    astarWasm: new Router(g, null),
    chTs: new Router(g, region.pack, { wasm: false }),
    chWasm: new Router(g, region.pack),
    cch: new Router(g, customizable.get(engine)!),
  };
}

/**
 * Every pair of edge mid-points of a tiny map: the car's A*, hierarchy, tables (TypeScript and wasm) and
 * alternatives equal the reference Dijkstra, and every path keeps its restrictions. Returns the number of pairs
 * whose reference weight `other` (a second reference, e.g. one ignoring a rule) beats.
 */
function agreeAllPairs(engine: Engine, plain: PlainDijkstra, other: PlainDijkstra): number {
  const routers = routersOf(engine);
  const mids = midpoints(engine.regions[0]!.graph);
  const tables = Object.values(routers).map((r) => r.table(mids, mids, 0));
  let beaten = 0;
  for (let i = 0; i < mids.length; i++) {
    const dist = plain.run(mids[i]!.edge, mids[i]!.t);
    const free = other.run(mids[i]!.edge, mids[i]!.t);
    for (let j = 0; j < mids.length; j++) {
      const want = plain.to(dist, mids[i]!, mids[j]!.edge, mids[j]!.t);
      for (const t of tables) expect(t.weight[i * mids.length + j]).toBeCloseTo(want, 6);
      const legs = Object.values(routers).map((r) => r.leg(mids[i]!, mids[j]!, 0));
      for (const leg of legs) {
        if (want === Infinity) {
          expect(leg).toBeNull();
          continue;
        }
        expect(leg!.weight).toBeCloseTo(want, 6);
        expect(plain.pathOk(leg!.path.arcs)).toBe(true);
        expect(leg!.path.arcs[0]! >> 1).toBe(mids[i]!.edge);
        expect(leg!.path.arcs.at(-1)! >> 1).toBe(mids[j]!.edge);
      }
      expect(legs[3]).toEqual(legs[2]);
      if (want === Infinity) continue;
      if (other.to(free, mids[i]!, mids[j]!.edge, mids[j]!.t) < want - 1e-6) beaten++;
      const ctx = routers.chTs.context(0);
      for (const alt of alternatives(routers.chTs, ctx, mids[i]!, mids[j]!, legs[2]!))
        expect(plain.pathOk(alt.path.arcs)).toBe(true);
    }
  }
  return beaten;
}

describe('via-way turn restrictions', () => {
  //  A---B---C---J     Every segment is its own way (numbered in `ways` order).
  //  |   |   |   |     no_left_turn: D-E, via E-F, to F-C (east along D-E-F, then north: forbidden).
  //  D---E---F---K     only_straight_on: G-H, via H-I, to I-L (east along G-H-I must go on to L).
  //  |   |   |   |
  //  G---H---I---L
  const rows = ['A   B   C   J', '', 'D   E   F   K', '', 'G   H   I   L'];
  const names = ['AB', 'BC', 'CJ', 'DE', 'EF', 'FK', 'GH', 'HI', 'IL', 'AD', 'DG', 'BE', 'EH', 'CF', 'FI', 'JK', 'KL'];
  const ways = names.map((nodes) => ({ nodes, tags: {} }));
  const w = (n: string) => names.indexOf(n);
  const restrictions = [
    { from: w('DE'), via: [w('EF')], to: w('CF'), kind: 'no_left_turn' },
    { from: w('GH'), via: [w('HI')], to: w('IL'), kind: 'only_straight_on' },
  ];
  const { engine, at } = engineOf({ rows, ways, restrictions });
  beforeAll(async () => {
    expect(await loadWasmCore()).not.toBeNull();
  });
  const g = engine.regions[0]!.graph;
  const mids = midpoints(g);
  const routers = routersOf(engine);
  const plain = new PlainDijkstra(g, 0, 'fastest');
  /** Edge of the way between two letters. */
  const edgeOf = (p: string, q: string) =>
    mids.findIndex((m) => Math.hypot(m.lat - (at(p)[0] + at(q)[0]) / 2, m.lon - (at(p)[1] + at(q)[1]) / 2) < 1e-9);

  it('are enforced through copy states, and the hierarchy is contracted over them', () => {
    const ctx = routers.chTs.context(0);
    expect(ctx.turns.viaWay).toBe(2);
    expect(ctx.turns.ignoredViaWay).toBe(0);
    expect(ctx.turns.states).toBeGreaterThan(ctx.turns.arcs);
    expect(ctx.ch?.states).toBe(ctx.turns.states);
    expect(plain.viaWay.length).toBe(2);
    expect(routers.chWasm.core(0)).toBe('wasm');
  });

  it('no_*: east along D-E-F the car may not turn north onto F-C; from E-H it may', () => {
    const dst = mids[edgeOf('C', 'F')]!;
    for (const r of Object.values(routers)) {
      const leg = r.leg({ ...mids[edgeOf('D', 'E')]!, only: undefined }, dst, 0)!;
      const arcs = leg.path.arcs;
      // Never the three arcs D→E, E→F, F→C in a row.
      const text = arcs.map((a) => a >> 1).join(',');
      expect(text.includes([edgeOf('D', 'E'), edgeOf('E', 'F'), edgeOf('C', 'F')].join(','))).toBe(false);
      expect(plain.pathOk(arcs)).toBe(true);
      // From H heading north to E, then right onto E-F and left onto F-C: not restricted (different from).
      const fromH = r.leg(mids[edgeOf('E', 'H')]!, dst, 0)!;
      expect(fromH.path.arcs.map((a) => a >> 1)).toEqual([edgeOf('E', 'H'), edgeOf('E', 'F'), edgeOf('C', 'F')]);
    }
  });

  it('only_*: east along G-H-I the car must go on to L', () => {
    const dst = mids[edgeOf('F', 'I')]!;
    const src = mids[edgeOf('G', 'H')]!;
    const want = plain.to(plain.run(src.edge, src.t), src, dst.edge, dst.t);
    for (const r of Object.values(routers)) {
      const leg = r.leg(src, dst, 0)!;
      expect(leg.weight).toBeCloseTo(want, 6);
      const edges = leg.path.arcs.map((a) => a >> 1).join(',');
      expect(edges.includes([edgeOf('G', 'H'), edgeOf('H', 'I'), edgeOf('F', 'I')].join(','))).toBe(false);
      expect(plain.pathOk(leg.path.arcs)).toBe(true);
    }
  });

  it('every pair of edge mid-points: A*, hierarchy, tables (TypeScript and wasm) and alternatives equal the reference', () => {
    const free = new PlainDijkstra(g, 0, 'fastest');
    free.viaWay.length = 0;
    // The restrictions matter: for some pairs the reference that ignores via ways finds a lighter path.
    expect(agreeAllPairs(engine, plain, free)).toBeGreaterThan(3);
  });
});

describe('roads restricted to local access (access=destination)', () => {
  //  A-------B     C-D and D-E are access=destination. From near C to B-E the short way is C-D-E, but entering
  //  |       |     a destination road from an open one weighs OSRM's max_turn_weight, so the car goes round by A-B.
  //  |       |
  //  C---D---E
  beforeAll(async () => {
    expect(await loadWasmCore()).not.toBeNull();
  });
  const rows = ['A       B', '', '', 'C   D   E'];
  const ways = (access?: string): AsciiMap['ways'] => {
    const tags: Record<string, string> = access ? { access } : {};
    return [
      { nodes: 'AB', tags: {} },
      { nodes: 'AC', tags: {} },
      { nodes: 'BE', tags: {} },
      { nodes: 'CD', tags },
      { nodes: 'DE', tags },
    ];
  };
  const open = engineOf({ rows, ways: ways() });
  const local = engineOf({ rows, ways: ways('destination') });

  it('a through route avoids them; the weight, not the duration, carries the penalty', () => {
    const q = { origin: between(open.at, 'A', 'C', 0.9), destination: between(open.at, 'B', 'E', 0.5) };
    const a = open.engine.direction(q).routes[0]!;
    const b = local.engine.direction(q).routes[0]!;
    expect(passes(a, open.at, 'D')).toBe(true);
    expect(passes(b, open.at, 'D')).toBe(false);
    expect(passes(b, open.at, 'B')).toBe(true);
    // A destination on D-E is reached through the restricted road: its duration stays that of the drive.
    const r = routersOf(local.engine).chWasm;
    const g = local.engine.regions[0]!.graph;
    const mids = midpoints(g);
    const de = mids.find((m) => Math.abs(m.lat - open.at('D')[0]) < 1e-9 && m.lon > open.at('D')[1])!;
    const ac = mids.find((m) => Math.abs(m.lon - open.at('A')[1]) < 1e-9)!;
    const leg = r.leg(ac, de, 0)!;
    const plainLeg = routersOf(open.engine).chWasm.leg(ac, de, 0)!;
    expect(leg.weight - plainLeg.weight).toBeCloseTo(3276.7, 6);
    expect(leg.duration).toBeCloseTo(plainLeg.duration, 6);
  });

  it('every pair of edge mid-points equals the reference', () => {
    const g = local.engine.regions[0]!.graph;
    expect(g.edgeRestricted.filter((x) => x & 1).length).toBe(2);
    // Against the reference on the open map's graph (no flags): the penalty changes some answers.
    expect(
      agreeAllPairs(
        local.engine,
        new PlainDijkstra(g, 0, 'fastest'),
        new PlainDijkstra(open.engine.regions[0]!.graph, 0, 'fastest'),
      ),
    ).toBeGreaterThan(3);
  });
});

describe('barriers', () => {
  //  A---B---C     A bollard at B: cars may not pass it, but turn round before it (OSRM).
  //  |       |
  //  D-------E
  beforeAll(async () => {
    expect(await loadWasmCore()).not.toBeNull();
  });
  const rows = ['A   B   C', '', 'D       E'];
  const ways = ['AB', 'BC', 'AD', 'DE', 'CE'].map((nodes) => ({ nodes, tags: {} }));
  const { engine, at } = engineOf({ rows, ways, nodeTags: { B: { barrier: 'bollard' } } });
  const g = engine.regions[0]!.graph;

  it('a car that must go on towards the barrier turns round before it', () => {
    const ab = midpoints(g).findIndex((m) => Math.abs(m.lat - at('A')[0]) < 1e-9 && m.lon < at('B')[1]);
    const tail = g.edgeNodes[2 * ab]!;
    // The arc of A-B that runs towards B, and a destination behind the start on the same edge.
    const toB = Math.abs(g.lon(tail) - at('A')[1]) < 1e-9 ? 2 * ab : 2 * ab + 1;
    const p = (f: number) => {
      const t = toB & 1 ? 1 - f : f;
      return { edge: ab, t, lat: at('A')[0], lon: at('A')[1] + f * (at('B')[1] - at('A')[1]) };
    };
    const plain = new PlainDijkstra(g, 0, 'fastest');
    for (const r of Object.values(routersOf(engine))) {
      const leg = r.leg({ ...p(0.6), only: toB }, p(0.3), 0)!;
      expect(leg.path.arcs).toEqual([toB, toB ^ 1]);
      expect(plain.pathOk(leg.path.arcs)).toBe(true);
      // Never through B to C: the way to C runs round by D and E.
      const c = r.leg(
        p(0.6),
        midpoints(g).find((m) => m.lon > at('B')[1] && Math.abs(m.lat - at('A')[0]) < 1e-9)!,
        0,
      )!;
      const arcs = c.path.arcs;
      for (let i = 0; i + 1 < arcs.length; i++) {
        const x = arcs[i]!,
          head = g.edgeNodes[(x & ~1) + 1 - (x & 1)]!;
        if (Math.abs(g.lon(head) - at('B')[1]) < 1e-9 && Math.abs(g.lat(head) - at('B')[0]) < 1e-9)
          expect(arcs[i + 1]).toBe(x ^ 1);
      }
      expect(arcs.length).toBeGreaterThan(3);
    }
  });

  it('every pair of edge mid-points equals the reference', () => {
    const plain = new PlainDijkstra(g, 0, 'fastest');
    expect(agreeAllPairs(engine, plain, plain)).toBe(0);
    expect(Array.from(g.nodeBlock).filter((b) => b & 1).length).toBe(1);
  });
});

describe('U-turns and intermediate destinations', () => {
  //  A---B---C---D      a street with a loop A-E-F-D above; G hangs off as a dead end beyond D
  //  |           |
  //  E-----------F
  const { engine, at } = engineOf({
    rows: ['A   B   C   D   G', '', 'E           F'],
    ways: [
      { nodes: 'ABCDG', tags: { name: 'Phố Chính' } },
      { nodes: 'AEFD', tags: { name: 'Vòng' } },
    ],
  });
  const ew = haversine(21, 105.8, 21, 105.8 + STEP);
  it('a route between two points of one edge runs along it (mid-edge start and end)', () => {
    const r = engine.direction({ origin: between(at, 'B', 'C', 0.2), destination: between(at, 'B', 'C', 0.7) });
    expect(r.status).toBe('OK');
    expect(r.routes[0]!.legs[0]!.distance.value).toBeCloseTo(0.5 * ew, 0);
  });
  it('no U-turn at an intermediate destination: the next leg goes on and around', () => {
    const r = engine.direction({
      origin: between(at, 'A', 'B', 0.5),
      destination: `${between(at, 'C', 'D', 0.5)};${between(at, 'B', 'C', 0.5)}`,
    });
    expect(r.status).toBe('OK');
    const second = r.routes[0]!.legs[1]!;
    // Not the one step straight back: on to the dead end G, turn there (allowed), back past D and C: 4 steps
    // (shorter than round D-F-E-A).
    expect(second.distance.value).toBeCloseTo(4 * ew, -1);
    expect(4 * ew).toBeLessThan(0.5 * ew + 2 * m(2) + 3 * ew + 1.5 * ew);
    expect(passes(r.routes[0]!, at, 'G')).toBe(true);
    expect(second.steps.some((s) => s.maneuver === 'uturn-left')).toBe(true);
  });
  it('a U-turn is allowed at a dead end', () => {
    const r = engine.direction({
      origin: between(at, 'C', 'D', 0.5),
      destination: `${between(at, 'D', 'G', 0.5)};${between(at, 'C', 'D', 0.2)}`,
    });
    expect(r.status).toBe('OK');
    // Leg 2: on to G, turn, back past D to the point: 0.5 + 0.5 + 1 + 0.8... = 0.5 + 1 + 0.8 steps.
    expect(r.routes[0]!.legs[1]!.distance.value).toBeCloseTo((0.5 + 1 + 0.8) * ew, -1);
  });
});

describe('steps at a crossing', () => {
  //      N
  //      |
  //  W---X---E
  //      |
  //      S
  const rows = ['    N', '', 'W   X   E', '', '    S'];
  const ways = [
    { nodes: 'SX', tags: { name: 'Nam', highway: 'residential' } },
    { nodes: 'XN', tags: { name: 'Bắc', highway: 'residential' } },
    { nodes: 'XW', tags: { name: 'Tây', highway: 'residential' } },
    { nodes: 'XE', tags: { name: 'Đông', highway: 'residential' } },
  ];
  const { engine, at } = engineOf({ rows, ways });
  const from = between(at, 'S', 'X', 0.3);
  const cases: [string, string, string][] = [
    ['E', 'turn-right', 'Rẽ phải vào <b>Đông</b>'],
    ['W', 'turn-left', 'Rẽ trái vào <b>Tây</b>'],
    ['N', 'straight', 'Tiếp tục đi thẳng vào <b>Bắc</b>'],
  ];
  for (const [to, maneuver, html] of cases) {
    it(`heading north on Nam towards ${to}: ${maneuver}`, () => {
      const r = engine.direction({ origin: from, destination: between(at, 'X', to, 0.6) });
      expect(r.status).toBe('OK');
      const steps = r.routes[0]!.legs[0]!.steps;
      expect(steps.map((s) => s.maneuver)).toEqual([undefined, maneuver, 'arrive']);
      expect(steps[0]!.html_instructions).toBe('Bắt đầu đi về hướng <b>Bắc</b> trên <b>Nam</b>');
      expect(steps[1]!.html_instructions).toBe(html);
      // Each step's line starts where the previous one ends, at the crossing X; together they are the overview.
      const lines = steps.map((s) => polyline.decode(s.polyline.points, 5));
      const x = at('X');
      expect(lines[0]!.at(-1)).toEqual([Number(x[0].toFixed(5)), Number(x[1].toFixed(5))]);
      expect(lines[1]![0]).toEqual(lines[0]!.at(-1));
      expect([...lines[0]!, ...lines[1]!.slice(1)]).toEqual(polyline.decode(r.routes[0]!.overview_polyline.points, 5));
      expect(lines[2]).toEqual([lines[1]!.at(-1), lines[1]!.at(-1)]);
    });
  }
});
