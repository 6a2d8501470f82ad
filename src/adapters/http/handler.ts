import { isSecure, type ClientInfo, type TrustProxy } from './client.js';
import { matchesRestrictions, normalizeKeys, type ApiKey, type KeyKind, type NormalizedKey } from './keys.js';
import { RateLimiter } from './rate.js';
import { errorResponse, httpStatusOfBody, json, png } from './responses.js';
import { methodForPath, type EngineApi, type EngineParams } from './routes.js';
import { SessionTracker, type SessionCharge, type SessionOptions } from './sessions.js';
import { MemoryUsageStore, periodOf, type UsageStore } from './usage.js';

/**
 * Extension point for web-map resources served to `tiles` keys (style, vector tiles, glyphs, sprites). The handler
 * does the key checks, counting and quota; the route only produces the resource.
 */
export interface ResourceRoute {
  /** Name under which requests are counted, e.g. `style`, `tiles`. */
  name: string;
  /** True when this route serves the (base-path-relative) path. */
  match(pathname: string): boolean;
  /** True when a request counts as a map load (the style request that initialises a map); else it is free. */
  mapLoad: boolean;
  /** Produces the resource. Throwing gives a 500 ERROR body. */
  handle(request: Request, url: URL): Response | Promise<Response>;
}

/** Options of {@link createFetchHandler}. */
export interface FetchHandlerOptions {
  /** The API keys accepted. Default none: every request then fails with API_KEY_INVALID. */
  keys?: readonly ApiKey[];
  /** Where counts go. Default: a fresh in-memory store. */
  usage?: UsageStore;
  /** Honour `X-Forwarded-Proto: https` from every peer (`true`) or from the listed proxy addresses. Default false. */
  trustProxy?: TrustProxy;
  /** Development only: accept plain HTTP from loopback peers (needs `ClientInfo.remoteAddress`). Default false. */
  allowHttp?: boolean;
  /** Path prefix under which the endpoints live, e.g. `/v1` (no trailing slash). Default none. */
  basePath?: string;
  /** Longest accepted request URL, in characters; longer gives 414. Default 8192. */
  maxUrlLength?: number;
  /** Longest time an engine call may take before the answer is 504, in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** Autocomplete session timing. */
  sessions?: SessionOptions;
  /** Web-map resources for tiles keys (see {@link ResourceRoute}). */
  resources?: readonly ResourceRoute[];
  /** Clock in milliseconds since the epoch; decides the usage period and the rate window. Default Date.now. */
  now?: () => number;
}

/** `(request, client?) => Promise<Response>`; never rejects. */
export type FetchHandler = (request: Request, client?: ClientInfo) => Promise<Response>;

/**
 * The whole REST surface of rest-api.md in one fetch-style function (Node, Deno, Bun, Service Worker, tests).
 *
 * Checks, in order: method (GET only, else 405), URL length (414), path (404), HTTPS
 * (400 HTTPS_REQUIRED), key (403 API_KEY_MISSING / API_KEY_INVALID / API_KEY_UNAUTHORIZED for the wrong kind or a
 * URL-restriction mismatch), monthly quota and per-second rate (429 OVER_RATE_LIMIT). Then the engine answers; its
 * body's status decides the HTTP status (see `httpStatusOfBody`). A thrown engine error is a 500 ERROR body for that
 * request only. `client.remoteAddress` is needed for `allowHttp` and for a `trustProxy` address list.
 */
