/**
 * One query, one answer, whatever carries it: the REST handler, an object of parameters, a URLSearchParams and the
 * CLI's words read a repeated parameter and the `placeid` alias the same way; and a value with no text form is
 * refused naming its parameter, as any other bad value is, never answered ERROR or thrown.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/adapters/cli/args.js';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { testPack } from './helpers/packs.js';

const engine = new Engine([new Region(Pack.from(testPack('hanoi')))]);
const handler = createRestHandler(engine, { keys: [{ key: 'k' }] });
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
const C = '21.0277,105.8355';

/** The JSON body the REST handler answers a GET of `target` (path and query, without the key) with. */
async function rest(target: string): Promise<unknown> {
  const reply = await handler({ method: 'GET', url: `https://maps.test${target}&api_key=k`, header: () => null });
  return JSON.parse(String(reply.body));
}

describe('a repeated parameter', () => {
  it('counts by its first value over REST, in a URLSearchParams and in the CLI words alike', async () => {
    // Before, a URLSearchParams and the CLI took the last value, so this query was refused in process (origin "x")
    // while the server routed it.
    const query = `origin=${A}&origin=x&destination=${B}&destination=${C}&vehicle=bike&vehicle=boat`;
    const first = engine.direction({ origin: A, destination: B, vehicle: 'bike' });
    expect(first.status).toBe('OK');
    expect(await rest(`/Direction?${query}`)).toEqual(first);
    expect(engine.direction(new URLSearchParams(query))).toEqual(first);
    expect(parseArgs([query]).params).toEqual({ origin: A, destination: B, vehicle: 'bike' });
    expect(
      parseArgs([`origin=${A}`, 'origin=x', `https://maps.test/Direction?origin=y&destination=${B}`]).params,
    ).toEqual({ origin: A, destination: B });
  });
});

describe('the placeid alias', () => {
  const id = engine.autocomplete({ input: 'Hàng Bông', limit: 1 }).predictions[0]!.place_id;

  it('is read when place_id is absent or empty, by Geocode and Place/Detail, over REST and in process', async () => {
    // Before, the server took an empty place_id over the alias (BAD_REQUEST) where the engine read the alias.
    const geocode = engine.geocode({ place_id: id });
    const detail = engine.placeDetail({ place_id: id });
    expect([geocode.status, detail.status]).toEqual(['OK', 'OK']);
    for (const q of [`placeid=${id}`, `place_id=&placeid=${id}`]) {
      expect(await rest(`/Geocode?${q}`)).toEqual(geocode);
      expect(await rest(`/Place/Detail?${q}`)).toEqual(detail);
      expect(engine.geocode(new URLSearchParams(q))).toEqual(geocode);
      expect(engine.placeDetail(new URLSearchParams(q))).toEqual(detail);
    }
    // A given place_id wins over the alias.
    expect(engine.placeDetail({ place_id: id, placeid: 'x' } as never)).toEqual(detail);
    expect(await rest(`/Place/Detail?place_id=x&placeid=${id}`)).toMatchObject({ status: 'BAD_REQUEST' });
  });
});

describe('a value with no text form', () => {
  const values: [string, unknown][] = [
    ['an object without a prototype', Object.create(null)],
    [
      'an object whose toString throws',
      {
        toString() {
          throw new Error('no text');
        },
      },
    ],
  ];

  it.each(values)('(%s) is refused naming its parameter, not answered ERROR or thrown', async (_, value) => {
    // Before, describing the value in the message threw: Direction and trip answered ERROR and the static map threw.
    const v = value as never;
    const answers: [string, { status?: string; code?: string; error_message?: string; message?: string }][] = [
      ['vehicle', engine.direction({ origin: A, destination: B, vehicle: v })],
      ['alternatives', engine.direction({ origin: A, destination: B, alternatives: v })],
      ['vehicle', engine.distanceMatrix({ origins: A, destinations: B, vehicle: v })],
      ['vehicle', engine.trip({ origin: A, destination: B, vehicle: v })],
      ['more_compound', engine.autocomplete({ input: 'Hàng Bông', more_compound: v })],
      ['has_deprecated_administrative_unit', engine.geocode({ latlng: A, has_deprecated_administrative_unit: v })],
    ];
    for (const param of ['origin', 'width', 'vehicle', 'color', 'scale']) {
      const image = await engine.staticRoute({ origin: A, destination: B, [param]: v });
      expect(image).not.toBeInstanceOf(Uint8Array);
      answers.push([param, image as { status: string }]);
    }
    for (const [param, body] of answers) {
      expect(body.status ?? body.code, param).toBe('BAD_REQUEST');
      expect(body.error_message ?? body.message, param).toContain(param);
    }
  });
});
