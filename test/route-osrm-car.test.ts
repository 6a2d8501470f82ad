/**
 * The car as OSRM's car profile drives it (profiles/car.lua and lib/way_handlers.lua of osrm-backend v6), rule by
 * rule, on tiny hand-drawn maps built by the real pack builder: each expected route is reasoned from the Lua, not
 * from this engine's output.
 */
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { PROFILE_RULES, wayUse } from '../data-tools/profiles.js';
import { parseDuration, parseKilograms, parseMaxspeed, parseMetres } from '../data-tools/tag-values.js';
import { Engine } from '../src/engine.js';
import { haversine } from '../src/geo.js';
import { Region } from '../src/region.js';
import { vehicleIndex, type Vehicle } from '../src/route/profiles.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { asciiMapPack, type AsciiMap } from './helpers/ascii-map.js';

const CAR = vehicleIndex('car');

/** An engine over a hand-drawn map (its customizable hierarchy) and each letter's position. */
function mapOf(spec: AsciiMap) {
  const { pack, at } = asciiMapPack(spec);
  const engine = new Engine([new Region(pack)]);
  /** "lat,lng" a fraction f of the way from letter p to letter q. */
  const between = (p: string, q: string, f = 0.5) => {
    const [a, b] = [at(p), at(q)];
    return `${a[0] + f * (b[0] - a[0])},${a[1] + f * (b[1] - a[1])}`;
  };
  /** The route's overview line passes within 2 m of letter ch. */
  const passes = (route: { overview_polyline: { points: string } }, ch: string) => {
    const [lat, lon] = at(ch);
    return polyline.decode(route.overview_polyline.points, 5).some(([y, x]) => haversine(y, x, lat, lon) < 2);
  };
  /** Metres between two letters. */
  const metres = (p: string, q: string) => haversine(...at(p), ...at(q));
  const route = (origin: string, destination: string, vehicle: Vehicle = 'car') =>
    engine.direction({ origin, destination, vehicle });
  return { engine, graph: engine.regions[0]!.graph, at, between, passes, metres, route };
}

describe('speeds: maxspeed keys and zones, surfaces (way_handlers.lua maxspeed, surface)', () => {
  //  X---A---------------------------------------B---Y   A-B primary (65 km/h) unless its tags slow it
  //      C---------------------------------------D       A-C-D-B secondary, 55 km/h: 222 m longer
  const rows = ['X   A                                       B   Y', '    C                                       D'];
  const map = (tags: Record<string, string>) =>
    mapOf({
      rows,
      ways: [
        { nodes: 'XA', tags: { highway: 'primary' } },
        { nodes: 'AB', tags: { highway: 'primary', ...tags } },
        { nodes: 'BY', tags: { highway: 'primary' } },
        { nodes: 'ACDB', tags: { highway: 'secondary' } },
      ],
    });
  // 1,038 m at 65 km/h is 57 s, at 40 km/h 93 s; the bottom's 1,260 m at 55 km/h are 82 s (+ two bends' seconds).
  it.each([
    [{ 'maxspeed:type': 'VN:urban' }, true],
    [{ 'source:maxspeed': 'VN:urban' }, true],
    [{ maxspeed: '60', 'maxspeed:advisory': '50' }, true],
    [{ maxspeed: '25 mph' }, true],
    [{ surface: 'unpaved' }, true],
    [{ smoothness: 'bad' }, true],
    [{ tracktype: 'grade2' }, true],
    [{ surface: 'asphalt' }, false],
    [{ 'maxspeed:type': 'sign' }, false],
    [{ maxspeed: 'walk' }, false],
  ])('A-B tagged %j: 40 km/h or less, so the car takes C-D: %s', (tags, slow) => {
    const m = map(tags);
    const r = m.route(m.between('X', 'A'), m.between('B', 'Y'));
    expect(r.status).toBe('OK');
    expect(m.passes(r.routes[0]!, 'C')).toBe(slow);
  });

  it('parses maxspeed as OSRM: leading digits, mph, zones by kind, none', () => {
    expect(parseMaxspeed('VN:urban')).toBe(50);
    expect(parseMaxspeed('VN:rural')).toBe(90);
    expect(parseMaxspeed('VN:motorway')).toBe(130);
    expect(parseMaxspeed('RU:urban')).toBe(60);
    expect(parseMaxspeed('DE:motorway')).toBeUndefined();
    expect(parseMaxspeed('none')).toBe(140);
    expect(parseMaxspeed('50;60')).toBe(50);
    expect(parseMaxspeed('walk')).toBeUndefined();
    expect(parseMaxspeed('0')).toBeUndefined();
  });
});

