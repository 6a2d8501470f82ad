/**
 * The query parameters of every endpoint, one row each: type, default, an example and what it does. The defaults
 * are the engine's own constants, so the table cannot drift from what the endpoints apply; test/param-table.test.ts
 * checks each row against the engine (its example accepted, a wrong value refused naming it). The CLI prints each
 * endpoint's `--help` from it and refuses a parameter that is not in it (with the nearest name).
 */
import { DEFAULT_LIMITS } from '../limits.js';
import { AVOID_KINDS } from '../route/avoid.js';
import { VEHICLES } from '../route/profiles.js';
import { DEFAULT_AUTOCOMPLETE_LIMIT, DEFAULT_RADIUS_KM, MAX_AUTOCOMPLETE_LIMIT } from './autocomplete.js';
import { DEFAULT_IMAGE_SIZE, DEFAULT_ROUTE_COLOR, STATIC_TYPES, STATIC_VEHICLES } from './static-route.js';

/** One query parameter. */
export interface ParamRow {
  readonly name: string;
  /** What the value is, as the help prints it (`coordinate`, `integer 1–50`, `car|bike|…`). */
  readonly type: string;
  /** `required`, `one of` (exactly one of the rows so marked), or absent (optional). */
  readonly need?: 'required' | 'one of';
  /** The value used when the parameter is absent, as text; absent when there is none. */
  readonly default?: string;
  /** A value the endpoint accepts, for the help's example. */
  readonly example: string;
  /** What it does, one line. */
  readonly about: string;
  /** Other names the endpoint reads for it. */
  readonly aliases?: readonly string[];
}

/** The endpoints' method names (adapters/http/routes.ts MethodName). */
type Method = 'geocode' | 'autocomplete' | 'placeDetail' | 'direction' | 'distanceMatrix' | 'trip' | 'staticRoute';

const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
const C = '21.0277,105.8355';
const vehicle = (names: readonly string[]): ParamRow => ({
  name: 'vehicle',
  type: names.join('|'),
  default: 'car',
  example: 'bike',
  about: 'the vehicle profile routed for',
});
const avoid: ParamRow = {
  name: 'avoid',
  type: AVOID_KINDS.map((k) => k.name).join('|'),
  example: 'tolls|highways',
  about: 'road kinds to keep away from where there is another way (an extension of the seed API)',
};
const deprecated: ParamRow = {
  name: 'has_deprecated_administrative_unit',
  type: 'boolean',
  default: 'false',
  example: 'true',
  about: 'also give addresses in the pre-2025 units (deprecated_description, deprecated_compound)',
};
const sessiontoken: ParamRow = {
  name: 'sessiontoken',
  type: 'text',
  example: 'session-1',
  about: 'groups an autocomplete session and the place detail that ends it (billing)',
};

/** Every endpoint's parameters, in the order the help lists them. */
export const ENDPOINT_PARAMS: Readonly<Record<Method, readonly ParamRow[]>> = {
  geocode: [
    { name: 'address', type: 'text', need: 'one of', example: 'Hàng Bài, Hoàn Kiếm', about: 'forward: an address' },
    { name: 'latlng', type: 'coordinate', need: 'one of', example: A, about: 'reverse: the address at a point' },
    {
      name: 'place_id',
      type: 'place id',
      need: 'one of',
      example: '(a place_id from autocomplete)',
      about: 'one place by its id',
      aliases: ['placeid'],
    },
    deprecated,
  ],
  autocomplete: [
    { name: 'input', type: 'text', need: 'required', example: 'Hàng B', about: 'what was typed so far' },
    { name: 'location', type: 'coordinate', example: A, about: 'bias towards places near it, within radius' },
    {
      name: 'limit',
      type: `integer 1–${MAX_AUTOCOMPLETE_LIMIT}`,
      default: String(DEFAULT_AUTOCOMPLETE_LIMIT),
      example: '5',
      about: 'most predictions',
    },
    {
      name: 'radius',
      type: 'number > 0 (km)',
      default: String(DEFAULT_RADIUS_KM),
      example: '5',
      about: 'kilometres around location',
    },
    sessiontoken,
    {
      name: 'more_compound',
      type: 'boolean',
      default: 'false',
      example: 'true',
      about: 'add compound { commune, province } to each prediction',
    },
    deprecated,
  ],
  placeDetail: [
    {
      name: 'place_id',
      type: 'place id',
      need: 'required',
      example: '(a place_id from autocomplete)',
      about: 'the place',
      aliases: ['placeid'],
    },
    sessiontoken,
    deprecated,
  ],
  direction: [
    { name: 'origin', type: 'coordinate', need: 'required', example: A, about: 'start' },
    {
      name: 'destination',
      type: `coordinates separated by ; (at most ${DEFAULT_LIMITS.destinations})`,
      need: 'required',
      example: B,
      about: 'one leg to each, in order',
    },
    {
      name: 'alternatives',
      type: 'boolean',
      default: 'false',
      example: 'true',
      about: 'up to two alternative routes (one destination)',
    },
    vehicle(VEHICLES),
    avoid,
  ],
  distanceMatrix: [
    {
      name: 'origins',
      type: `coordinates separated by | (at most ${DEFAULT_LIMITS.matrixSide})`,
      need: 'required',
      example: `${A}|${C}`,
      about: 'rows',
    },
    {
      name: 'destinations',
      type: `coordinates separated by | (at most ${DEFAULT_LIMITS.matrixSide})`,
      need: 'required',
      example: B,
      about: 'columns',
    },
    vehicle(VEHICLES),
    avoid,
  ],
  trip: [
    { name: 'origin', type: 'coordinate', example: A, about: 'the first stop (default: chosen by the solver)' },
    {
      name: 'waypoints',
      type: `coordinates separated by ; (${DEFAULT_LIMITS.tripStops} stops in all)`,
      example: `${B};${C}`,
      about: 'the stops to visit',
    },
    { name: 'destination', type: 'coordinate', example: '21.0310,105.8420', about: 'the last stop before the return' },
    vehicle(VEHICLES),
    avoid,
  ],
  staticRoute: [
    { name: 'origin', type: 'coordinate', need: 'required', example: A, about: 'start' },
    { name: 'destination', type: 'coordinate', need: 'required', example: B, about: 'end' },
    {
      name: 'width',
      type: `integer 1–${DEFAULT_LIMITS.imageSize} (pixels)`,
      default: String(DEFAULT_IMAGE_SIZE.width),
      example: '300',
      about: 'image width',
    },
    {
      name: 'height',
      type: `integer 1–${DEFAULT_LIMITS.imageSize} (pixels)`,
      default: String(DEFAULT_IMAGE_SIZE.height),
      example: '200',
      about: 'image height',
    },
    vehicle(STATIC_VEHICLES),
    avoid,
    { name: 'type', type: STATIC_TYPES.join('|'), default: 'fastest', example: 'shortest', about: 'route preference' },
    {
      name: 'color',
      type: 'colour (#rgb, #rrggbb, #rrggbbaa, rgb(…))',
      default: DEFAULT_ROUTE_COLOR,
      example: '#e31a1c',
      about: 'route line colour',
    },
  ],
};

/** Every name an endpoint reads: its rows' names and aliases. */
export function paramNames(method: Method): string[] {
  return ENDPOINT_PARAMS[method].flatMap((r) => [r.name, ...(r.aliases ?? [])]);
}
