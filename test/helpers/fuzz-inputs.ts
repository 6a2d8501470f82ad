/**
 * Adversarial REST requests for the fuzzing suite (issue 18 item 3), shared by test/fuzz-rest.test.ts (a bounded
 * run with fixed seeds) and bench/fuzz.ts (a long run reporting CPU time per call). Every request is one GET URL
 * within the server's 8,192-character URL limit: random and hostile values for every parameter of every endpoint —
 * long runs of one character, nested brackets, unbalanced quotes, combining marks, invalid UTF-8 percent-encodings,
 * NUL, huge numbers — beside well-formed values, so that the engines behind the parsers run too.
 */
import fc from 'fast-check';
import { ENDPOINT_PATHS, type MethodName } from '../../src/adapters/http/routes.js';

/** The server's URL limit, characters (handler `maxUrlLength` default). */
const URL_LIMIT = 8192;

/** Parameters of each endpoint (rest-api.md), plus the aliases and extras the engine reads. */
const ENDPOINT_PARAMS: Readonly<Record<MethodName, readonly string[]>> = {
  geocode: ['latlng', 'address', 'place_id', 'limit'],
  direction: ['origin', 'destination', 'alternatives', 'vehicle'],
  distanceMatrix: ['origins', 'destinations', 'vehicle'],
  autocomplete: ['input', 'location', 'limit', 'radius', 'sessiontoken', 'more_compound'],
  placeDetail: ['place_id', 'placeid', 'sessiontoken'],
  trip: ['origin', 'waypoints', 'destination', 'vehicle'],
  staticRoute: ['origin', 'destination', 'width', 'height', 'vehicle', 'type', 'color'],
};

/** A point in Hanoi (the default pack's area), as `lat,lng` with 4–6 decimals. */
const hanoiPoint = fc
  .tuple(fc.integer({ min: 20_950_000, max: 21_080_000 }), fc.integer({ min: 105_750_000, max: 105_900_000 }))
  .map(([a, b]) => `${(a / 1e6).toFixed(6)},${(b / 1e6).toFixed(6)}`);

/** Well-formed values: what a correct client sends. */
const wellFormed = fc.oneof(
  hanoiPoint,
  fc.array(hanoiPoint, { minLength: 2, maxLength: 6 }).map((a) => a.join(';')),
  fc.array(hanoiPoint, { minLength: 2, maxLength: 4 }).map((a) => a.join('|')),
  fc.constantFrom(
    'car',
    'bike',
    'taxi',
    'truck',
    'hd',
    'true',
    'false',
    '1',
    '0',
    'fastest',
    'shortest',
    '#ff0000',
    'red',
    '0xff000080',
    'rgba(1,2,3,0.5)',
    'hsl(120, 100%, 25%)',
  ),
  fc.constantFrom(
    'Hoàn Kiếm',
    'số 1 Tràng Tiền, Hoàn Kiếm, Hà Nội',
    'phở',
    'Q.1',
    'ngõ 12/34A Đường Láng',
    '7PH7Q3Q2+QX',
    'hồ gươm',
  ),
  fc.integer({ min: -5, max: 5000 }).map(String),
);

/** One hostile fragment, raw (already percent-encoded where it says %). */
const hostileRaw = fc.oneof(
  // Long runs of one character, up to the URL limit (the ReDoS shapes: spaces, digits, separators).
  fc
    .tuple(
      fc.constantFrom(
        ' ',
        '+',
        '%20',
        '0',
        '9',
        '.',
        ',',
        ';',
        '|',
        '-',
        '/',
        '(',
        ')',
        '[',
        '{',
        '"',
        "'",
        'a',
        'đ',
        '%CC%81',
        '%00',
        '%23',
        '\\',
      ),
      fc.integer({ min: 1, max: 2600 }),
    )
    .map(([c, n]) => c.repeat(n)),
  // Prefix + long run + bad tail: rgb( + spaces + x, number + many dots, etc.
  fc
    .tuple(
      fc.constantFrom('rgb(', 'rgba(', 'hsl(', '#', '0x', '21.0,', '1/', 'Q', 'số ', 'ngõ '),
      fc.constantFrom(' ', '+', '0', '.', ',', '1/', '1a-', "'", '%CC%81'),
      fc.integer({ min: 1, max: 2000 }),
      fc.constantFrom('x', '', ')', '%', '%FF'),
    )
    .map(([p, c, n, t]) => encodeURIComponent(p) + c.repeat(n) + t),
  // Nested and unbalanced brackets and quotes.
  fc
    .integer({ min: 1, max: 1500 })
    .chain((n) =>
      fc.constantFrom(
        '('.repeat(n),
        `${'('.repeat(n)}${')'.repeat(n)}`,
        '"'.repeat(n),
        `"${'\\"'.repeat(n)}`,
        '[{'.repeat(n),
      ),
    )
    .map(encodeURIComponent),
  // Invalid UTF-8 and stray percent signs.
  fc.constantFrom(
    '%C3%28',
    '%FF',
    '%E0%80%80',
    '%ED%A0%80',
    '%F4%90%80%80',
    '%',
    '%2',
    '%G0',
    '%C3',
    '%00',
    '%0A%0D',
    '%E2%80%AE',
  ),
  // Huge, tiny and odd numbers.
  fc.constantFrom(
    '1e309',
    '-1e309',
    '99999999999999999999999',
    '1e-400',
    'NaN',
    'Infinity',
    '-0',
    '0x10',
    '1_000',
    '２１.０',
    '21.0285,105.8542,7',
    '91,181',
    '-90.0000001,0',
    '1.7976931348623157e308,0',
  ),
  // Random text, including any code point.
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
);

/** A parameter value, raw for the query string. */
const value = fc.oneof(
  { weight: 2, arbitrary: wellFormed.map(encodeURIComponent) },
  { weight: 3, arbitrary: hostileRaw },
  {
    weight: 1,
    arbitrary: fc.array(hostileRaw, { minLength: 2, maxLength: 4 }).map((a) => a.join('')),
  },
);

/** A request: an endpoint, and a URL (path and query, with `api_key=k`) within the URL limit. */
export interface FuzzRequest {
  method: MethodName;
  /** Path and query, e.g. `/Direction?origin=…&api_key=k`. */
  target: string;
}

/** Requests to one endpoint: a subset of its parameters (some repeated, some unknown) with fuzzed values. */
export function requestsFor(method: MethodName): fc.Arbitrary<FuzzRequest> {
  const names = fc.constantFrom(...ENDPOINT_PARAMS[method], 'x', '');
  return fc.array(fc.tuple(names, value), { maxLength: 6 }).map((pairs) => {
    let query = '';
    for (const [name, v] of pairs) query += `${name}=${v}&`;
    const base = `${ENDPOINT_PATHS[method]}?`;
    // Leave room for the key and the origin; a cut percent-escape is one more invalid encoding.
    const room = URL_LIMIT - 'https://127.0.0.1'.length - base.length - '&api_key=k'.length;
    const target = `${base}${query.slice(0, room)}&api_key=k`;
    // fast-check prints a failing request with this: its start and length, not 8,000 characters.
    return { method, target, [fc.toStringMethod]: () => `${target.slice(0, 240)}… (${target.length} characters)` };
  });
}