describe('one-ways (way_handlers.lua oneway)', () => {
  //  A---B---C      A-B-C: oneway=no but oneway:motorcar=yes: cars A→C only, motorbikes both ways
  //  |       |
  //  D-------E
  const m = mapOf({
    rows: ['A   B   C', '', 'D       E'],
    ways: [
      { nodes: 'ABC', tags: { oneway: 'no', 'oneway:motorcar': 'yes' } },
      { nodes: 'ADEC', tags: {} },
    ],
  });
  it('oneway:motorcar decides before oneway', () => {
    const car = m.route(m.between('B', 'C'), m.between('A', 'B'));
    const bike = m.route(m.between('B', 'C'), m.between('A', 'B'), 'bike');
    expect(m.passes(car.routes[0]!, 'E')).toBe(true);
    expect(m.passes(bike.routes[0]!, 'E')).toBe(false);
  });

  it('an alternating one-way is two-way for a car, its weight 2.5 times its seconds', () => {
    const u = wayUse(PROFILE_RULES.car, { highway: 'residential', oneway: 'alternating' });
    expect([u.forward, u.backward, u.preference]).toEqual([25, 25, 0.4]);
    expect(wayUse(PROFILE_RULES.car, { highway: 'residential', oneway: 'reversible' }).forward).toBe(0);
  });
});

describe('narrow roads (way_handlers.lua penalties, handle_width)', () => {
  //  X---A---------------B---Y   A-B residential (415 m, 60 s), two-way with one lane: weighs 120 s
  //      C---------------D       A-C-D-B: 637 m, 92 s (and two right-angle turns, 2 s each)
  const rows = ['X   A               B   Y', '    C               D'];
  const map = (tags: Record<string, string>) =>
    mapOf({
      rows,
      ways: [
        { nodes: 'XA', tags: {} },
        { nodes: 'AB', tags },
        { nodes: 'BY', tags: {} },
        { nodes: 'ACDB', tags: {} },
      ],
    });
  it.each([
    [{ lanes: '1' }, true],
    [{ width: '3' }, true],
    [{ width: '1.5' }, true],
    [{ side_road: 'yes' }, false],
    [{ lanes: '2' }, false],
    [{ lanes: '1', oneway: 'yes' }, false],
  ])('A-B tagged %j: the car goes round by C-D: %s', (tags, round) => {
    const m = map(tags);
    const r = m.route(m.between('X', 'A'), m.between('B', 'Y'));
    expect(m.passes(r.routes[0]!, 'C')).toBe(round);
  });

  it('penalties weigh a way, not its seconds; the lowest one counts; 1.9 m wide or less closes it', () => {
    const use = (tags: Record<string, string>) => wayUse(PROFILE_RULES.car, { highway: 'service', ...tags });
    expect(use({ lanes: '1' })).toMatchObject({ forward: 15, backward: 15, preference: 0.5 });
    expect(use({ lanes: '1', service: 'alley' }).preference).toBe(0.5);
    expect(use({ side_road: 'yes' }).preference).toBe(0.8);
    expect(use({ width: '1.9' }).forward).toBe(0);
    expect(use({ maxwidth: '2' }).forward).toBe(15);
    expect(use({ maxheight: '1.8' }).forward).toBe(0);
    expect(use({ maxheight: 'default' }).forward).toBe(15);
    expect(use({ maxweight: '1.5' }).forward).toBe(0);
    expect(use({ maxlength: '4' }).forward).toBe(0);
    expect(parseMetres('6\'6"')).toBeCloseTo(1.9812, 4);
    expect(parseKilograms('3000 lbs')).toBeCloseTo(1360.8, 1);
  });
});

