import { describe, expect, it } from 'vitest';
import { parseStaticRouteParams, type StaticRouteQuery } from '../src/api/static-route.js';
import { DEFAULT_LIMITS } from '../src/limits.js';

const MAX_STATIC_SIZE = DEFAULT_LIMITS.imageSize;

const OK = { origin: '21.0285,105.8542', destination: '21.0245, 105.8412' };

function error(query: Record<string, unknown>): { status: string; error_message: string } {
  // Bad values on purpose: the types would refuse them, the run-time checks must.
  const r = parseStaticRouteParams(query as StaticRouteQuery);
  if (r.ok) throw new Error(`expected an error for ${JSON.stringify(query)}`);
  return r.error;
}

describe('static route parameters', () => {
  it('applies the documented defaults', () => {
    const r = parseStaticRouteParams(OK);
    expect(r).toEqual({
      ok: true,
      params: {
        origin: { lat: 21.0285, lng: 105.8542 },
        destination: { lat: 21.0245, lng: 105.8412 },
        width: 600,
        height: 400,
        vehicle: 'car',
        type: 'fastest',
        color: [0x25, 0x34, 0x94, 1],
      },
    });
  });

  it('accepts sizes as numbers or integer strings within 1..2048, and every documented enum value', () => {
    for (const [w, h] of [
      [1, 1],
      [MAX_STATIC_SIZE, MAX_STATIC_SIZE],
      ['640', ' 480 '],
    ] as const) {
      const r = parseStaticRouteParams({ ...OK, width: w, height: h });
      expect(r.ok && [r.params.width, r.params.height]).toEqual([Number(w), Number(h)]);
    }
    for (const vehicle of ['car', 'bike', 'taxi', 'truck', 'hd', 'BIKE']) {
      const r = parseStaticRouteParams({ ...OK, vehicle } as StaticRouteQuery);
      expect(r.ok && r.params.vehicle).toBe(vehicle.toLowerCase());
    }
    for (const type of ['fastest', 'shortest'] as const) {
      const r = parseStaticRouteParams({ ...OK, type });
      expect(r.ok && r.params.type).toBe(type);
    }
  });

  it('refuses every bad size, naming the parameter', () => {
    for (const name of ['width', 'height']) {
      for (const v of [0, 2049, -5, 'abc', '1.5', 1.5, '-5', '0x10', true, NaN, Infinity]) {
        const e = error({ ...OK, [name]: v });
        expect(e.status).toBe('BAD_REQUEST');
        expect(e.error_message).toMatch(new RegExp(`^invalid ${name}:`));
      }
    }
  });

  it('refuses unknown vehicles and types, naming the parameter', () => {
    for (const vehicle of ['plane', 'cars', 3])
      expect(error({ ...OK, vehicle }).error_message).toMatch(/^invalid vehicle:/);
    for (const type of ['quickest', 'short', 1]) expect(error({ ...OK, type }).error_message).toMatch(/^invalid type:/);
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
      expect(error({ ...OK, origin: v })).toMatchObject({
        status: 'BAD_REQUEST',
        error_message: expect.stringMatching(/^invalid origin:/),
      });
      expect(error({ ...OK, destination: v }).error_message).toMatch(/^invalid destination:/);
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
      expect(error({ ...OK, color })).toEqual({
        status: 'BAD_REQUEST',
        error_message: expect.stringMatching(/^invalid color:/),
      });
    }
  });

  it('quotes at most 60 characters of a bad value', () => {
    const e = error({ ...OK, color: 'x'.repeat(5000) });
    expect(e.error_message.length).toBeLessThan(200);
  });
});

describe('route colours', () => {
  const color = (c: string) => {
    const r = parseStaticRouteParams({ ...OK, color: c });
    return r.ok ? r.params.color : r.error;
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
