import { describe, expect, it } from 'vitest';
import type { DirectionParams } from '../src/api/direction.js';
import type { MatrixParams } from '../src/api/matrix.js';
import { distanceText, durationText } from '../src/text/text-value.js';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { alternatives, sharedWeight, ALT_MAX_SHARED, ALT_MAX_STRETCH } from '../src/route/alternatives.js';
import { routerOf } from '../src/route/router.js';
import { testPack } from './helpers/packs.js';
import { mulberry32 as rng } from '../src/trip/rng.js';

const region = new Region(Pack.from(testPack('hanoi')));
const engine = new Engine([region]);
const [minLon, minLat, maxLon, maxLat] = region.meta.bbox!;

const rand = rng(7);
const point = () =>
  `${(minLat + 0.15 * (maxLat - minLat) + rand() * 0.7 * (maxLat - minLat)).toFixed(6)},${(minLon + 0.15 * (maxLon - minLon) + rand() * 0.7 * (maxLon - minLon)).toFixed(6)}`;

describe('text values', () => {
  it('formats distances and durations as the contract says', () => {
    expect(distanceText(529.4)).toEqual({ text: '529 m', value: 529 });
    expect(distanceText(4181)).toEqual({ text: '4.18 km', value: 4181 });
    expect(distanceText(16040)).toEqual({ text: '16 km', value: 16040 });
    expect(distanceText(2123)).toEqual({ text: '2.12 km', value: 2123 });
    expect(distanceText(2100)).toEqual({ text: '2.1 km', value: 2100 });
    expect(distanceText(9994)).toEqual({ text: '9.99 km', value: 9994 });
    expect(distanceText(9996)).toEqual({ text: '10 km', value: 9996 });
    expect(distanceText(10_000)).toEqual({ text: '10 km', value: 10_000 });
    expect(distanceText(10_600)).toEqual({ text: '11 km', value: 10_600 });
    expect(durationText(6.2)).toEqual({ text: '6 giây', value: 6 });
    expect(durationText(660)).toEqual({ text: '11 phút', value: 660 });
    expect(durationText(3900)).toEqual({ text: '1 giờ 5 phút', value: 3900 });
  });

  it('a text kept from an earlier call is the text of the value asked (every value, kept or beyond the kept tables)', () => {
    // The rule re-typed from the contract's examples above.
    const km = (m: number) => (m < 10_000 ? `${Number((m / 1000).toFixed(2))} km` : `${Math.round(m / 1000)} km`);
    const dist = (m: number) => (m < 1000 ? `${m} m` : km(m));
    const time = (s: number) => {
      const min = Math.round(s / 60);
      const [h, m] = [Math.floor(min / 60), min % 60];
      return s < 60 ? `${s} giây` : min < 60 ? `${min} phút` : m > 0 ? `${h} giờ ${m} phút` : `${h} giờ`;
    };
    const rand = rng(11);
    for (let i = 0; i < 20_000; i++) {
      const m = Math.floor(rand() ** 3 * 3_000_000);
      const s = Math.floor(rand() ** 3 * 200_000);
      for (let twice = 0; twice < 2; twice++) {
        expect(distanceText(m).text).toBe(dist(m));
        expect(durationText(s).text).toBe(time(s));
      }
    }
  });
});

