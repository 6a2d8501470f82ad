/**
 * Well-shaped REST requests with hostile contents, for bench/fuzz.ts: every endpoint of rest-api.md with its required
 * parameters present and each value of the documented shape, so that the checks pass and the geocoder, the router and
 * the renderer behind them run on long and odd Vietnamese text (mixed scripts, stray combining marks, numbers and
 * slashes, lengths at the text limit), points at the edges of the pack's area and of the coordinate range, duplicate
 * points, and legal but odd parameter combinations. (fuzz-inputs.ts makes the malformed requests.)
 */
import fc from 'fast-check';
import { ENDPOINT_PATHS, type MethodName } from '../../src/adapters/http/routes.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import type { FuzzRequest } from './fuzz-inputs.js';

/** The default pack's bounding box: west, south, east, north (degrees). */
const AREA = [105.8122473, 20.9828088, 105.895162, 21.0650398] as const;

/** A coordinate as `lat,lng`: inside the area, on or just past its edges, far away, or at the range's ends. */
const point = fc
  .oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(
        fc.double({ min: AREA[1], max: AREA[3], noNaN: true }),
        fc.double({ min: AREA[0], max: AREA[2], noNaN: true }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constantFrom(AREA[1], AREA[3], AREA[1] - 1e-6, AREA[3] + 1e-6, AREA[1] - 0.01),
        fc.constantFrom(AREA[0], AREA[2], AREA[0] - 1e-6, AREA[2] + 1e-6, AREA[2] + 0.01),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(90, -90, 89.9999999, -89.9999999, 0, 10.7769, 21.0285),
        fc.constantFrom(180, -180, 179.9999999, -180, 0, 106.7009, 105.8542),
      ),
    },
  )
  // 7 decimals: 201 points stay within the URL limit.
  .map(([lat, lng]) => `${+lat.toFixed(7)},${+lng.toFixed(7)}`);
/** Some points, with duplicates: one point repeated, or a list with repeats. */
const points = (max: number) =>
  fc.oneof(
    fc.array(point, { minLength: 1, maxLength: max }),
    fc.tuple(point, fc.integer({ min: 1, max })).map(([p, n]) => Array<string>(n).fill(p)),
  );

/** Pieces of hostile text: Vietnamese words and type words, other scripts, marks, numbers, slashes, punctuation. */
const PIECES = [
  'Nguyễn',
  'Thị',
  'Minh',
  'Khai',
  'Hoàn',
  'Kiếm',
  'Phường',
  'P.',
  'Quận',
  'Q1',
  'TP.HCM',
  'Hà Nội',
  'ngõ',
  'ngách',
  'hẻm',
  'số',
  'đường',
  'Đường',
  'phố',
  'bệnh viện',
  'BV',
  'cafe',
  'gần',
  'near',
  'cũ',
  '(cũ)',
  'nay là',
  'xã hội',
  'ngã tư',
  'Việt Nam',
  '100000',
  '700000',
  '12/34/5A',
  '1/',
  '43/91',
  '12B-14',
  '3 tháng 2',
  '0',
  '09',
  '1e9',
  'Ðinh',
  'ð',
  'a\u0301\u0300\u0323',
  '\u0301',
  '\u0323\u0323',
  'ư\u031b',
  'Σ',
  'İ',
  '東京',
  'Москва',
  'مرحبا',
  'ภาษาไทย',
  '한국',
  'Hangf',
  'Bacj',
  'Ha2ng',
  'lethanhton',
  'nguyenthiminhkhai',
  '7PH7Q3Q2+QX',
  '…',
  '–',
  '/',
  '-',
  ',',
  ';',
  '|',
  '.',
  '(',
  ')',
  '"',
  "'",
  '&',
  '#',
  '%',
  '+',
  '=',
  '?',
  '\u00a0',
  '\u3000',
  '\u200b',
];
/** Text of one piece repeated, or of random pieces, from a few characters to a little past the limit. */
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((a) => a.join(' ')),
  fc
    .tuple(
      fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 100, max: DEFAULT_LIMITS.textLength + 5 }),
    )
    .map(([a, n]) => Array.from(a.join(' ').concat(' ').repeat(n)).slice(0, n).join('')),
  fc.array(fc.constantFrom(...PIECES), { minLength: 60, maxLength: 120 }).map((a) => a.join('')),
  fc.constant('😀 Phố Huế'),
);

