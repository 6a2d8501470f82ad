import { describe, expect, it } from 'vitest';
import { isParamError } from '../src/api/coords.js';
import { parseStaticRouteParams, type StaticRouteQuery } from '../src/api/static-route.js';
import { DEFAULT_LIMITS } from '../src/limits.js';

const MAX_STATIC_SIZE = DEFAULT_LIMITS.imageSize;

const OK = { origin: '21.0285,105.8542', destination: '21.0245, 105.8412' };

/** The error message for a query that must be refused. */
function error(query: Record<string, unknown>): string {
  // Bad values on purpose: the types would refuse them, the run-time checks must.
  const r = parseStaticRouteParams(query as StaticRouteQuery);
  if (!isParamError(r)) throw new Error(`expected an error for ${JSON.stringify(query)}`);
  return r.error;
}

describe('static route parameters', () => {
  it('applies the documented defaults', () => {
    const r = parseStaticRouteParams(OK);
    expect(r).toEqual({
      origin: { lat: 21.0285, lng: 105.8542 },
      destination: { lat: 21.0245, lng: 105.8412 },
      width: 600,
      height: 400,
      vehicle: 'car',
      type: 'fastest',
      color: [0x25, 0x34, 0x94, 1],
      scale: 1,
      avoid: 0,
    });
  });

  it('takes avoid as road kinds separated by | or , and refuses an unknown one, naming avoid', () => {
    const mask = (r: ReturnType<typeof parseStaticRouteParams>) => ('avoid' in r ? r.avoid : r.error);
    expect(mask(parseStaticRouteParams({ ...OK, avoid: 'tolls|Ferries' }))).toBe(1 | 4);
    expect(mask(parseStaticRouteParams({ ...OK, avoid: ' highways , tolls ' }))).toBe(1 | 2);
    expect(mask(parseStaticRouteParams({ ...OK, avoid: '' }))).toBe(0);
    expect(error({ ...OK, avoid: 'tolls|bridges' })).toMatch(/^avoid: unknown road kind "bridges"/);
  });

  it('takes scale 1 or 2 (number or string) and refuses anything else, naming scale', () => {
    for (const [raw, want] of [
      [1, 1],
      [2, 2],
      ['2', 2],
      [' 1 ', 1],
      ['', 1],
    ] as const) {
      const r = parseStaticRouteParams({ ...OK, scale: raw as StaticRouteQuery['scale'] });
      expect(!isParamError(r) && r.scale).toBe(want);
    }
    for (const raw of [0, 3, 1.5, '4', 'x2', '2x', -1, '1.0', true, [2]]) {
      expect(error({ ...OK, scale: raw })).toMatch(/^invalid scale: expected 1 or 2/);
    }
    // Twice the pixels must stay within the image size limit.
    expect(error({ ...OK, width: MAX_STATIC_SIZE, scale: 2 })).toMatch(/^invalid scale: 2 makes the image 4096 pixels/);
    const r = parseStaticRouteParams({ ...OK, width: MAX_STATIC_SIZE / 2, height: MAX_STATIC_SIZE / 2, scale: '2' });
    expect(!isParamError(r) && r.scale).toBe(2);
  });

  it('accepts sizes as numbers or integer strings within 1..2048, and every documented enum value', () => {
    for (const [w, h] of [
      [1, 1],
      [MAX_STATIC_SIZE, MAX_STATIC_SIZE],
      ['640', ' 480 '],
    ] as const) {
      const r = parseStaticRouteParams({ ...OK, width: w, height: h });
      expect(!isParamError(r) && [r.width, r.height]).toEqual([Number(w), Number(h)]);
    }
    for (const vehicle of ['car', 'bike', 'taxi', 'truck', 'hd', 'BIKE']) {
      const r = parseStaticRouteParams({ ...OK, vehicle } as StaticRouteQuery);
      expect(!isParamError(r) && r.vehicle).toBe(vehicle.toLowerCase());
    }
    for (const type of ['fastest', 'shortest'] as const) {
      const r = parseStaticRouteParams({ ...OK, type });
      expect(!isParamError(r) && r.type).toBe(type);
    }
  });

  it('refuses every bad size, naming the parameter', () => {
    for (const name of ['width', 'height']) {
      for (const v of [0, 2049, -5, 'abc', '1.5', 1.5, '-5', '0x10', true, NaN, Infinity]) {
        const e = error({ ...OK, [name]: v });
        expect(e).toMatch(new RegExp(`^invalid ${name}:`));
      }
    }
  });

  it('refuses unknown vehicles and types, naming the parameter', () => {
    for (const vehicle of ['plane', 'cars', 3]) expect(error({ ...OK, vehicle })).toMatch(/^invalid vehicle:/);
    for (const type of ['quickest', 'short', 1]) expect(error({ ...OK, type })).toMatch(/^invalid type:/);
  });

  it('refuses missing and malformed coordinates, naming the parameter', () => {
    const bad = [
      undefined,
      '',
      '21.02',
      '21.02,',
      'abc,105.8',
      '21.02;105.8',
      '21.02,105.8,3',
      '91,105',
      '21,181',
      '1e3,5',
      21.02,
    ];
    for (const v of bad) {
      expect(error({ ...OK, origin: v })).toMatch(/^invalid origin:/);
      expect(error({ ...OK, destination: v })).toMatch(/^invalid destination:/);
    }
  });

  it('refuses bad colours, naming the parameter', () => {
    for (const color of [
      '#12345',
      '#ggg',
      'bleu',
      'rgb(1,2)',
      'rgb(1 2, 3)',
      'rgb(1,2,3)x',
      '##fff',
      '0x12345',
      '0xfff',
      '0x',
      7,
    ]) {
      expect(error({ ...OK, color })).toMatch(/^invalid color:/);
    }
  });

  it('refuses a value of spaces, naming the parameter: an empty value is an absent one, spaces are not empty', () => {
    // As every other endpoint reads it (Direction refuses vehicle=%20); before, the static map drew its defaults.
    for (const name of ['origin', 'destination', 'width', 'height', 'vehicle', 'type', 'color', 'scale', 'avoid']) {
      for (const v of [' ', '\t', ' \u00a0 '])
        expect(error({ ...OK, [name]: v })).toMatch(new RegExp(`^(invalid )?${name}:`));
    }
  });

  it('names the parameter of a value that has no text form, never throwing', () => {
    // An object without a prototype and one whose toString throws: describing them used to throw.
    const odd = [
      Object.create(null),
      {
        toString: () => {
          throw new Error('no text');
        },
      },
    ];
    for (const name of ['origin', 'width', 'vehicle', 'color', 'scale'])
      for (const v of odd) expect(error({ ...OK, [name]: v })).toMatch(new RegExp(`^invalid ${name}:`));
  });

  it('quotes at most 60 characters of a bad value', () => {
    const e = error({ ...OK, color: 'x'.repeat(5000) });
    expect(e.length).toBeLessThan(200);
  });
});

