import { defaultResources } from './default-resources.js';
import { isSecure, type ClientInfo, type TrustProxy } from './client.js';
import { matchesRestrictions, normalizeKeys, type ApiKey, type KeyKind, type NormalizedKey } from './keys.js';
import { httpStatusOfBody } from '../../api/statuses.js';
import { refusal } from '../../api/errors.js';
import { isParamError } from '../../api/coords.js';
import { tokenParam } from '../../api/place-params.js';
import { callCost, HEAVY_UNITS } from './cost.js';
import {
  errorReply,
  fromFetchResponse,
  json,
  png,
  preflight,
  SerializedBody,
  serializedJson,
  toFetchResponse,
  type Reply,
} from './responses.js';
import { firstParam, parseRequestUrl, type RequestUrl } from './request-url.js';
import { isValidHost } from './request-target.js';
import { methodForPath, type CallContext, type EngineApi, type EngineParams } from './routes.js';
import {
  MemoryUsageStore,
  periodOf,
  UsageStoreUnavailable,
  type Admission,
  type UsageRequest,
  type UsageStore,
} from './usage.js';

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
  /**
   * Where counts, quota checks, rate windows and autocomplete sessions live. Default: a fresh in-memory store
   * (`MemoryUsageStore`); `bando serve` uses a file (one process) or Redis (any number of processes).
   */
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
  /**
   * Largest estimated cost of one call, in the cost units of `callCost` (≈ ms of one core): a call estimated above
   * it is refused with 400 naming the parameter, before any engine work and uncounted. Default none (the engine's
   * own limits apply).
   */
  maxCost?: number;
  /**
   * Web-map resources for tiles keys (see {@link ResourceRoute}). Default: for an `Engine`, the style, tiles, glyphs
   * and sprite of its packs (createMapResources without the demo page); `[]` serves none.
   */
  resources?: readonly ResourceRoute[];
  /**
   * Whether the engine can answer: null when it can, else why not (e.g. a worker pool with no running worker).
   * `GET /healthz` (no key, never counted, no HTTPS check) answers 200 `{"status":"OK"}` while this returns null
   * (or is absent) and the usage store reports no problem, else 503 with the reason.
   */
  health?: () => string | null;
  /**
   * Whether the packs are sound: null while no pack is known to be corrupt, else the failure naming the pack and the
   * section (`watchPacks`: packs checked on first use are checked in the background too). Reported by `/healthz` as
   * `packs`. Default: not checked.
   */
  packs?: () => string | null;
  /**
   * Serve `GET /metrics` (Prometheus text) to requests carrying `Authorization: Bearer <token>` (HTTPS rule as for
   * the endpoints); others get 401. Never counted.
   */
  metrics?: { token: string; text: () => string };
  /**
   * Most heavy calls (estimated at `HEAVY_UNITS` or more: long trips, large matrices and static maps) one key may
   * have running or waiting at once; more get 429 with `Retry-After: 1`, before counting. One client pipelining
   * heavy calls then holds at most this many of the heavy threads' queue, and other keys' heavy calls wait behind at
   * most that many. Default {@link DEFAULT_MAX_HEAVY_PER_KEY}.
   */
  maxHeavyPerKey?: number;
  /**
   * Most heavy calls one connection (`ClientInfo.connection`) may have running or waiting at once, whatever keys
   * they use; more get 429 `heavyBusyConnection` with `Retry-After: 1`, before counting. With `maxHeavyPerKey` it
   * bounds what one client pipelining heavy calls holds of the heavy queue. Default
   * {@link DEFAULT_MAX_HEAVY_PER_CONNECTION}.
   */
  maxHeavyPerConnection?: number;
  /** Called once for every answered request (metrics, request logs). Must not throw. */
  observe?: (event: RequestEvent) => void;
  /**
   * Start a cheap endpoint call's engine work while an asynchronous usage store (Redis) decides, when the store
   * expects to admit the key (`UsageStore.likelyAdmits`): the round trip to the store and the engine call then
   * overlap, and the call reaches the engine threads in the same event-loop turn as with an in-process store. The
   * answer still waits for the admission; a refused request gets its refusal and the engine's answer is dropped.
   * Only calls estimated under `AHEAD_UNITS` (a route, a geocode) are started ahead, and only for a key whose last
   * decided requests were all admitted, so a key over its quota or rate wastes at most one call's worth of cheap
   * engine work before its requests wait again. Default true: in 6 of 7 quiet paired runs on the route workload
   * it gave more req/s than waiting (HTTP README, Measured), and the farther Redis is, the more of its round trip it
   * hides; `bando serve --work-ahead=false` turns it off.
   */
  workAhead?: boolean;
  /** Clock in milliseconds since the epoch; decides the usage period and the rate window. Default Date.now. */
  now?: () => number;
}