const VEHICLES = ['car', 'bike', 'taxi', 'truck', 'hd'];
const vehicle = fc.option(fc.constantFrom(...VEHICLES, 'CAR', 'Bike'), { nil: undefined });
const avoid = fc.option(
  fc.subarray(['tolls', 'highways', 'ferries', 'tolls']).map((a) => a.join('|')),
  { nil: undefined },
);
const bool = fc.option(fc.constantFrom('true', 'false', '1', '0', 'TRUE'), { nil: undefined });
const int = (min: number, max: number) => fc.option(fc.integer({ min, max }).map(String), { nil: undefined });
const placeId = fc.oneof(
  text,
  fc.string({ maxLength: 40 }).map((s) => `${s}.${s.length}`),
);
const token = fc.option(fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 60 })), { nil: undefined });

/** Parameters of each endpoint, by rest-api.md (and `avoid`, an extension), undefined for one left out. */
const PARAMS: Readonly<Record<MethodName, fc.Arbitrary<Record<string, string | undefined>>>> = {
  geocode: fc.oneof(
    fc.record({ address: text, limit: int(0, 60) }),
    fc.record({ latlng: point, limit: int(0, 60) }),
    fc.record({ place_id: placeId }),
  ),
  direction: fc.record({
    origin: point,
    destination: points(DEFAULT_LIMITS.destinations + 1).map((a) => a.join(';')),
    alternatives: bool,
    vehicle,
    avoid,
  }),
  distanceMatrix: fc.record({
    origins: points(DEFAULT_LIMITS.matrixSide).map((a) => a.join('|')),
    destinations: points(DEFAULT_LIMITS.matrixSide + 1).map((a) => a.join('|')),
    vehicle,
    avoid,
  }),
  autocomplete: fc.record({
    input: text,
    location: fc.option(point, { nil: undefined }),
    limit: int(0, 60),
    radius: int(0, 20_000),
    sessiontoken: token,
    more_compound: bool,
  }),
  placeDetail: fc.record({ place_id: placeId, sessiontoken: token }),
  trip: fc.record({
    origin: fc.option(point, { nil: undefined }),
    waypoints: points(DEFAULT_LIMITS.tripStops).map((a) => a.join(';')),
    destination: fc.option(point, { nil: undefined }),
    vehicle,
  }),
  staticRoute: fc.record({
    origin: point,
    destination: point,
    width: int(1, DEFAULT_LIMITS.imageSize + 1),
    height: int(1, DEFAULT_LIMITS.imageSize + 1),
    vehicle,
    type: fc.option(fc.constantFrom('fastest', 'shortest'), { nil: undefined }),
    color: fc.option(fc.constantFrom('#253494', '#fff', '#ff000080', 'red', 'rgba(1,2,3,0.5)', 'hsl(120, 100%, 25%)'), {
      nil: undefined,
    }),
  }),
};

/** Well-shaped requests to one endpoint, with hostile contents (see the file's comment). */
export function shapedRequestsFor(method: MethodName): fc.Arbitrary<FuzzRequest> {
  return PARAMS[method].map((params) => {
    let query = '';
    for (const [name, v] of Object.entries(params)) if (v !== undefined) query += `${name}=${encodeURIComponent(v)}&`;
    const target = `${ENDPOINT_PATHS[method]}?${query}api_key=k`;
    return { method, target, [fc.toStringMethod]: () => `${target.slice(0, 240)}… (${target.length} characters)` };
  });
}
