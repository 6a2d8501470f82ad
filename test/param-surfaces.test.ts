/**
 * Bad values of any kind get the endpoint's error answer naming the parameter: a value with no text form is refused
 * as any other bad value is, never answered ERROR or thrown.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { testPack } from './helpers/packs.js';

const engine = new Engine([new Region(Pack.from(testPack('hanoi')))]);
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';

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