describe('access (way_handlers.lua access, speed)', () => {
  //  A-------B     C-D-E private: a car may end there (local access) but passes through only round by A-B
  //  |       |
  //  |       |
  //  C---D---E
  const rows = ['A       B', '', '', 'C   D   E'];
  const map = (tags: Record<string, string>) =>
    mapOf({
      rows,
      ways: [
        { nodes: 'AB', tags: {} },
        { nodes: 'AC', tags: {} },
        { nodes: 'BE', tags: {} },
        { nodes: 'CDE', tags: { access: 'private', ...tags } },
      ],
    });
  it('a private residential road serves a route that ends on it, and no route through it', () => {
    const m = map({});
    const through = m.route(m.between('A', 'C', 0.9), m.between('B', 'E', 0.9));
    expect(m.passes(through.routes[0]!, 'B')).toBe(true);
    const into = m.route(m.between('A', 'C', 0.9), m.between('C', 'D'));
    expect(into.routes[0]!.legs[0]!.distance.value).toBeLessThan(m.metres('A', 'C') * 0.1 + m.metres('C', 'D'));
  });

  it('a private service road is driven for local access only, and no route starts or ends on it', () => {
    const m = map({ highway: 'service' });
    const through = m.route(m.between('A', 'C', 0.9), m.between('B', 'E', 0.9));
    expect(m.passes(through.routes[0]!, 'B')).toBe(true);
    // A point on it starts on the nearest road a route may start on (OSRM's is_startpoint): A-C, 1.5 columns away.
    const start = m.route(m.between('C', 'D'), m.between('A', 'B')).routes[0]!.legs[0]!.start_location;
    expect(haversine(start.lat, start.lng, ...m.at('C'))).toBeLessThan(m.metres('A', 'C') / 2);
    expect(Math.abs(start.lng - m.at('C')[1])).toBeLessThan(1e-6);
  });

  //  A-------B     C-D-E a private service road, E-F a public one beyond it: a route from E-F passes D
  //  |
  //  |
  //  C---D---E---F
  it('a public road reached only through a private service road routes through it', () => {
    const m = mapOf({
      rows: ['A       B', '', '', 'C   D   E   F'],
      ways: [
        { nodes: 'AB', tags: {} },
        { nodes: 'AC', tags: {} },
        { nodes: 'CDE', tags: { highway: 'service', access: 'private' } },
        { nodes: 'EF', tags: { highway: 'service' } },
      ],
    });
    const r = m.route(m.between('E', 'F'), m.between('A', 'B'));
    const leg = r.routes[0]!.legs[0]!;
    expect(haversine(leg.start_location.lat, leg.start_location.lng, ...m.at('E'))).toBeCloseTo(
      m.metres('E', 'F') / 2,
      0,
    );
    expect(m.passes(r.routes[0]!, 'D')).toBe(true);
  });

  //  A-------B       A-B a track open to motor vehicles: 10 km/h (207 m, 75 s); A-C-D-B 873 m, 126 s
  //  |       |
  //  |       |
  //  |       |
  //  C-------D
  it.each([
    [{ highway: 'track', motor_vehicle: 'yes' }, false],
    [{ highway: 'footway', access: 'permissive' }, false],
    [{ highway: 'track' }, true],
    [{ highway: 'track', access: 'agricultural' }, true],
    [{ highway: 'pedestrian', motor_vehicle: 'yes', area: 'yes' }, true],
  ])('A-B %j: the car goes round by C: %s', (tags, round) => {
    const m = mapOf({
      rows: ['X   A       B   Y', '', '', '', '    C       D'],
      ways: [
        { nodes: 'XA', tags: {} },
        { nodes: 'AB', tags },
        { nodes: 'BY', tags: {} },
        { nodes: 'ACDB', tags: {} },
      ],
    });
    const r = m.route(m.between('X', 'A'), m.between('B', 'Y'));
    expect(m.passes(r.routes[0]!, 'C')).toBe(round);
  });

  it('direction-specific access: motorcar:forward=no closes one direction', () => {
    const u = wayUse(PROFILE_RULES.car, { highway: 'tertiary', 'motorcar:forward': 'no' });
    expect([u.forward, u.backward]).toEqual([0, 40]);
  });

  it('works: construction=minor stays open, construction=yes closes', () => {
    expect(wayUse(PROFILE_RULES.car, { highway: 'primary', construction: 'minor' }).forward).toBe(65);
    expect(wayUse(PROFILE_RULES.car, { highway: 'primary', construction: 'yes' }).forward).toBe(0);
    expect(wayUse(PROFILE_RULES.car, { highway: 'primary', status: 'impassable' }).forward).toBe(0);
  });
});