/** One answered request, as {@link FetchHandlerOptions.observe} sees it. */
export interface RequestEvent {
  /** Endpoint method or resource name (`direction`, `tiles`, `healthz`, …), or `other` for an unknown path. */
  endpoint: string;
  /** HTTP status of the answer. */
  status: number;
  /** Time from the request to its answer, milliseconds. */
  ms: number;
  /** Body size, bytes (characters for a text body). */
  bytes: number;
  /** Why a request was refused by the usage store (quota or rate, a 429), or the store failed (503). */
  refused?: Admission | 'unavailable';
  /** The key's name, or its stable hash (`keyHash`: never any part of the secret); absent before a key is known. */
  key?: string;
  /** The peer address the transport gave. */
  remoteAddress?: string;
  /** Request method. */
  method: string;
  /** Request path (without the query, which carries the key); empty when the URL could not be parsed. */
  path: string;
}

/** `(request, client?) => Promise<Response>`; never rejects. */
export type FetchHandler = (request: Request, client?: ClientInfo) => Promise<Response>;

/** The parts of a request the REST surface reads, as any transport can give them without building a `Request`. */
export interface RestRequest {
  method: string;
  /**
   * Absolute URL; its scheme is the transport's (https: only when the connection used TLS), its path and query the
   * request-target's (RFC 9112 §3.3; see `requestUrl`), never taken from an unchecked Host header.
   */
  url: string;
  /** A header's value (case-insensitive name), or null. */
  header(name: string): string | null;
}

/** Transport-neutral form of the handler: never throws or rejects; answers synchronously when the engine does. */
export type RestHandler = (request: RestRequest, client?: ClientInfo) => Reply | Promise<Reply>;

/**
 * The whole REST surface of rest-api.md in one fetch-style function (Node, Deno, Bun, Service Worker, tests).
 * `client.remoteAddress` is needed for `allowHttp` and for a `trustProxy` address list; the request's own signal
 * tells that its client has gone unless `client.signal` does. See
 * {@link createRestHandler} for the checks; before them, a Host header that is not `host[:port]` gets 400.
 */
export function createFetchHandler(engine: EngineApi, options: FetchHandlerOptions = {}): FetchHandler {
  const rest = createRestHandler(engine, options);
  return async (request, client) => {
    const headers = request.headers;
    // The runtime built request.url; a Host header it may have joined to the target unchecked is refused here.
    // (A Service Worker's requests carry no Host header: the browser made the URL.)
    const host = headers.get('host');
    const reply =
      host !== null && !isValidHost(host)
        ? errorReply('badHost', {})
        : await rest(
            { method: request.method, url: request.url, header: (n) => headers.get(n) },
            // The runtime's request signal aborts when its client goes (Deno, Bun), as node-server's does.
            { ...client, signal: client?.signal ?? request.signal },
          );
    return toFetchResponse(reply);
  };
}

