import { ENDPOINT_PATHS, type EngineApi, type MethodName } from '../http/routes.js';

/** Central-Hanoi sample points (lat,lng) inside the embedded default pack. */
const HOAN_KIEM = '21.0285,105.8522';
const OPERA_HOUSE = '21.0243,105.8575';
const TEMPLE_OF_LITERATURE = '21.0277,105.8355';
const TRIP_STOPS = ['21.0367,105.8346', '21.0340,105.8500', '21.0310,105.8420', '21.0245,105.8412', '21.0190,105.8480', '21.0170,105.8550', '21.0300,105.8560', '21.0330,105.8600', '21.0220,105.8380'];

/**
 * One example query per endpoint on the default pack. The place detail example uses a place_id taken from the
 * engine's own autocomplete answer when it has that method, so the printed URL works.
 */
async function exampleQueries(engine: EngineApi): Promise<Record<MethodName, Record<string, string>>> {
  let placeId = 'PLACE_ID_FROM_AUTOCOMPLETE';
  try {
    const ac = (await engine.autocomplete?.({ input: 'Hoàn Kiếm', limit: 1 })) as { predictions?: { place_id?: string }[] } | undefined;
    placeId = ac?.predictions?.[0]?.place_id ?? placeId;
  } catch {
    // The example keeps its placeholder.
  }
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

/** The example URL of every endpoint the engine has, with the given key, under `base` (no trailing slash). */
export async function exampleUrls(engine: EngineApi, base: string, apiKey: string): Promise<string[]> {
  const queries = await exampleQueries(engine);
  return (Object.keys(queries) as MethodName[])
    .filter((m) => typeof engine[m] === 'function')
    // Commas and semicolons are legal in a query; leaving them readable makes the printed URLs easier to edit.
    .map((m) => `${base}${ENDPOINT_PATHS[m]}?${new URLSearchParams({ ...queries[m], api_key: apiKey }).toString().replace(/%2C/g, ',').replace(/%3B/g, ';')}`);
}
