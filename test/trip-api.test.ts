import { haversine } from '../src/geo.js';
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import type { TripResponse } from '../src/api/trip.js';
import { TRIP_FAILURES, type OsrmCode } from '../src/api/trip-codes.js';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { routerOf } from '../src/route/router.js';
import {
  bruteForce,
  farthestInsertion,
  heldKarp,
  iteratedLocalSearch,
  mulberry32,
  tourCost,
  TRIP_LIMITS,
} from '../src/trip/index.js';
import { testPack } from './helpers/packs.js';

/** A trip failure as OSRM names it: the seed's status word in `code`, OSRM's code in `osrm_code`. */
const failure = (osrm: OsrmCode) => ({ code: TRIP_FAILURES[osrm], osrm_code: osrm });

const regions = { hanoi: new Region(Pack.from(testPack('hanoi'))), dalat: new Region(Pack.from(testPack('dalat'))) };
const engines = { hanoi: new Engine([regions.hanoi]), dalat: new Engine([regions.dalat]) };
type Name = keyof typeof regions;

/** Seeded random road points in the central 70% of a region, with the router's weight table between their snaps. */
function sample(name: Name, count: number, seed: number, profile = 0) {
  const region = regions[name];
  const router = routerOf(region);
  const [minLon, minLat, maxLon, maxLat] = region.meta.bbox!;
  const rnd = mulberry32(seed);
  const pts: string[] = [];
  const snaps = [];
  while (pts.length < count) {
    const lat = (minLat + (0.15 + 0.7 * rnd()) * (maxLat - minLat)).toFixed(6);
    const lng = (minLon + (0.15 + 0.7 * rnd()) * (maxLon - minLon)).toFixed(6);
    const s = router.snap(Number(lat), Number(lng), profile);
    if (s) {
      pts.push(`${lat},${lng}`);
      snaps.push(s);
    }
  }
  return { pts, table: router.table(snaps, snaps, profile, 'fastest') };
}

/** `count` mutually reachable road points (and their weight table), from a larger seeded sample. */
function connected(name: Name, count: number, seed: number) {
  const m = count * 2 + 6;
  const { pts, table } = sample(name, m, seed);
  const w = table.weight;
  // Reachable both ways from the best-connected point ⇒ every kept pair is reachable.
  const both = (i: number) =>
    [...Array(m).keys()].filter((j) => w[i * m + j] !== Infinity && w[j * m + i] !== Infinity);
  const hub = [...Array(m).keys()].reduce((h, i) => (both(i).length > both(h).length ? i : h), 0);
  const keep = both(hub).slice(0, count);
  expect(keep.length).toBe(count);
  const sub = new Float64Array(count * count);
  keep.forEach((a, i) => keep.forEach((b, j) => (sub[i * count + j] = i === j ? 0 : w[a * m + b]!)));
  return { pts: keep.map((i) => pts[i]!), weight: sub };
}

function ok(r: TripResponse) {
  if (r.code !== 'Ok') throw new Error(`${r.code}: ${'message' in r ? r.message : ''}`);
  return r;
}

/** Stop indices (input order) in trip order. */
function orderOf(r: ReturnType<typeof ok>): number[] {
  const order: number[] = [];
  r.waypoints.forEach((w, i) => (order[w.waypoint_index] = i));
  return order;
}