/**
 * The REST surface without the fetch types, for transports that can skip building `Request`/`Response` objects
 * (`bando serve`).
 *
 * Checks, in order: method (GET only, else 405), URL length (414), path (404), HTTPS
 * (400 HTTPS_REQUIRED), key (403 API_KEY_MISSING / API_KEY_INVALID / API_KEY_UNAUTHORIZED for the wrong kind or a
 * URL-restriction mismatch), estimated cost (400 when over `maxCost`), heavy calls held by the key and by the
 * connection (429 `heavyBusy`, `heavyBusyConnection`), then the usage store: monthly quota and per-second rate
 * (429 OVER_RATE_LIMIT), or 503 when the store is unreachable. Then the engine answers, given the client's signal
 * (`ClientInfo.signal`: a call whose client has gone is not started, and an engine that follows the signal, as the
 * worker pool does, drops or abandons it: 499 `clientGone`); its body's status decides the HTTP status (see
 * `httpStatusOfBody`). A thrown engine error is a 500 ERROR body for that request
 * only. Answers synchronously when the store and the engine do.
 */
export function createRestHandler(engine: EngineApi, options: FetchHandlerOptions = {}): RestHandler {
  const keys = new Map<string, NormalizedKey>(normalizeKeys(options.keys ?? []).map((k) => [k.key, k]));
  const usage: UsageStore = options.usage ?? new MemoryUsageStore();
  const now = options.now ?? Date.now;
  const basePath = options.basePath ?? '';
  const maxUrlLength = options.maxUrlLength ?? 8192;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxCost = options.maxCost ?? Infinity;
  const resources = options.resources ?? defaultResources(engine);
  const observe = options.observe;
  const workAhead = options.workAhead ?? true;
  const maxHeavyPerKey = options.maxHeavyPerKey ?? DEFAULT_MAX_HEAVY_PER_KEY;
  const maxHeavyPerConnection = options.maxHeavyPerConnection ?? DEFAULT_MAX_HEAVY_PER_CONNECTION;
  /** Heavy calls of each key, and of each connection, running or waiting (from the check below until their answer). */
  const heavyByKey = new Map<string, number>();
  const heavyByConnection = new WeakMap<object, number>();

  /** What the observer learns while a request is handled. */
  interface Trace {
    endpoint: string;
    path: string;
    key?: string;
    refused?: RequestEvent['refused'];
  }

  /** The key checks; the key, or the refusal. */
  function checkKey(url: RequestUrl, request: RestRequest, kind: KeyKind, trace: Trace | null): NormalizedKey | Reply {
    // A tiles key travels as `key` (the style's resource URLs carry it so; see defaultStyle), or as `api_key`.
    const given = (kind === 'tiles' ? firstParam(url.pairs, 'key') : null) ?? firstParam(url.pairs, 'api_key');
    if (!given) return errorReply('keyMissing', { param: kind === 'tiles' ? 'key (or api_key)' : 'api_key' });
    const key = keys.get(given);
    if (!key) return errorReply('keyInvalid', {});
    if (trace) trace.key = key.label;
    if (key.kind !== kind) return errorReply('keyWrongKind', { given: key.kind, needed: kind });
    if (key.restrictions.length > 0) {
      const origin = request.header('origin');
      const from = origin && origin !== 'null' ? origin : request.header('referer');
      if (!from || !matchesRestrictions(key.restrictions, from))
        return errorReply('keyRestricted', { from: from || null });
    }
    return key;
  }

  /**
   * Asks the usage store to admit and count the request, then runs `work` (or, with `ahead` and a store that expects
   * to admit the key, runs it at once and answers with it once admitted: see `workAhead`). A refusal or an
   * unreachable store is answered here; synchronous stores keep the whole path synchronous.
   */
  function admitThen(
    key: NormalizedKey,
    endpoint: string,
    units: number,
    session: UsageRequest['session'],
    trace: Trace | null,
    work: () => Reply | Promise<Reply>,
    ahead = false,
  ): Reply | Promise<Reply> {
    const t = now();
    const period = periodOf(t);
    const refuse = (admission: Exclude<Admission, 'ok'>): Reply => {
      if (trace) trace.refused = admission;
      return admission === 'quota'
        ? errorReply('overQuota', { quota: key.monthlyQuota, period })
        : // A rate refusal comes only from a key with a per-second rate.
          errorReply('overRate', { perSecond: key.perSecond! });
    };
    const unavailable = (err: unknown): Reply => {
      if (trace) trace.refused = 'unavailable';
      const why =
        err instanceof UsageStoreUnavailable
          ? err.message
          : `the usage store failed: ${(err as Error)?.message ?? String(err)}`;
      return errorReply('usageUnavailable', { why });
    };
    let admission: Admission | Promise<Admission>;
    try {
      admission = usage.admit({
        key: key.key,
        period,
        endpoint,
        units,
        monthlyQuota: key.monthlyQuota,
        perSecond: key.perSecond,
        session,
        nowMs: t,
      });
    } catch (err) {
      return unavailable(err);
    }
    if (typeof admission === 'string') return admission === 'ok' ? work() : refuse(admission);
    // `work()` never rejects (see `guard`), so a dropped answer leaves no unhandled rejection behind.
    const started = ahead && workAhead && usage.likelyAdmits?.(key.key) ? work() : null;
    return admission.then((a) => (a !== 'ok' ? refuse(a) : (started ?? work())), unavailable);
  }

  /** Whether the request came over HTTPS, or may come over plain HTTP (options.trustProxy, options.allowHttp). */
  function secure(url: RequestUrl, request: RestRequest, client: ClientInfo): boolean {
    const proto = request.header('x-forwarded-proto');
    return isSecure(url, proto, client, options.trustProxy ?? false, options.allowHttp ?? false);
  }

  /** `/healthz` and `/metrics`; null for any other path. */
  function operations(
    path: string,
    url: RequestUrl,
    request: RestRequest,
    client: ClientInfo,
  ): Reply | Promise<Reply> | null {
    if (path === '/healthz') return healthz();
    if (path === '/metrics' && options.metrics) {
      if (!secure(url, request, client)) return errorReply('httpsRequired', {});
      if (!bearerMatches(request.header('authorization'), options.metrics.token))
        return errorReply('metricsUnauthorized', {});
      return {
        status: 200,
        headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
        body: options.metrics.text(),
      };
    }
    return null;
  }

  /**
   * `/healthz`: each dependency checked, in order: the engine (`options.health`), the packs (`options.packs`), the
   * usage store's remembered state (`problem`), then its live check (`check`: a Redis PING, the usage folder writable) within
   * HEALTH_DEADLINE_MS. 200 `{ status: "OK", checks }` when all pass, else 503 naming the first that fails
   * (its message `<dependency>: <why>`), with every check's result in `checks`.
   */
  function healthz(): Reply | Promise<Reply> {
    const checks: Record<string, string> = {};
    const stored = options.health?.() ?? null;
    checks.engine = stored ?? 'OK';
    if (options.packs) checks.packs = options.packs() ?? 'OK';
    const remembered = usage.problem?.() ?? null;
    const answer = (live: string | null): Reply => {
      checks.usage = remembered ?? live ?? 'OK';
      const failing = Object.entries(checks).find(([, v]) => v !== 'OK');
      if (!failing) return json(200, { status: 'OK', checks });
      const r = refusal('unhealthy', { problem: `${failing[0]}: ${failing[1]}` });
      return json(r.http, { ...r.body, checks }, r.headers);
    };
    if (remembered !== null || !usage.check) return answer(null);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${HEALTH_DEADLINE_MS} ms`), HEALTH_DEADLINE_MS);
    });
    const live = usage.check().catch((err: unknown) => (err as Error)?.message ?? String(err));
    return Promise.race([live, late])
      .finally(() => clearTimeout(timer))
      .then(answer);
  }

  function handle(request: RestRequest, client: ClientInfo, trace: Trace | null): Reply | Promise<Reply> {
    // HEAD is a GET whose body the transport drops (node's ServerResponse, the fetch runtime): checked, counted
    // and answered as GET, so its headers are the GET's.
    const verb = request.method;
    if (verb !== 'GET' && verb !== 'HEAD' && verb !== 'OPTIONS')
      return errorReply('methodNotAllowed', { method: request.method });
    if (request.url.length > maxUrlLength) return errorReply('urlTooLong', { max: maxUrlLength });
    const url = parseRequestUrl(request.url);
    if (!url) return errorReply('badUrl', {});
    if (trace) trace.path = url.pathname;
    if (!url.pathname.startsWith(basePath)) return errorReply('noEndpoint', { path: url.pathname });
    const path = url.pathname.slice(basePath.length);
    const method = methodForPath(path);
    const resource = method ? undefined : resources.find((r) => r.match(path));
    // A preflight carries no key: any route answers it, uncounted (the GET that follows is checked as usual).
    if (verb === 'OPTIONS') {
      const known = method || resource || path === '/healthz' || (path === '/metrics' && options.metrics);
      return known
        ? preflight(request.header('access-control-request-headers'))
        : errorReply('noEndpoint', { path: url.pathname });
    }
    if (!method && !resource) {
      const op = operations(path, url, request, client);
      if (op && trace) trace.endpoint = path.slice(1);
      return op ?? errorReply('noEndpoint', { path: url.pathname });
    }
    if (trace) trace.endpoint = method ?? resource!.name;
    if (!secure(url, request, client)) return errorReply('httpsRequired', {});

    if (resource) {
      const run = () => {
        const fetchRequest = () => {
          const headers = new Headers();
          for (const name of ['origin', 'referer', 'accept', 'accept-encoding', 'if-none-match', 'if-modified-since']) {
            const v = request.header(name);
            if (v !== null) headers.set(name, v);
          }
          return new Request(url.url(), { headers });
        };
        return guard(
          async () => fromFetchResponse(await resource.handle(fetchRequest(), url.url())),
          `resource ${resource.name}`,
          (r) => r,
        );
      };
      if (resource.public) return run();
      const key = checkKey(url, request, 'tiles', trace);
      if (!('kind' in key)) return key;
      return admitThen(key, resource.name, resource.mapLoad ? 1 : 0, undefined, trace, run);
    }
    const key = checkKey(url, request, 'rest', trace);
    if (!('kind' in key)) return key;
    const fn = engine[method!];
    // An endpoint the engine lacks is refused after the key checks (so key errors never depend on the engine) and
    // is neither rate-limited nor counted.
    if (typeof fn !== 'function') return errorReply('noMethod', { path, method: method! });
    const params = queryParams(url);
    const cost = callCost(method!, params);
    if (maxCost < Infinity) {
      if (cost.units > maxCost)
        return errorReply(
          'tooCostly',
          { parameter: cost.parameter, units: cost.units, max: maxCost },
          method === 'trip',
        );
    }
    let session: UsageRequest['session'];
    if (method === 'autocomplete' || method === 'placeDetail') {
      // The engine's own check of the token, before the store bills or remembers it.
      const token = tokenParam('sessiontoken', params.sessiontoken);
      if (isParamError(token)) return errorReply('badParameter', { reason: token.error });
      if (token !== undefined) session = { endpoint: method, token };
    }
    const heavy = cost.units >= HEAVY_UNITS;
    const held = heavyByKey.get(key.key) ?? 0;
    if (heavy && held >= maxHeavyPerKey) return errorReply('heavyBusy', { max: maxHeavyPerKey });
    const { connection, signal } = client;
    const onConnection = heavy && connection ? (heavyByConnection.get(connection) ?? 0) : 0;
    if (heavy && onConnection >= maxHeavyPerConnection)
      return errorReply('heavyBusyConnection', { max: maxHeavyPerConnection });
    const context: CallContext = { signal, lane: key.key };
    const reply = admitThen(
      key,
      method!,
      1,
      session,
      trace,
      // A client gone while its request waited for admission gets no engine work.
      () =>
        signal?.aborted
          ? errorReply('clientGone', { what: method! })
          : guard(() => fn.call(engine, params, context), method!, toReply, signal),
      cost.units < AHEAD_UNITS,
    );
    if (!heavy || !(reply instanceof Promise)) return reply;
    heavyByKey.set(key.key, held + 1);
    if (connection) heavyByConnection.set(connection, onConnection + 1);
    return reply.finally(() => {
      const n = heavyByKey.get(key.key)! - 1;
      if (n === 0) heavyByKey.delete(key.key);
      else heavyByKey.set(key.key, n);
      if (connection) heavyByConnection.set(connection, heavyByConnection.get(connection)! - 1);
    });
  }

  /**
   * Runs one request's work: a throw or a timeout becomes an error answer for this request only (`clientGone` once
   * `signal` aborted: the engine dropped or abandoned the call because its client has gone). A synchronous result
   * is answered at once (a synchronous call cannot be interrupted, so a timer would be no use to it).
   */
  function guard<T>(
    work: () => T | Promise<T>,
    what: string,
    answer: (value: T) => Reply,
    signal?: AbortSignal,
  ): Reply | Promise<Reply> {
    const failed = (err: unknown) =>
      signal?.aborted
        ? errorReply('clientGone', { what })
        : errorReply('callFailed', { what, reason: (err as Error)?.message ?? String(err) });
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
      timer = setTimeout(() => resolve(errorReply('callTimeout', { what, ms: timeoutMs })), timeoutMs);
    });
    const done = Promise.resolve(value).then(safeAnswer, failed);
    return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
  }

  if (!observe) return (request, client = {}) => handle(request, client, null);
  return (request, client = {}) => {
    const start = performance.now();
    const trace: Trace = { endpoint: 'other', path: '' };
    const report = (reply: Reply): Reply => {
      try {
        observe({
          ...trace,
          method: request.method,
          status: reply.status,
          ms: performance.now() - start,
          bytes: reply.body.length,
          remoteAddress: client.remoteAddress,
        });
      } catch {
        // An observer must not turn an answer into a failure.
      }
      return reply;
    };
    const reply = handle(request, client, trace);
    return reply instanceof Promise ? reply.then(report) : report(reply);
  };
}

/** Default of `maxHeavyPerKey`: heavy calls one key may have running or waiting at once. */
const DEFAULT_MAX_HEAVY_PER_KEY = 4;
/** Default of `maxHeavyPerConnection`: heavy calls one connection may have running or waiting at once. */
const DEFAULT_MAX_HEAVY_PER_CONNECTION = 4;

/** Longest wait for a usage store's live check in `/healthz`, milliseconds: a stalled store is reported within it. */
const HEALTH_DEADLINE_MS = 1000;

/**
 * Calls estimated under this many cost units (≈ ms of one core: a route is 2) may start before their admission (see
 * `workAhead`): cheap enough that work a refused request started costs little.
 */
const AHEAD_UNITS = 10;

/** True when an Authorization header is `Bearer <token>` with exactly this token (compared in constant time). */
function bearerMatches(header: string | null, token: string): boolean {
  if (!header || !header.startsWith('Bearer ')) return false;
  const given = header.slice(7).trim();
  let diff = given.length ^ token.length;
  for (let i = 0; i < token.length; i++) diff |= token.charCodeAt(i) ^ (given.charCodeAt(i) || 0);
  return diff === 0 && token.length > 0;
}

/**
 * Query parameters for the engine: first value of each name, `api_key` removed. (`placeid`, the alias of `place_id`,
 * is read by the endpoints themselves: api/place-params.ts `placeIdParam`.)
 */
function queryParams(url: RequestUrl): EngineParams {
  const params: EngineParams = {};
  for (const [name, value] of url.pairs) if (!(name in params)) params[name] = value;
  delete params.api_key;
  return params;
}

/** An engine answer as a reply: PNG bytes as image/png, a body object (or its JSON) with its HTTP status. */
function toReply(value: unknown): Reply {
  if (value instanceof Uint8Array) return png(value);
  if (value instanceof SerializedBody) return serializedJson(value);
  return json(httpStatusOfBody(value), value);
}