export function createFetchHandler(engine: EngineApi, options: FetchHandlerOptions = {}): FetchHandler {
  const keys = new Map<string, NormalizedKey>(normalizeKeys(options.keys ?? []).map((k) => [k.key, k]));
  const usage = options.usage ?? new MemoryUsageStore();
  const now = options.now ?? Date.now;
  const rate = new RateLimiter();
  const sessions = new SessionTracker(options.sessions);
  const basePath = options.basePath ?? '';
  const maxUrlLength = options.maxUrlLength ?? 8192;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const resources = options.resources ?? [];

  /** The key check and the accounting shared by REST endpoints and web-map resources; a Response means refused. */
  function admit(
    url: URL,
    request: Request,
    kind: KeyKind,
    endpoint: string,
    charge: (key: string, t: number) => SessionCharge,
    commit: (key: string, t: number) => void,
    available = true,
  ): Response | null {
    const given = url.searchParams.get('api_key');
    if (!given) return errorResponse(403, 'API_KEY_MISSING', 'The api_key query parameter is required.');
    const key = keys.get(given);
    if (!key) return errorResponse(403, 'API_KEY_INVALID', 'The api_key is not a valid key.');
    if (key.kind !== kind)
      return errorResponse(403, 'API_KEY_UNAUTHORIZED', `A ${key.kind} key cannot be used here; this resource needs a ${kind} key.`);
    if (key.restrictions.length > 0) {
      const origin = request.headers.get('origin');
      const from = origin && origin !== 'null' ? origin : request.headers.get('referer');
      if (!from || !matchesRestrictions(key.restrictions, from))
        return errorResponse(403, 'API_KEY_UNAUTHORIZED', `The api_key is restricted to other URLs than ${from ? `"${from}"` : 'this request (no Origin or Referer)'}.`);
    }
    // An endpoint the engine lacks is refused after the key checks (so key errors never depend on the engine) and
    // is neither rate-limited nor counted.
    if (!available) return null;
    const t = now();
    const period = periodOf(t);
    const cost = charge(key.key, t);
    if (cost.billable > 0 && usage.billable(key.key, period) + cost.billable > key.monthlyQuota)
      return errorResponse(429, 'OVER_RATE_LIMIT', `The api_key used its monthly quota of ${key.monthlyQuota} for ${period}.`);
    if (key.perSecond !== undefined && !rate.take(key.key, key.perSecond, t))
      return errorResponse(429, 'OVER_RATE_LIMIT', `The api_key exceeded ${key.perSecond} requests per second.`, { 'retry-after': '1' });
    commit(key.key, t);
    usage.add(key.key, period, { endpoint, billable: cost.billable, session: cost.session });
    return null;
  }

  const single = (): SessionCharge => ({ billable: 1, session: false });
  const nothing = (): void => {};

  async function handle(request: Request, client: ClientInfo = {}): Promise<Response> {
    if (request.method !== 'GET')
      return errorResponse(405, 'METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed; use GET.`, { allow: 'GET' });
    if (request.url.length > maxUrlLength)
      return errorResponse(414, 'URI_TOO_LONG', `The request URL is longer than ${maxUrlLength} characters.`);
    const url = new URL(request.url);
    if (!url.pathname.startsWith(basePath)) return errorResponse(404, 'NOT_FOUND', `No endpoint at ${url.pathname}.`);
    const path = url.pathname.slice(basePath.length);
    const method = methodForPath(path);
    const resource = method ? undefined : resources.find((r) => r.match(path));
    if (!method && !resource) return errorResponse(404, 'NOT_FOUND', `No endpoint at ${url.pathname}.`);
    if (!isSecure(url, request.headers, client, options.trustProxy ?? false, options.allowHttp ?? false))
      return errorResponse(400, 'HTTPS_REQUIRED', 'Requests must use HTTPS.');

    if (resource) {
      const cost = { billable: resource.mapLoad ? 1 : 0, session: false };
      const refused = admit(url, request, 'tiles', resource.name, () => cost, nothing);
      return refused ?? (await guard(() => resource.handle(request, url), `resource ${resource.name}`, (r) => r));
    }
    const params = queryParams(url);
    const token = typeof params.sessiontoken === 'string' ? params.sessiontoken : undefined;
    const fn = engine[method!];
    const tracked = method === 'autocomplete' || method === 'placeDetail';
    const refused = admit(
      url,
      request,
      'rest',
      method!,
      tracked ? (key, t) => sessions.charge(method, key, token, t) : single,
      tracked ? (key, t) => sessions.record(method, key, token, t) : nothing,
      typeof fn === 'function',
    );
    if (refused) return refused;
    if (typeof fn !== 'function')
      return errorResponse(404, 'NOT_FOUND', `The endpoint ${path} is not available: this engine has no ${method} method.`);
    return guard(() => fn.call(engine, params), method!, toResponse);
  }

  /** Runs one request's work: a throw or a timeout becomes an error answer for this request only. */
  async function guard<T>(work: () => T | Promise<T>, what: string, answer: (value: T) => Response): Promise<Response> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const value = await Promise.race([Promise.resolve().then(work), timeout]);
      if (value === 'timeout') return errorResponse(504, 'ERROR', `The ${what} request took longer than ${timeoutMs} ms.`);
      return answer(value as T);
    } catch (err) {
      return errorResponse(500, 'ERROR', `The ${what} request failed: ${(err as Error)?.message ?? String(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  return handle;
}

/** Query parameters for the engine: first value of each name, `api_key` removed, `placeid` as `place_id`. */
function queryParams(url: URL): EngineParams {
  const params: EngineParams = {};
  for (const [name, value] of url.searchParams) if (!(name in params)) params[name] = value;
  delete params.api_key;
  if (params.place_id === undefined && params.placeid !== undefined) params.place_id = params.placeid;
  delete params.placeid;
  return params;
}

/** An engine answer as a Response: PNG bytes as image/png, a body object as JSON with its HTTP status. */
function toResponse(value: unknown): Response {
  if (value instanceof Uint8Array) return png(value);
  return json(httpStatusOfBody(value), value);
}