describe('route colours', () => {
  const color = (c: string) => {
    const r = parseStaticRouteParams({ ...OK, color: c });
    return isParamError(r) ? r.error : r.color;
  };
  it('takes what Google Static Maps users write: 0x hex, hex with or without #, URL-encoded #, CSS names', () => {
    expect(color('#253494')).toEqual([0x25, 0x34, 0x94, 1]);
    expect(color('253494')).toEqual([0x25, 0x34, 0x94, 1]);
    expect(color('%23253494')).toEqual([0x25, 0x34, 0x94, 1]);
    expect(color('0x253494')).toEqual([0x25, 0x34, 0x94, 1]);
    expect(color('0XFF000080')).toEqual([255, 0, 0, 128 / 255]);
    expect(color('#f0a')).toEqual([255, 0, 170, 1]);
    expect(color('F0A')).toEqual([255, 0, 170, 1]);
    expect(color('#ff000080')).toEqual([255, 0, 0, 128 / 255]);
    expect(color('red')).toEqual([255, 0, 0, 1]);
    expect(color('Blue')).toEqual([0, 0, 255, 1]);
    expect(color('gray')).toEqual([128, 128, 128, 1]);
  });
  it('takes rgb()/rgba()/hsl()/hsla() as the style spec reads them, clamping out-of-range channels', () => {
    expect(color('rgb(10, 20, 30)')).toEqual([10, 20, 30, 1]);
    expect(color('RGBA(10,20,30,0.5)')).toEqual([10, 20, 30, 0.5]);
    expect(color('rgb(100%, 0%, 50%)')).toEqual([255, 0, 128, 1]);
    expect(color('rgb(300 -4 0 / 150%)')).toEqual([255, 0, 0, 1]);
    expect(color('hsl(120, 100%, 25%)')).toEqual([0, 128, 0, 1]);
  });
});
