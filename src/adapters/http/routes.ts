/** Names of the engine methods behind the seven REST endpoints. */
export type MethodName =
  'geocode' | 'autocomplete' | 'placeDetail' | 'direction' | 'distanceMatrix' | 'trip' | 'staticRoute';

/** REST query parameters as the engine methods take them (undefined: absent). */
export type EngineParams = Record<string, string | number | boolean | undefined>;

/**
 * What the REST handler tells an engine about a call besides its parameters (an engine may ignore it: an `Engine`
 * does; the worker pool of `bando serve --threads` uses it to drop and abandon calls and to share its heavy
 * workers fairly).
 */
export interface CallContext {
  /** Aborted once nobody waits for the answer (the client's connection closed). */
  signal?: AbortSignal;
  /** Who the call is for (the API key): heavy calls waiting for a worker are taken in turn across lanes. */
  lane?: string;
}

/**
 * What the fetch handler, the worker and the CLI need from an engine: any subset of the seven endpoint methods, each
 * called with the REST query parameters as they come (the method checks them) and optionally a {@link CallContext}.
 * Each returns the REST response body (PNG bytes for `staticRoute`), or a Promise of it. An `Engine` and a
 * `WorkerEngine` are EngineApis.
 */
export interface EngineApi {
  geocode?(params: EngineParams | URLSearchParams, call?: CallContext): unknown;
  autocomplete?(params: EngineParams | URLSearchParams, call?: CallContext): unknown;
  placeDetail?(params: EngineParams | URLSearchParams, call?: CallContext): unknown;
  direction?(params: EngineParams | URLSearchParams, call?: CallContext): unknown;
  distanceMatrix?(params: EngineParams | URLSearchParams, call?: CallContext): unknown;
  trip?(params: EngineParams | URLSearchParams, call?: CallContext): unknown;
  staticRoute?(params: EngineParams | URLSearchParams, call?: CallContext): unknown;
}

/** The seven methods, in the order of rest-api.md. */
export const METHOD_NAMES: readonly MethodName[] = [
  'geocode',
  'direction',
  'distanceMatrix',
  'autocomplete',
  'placeDetail',
  'trip',
  'staticRoute',
];

/** Documented path of each endpoint (rest-api.md capitalisation). */
export const ENDPOINT_PATHS: Readonly<Record<MethodName, string>> = {
  geocode: '/Geocode',
  direction: '/Direction',
  distanceMatrix: '/DistanceMatrix',
  autocomplete: '/Place/AutoComplete',
  placeDetail: '/Place/Detail',
  trip: '/trip',
  staticRoute: '/staticmap/route',
};

/** Exact path → method: every documented path and its all-lowercase form. */
const BY_PATH = new Map<string, MethodName>(
  METHOD_NAMES.flatMap((m) => [
    [ENDPOINT_PATHS[m], m],
    [ENDPOINT_PATHS[m].toLowerCase(), m],
  ]),
);

/**
 * The method answering a URL path, or null. Paths match as documented or in all-lowercase; `/Geocode` matches in
 * any capitalisation, as rest-api.md asks.
 */
export function methodForPath(pathname: string): MethodName | null {
  const exact = BY_PATH.get(pathname);
  if (exact) return exact;
  return pathname.toLowerCase() === '/geocode' ? 'geocode' : null;
}