describe('distance matrix', () => {
  it('every element equals the direction answer for that pair', () => {
    const origins = Array.from({ length: 4 }, point);
    const dests = Array.from({ length: 5 }, point);
    for (const vehicle of ['car', 'bike'] as const) {
      const mx = engine.distanceMatrix({ origins: origins.join('|'), destinations: dests.join('|'), vehicle });
      expect(mx.status).toBe('OK');
      expect(mx.rows).toHaveLength(4);
      origins.forEach((o, i) =>
        dests.forEach((d, j) => {
          const el = mx.rows[i]!.elements[j]!;
          const dir = engine.direction({ origin: o, destination: d, vehicle });
          if (dir.status !== 'OK') {
            expect(el.status).not.toBe('OK');
            return;
          }
          expect(el.status).toBe('OK');
          if (el.status !== 'OK') return;
          // The whole text/value pairs: one formatter, so the same pair reads the same in both endpoints.
          expect(el.distance).toEqual(dir.routes[0]!.legs[0]!.distance);
          expect(el.duration).toEqual(dir.routes[0]!.legs[0]!.duration);
        }),
      );
    }
  });
  it('takes the raw REST query as a URLSearchParams, answering as for the same parameters typed', () => {
    const q = { origins: `${point()}|${point()}`, destinations: point(), vehicle: 'bike' } as const;
    expect(engine.distanceMatrix(new URLSearchParams(q))).toEqual(engine.distanceMatrix(q));
    const bad = engine.distanceMatrix(new URLSearchParams({ origins: 'x', destinations: point() }));
    expect(bad.status).toBe('BAD_REQUEST');
    expect(bad.error_message).toContain('origins');
  });
  it('accepts ; between origins and reports off-map points as NOT_FOUND', () => {
    const mx = engine.distanceMatrix({ origins: `${point()};10.0,100.0`, destinations: point() });
    expect(mx.status).toBe('OK');
    expect(mx.rows[1]!.elements[0]!.status).toBe('NOT_FOUND');
  });
  it('answers the pairs inside the pack when its first origin and first destination lie outside every pack', () => {
    // Before: the region was looked for at the first origin and the first destination only, so every pair was
    // NOT_FOUND. Each pair inside must equal its own direction answer (see the first test).
    const off = '10.0,100.0';
    const origins = [off, point(), point()];
    const dests = [off, point()];
    const mx = engine.distanceMatrix({ origins: origins.join('|'), destinations: dests.join('|') });
    expect(mx.status).toBe('OK');
    let routed = 0;
    origins.forEach((o, i) =>
      dests.forEach((d, j) => {
        const el = mx.rows[i]!.elements[j]!;
        if (o === off || d === off) return expect(el.status).toBe('NOT_FOUND');
        const dir = engine.direction({ origin: o, destination: d });
        if (dir.status !== 'OK') return expect(el.status).not.toBe('OK');
        routed++;
        expect(el).toEqual({
          status: 'OK',
          distance: dir.routes[0]!.legs[0]!.distance,
          duration: dir.routes[0]!.legs[0]!.duration,
        });
      }),
    );
    expect(routed).toBeGreaterThan(0);
  });
});

describe('alternatives', () => {
  it('are at most 25 % heavier, share at most 75 % and come after the best', () => {
    const router = routerOf(region);
    const ctx = router.context(0);
    let seen = 0;
    for (let k = 0; k < 15; k++) {
      const [a, b] = [point(), point()].map((p) => p.split(',').map(Number) as [number, number]);
      const sa = router.snap(a[0], a[1], 0)!;
      const sb = router.snap(b[0], b[1], 0)!;
      const best = router.leg(sa, sb, 0);
      if (!best) continue;
      const alts = alternatives(router, ctx, sa, sb, best);
      for (const alt of alts) {
        seen++;
        expect(alt.weight).toBeLessThanOrEqual(best.weight * ALT_MAX_STRETCH + 1e-9);
        expect(alt.weight).toBeGreaterThanOrEqual(best.weight - 1e-9);
        expect(sharedWeight(alt.path, best.path, ctx.costs.weight)).toBeLessThanOrEqual(
          ALT_MAX_SHARED * best.weight + 1e-9,
        );
      }
      const res = engine.direction({ origin: `${a[0]},${a[1]}`, destination: `${b[0]},${b[1]}`, alternatives: 'true' });
      expect(res.routes.length).toBe(1 + alts.length);
      expect(res.routes[0]!.legs[0]!.distance.value).toBe(Math.round(best.distance));
    }
    expect(seen).toBeGreaterThan(0);
  });
});