describe('trip: response shape and placement', () => {
  const { pts } = connected('hanoi', 8, 11);
  const [origin, ...rest] = pts;
  const destination = rest.pop()!;
  const r = ok(engines.hanoi.trip({ origin, waypoints: rest.join(';'), destination }));

  it('fixes origin first and destination last; waypoint_index is a permutation; one leg per stop', () => {
    const idx = r.waypoints.map((w) => w.waypoint_index);
    expect(r.waypoints).toHaveLength(8);
    expect(idx[0]).toBe(0);
    expect(idx[7]).toBe(7);
    expect([...idx].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(r.trips).toHaveLength(1);
    expect(r.trips[0]!.legs).toHaveLength(8);
    expect(r.trips[0]!.weight_name).toBe('routability');
    for (const leg of r.trips[0]!.legs) expect(leg).toMatchObject({ steps: [], summary: '' });
    for (const w of r.waypoints) {
      expect(w.trips_index).toBe(0);
      expect(w.distance).toBeGreaterThanOrEqual(0);
      expect(w.place_id).toMatch(/^[0-9a-z.]{12,}$/);
      // Every place_id an endpoint returns resolves, to a place near the waypoint.
      const detail = engines.hanoi.placeDetail({ place_id: w.place_id });
      expect(detail.status).toBe('OK');
      const loc = detail.result.geometry!.location;
      expect(haversine(loc.lat, loc.lng, w.location[0], w.location[1])).toBeLessThan(1000);
    }
    const sum = (k: 'distance' | 'duration' | 'weight') => r.trips[0]!.legs.reduce((s, l) => s + l[k], 0);
    for (const k of ['distance', 'duration', 'weight'] as const)
      expect(Math.abs(sum(k) - r.trips[0]![k])).toBeLessThan(0.5);
  });

  it('waypoint locations are the snapped points, the given coordinates within their snap distance', () => {
    r.waypoints.forEach((w, i) => {
      const [lat, lng] = pts[i]!.split(',').map(Number) as [number, number];
      const s = routerOf(regions.hanoi).snap(lat, lng, 0)!;
      expect(w.location[0]).toBeCloseTo(s.lat, 6);
      expect(w.location[1]).toBeCloseTo(s.lon, 6);
      expect(w.distance).toBeCloseTo(s.dist, 1);
    });
  });

  it('the geometry is a loop that starts and ends at the origin and passes every stop in order', () => {
    const line = polyline.decode(r.trips[0]!.geometry, 5);
    const o = r.waypoints[0]!.location;
    for (const end of [line[0]!, line[line.length - 1]!]) {
      expect(Math.abs(end[0] - o[0])).toBeLessThan(1.1e-5);
      expect(Math.abs(end[1] - o[1])).toBeLessThan(1.1e-5);
    }
    let from = 0;
    for (const stop of orderOf(r)) {
      const [lat, lng] = r.waypoints[stop]!.location;
      const at = line.findIndex((p, k) => k >= from && Math.abs(p[0] - lat) < 1.1e-5 && Math.abs(p[1] - lng) < 1.1e-5);
      expect(at).toBeGreaterThanOrEqual(from);
      from = at;
    }
  });

  it('each leg equals what Direction and DistanceMatrix give for that pair', () => {
    const order = orderOf(r);
    const legs = r.trips[0]!.legs;
    const mx = engines.hanoi.distanceMatrix({ origins: pts.join('|'), destinations: pts.join('|') });
    order.forEach((a, p) => {
      const b = order[(p + 1) % order.length]!;
      const dir = engines.hanoi.direction({ origin: pts[a], destination: pts[b] });
      expect(dir.status).toBe('OK');
      // Direction and the matrix give whole metres / seconds; trip gives 0.1.
      expect(Math.abs(dir.routes[0]!.legs[0]!.distance.value - legs[p]!.distance)).toBeLessThanOrEqual(0.55);
      expect(Math.abs(dir.routes[0]!.legs[0]!.duration.value - legs[p]!.duration)).toBeLessThanOrEqual(0.55);
      const el = mx.rows[a]!.elements[b]!;
      if (el.status !== 'OK') throw new Error('matrix element missing');
      expect(Math.abs(el.distance.value - legs[p]!.distance)).toBeLessThanOrEqual(0.55);
      expect(Math.abs(el.duration.value - legs[p]!.duration)).toBeLessThanOrEqual(0.55);
    });
  });

  it('is deterministic', () => {
    expect(engines.hanoi.trip({ origin, waypoints: rest.join(';'), destination })).toEqual(r);
  });
});

describe('trip: optimal on real road tables (brute force over the router table)', () => {
  const cases: [Name, number, number][] = [
    ['hanoi', 7, 21],
    ['hanoi', 9, 22],
    ['dalat', 8, 23],
    ['dalat', 9, 24],
  ];
  for (const [name, n, seed] of cases) {
    it(`${name}, ${n} stops, free / fixed origin / fixed origin and destination`, () => {
      const { pts, weight } = connected(name, n, seed);
      let asymmetric = false;
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) if (Math.abs(weight[i * n + j]! - weight[j * n + i]!) > 1) asymmetric = true;
      expect(asymmetric).toBe(true); // real tables: one-way streets, turn costs
      const variants = [
        { params: { waypoints: pts.join(';') }, ends: {} },
        { params: { origin: pts[0], waypoints: pts.slice(1).join(';') }, ends: { start: 0 } },
        {
          params: { origin: pts[0], waypoints: pts.slice(1, -1).join(';'), destination: pts[n - 1] },
          ends: { start: 0, end: n - 1 },
        },
      ];
      for (const { params, ends } of variants) {
        const r = ok(engines[name].trip(params));
        const best = bruteForce(weight, n, ends).cost;
        expect(Math.abs(r.trips[0]!.weight - best)).toBeLessThan(0.06 + 1e-9 * best);
        // The legs follow the table in the travelled direction (asymmetric: c(a,b) ≠ c(b,a)).
        const order = orderOf(r);
        order.forEach((a, p) => {
          const b = order[(p + 1) % n]!;
          expect(Math.abs(r.trips[0]!.legs[p]!.weight - weight[a * n + b]!)).toBeLessThanOrEqual(0.051);
        });
      }
    });
  }

  it('larger trips (heuristic) are never costlier than the same stops in input order', () => {
    const { pts, weight } = connected('dalat', 40, 31);
    const r = ok(engines.dalat.trip({ origin: pts[0], waypoints: pts.slice(1).join(';') }));
    let inOrder = 0;
    for (let i = 0; i < 40; i++) inOrder += weight[i * 40 + ((i + 1) % 40)]!;
    expect(r.trips[0]!.weight).toBeLessThanOrEqual(inOrder);
    expect(r.waypoints[0]!.waypoint_index).toBe(0);
    expect(r.trips[0]!.legs).toHaveLength(40);
  });
});

