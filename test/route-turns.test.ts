import { Offsets } from '../src/pack/offsets.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { buildManeuvers } from '../src/route/maneuvers.js';
import { EdgeFlag } from '../src/route/profiles.js';
import { computeArcBearings } from '../src/route/turn-model.js';
import { pathLine } from '../src/route/geometry.js';
import { Router } from '../src/route/router.js';
import type { ArcPath, Endpoint } from '../src/route/search.js';
import { loadWasmCore } from '../src/route/wasm/load.js';
import { mulberry32 as rng } from '../src/trip/rng.js';
import { testPack } from './helpers/packs.js';
import { asciiMapPack, type AsciiMap } from './helpers/ascii-map.js';
import { osrmStoredSeconds as stored, osrmTurnSeconds, PlainDijkstra, plainCosts } from './helpers/route-reference.js';

/**
 * OSRM's car turn model (car.lua process_turn) on tiny hand-drawn maps with hand-computed seconds, and on real
 * packs: A*, the hierarchy (TypeScript and WebAssembly) and a plain Dijkstra with the model re-derived agree.
 */

// Hand values of car.lua's sigmoid (turn_penalty 7.5 s, turn_bias 1.075), computed once with a calculator:
// 7.5 / (1 + exp(-((13 / 1.075) · a / 180 − 6.5 · 1.075))) for a ≥ 0, 7.5 / (1 + exp(-((13 · 1.075) · −a / 180 − 6.5 / 1.075))) else.
const STRAIGHT = 0.0069187517715335635;
const RIGHT = 2.1052555445044834;
const LEFT = 5.394744455495515;
const BACK = 7.454800311951241;

describe('the turn formula', () => {
  it('matches hand-computed values of car.lua', () => {
    expect(osrmTurnSeconds(0, 4, false, false)).toBeCloseTo(STRAIGHT, 12);
    expect(osrmTurnSeconds(90, 3, false, false)).toBeCloseTo(RIGHT, 12);
    expect(osrmTurnSeconds(-90, 3, false, false)).toBeCloseTo(LEFT, 12);
    expect(osrmTurnSeconds(180, 1, false, true)).toBeCloseTo(BACK + 20, 12);
    // Two roads: no angle penalty, only the light.
    expect(osrmTurnSeconds(90, 2, true, false)).toBe(2);
    // Right-hand traffic: right is cheaper than left by the bias.
    expect(RIGHT + LEFT).toBeCloseTo(7.5, 12);
  });
});

/**
 * A router over a tiny hand-drawn map (see AsciiMap): by its per-vehicle hierarchies (`hierarchies`), else by its
 * customizable hierarchy, as `build-pack` builds by default.
 */
function routerOf(
  spec: AsciiMap,
  hierarchies = false,
): { router: Router; g: RoadGraph; at: (ch: string) => [number, number] } {
  const { pack, at } = asciiMapPack(spec, 'turns', hierarchies || undefined);
  const g = new RoadGraph(pack);
  return { router: new Router(g, pack), g, at };
}

/** The graph node at a letter's position. */
function nodeAt(g: RoadGraph, [lat, lon]: [number, number]): number {
  for (let v = 0; v < g.nodeCount; v++)
    if (Math.abs(g.lat(v) - lat) < 1e-7 && Math.abs(g.lon(v) - lon) < 1e-7) return v;
  throw new Error('no node there');
}

/** The point halfway along the edge between the nodes at letters p and q. */
function midpoint(g: RoadGraph, at: (ch: string) => [number, number], p: string, q: string): Endpoint {
  const u = nodeAt(g, at(p)),
    v = nodeAt(g, at(q));
  for (let e = 0; e < g.edgeCount; e++) {
    const [x, y] = [g.edgeNodes[2 * e]!, g.edgeNodes[2 * e + 1]!];
    if ((x === u && y === v) || (x === v && y === u))
      return { edge: e, t: 0.5, lat: (g.lat(u) + g.lat(v)) / 2, lon: (g.lon(u) + g.lon(v)) / 2 };
  }
  throw new Error(`no edge ${p}${q}`);
}

/** Seconds and weight of a path's arcs alone (no turns), from the reference's plain costs. */
function arcSums(g: RoadGraph, p: ArcPath, weighting: 'fastest' | 'shortest'): { dur: number; w: number } {
  const c = plainCosts(g, 0, weighting);
  let dur = 0,
    w = 0;
  p.arcs.forEach((a, i) => {
    const f = p.arcs.length === 1 ? p.to - p.from : i === 0 ? 1 - p.from : i === p.arcs.length - 1 ? p.to : 1;
    dur += f * c.dur[a]!;
    w += f * c.w[a]!;
  });
  return { dur, w };
}