describe('bad input gives BAD_REQUEST naming the parameter, never a throw', () => {
  const o = point();
  const d = point();
  const cases: [Record<string, unknown>, string][] = [
    [{ destination: d }, 'origin'],
    [{ origin: '', destination: d }, 'origin'],
    [{ origin: 'abc', destination: d }, 'origin'],
    [{ origin: '21.02', destination: d }, 'origin'],
    [{ origin: '91,105', destination: d }, 'origin'],
    [{ origin: '21,181', destination: d }, 'origin'],
    [{ origin: 'NaN,105.8', destination: d }, 'origin'],
    [{ origin: 21.02, destination: d }, 'origin'],
    [{ origin: o }, 'destination'],
    [{ origin: o, destination: '' }, 'destination'],
    [{ origin: o, destination: `${d};` }, 'destination'],
    [{ origin: o, destination: `${d};;${d}` }, 'destination'],
    [{ origin: o, destination: Array.from({ length: 26 }, () => d).join(';') }, 'destination'],
    [{ origin: o, destination: Array.from({ length: 1000 }, () => d).join(';') }, 'destination'],
    [{ origin: o, destination: d, vehicle: 'plane' }, 'vehicle'],
    [{ origin: o, destination: d, alternatives: 'maybe' }, 'alternatives'],
    [{ origin: o, destination: d, alternatives: 3 }, 'alternatives'],
  ];
  for (const [params, name] of cases) {
    it(`direction ${JSON.stringify(params).slice(0, 80)}`, () => {
      // Bad values on purpose: the types would refuse them, the run-time checks must.
      const r = engine.direction(params as DirectionParams);
      expect(r.status).toBe('BAD_REQUEST');
      expect(r.error_message).toContain(name);
    });
  }
  it('direction accepts booleans and strings for alternatives, upper-case vehicles', () => {
    expect(
      engine.direction({ origin: o, destination: d, alternatives: false, vehicle: 'Truck' as 'truck' }).status,
    ).toMatch(/OK|NOT_FOUND/);
    expect(engine.direction({ origin: o, destination: d, alternatives: 'TRUE' as 'true' }).status).toMatch(
      /OK|NOT_FOUND/,
    );
  });
  it('points off the map are NOT_FOUND, naming the loaded packs and their areas', () => {
    expect(engine.direction({ origin: '10.7,106.6', destination: d })).toMatchObject({
      status: 'NOT_FOUND',
      error_message: expect.stringMatching(
        /not inside one loaded region; loaded: \S+ \(\d+\.\d\d–\d+\.\d\d N, \d+\.\d\d–\d+\.\d\d E\)/,
      ),
    });
    expect(engine.direction({ origin: o, destination: `${d};0,0` }).status).toBe('NOT_FOUND');
  });
  const mcases: [Record<string, unknown>, string][] = [
    [{ destinations: d }, 'origins'],
    [{ origins: o }, 'destinations'],
    [{ origins: `${o}|x`, destinations: d }, 'origins'],
    [{ origins: o, destinations: `${d}||${d}` }, 'destinations'],
    [{ origins: o, destinations: Array.from({ length: 1000 }, () => d).join('|') }, 'destinations'],
    [{ origins: Array.from({ length: 101 }, () => o).join('|'), destinations: d }, 'origins'],
    [{ origins: o, destinations: d, vehicle: 'boat' }, 'vehicle'],
  ];
  for (const [params, name] of mcases) {
    it(`matrix ${JSON.stringify(params).slice(0, 80)}`, () => {
      const r = engine.distanceMatrix(params as MatrixParams);
      expect(r.status).toBe('BAD_REQUEST');
      expect(r.error_message).toContain(name);
    });
  }
  it('a 100 × 100 matrix is allowed', () => {
    const pts = Array.from({ length: 100 }, point).join('|');
    const r = engine.distanceMatrix({ origins: pts, destinations: pts });
    expect(r.status).toBe('OK');
    expect(r.rows.flatMap((x) => x.elements)).toHaveLength(10000);
  });
});
