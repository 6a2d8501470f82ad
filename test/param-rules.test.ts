/**
 * One rule per kind of parameter, the same at every endpoint: a coordinate text is accepted by Direction, the
 * matrix, trip, Geocode `latlng`, AutoComplete `location` and the static map alike, or refused by all of them; a
 * boolean text likewise by `alternatives`, `more_compound` and `has_deprecated_administrative_unit`, and a vehicle by
 * every routing endpoint. (An empty value is an absent one: optional parameters take their default, required ones are
 * refused as missing; a value of spaces is not empty.)
 */
import type { BoolParam } from '../src/api/param-types.js';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { testPack } from './helpers/packs.js';

const engine = new Engine([new Region(Pack.from(testPack('hanoi')))]);
const HERE = '21.0285,105.8522';
const THERE = '21.0245,105.8412';

/** Whether each endpoint took the text as a valid coordinate (anything but a refusal of the parameter). */
async function coordinateAccepted(text: string): Promise<boolean[]> {
  const refused = (body: { status?: string; code?: string }) => (body.status ?? body.code) === 'BAD_REQUEST';
  const image = await engine.staticRoute({ origin: text, destination: HERE, width: 8, height: 8 });
  return [
    !refused(engine.direction({ origin: text, destination: HERE })),
    !refused(engine.distanceMatrix({ origins: text, destinations: HERE })),
    !refused(engine.trip({ origin: text, destination: THERE })),
    !refused(engine.geocode({ latlng: text })),
    !refused(engine.autocomplete({ input: 'Hàng Bông', location: text })),
    image instanceof Uint8Array || !refused(image),
  ];
}

/** Whether each boolean parameter took the text. */
function booleanAccepted(given: string): boolean[] {
  // Any text on purpose: the types allow only the boolean forms, the run-time checks decide.
  const text = given as BoolParam;
  const ok = (body: { status?: string }) => body.status !== 'BAD_REQUEST';
  return [
    ok(engine.direction({ origin: HERE, destination: THERE, alternatives: text })),
    ok(engine.autocomplete({ input: 'Hàng Bông', more_compound: text })),
    ok(engine.geocode({ address: 'Hàng Bông', has_deprecated_administrative_unit: text })),
  ];
}

/** Whether each routing endpoint took the text as a vehicle. */
async function vehicleAccepted(given: string): Promise<boolean[]> {
  // Any text on purpose, as for the booleans.
  const vehicle = given as 'car';
  const refused = (body: { status?: string; code?: string }) => (body.status ?? body.code) === 'BAD_REQUEST';
  const image = await engine.staticRoute({ origin: HERE, destination: THERE, width: 8, height: 8, vehicle });
  return [
    !refused(engine.direction({ origin: HERE, destination: THERE, vehicle })),
    !refused(engine.distanceMatrix({ origins: HERE, destinations: THERE, vehicle })),
    !refused(engine.trip({ origin: HERE, destination: THERE, vehicle })),
    image instanceof Uint8Array || !refused(image),
  ];
}

describe('parameter rules', () => {
  it.each([
    ['21.0285,105.8522', true],
    [' 21.0285 , 105.8522 ', true],
    ['+21.0285,105.8522', true],
    ['21.,105.8522', true],
    ['2.10285e1,105.8522', false],
    ['0x15,105.8522', false],
    ['Infinity,105', false],
    ['21.0285;105.8522', false],
    ['21.0285,105.8522,3', false],
    ['91,105.8522', false],
    ['21.0285,180.5', false],
    ['21,', false],
  ])('coordinate %j: %s everywhere', async (text, accepted) => {
    expect(await coordinateAccepted(text)).toEqual(Array(6).fill(accepted));
  });

  it.each([
    ['true', true],
    ['false', true],
    ['1', true],
    ['0', true],
    ['TRUE', true],
    [' False ', true],
    ['yes', false],
    ['2', false],
    ['on', false],
    ['truee', false],
  ])('boolean %j: %s everywhere', (text, accepted) => {
    expect(booleanAccepted(text)).toEqual(Array(3).fill(accepted));
  });

  it.each([
    ['bike', true],
    [' Truck ', true],
    ['HD', true],
    ['', true],
    [' ', false],
    ['\t', false],
    ['boat', false],
    ['car,bike', false],
  ])('vehicle %j: %s everywhere', async (text, accepted) => {
    // A value of spaces is not an empty one: the static map used to draw it as the default car.
    expect(await vehicleAccepted(text)).toEqual(Array(4).fill(accepted));
  });
});