describe('perceived bearings (OSRM coordinate_extractor.cpp)', () => {
  //  S--------------V    an edge from U: 2 m north to S, then 20 m east to V
  //  |
  //  U
  const edge = (flags: number) => {
    const mPerDeg = (6372797.560856 * Math.PI) / 180;
    const [lat, lon] = [21, 105.8];
    const north = lat + 2 / mPerDeg,
      east = lon + 20 / (mPerDeg * Math.cos((lat * Math.PI) / 180));
    const e7 = (x: number) => Math.round(x * 1e7);
    const b = computeArcBearings({
      nodeLat: Int32Array.of(e7(lat), e7(north)),
      nodeLon: Int32Array.of(e7(lon), e7(east)),
      edgeNodes: Uint32Array.of(0, 1),
      edgeShape: Offsets.encode([0, 1]),
      shapeLat: Int32Array.of(e7(north)),
      shapeLon: Int32Array.of(e7(lon)),
      edgeFlags: Uint8Array.of(flags),
    });
    return (b[0]! * 360) / 1024;
  };
  it('a road leaves its node towards the point 10 m along it: 8 m east of its 2 m north (76°)', () => {
    expect(edge(0)).toBeCloseTo((Math.atan2(8, 2) * 180) / Math.PI, 0);
  });
  it('a roundabout leaves towards the point 2 m along it (north)', () => {
    expect(edge(EdgeFlag.roundabout)).toBeCloseTo(0, 0);
  });
});