describe('barriers and nodes closed by access (car.lua process_node)', () => {
  //  A---B---C    through B, or round by D-E when B closes
  //  |       |
  //  D-------E
  it.each([
    [{ barrier: 'gate' }, false],
    [{ barrier: 'gate', access: 'no' }, true],
    [{ motorcar: 'no' }, true],
    [{ barrier: 'bollard' }, true],
    [{ barrier: 'bollard', access: 'private' }, false],
    [{ barrier: 'bollard', bollard: 'rising' }, false],
    [{ barrier: 'checkpoint' }, true],
    [{ barrier: 'height_restrictor', maxheight: '1.9' }, true],
    [{ barrier: 'height_restrictor', maxheight: '2.5' }, false],
  ])('B tagged %j: the car goes round: %s', (tags, round) => {
    const m = mapOf({
      rows: ['A   B   C', '', 'D       E'],
      ways: ['AB', 'BC', 'AD', 'DE', 'CE'].map((nodes) => ({ nodes, tags: {} })),
      nodeTags: { B: tags },
    });
    const r = m.route(m.between('A', 'B'), m.between('B', 'C'));
    expect(r.status).toBe('OK');
    expect(m.passes(r.routes[0]!, 'D')).toBe(round);
  });
});

describe('ferries (way_handlers.lua ferries)', () => {
  //  X---A-----------------------B---Y    A-B route=ferry (no highway), 623 m
  const map = (tags: Record<string, string>) =>
    mapOf({
      rows: ['X   A                       B   Y'],
      ways: [
        { nodes: 'XA', tags: {} },
        { nodes: 'AB', tags: { route: 'ferry', highway: '', ...tags } },
        { nodes: 'BY', tags: {} },
      ],
    });
  const seconds = (m: ReturnType<typeof map>) =>
    m.route(m.between('X', 'A'), m.between('B', 'Y')).routes[0]!.legs[0]!.duration.value;
  const roads = (m: ReturnType<typeof map>) => ((m.metres('X', 'A') + m.metres('B', 'Y')) / 2) * (3.6 / 25);

  it('crosses at 5 km/h without a duration', () => {
    const m = map({});
    expect(seconds(m)).toBeCloseTo(roads(m) + m.metres('A', 'B') * (3.6 / 5), -1);
  });

  it('no route starts or ends on it: a point on it starts at the nearer landing (is_startpoint)', () => {
    const m = map({});
    const start = m.route(m.between('A', 'B', 0.3), m.between('B', 'Y')).routes[0]!.legs[0]!.start_location;
    expect(haversine(start.lat, start.lng, ...m.at('A'))).toBeLessThan(1);
  });

  it('takes its duration when tagged (to the whole km/h a pack stores)', () => {
    const m = map({ duration: '00:05' });
    const speed = Math.round((m.metres('A', 'B') * 3.6) / 300);
    expect(seconds(m)).toBeCloseTo(roads(m) + (m.metres('A', 'B') * 3.6) / speed, -1);
    expect(parseDuration('1:30')).toBe(5400);
    expect(parseDuration('PT1H30M')).toBe(5400);
    expect(parseDuration('90')).toBe(5400);
    expect(parseDuration('123')).toBeUndefined();
    expect(parseDuration('5')).toBe(300);
  });
});