describe('trip: the heuristic search on real road tables', () => {
  it('reaches the Held-Karp optimum from farthest insertion on 11–13 stops (asymmetric real tables)', () => {
    for (const [name, seed] of [
      ['hanoi', 51],
      ['hanoi', 52],
      ['dalat', 53],
      ['dalat', 54],
    ] as const) {
      for (const n of [11, 12, 13]) {
        const { weight } = connected(name, n, seed + n);
        const out = iteratedLocalSearch(weight, n, farthestInsertion(weight, n));
        expect([...out].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
        expect(tourCost(weight, n, out)).toBeCloseTo(tourCost(weight, n, heldKarp(weight, n)), 6);
      }
    }
  });

  it('on 120 stops gives a permutation no longer than farthest insertion, the same order every time', () => {
    const { weight } = connected('hanoi', 120, 61);
    const first = farthestInsertion(weight, 120);
    const a = iteratedLocalSearch(weight, 120, first);
    expect([...a].sort((x, y) => x - y)).toEqual([...Array(120).keys()]);
    expect(tourCost(weight, 120, a)).toBeLessThan(tourCost(weight, 120, first));
    expect([...iteratedLocalSearch(weight, 120, first)]).toEqual([...a]);
  });
});

describe('trip: bad input', () => {
  const { pts } = connected('hanoi', 3, 41);
  const trip = (p: Record<string, unknown>) => engines.hanoi.trip(p);
  const cases: [string, Record<string, unknown>, OsrmCode, RegExp][] = [
    ['nothing', {}, 'InvalidQuery', /at least 2 distinct/],
    ['one coordinate', { waypoints: pts[0] }, 'InvalidQuery', /at least 2 distinct/],
    ['the same coordinate twice', { waypoints: `${pts[0]};${pts[0]}` }, 'InvalidQuery', /at least 2 distinct/],
    [
      'origin equal to destination',
      { origin: pts[0], waypoints: pts[1], destination: pts[0] },
      'InvalidQuery',
      /origin and destination/,
    ],
    ['malformed origin', { origin: 'abc', waypoints: pts.join(';') }, 'InvalidQuery', /^origin/],
    ['three numbers', { waypoints: `${pts[0]};21,105,3` }, 'InvalidQuery', /waypoints\[1\]/],
    ['empty part between ;', { waypoints: `${pts[0]};;${pts[1]}` }, 'InvalidQuery', /waypoints\[1\] is empty/],
    ['trailing ;', { waypoints: `${pts[0]};${pts[1]};` }, 'InvalidQuery', /waypoints\[2\] is empty/],
    ['latitude out of range', { origin: '91,105.85', waypoints: pts.join(';') }, 'InvalidValue', /^origin/],
    // Malformed, as parseCoord reads them, however far their values would lie (before: InvalidValue for these two).
    ['an exponent', { origin: '1e3,105.85', waypoints: pts.join(';') }, 'InvalidQuery', /not a pair of numbers/],
    ['hexadecimal', { waypoints: `${pts[0]};0x100,105.85` }, 'InvalidQuery', /^waypoints\[1\]: .*not a pair/],
    ['an origin of spaces', { origin: ' ', waypoints: pts.join(';') }, 'InvalidQuery', /^origin is empty \(spaces\)$/],
    ['destination not a string', { waypoints: pts.join(';'), destination: 21.03 }, 'InvalidValue', /^destination/],
    ['unknown vehicle', { waypoints: pts.join(';'), vehicle: 'boat' }, 'InvalidValue', /vehicle/],
    ['outside the map', { waypoints: `${pts[0]};10.5,106.7` }, 'NoSegment', /waypoints\[1\]/],
  ];
  for (const [what, params, code, message] of cases) {
    it(`${what} → ${code}`, () => {
      const r = trip(params);
      expect(r).toMatchObject(failure(code));
      expect('message' in r && r.message).toMatch(message);
    });
  }

  it('10,000 waypoints → TooBig (counted before parsing), and N_MAX + 1 too', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `21.0${i % 10},105.8${i % 7}`).join(';');
    expect(trip({ waypoints: many })).toMatchObject(failure('TooBig'));
    expect(trip({ waypoints: `${many};;bad` })).toMatchObject(failure('TooBig'));
    const limit = Array.from({ length: TRIP_LIMITS.N_MAX - 1 }, () => pts[0]).join(';');
    expect(trip({ origin: pts[1], waypoints: limit, destination: pts[2] })).toMatchObject(failure('TooBig'));
    expect(TRIP_LIMITS.N_MAX).toBeGreaterThanOrEqual(200);
  });

  it('a coordinate farther than the snap limit from every road → NoSegment naming it', () => {
    const [, minLat, ,] = regions.hanoi.meta.bbox!;
    const [lat0, lng0] = pts[0]!.split(',').map(Number) as [number, number];
    // 0.0095° (> 1 km) south of the southernmost road node, still inside the region's margin, with the limit at 1 km.
    const near = new Engine([regions.hanoi], { limits: { snapRadius: 1000 } });
    const r = near.trip({
      origin: pts[0],
      waypoints: `${(minLat - 0.0095).toFixed(6)},${lng0}`,
      destination: `${lat0 + 0.001},${lng0}`,
    });
    expect(r).toMatchObject(failure('NoSegment'));
    expect('message' in r && r.message).toMatch(/waypoints\[0\]/);
  });

  it('stops that cannot reach each other → NoTrips', () => {
    // Trucks: Hanoi's truck network has two big components (snapping prefers big ones, so cars rarely fail).
    const { pts: all, table } = sample('hanoi', 60, 51, 3);
    const m = all.length;
    let pair: [number, number] | null = null;
    for (let i = 0; i < m && !pair; i++)
      for (let j = 0; j < m && !pair; j++) if (table.weight[i * m + j] === Infinity) pair = [i, j];
    expect(pair).not.toBeNull();
    const r = trip({ waypoints: `${all[pair![0]]};${all[pair![1]]}`, vehicle: 'truck' });
    expect(r).toMatchObject(failure('NoTrips'));
    expect('message' in r && r.message).toMatch(/waypoints\[[01]\]/);
  });

  it('null params and non-object values never throw', () => {
    expect(() => engines.hanoi.trip(null as never)).not.toThrow();
    expect(engines.hanoi.trip(null as never)).toMatchObject(failure('InvalidQuery'));
    expect(trip({ waypoints: 42 })).toMatchObject(failure('InvalidValue'));
  });

  it('fewer than 10 coordinates is not an error (rest-api "at least 10 for a best trip" is advice)', () => {
    expect(trip({ origin: pts[0], waypoints: pts[1] }).code).toBe('Ok');
  });
});