describe('turn seconds on hand-drawn maps', () => {
  //        N
  //        |
  //  W-----C-----E      a four-way crossing (4 roads at C), all two-way
  //        |
  //        S
  const cross = routerOf({
    rows: ['        N', '', '', 'W       C       E', '', '', '        S'],
    ways: [{ nodes: 'WCE' }, { nodes: 'NCS' }],
  });
  const { router, g, at } = cross;
  const turnOf = (from: string, to: string, weighting: 'fastest' | 'shortest' = 'fastest') => {
    const leg = router.leg(midpoint(g, at, from, 'C'), midpoint(g, at, 'C', to), 0, weighting)!;
    expect(leg.path.arcs).toHaveLength(2);
    const arcs = arcSums(g, leg.path, weighting);
    return { dur: leg.duration - arcs.dur, w: leg.weight - arcs.w, leg };
  };

  it('straight on, right and left at a crossing cost the sigmoid of 0°, +90° and −90°, in whole deciseconds', () => {
    // As OSRM keeps them: straight on 0 s (not 0.007), right 2.1 s, left 5.3 s.
    expect(turnOf('W', 'E').dur).toBeCloseTo(stored(STRAIGHT), 6);
    expect(stored(STRAIGHT)).toBe(0);
    // Heading east, south is on the right, north on the left.
    expect(turnOf('W', 'S').dur).toBeCloseTo(stored(RIGHT), 6);
    expect(turnOf('W', 'N').dur).toBeCloseTo(stored(LEFT), 6);
    expect(turnOf('N', 'W').dur).toBeCloseTo(stored(RIGHT), 6);
    expect(turnOf('S', 'W').dur).toBeCloseTo(stored(LEFT), 6);
  });

  it('as OSRM features/car/traffic_turn_penalties.feature: right ≈ straight + 2 s, left ≈ straight + 5.2 s (±1 s)', () => {
    const straight = turnOf('W', 'E').dur;
    expect(turnOf('W', 'S').dur - straight).toBeGreaterThan(1);
    expect(turnOf('W', 'S').dur - straight).toBeLessThan(3);
    expect(turnOf('W', 'N').dur - straight).toBeGreaterThan(4.2);
    expect(turnOf('W', 'N').dur - straight).toBeLessThan(6.2);
  });

  it('fastest weighs the turn seconds unscaled; shortest weighs metres only but still times the turn', () => {
    expect(turnOf('W', 'N').w).toBeCloseTo(stored(LEFT), 6);
    const s = turnOf('W', 'N', 'shortest');
    expect(s.w).toBeCloseTo(0, 9);
    expect(s.dur).toBeCloseTo(stored(LEFT), 6);
  });

  it('step durations include the turn seconds inside them, so they add up to the leg', () => {
    for (const [from, to] of [
      ['W', 'N'],
      ['S', 'W'],
      ['N', 'S'],
    ] as const) {
      const { leg } = turnOf(from, to);
      const steps = buildManeuvers(router.context(0).costs, () => '', leg.path, pathLine(g, leg.path));
      const sum = steps.reduce((x, st) => x + Math.round(st.duration), 0);
      // Each step's value is rounded to a whole second (the arrival step is 0); a left turn's 5.4 s left out
      // would break this bound.
      expect(Math.abs(sum - leg.duration)).toBeLessThanOrEqual(0.5 * (steps.length - 1));
    }
  });

  it('the matrix gives the same seconds as the direction', () => {
    const o = [midpoint(g, at, 'W', 'C'), midpoint(g, at, 'S', 'C')];
    const d = [midpoint(g, at, 'C', 'N'), midpoint(g, at, 'C', 'E')];
    const t = router.table(o, d, 0);
    o.forEach((a, i) =>
      d.forEach((b, j) => {
        const leg = router.leg(a, b, 0)!;
        expect(t.dur[i * 2 + j]).toBe(leg.duration);
        expect(t.weight[i * 2 + j]).toBe(leg.weight);
      }),
    );
  });

  it('a bend with two roads costs nothing; a traffic light costs 2 s; a U-turn at a dead end 20 s more than the sigmoid of 180°', () => {
    //  A-----B         ways A–B, B–C, C–L–D: a right bend at B between two roads (no angle penalty); L a
    //        |         traffic light; A a dead end
    //        C--L--D
    const m = routerOf({
      rows: ['A     B', '', '', '      C     L     D'],
      ways: [{ nodes: 'AB' }, { nodes: 'BC' }, { nodes: 'CLD' }],
      nodeTags: { L: { highway: 'traffic_signals' } },
    });
    const bend = m.router.leg(midpoint(m.g, m.at, 'A', 'B'), midpoint(m.g, m.at, 'B', 'C'), 0)!;
    expect(bend.path.arcs).toHaveLength(2);
    expect(bend.duration - arcSums(m.g, bend.path, 'fastest').dur).toBeCloseTo(0, 9);
    const light = m.router.leg(midpoint(m.g, m.at, 'C', 'L'), midpoint(m.g, m.at, 'L', 'D'), 0)!;
    expect(light.path.arcs).toHaveLength(2);
    expect(light.duration - arcSums(m.g, light.path, 'fastest').dur).toBeCloseTo(2, 9);
    // Leave A–B towards A (no turning on the spot) for a point behind: U-turn at the dead end A (one road), back.
    const src = midpoint(m.g, m.at, 'A', 'B');
    const a = m.g.edgeNodes[2 * src.edge] === nodeAt(m.g, m.at('A')) ? 2 * src.edge + 1 : 2 * src.edge;
    const back = m.router.leg({ ...src, only: a }, { ...src, t: a & 1 ? 0.75 : 0.25 }, 0)!;
    expect(back.path.arcs).toEqual([a, a ^ 1]);
    expect(back.duration - arcSums(m.g, back.path, 'fastest').dur).toBeCloseTo(stored(BACK + 20), 9);
  });

  for (const hierarchies of [true, false])
    it(`on a small grid with a one-way street and a light, every pair equals the plain Dijkstra with the model (${hierarchies ? 'hierarchies' : 'customizable hierarchy'})`, () => {
      //  A---B---C
      //  |   |   |      B–E one way south, E a traffic light
      //  D---E---F
      //  |   |   |
      //  G---H---I
      const m = routerOf(
        {
          rows: ['A   B   C', '', 'D   E   F', '', 'G   H   I'],
          ways: [
            { nodes: 'ABC' },
            { nodes: 'DEF' },
            { nodes: 'GHI' },
            { nodes: 'ADG' },
            { nodes: 'BE', tags: { oneway: 'yes' } },
            { nodes: 'EH' },
            { nodes: 'CFI' },
          ],
          nodeTags: { E: { highway: 'traffic_signals' } },
        },
        hierarchies,
      );
      const plain = new PlainDijkstra(m.g, 0, 'fastest');
      const pts: Endpoint[] = [];
      for (let e = 0; e < m.g.edgeCount; e++)
        pts.push({ edge: e, t: 0.3, lat: m.g.lat(m.g.edgeNodes[2 * e]!), lon: m.g.lon(m.g.edgeNodes[2 * e]!) });
      const table = m.router.table(pts, pts, 0);
      let turned = 0;
      pts.forEach((a, i) => {
        const dist = plain.run(a.edge, a.t);
        pts.forEach((b, j) => {
          const leg = m.router.leg(a, b, 0)!;
          expect(leg.weight).toBeCloseTo(plain.to(dist, a, b.edge, b.t), 9);
          // A hierarchy's table adds a cell as its leg does; the customizable hierarchy's table gives its search's
          // sum, a leg its path's sum in path order (cch/table.ts): equal up to rounding.
          if (hierarchies) {
            expect(table.weight[i * pts.length + j]).toBe(leg.weight);
            expect(table.dur[i * pts.length + j]).toBe(leg.duration);
          } else {
            expect(table.weight[i * pts.length + j]).toBeCloseTo(leg.weight, 9);
            expect(table.dur[i * pts.length + j]).toBeCloseTo(leg.duration, 9);
          }
          if (leg.duration - arcSums(m.g, leg.path, 'fastest').dur > 1) turned++;
        });
      });
      expect(turned).toBeGreaterThan(20);
    });
});

