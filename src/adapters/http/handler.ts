import { isSecure, type ClientInfo, type TrustProxy } from './client.js';
import { matchesRestrictions, normalizeKeys, type ApiKey, type KeyKind, type NormalizedKey } from './keys.js';
import { RateLimiter } from './rate.js';
import { httpStatusOfBody } from '../../api/statuses.js';
import { errorReply, fromFetchResponse, json, png, SerializedBody, serializedJson, toFetchResponse, type Reply } from './responses.js';
import { firstParam, parseRequestUrl, type RequestUrl } from './request-url.js';
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
  /**
   * True for a public resource (the demo page and its script files): no key is asked for and nothing is counted.
   * The HTTPS check still applies. Default false.
   */
  public?: boolean;
  /** Produces the resource (`request` carries the client's headers). Throwing gives a 500 ERROR body. */
  handle(request: Request, url: URL): Response | Promise<Response>;
}

/** Options of {@link createFetchHandler} and {@link createRestHandler}. */
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

/** The parts of a request the REST surface reads, as any transport can give them without building a `Request`. */
export interface RestRequest {
  method: string;
  /** Absolute URL; its scheme is the transport's (https: only when the connection used TLS). */
  url: string;
  /** A header's value (case-insensitive name), or null. */
  header(name: string): string | null;
}

/** Transport-neutral form of the handler: never throws or rejects; answers synchronously when the engine does. */
export type RestHandler = (request: RestRequest, client?: ClientInfo) => Reply | Promise<Reply>;

/**
 * The whole REST surface of rest-api.md in one fetch-style function (Node, Deno, Bun, Service Worker, tests).
 * `client.remoteAddress` is needed for `allowHttp` and for a `trustProxy` address list. See
 * {@link createRestHandler} for the checks.
 */
export function createFetchHandler(engine: EngineApi, options: FetchHandlerOptions = {}): FetchHandler {
  const rest = createRestHandler(engine, options);
  return async (request, client) => {
    const headers = request.headers;
    const reply = await rest({ method: request.method, url: request.url, header: (n) => headers.get(n) }, client);
    return toFetchResponse(reply);
  };
}

/**
 * The REST surface without the fetch types, for transports that can skip building `Request`/`Response` objects
 * (`bando serve`).
 *
 * Checks, in order: method (GET only, else 405), URL length (414), path (404), HTTPS
 * (400 HTTPS_REQUIRED), key (403 API_KEY_MISSING / API_KEY_INVALID / API_KEY_UNAUTHORIZED for the wrong kind or a
 * URL-restriction mismatch), monthly quota and per-second rate (429 OVER_RATE_LIMIT). Then the engine answers; its
 * body's status decides the HTTP status (see `httpStatusOfBody`). A thrown engine error is a 500 ERROR body for that
 * request only.
 */
