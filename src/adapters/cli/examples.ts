import { SerializedBody } from '../http/responses.js';
import { ENDPOINT_PATHS, type EngineApi, type EngineParams, type MethodName } from '../http/routes.js';

/** Central-Hanoi sample points (lat,lng) inside the embedded default pack. */
const HOAN_KIEM = '21.0285,105.8522';
const OPERA_HOUSE = '21.0243,105.8575';
const TEMPLE_OF_LITERATURE = '21.0277,105.8355';
const TRIP_STOPS = [
  '21.0367,105.8346',
  '21.0340,105.8500',
  '21.0310,105.8420',
  '21.0245,105.8412',
  '21.0190,105.8480',
  '21.0170,105.8550',
  '21.0300,105.8560',
  '21.0330,105.8600',
  '21.0220,105.8380',
];

/**
 * One example query per endpoint. On the default pack (or any holding central Hanoi) the curated Hanoi ones; on
 * another pack, points spread around the centre of `bbox` ([west, south, east, north], degrees) and a geocode of
 * that centre. The place detail example uses a place_id taken from the engine's own autocomplete answer when it has
 * that method, so the printed URL works. `engine` may answer in JSON text (SerializedBody: `bando serve`'s worker
 * threads), so the serving thread asks its workers rather than building a places index of its own for two answers.
 */
export async function exampleQueries(
  engine: EngineApi,
  bbox?: readonly number[],
): Promise<Record<MethodName, Record<string, string>>> {
  const [w, s, e, n] = bbox ?? [];
  const [lat, lng] = HOAN_KIEM.split(',').map(Number) as [number, number];
  if (
    w === undefined ||
    s === undefined ||
    e === undefined ||
    n === undefined ||
    (lat >= s && lat <= n && lng >= w && lng <= e)
  )
    return hanoiQueries(engine);
  // A point at fractions (fx, fy) of the box from its centre; within the middle third so it is on the pack's roads.
  const at = (fx: number, fy: number) =>
    `${((s + n) / 2 + fy * (n - s)).toFixed(5)},${((w + e) / 2 + fx * (e - w)).toFixed(5)}`;
  const centre = at(0, 0);
  const word = await firstAddressWord(engine, centre);
  const placeId = await autocompletePlaceId(engine, word);
  return {
    geocode: { latlng: centre },
    direction: { origin: centre, destination: at(0.1, 0.08), vehicle: 'car' },
    distanceMatrix: { origins: centre, destinations: `${at(0.1, 0.08)}|${at(-0.1, -0.05)}`, vehicle: 'car' },
    autocomplete: { input: word, location: centre, limit: '5' },
    placeDetail: { place_id: placeId },
    trip: { origin: centre, waypoints: [at(0.1, 0), at(0, 0.1), at(-0.1, 0), at(0, -0.1)].join(';'), vehicle: 'car' },
    staticRoute: { origin: centre, destination: at(-0.1, 0.08), width: '600', height: '400' },
  };
}

/** The first part of the address the engine gives for a point (a street or ward name), for the autocomplete example. */
async function firstAddressWord(engine: EngineApi, latlng: string): Promise<string> {
  try {
    const g = (await answer(engine, 'geocode', { latlng })) as
      { results?: { formatted_address?: string }[] } | undefined;
    const first = g?.results?.[0]?.formatted_address?.split(',')[0]?.trim();
    if (first) return first;
  } catch {
    // The example keeps a plain word.
  }
  return 'phố';
}

/** A place_id from the engine's own autocomplete answer, or a placeholder. */
async function autocompletePlaceId(engine: EngineApi, input: string): Promise<string> {
  try {
    const ac = (await answer(engine, 'autocomplete', { input, limit: 1 })) as
      { predictions?: { place_id?: string }[] } | undefined;
    return ac?.predictions?.[0]?.place_id ?? 'PLACE_ID_FROM_AUTOCOMPLETE';
  } catch {
    return 'PLACE_ID_FROM_AUTOCOMPLETE';
  }
}

/** The engine's answer to a call as a value (JSON text parsed), undefined when it has no such method. */
async function answer(engine: EngineApi, method: MethodName, params: EngineParams): Promise<unknown> {
  const a: unknown = await engine[method]?.(params);
  if (!(a instanceof SerializedBody)) return a;
  return JSON.parse(typeof a.json === 'string' ? a.json : new TextDecoder().decode(a.json));
}

async function hanoiQueries(engine: EngineApi): Promise<Record<MethodName, Record<string, string>>> {
  const placeId = await autocompletePlaceId(engine, 'Hoàn Kiếm');
  return {
    geocode: { address: 'Hàng Bài, Hoàn Kiếm, Hà Nội' },
    direction: { origin: HOAN_KIEM, destination: OPERA_HOUSE, vehicle: 'car' },
    distanceMatrix: { origins: HOAN_KIEM, destinations: `${OPERA_HOUSE}|${TEMPLE_OF_LITERATURE}`, vehicle: 'car' },
    autocomplete: { input: 'Hoàn Kiếm', location: HOAN_KIEM, limit: '5' },
    placeDetail: { place_id: placeId },
    trip: { origin: HOAN_KIEM, waypoints: TRIP_STOPS.join(';'), vehicle: 'car' },
    staticRoute: { origin: HOAN_KIEM, destination: TEMPLE_OF_LITERATURE, width: '600', height: '400' },
  };
}

/** The example URL of every endpoint the engine has, with the given key, under `base` (no trailing slash); `bbox` as exampleQueries. */
export async function exampleUrls(
  engine: EngineApi,
  base: string,
  apiKey: string,
  bbox?: readonly number[],
): Promise<string[]> {
  const queries = await exampleQueries(engine, bbox);
  return (
    (Object.keys(queries) as MethodName[])
      .filter((m) => typeof engine[m] === 'function')
      // Commas and semicolons are legal in a query; leaving them readable makes the printed URLs easier to edit.
      .map(
        (m) =>
          `${base}${ENDPOINT_PATHS[m]}?${new URLSearchParams({ ...queries[m], api_key: apiKey }).toString().replace(/%2C/g, ',').replace(/%3B/g, ';')}`,
      )
  );
}