describe('real packs: A*, hierarchy (TypeScript, WebAssembly) and a plain Dijkstra with the model agree on seconds', () => {
  beforeAll(async () => {
    expect(await loadWasmCore()).not.toBeNull();
  });
  for (const region of ['hanoi', 'monaco'] as const) {
    it(`${region}: durations and weights with turn costs`, () => {
      const pack = Pack.from(testPack(region, { hierarchies: true }));
      const g = new RoadGraph(pack);
      const chWasm = new Router(g, pack);
      const chTs = new Router(g, pack, { wasm: false });
      const astar = new Router(g, null, { wasm: false });
      // The same graph built without hierarchies, routed by its customizable hierarchy.
      const cch = new Router(g, Pack.from(testPack(region)));
      expect(chWasm.core(0)).toBe('wasm');
      expect(chTs.context(0).ch).not.toBeNull();
      const plain = new PlainDijkstra(g, 0, 'fastest');
      const rand = rng(99);
      let turnSeconds = 0,
        compared = 0;
      for (let k = 0; k < 12; k++) {
        const v = Math.floor(rand() * g.nodeCount),
          u = Math.floor(rand() * g.nodeCount);
        const a = chTs.snap(g.lat(v), g.lon(v), 0),
          b = chTs.snap(g.lat(u), g.lon(u), 0);
        if (!a || !b) continue;
        const durs = new Map<string, number>();
        const dist = plain.run(a.edge, a.t, durs);
        const want = plain.to(dist, a, b.edge, b.t);
        const legs = [chWasm.leg(a, b, 0), chTs.leg(a, b, 0), astar.leg(a, b, 0), cch.leg(a, b, 0)];
        if (want === Infinity) {
          for (const l of legs) expect(l).toBeNull();
          continue;
        }
        compared++;
        for (const l of legs) expect(l!.weight).toBeCloseTo(want, 6);
        expect(legs[0]).toEqual(legs[1]);
        for (const l of legs.slice(2)) expect(l!.duration).toBeCloseTo(legs[1]!.duration, 6);
        // The path's seconds re-added by the reference: arcs plus its turn seconds.
        const p = legs[1]!.path;
        let s = arcSums(g, p, 'fastest').dur;
        for (let i = 1; i < p.arcs.length; i++) s += plain.turnSeconds(p.arcs[i - 1]!, p.arcs[i]!);
        expect(legs[1]!.duration).toBeCloseTo(s, 6);
        turnSeconds += s - arcSums(g, p, 'fastest').dur;
      }
      expect(compared).toBeGreaterThan(6);
      expect(turnSeconds).toBeGreaterThan(10);
    });
  }

  it('a pack hierarchy of an older layout (contracted without turn costs) is not used', () => {
    const pack = Pack.from(testPack('monaco', { hierarchies: true }));
    const old = new Proxy(pack, {
      get(target, key) {
        if (key === 'json')
          return (name: string) =>
            name === 'ch.index' ? { ...target.json<object>(name), version: 1 } : target.json(name);
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const g = new RoadGraph(pack);
    expect(new Router(g, pack).context(0).ch).not.toBeNull();
    expect(new Router(g, old).context(0).ch).toBeNull();
  });
});