export function createRestHandler(engine: EngineApi, options: FetchHandlerOptions = {}): RestHandler {
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
    url: RequestUrl,
    request: RestRequest,
    kind: KeyKind,
    endpoint: string,
    charge: (key: string, t: number) => SessionCharge,
    commit: (key: string, t: number) => void,
    available = true,
  ): Reply | null {
    // A tiles key travels as `key` (the style's resource URLs carry it so; see defaultStyle), or as `api_key`.
    const given = (kind === 'tiles' ? firstParam(url.pairs, 'key') : null) ?? firstParam(url.pairs, 'api_key');
    if (!given) return errorReply(403, 'API_KEY_MISSING', kind === 'tiles' ? 'The key (or api_key) query parameter is required.' : 'The api_key query parameter is required.');
    const key = keys.get(given);
    if (!key) return errorReply(403, 'API_KEY_INVALID', 'The api_key is not a valid key.');
    if (key.kind !== kind)
      return errorReply(403, 'API_KEY_UNAUTHORIZED', `A ${key.kind} key cannot be used here; this resource needs a ${kind} key.`);
    if (key.restrictions.length > 0) {
      const origin = request.header('origin');
      const from = origin && origin !== 'null' ? origin : request.header('referer');
      if (!from || !matchesRestrictions(key.restrictions, from))
        return errorReply(403, 'API_KEY_UNAUTHORIZED', `The api_key is restricted to other URLs than ${from ? `"${from}"` : 'this request (no Origin or Referer)'}.`);
    }
    // An endpoint the engine lacks is refused after the key checks (so key errors never depend on the engine) and
    // is neither rate-limited nor counted.
    if (!available) return null;
    const t = now();
    const period = periodOf(t);
    const cost = charge(key.key, t);
    if (cost.billable > 0 && usage.billable(key.key, period) + cost.billable > key.monthlyQuota)
      return errorReply(429, 'OVER_RATE_LIMIT', `The api_key used its monthly quota of ${key.monthlyQuota} for ${period}.`);
    if (key.perSecond !== undefined && !rate.take(key.key, key.perSecond, t))
      return errorReply(429, 'OVER_RATE_LIMIT', `The api_key exceeded ${key.perSecond} requests per second.`, { 'retry-after': '1' });
    commit(key.key, t);
    usage.add(key.key, period, { endpoint, billable: cost.billable, session: cost.session });
    return null;
  }

  const single = (): SessionCharge => ({ billable: 1, session: false });
  const nothing = (): void => {};

  function handle(request: RestRequest, client: ClientInfo = {}): Reply | Promise<Reply> {
    if (request.method !== 'GET')
      return errorReply(405, 'METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed; use GET.`, { allow: 'GET' });
    if (request.url.length > maxUrlLength)
      return errorReply(414, 'URI_TOO_LONG', `The request URL is longer than ${maxUrlLength} characters.`);
    const url = parseRequestUrl(request.url);
    if (!url) return errorReply(400, 'BAD_REQUEST', 'The request URL or Host header is malformed.');
    if (!url.pathname.startsWith(basePath)) return errorReply(404, 'NOT_FOUND', `No endpoint at ${url.pathname}.`);
    const path = url.pathname.slice(basePath.length);
    const method = methodForPath(path);
    const resource = method ? undefined : resources.find((r) => r.match(path));
    if (!method && !resource) return errorReply(404, 'NOT_FOUND', `No endpoint at ${url.pathname}.`);
    if (!isSecure(url, request.header('x-forwarded-proto'), client, options.trustProxy ?? false, options.allowHttp ?? false))
      return errorReply(400, 'HTTPS_REQUIRED', 'Requests must use HTTPS.');

    if (resource) {
      const cost = { billable: resource.mapLoad ? 1 : 0, session: false };
      const refused = resource.public ? null : admit(url, request, 'tiles', resource.name, () => cost, nothing);
      if (refused) return refused;
      const fetchRequest = () => {
        const headers = new Headers();
        for (const name of ['origin', 'referer', 'accept', 'accept-encoding', 'if-none-match', 'if-modified-since']) {
          const v = request.header(name);
          if (v !== null) headers.set(name, v);
        }
        return new Request(url.url(), { headers });
      };
      return guard(async () => fromFetchResponse(await resource.handle(fetchRequest(), url.url())), `resource ${resource.name}`, (r) => r);
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
      return errorReply(404, 'NOT_FOUND', `The endpoint ${path} is not available: this engine has no ${method} method.`);
    return guard(() => fn.call(engine, params), method!, toReply);
  }

  /**
   * Runs one request's work: a throw or a timeout becomes an error answer for this request only. A synchronous
   * result is answered at once (a synchronous call cannot be interrupted, so a timer would be no use to it).
   */
  function guard<T>(work: () => T | Promise<T>, what: string, answer: (value: T) => Reply): Reply | Promise<Reply> {
    const failed = (err: unknown) => errorReply(500, 'ERROR', `The ${what} request failed: ${(err as Error)?.message ?? String(err)}`);
    const safeAnswer = (v: T) => {
      try {
        return answer(v);
      } catch (err) {
        return failed(err);
      }
    };
    let value: T | Promise<T>;
    try {
      value = work();
    } catch (err) {
      return failed(err);
    }
    if (typeof (value as { then?: unknown } | null)?.then !== 'function') return safeAnswer(value as T);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<Reply>((resolve) => {
      timer = setTimeout(() => resolve(errorReply(504, 'ERROR', `The ${what} request took longer than ${timeoutMs} ms.`)), timeoutMs);
    });
    const done = Promise.resolve(value).then(safeAnswer, failed);
    return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
  }

  return handle;
}

/** Query parameters for the engine: first value of each name, `api_key` removed, `placeid` as `place_id`. */
function queryParams(url: RequestUrl): EngineParams {
  const params: EngineParams = {};
  for (const [name, value] of url.pairs) if (!(name in params)) params[name] = value;
  delete params.api_key;
  if (params.place_id === undefined && params.placeid !== undefined) params.place_id = params.placeid;
  delete params.placeid;
  return params;
}

/** An engine answer as a reply: PNG bytes as image/png, a body object (or its JSON) with its HTTP status. */
function toReply(value: unknown): Reply {
  if (value instanceof Uint8Array) return png(value);
  if (value instanceof SerializedBody) return serializedJson(value);
  return json(httpStatusOfBody(value), value);
}
