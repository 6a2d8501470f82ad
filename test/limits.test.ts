/**
 * Request limits: one table (src/limits.ts), set through EngineOptions.limits and `bando serve --limit`; a request
 * over a limit is refused naming its parameter, a request within it is answered as with the defaults; a bad limit is
 * refused when the engine is made.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, Engine } from '../src/engine.js';
import { DEFAULT_LIMITS, LIMIT_CAPS, resolveLimits } from '../src/limits.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { routerOf } from '../src/route/router.js';
import { testPack } from './helpers/packs.js';

const region = new Region(Pack.from(testPack('hanoi')));
const g = region.graph;
const defaults = new Engine([region]);
const tight = new Engine([region], {
  limits: { destinations: 2, matrixSide: 2, tripStops: 3, textLength: 12, imageSize: 64 },
});
const nearOnly = new Engine([region], { limits: { snapRadius: 5 } });

/** Road nodes spread over the pack, as "lat,lng" texts. */
const points = Array.from({ length: 4 }, (_, k) => {
  const v = Math.floor(((k + 1) * g.nodeCount) / 6);
  return `${g.lat(v).toFixed(6)},${g.lon(v).toFixed(6)}`;
});

describe('limits', () => {
  it('refuse a request over a limit, naming the parameter, and answer one within it as the defaults do', () => {
    const [a, b, c, d] = points as [string, string, string, string];
    expect(tight.direction({ origin: a, destination: `${b};${c};${d}` })).toMatchObject({
      status: 'BAD_REQUEST',
      error_message: expect.stringContaining('destination'),
    });
    expect(tight.direction({ origin: a, destination: `${b};${c}` })).toEqual(
      defaults.direction({ origin: a, destination: `${b};${c}` }),
    );
    expect(tight.distanceMatrix({ origins: `${a}|${b}|${c}`, destinations: d })).toMatchObject({
      status: 'BAD_REQUEST',
      error_message: expect.stringContaining('origins'),
    });
    expect(tight.trip({ origin: a, waypoints: `${b};${c}`, destination: d })).toMatchObject({
      code: 'BAD_REQUEST',
      osrm_code: 'TooBig',
    });
    expect(tight.geocode({ address: 'Phố Hàng Bông, Hoàn Kiếm' })).toMatchObject({
      status: 'BAD_REQUEST',
      error_message: expect.stringContaining('address'),
    });
    expect(tight.autocomplete({ input: 'Phố Hàng Bông, Hoàn Kiếm' })).toMatchObject({
      status: 'BAD_REQUEST',
      error_message: expect.stringContaining('input'),
    });
    expect(tight.geocode({ address: 'Hàng Bông' })).toEqual(defaults.geocode({ address: 'Hàng Bông' }));
  });

  it('count origin and destination against the trip limit with or without waypoints', () => {
    // Before, the stops were counted only when waypoints were given: a trip of origin and destination alone passed a
    // limit of 1.
    const [a, b] = points as [string, string];
    const one = new Engine([region], { limits: { tripStops: 1 } });
    for (const q of [{ origin: a, destination: b }, { origin: a, waypoints: b }, { waypoints: `${a};${b}` }])
      expect(one.trip(q)).toMatchObject({
        code: 'BAD_REQUEST',
        osrm_code: 'TooBig',
        message: expect.stringContaining('got 2'),
      });
    expect(defaults.trip({ origin: a, destination: b })).toMatchObject({ code: 'Ok' });
  });

  it('refuse a static map larger than the image limit before drawing', async () => {
    const [a, b] = points as [string, string];
    expect(await tight.staticRoute({ origin: a, destination: b, width: 65, height: 10 })).toMatchObject({
      status: 'BAD_REQUEST',
      error_message: expect.stringContaining('width'),
    });
  });

  it('snap within the snap radius only (checked against the router with the same radius)', () => {
    // Points about 40 m east of road nodes, routed with the default radius; with 5 m they are off the road network
    // exactly when the router finds no road within 5 m of them.
    const router = routerOf(region);
    let checked = 0;
    for (let v = 0; v < g.nodeCount && checked < 20; v += 97) {
      const lat = +g.lat(v).toFixed(6),
        lng = +(g.lon(v) + 0.0004).toFixed(6);
      const query = { origin: `${lat},${lng}`, destination: points[1]! };
      if (defaults.direction(query).status !== 'OK') continue;
      checked++;
      const within = router.snap(lat, lng, 0, 5) !== null;
      const [dLat, dLng] = points[1]!.split(',').map(Number) as [number, number];
      const destinationWithin = router.snap(dLat, dLng, 0, 5) !== null;
      const message = nearOnly.direction(query).error_message ?? '';
      expect(/origin is not near a road/.test(message)).toBe(!within);
      if (within) expect(/destination 1 is not near a road/.test(message)).toBe(!destinationWithin);
      const element = nearOnly.distanceMatrix({ origins: query.origin, destinations: query.destination }).rows[0]!
        .elements[0]!;
      expect(element.status === 'NOT_FOUND').toBe(!within || !destinationWithin);
    }
    expect(checked).toBe(20);
  });

  it('refuse limits that are unknown, not integers or out of range, naming them', async () => {
    expect(resolveLimits({})).toEqual(DEFAULT_LIMITS);
    expect(() => resolveLimits({ destinations: 0 })).toThrow(/destinations/);
    expect(() => resolveLimits({ matrixSide: LIMIT_CAPS.matrixSide + 1 })).toThrow(/matrixSide.*500/);
    expect(() => resolveLimits({ textLength: 1.5 })).toThrow(/textLength/);
    expect(() => resolveLimits({ nope: 3 } as never)).toThrow(/unknown limit "nope"/);
    await expect(createEngine({ packs: [testPack('hanoi')], limits: { imageSize: -1 } })).rejects.toThrow(/imageSize/);
  });
});