describe('traffic lights by direction (lib/obstacles.lua, traffic_signals:direction)', () => {
  //  A-------B-------C    one way A-B-C with a light at B; a car from A to C passes it, as one from C to A
  const seconds = (light: Record<string, string> | null) => {
    const { pack, at } = asciiMapPack({
      rows: ['A       B       C'],
      ways: [{ nodes: 'ABC', tags: {} }],
      nodeTags: light ? { B: { highway: 'traffic_signals', ...light } } : {},
    });
    const g = new RoadGraph(pack);
    const router = new Router(g, pack);
    /** A point on the road a tenth of the way from letter ch towards letter toward. */
    const near = (ch: string, toward: string) => {
      const [lat, lon] = at(ch);
      return router.snap(lat, lon + 0.1 * (at(toward)[1] - lon), CAR)!;
    };
    return [
      router.leg(near('A', 'B'), near('C', 'B'), CAR)!.duration,
      router.leg(near('C', 'B'), near('A', 'B'), CAR)!.duration,
    ];
  };
  const [east, west] = seconds(null);
  it.each([
    [{}, 2, 2],
    [{ 'traffic_signals:direction': 'forward' }, 2, 0],
    [{ 'traffic_signals:direction': 'backward' }, 0, 2],
    [{ direction: 'forward' }, 2, 0],
    [{ 'traffic_signals:direction': 'both', direction: 'forward' }, 2, 2],
  ])('a light tagged %j costs %s s eastwards and %s s westwards', (tags, e, w) => {
    const [e2, w2] = seconds(tags);
    expect(e2! - east!).toBeCloseTo(e, 6);
    expect(w2! - west!).toBeCloseTo(w, 6);
  });
});

describe('restrictions of several ways (restriction_parser.cpp: no_entry, no_exit, *_on_red)', () => {
  //      N        ways: 0 W-X, 1 E-X, 2 X-N, 3 X-S; S is a dead end
  //      |
  //  W---X---E
  //      |
  //      S
  const rows = ['    N', '', 'W   X   E', '', '    S'];
  const ways = ['WX', 'EX', 'XN', 'XS'].map((nodes) => ({ nodes, tags: {} }));
  const turnsAtS = (restrictions: AsciiMap['restrictions'], from: [string, string]) => {
    const m = mapOf({ rows, ways, restrictions });
    const r = m.route(m.between(...from), m.between('X', 'N'));
    expect(r.status).toBe('OK');
    return m.passes(r.routes[0]!, 'S');
  };
  it('no_entry from W-X and E-X into X-N: from W the car turns round at S', () => {
    expect(turnsAtS([], ['W', 'X'])).toBe(false);
    expect(turnsAtS([{ from: [0, 1], via: 'X', to: 2, kind: 'no_entry' }], ['W', 'X'])).toBe(true);
    expect(turnsAtS([{ from: [0, 1], via: 'X', to: 2, kind: 'no_entry' }], ['E', 'X'])).toBe(true);
  });
  it('no_exit from W-X to X-N and X-S; several from ways of a no_left_turn are ignored; *_on_red is no restriction', () => {
    expect(turnsAtS([{ from: 0, via: 'X', to: [2, 3], kind: 'no_exit' }], ['W', 'X'])).toBe(false);
    expect(turnsAtS([{ from: 0, via: 'X', to: [1, 2], kind: 'no_exit' }], ['W', 'X'])).toBe(true);
    expect(turnsAtS([{ from: [0, 1], via: 'X', to: 2, kind: 'no_left_turn' }], ['W', 'X'])).toBe(false);
    expect(turnsAtS([{ from: 0, via: 'X', to: 2, kind: 'no_left_turn_on_red' }], ['W', 'X'])).toBe(false);
  });
});
