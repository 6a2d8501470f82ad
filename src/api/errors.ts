/**
 * Every refusal a surface gives before, around or instead of an engine answer (method, URL, key, quota, cost, time
 * limit, usage store, shutdown, web-map resources): its body status, HTTP status, message template, extra headers
 * and body shape, in one table. The engine's own answers carry their statuses in their bodies; their HTTP statuses
 * are the other table, `BODY_STATUSES` (statuses.ts). A surface names a row and fills its template, so no code sends
 * an error whose HTTP status is not written here; `test/error-table.test.ts` checks that every status literal of the
 * source is in one of the two tables and that the REST docs list every row.
 */

import type { OsrmCode } from './trip-codes.js';

/** HTTP statuses a refusal may carry. */
type RefusalHttp = 400 | 401 | 403 | 404 | 405 | 414 | 429 | 431 | 499 | 500 | 503 | 504;

/** One row: what a refusal looks like on the wire. */
interface RefusalRow {
  /** HTTP status of the answer. */
  readonly http: RefusalHttp;
  /** `status` of the Google-shaped body `{ status, error_message }`. */
  readonly status: string;
  /**
   * `osrm_code` of the OSRM-shaped body `{ code: status, message, osrm_code }`, given only where an OSRM-shaped
   * endpoint (trip) answers the refusal in its own shape; rows without it are Google-shaped on every endpoint.
   */
  readonly osrm?: OsrmCode;
  /** Headers the answer carries besides the common ones. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The message, from the row's parameters. */
  readonly message: (p: never) => string;
}

/** `Retry-After: 1`: the refusal passes within a second (a rate window, a store reconnecting, a restart). */
const RETRY = { 'retry-after': '1' } as const;

/** The refusal table. Keys are the refusals' names; see {@link refusal}. */
export const REFUSALS = {
  /** The request line or headers could not be read (the transport's reason). */
  badRequest: { http: 400, status: 'BAD_REQUEST', message: (p: { reason: string }) => p.reason },
  /** A Host header that is not `host[:port]`. */
  badHost: { http: 400, status: 'BAD_REQUEST', message: () => 'The Host header is not a valid host[:port].' },
  /** A URL that does not parse. */
  badUrl: { http: 400, status: 'BAD_REQUEST', message: () => 'The request URL or Host header is malformed.' },
  /** Any method but GET, HEAD and OPTIONS. */
  methodNotAllowed: {
    http: 405,
    status: 'METHOD_NOT_ALLOWED',
    headers: { allow: 'GET, HEAD, OPTIONS' },
    message: (p: { method: string }) => `Method ${p.method} is not allowed; use GET.`,
  },
  /** Request headers over the transport's limit (`max`, bytes of request line and headers together). */
  headersTooLarge: {
    http: 431,
    status: 'HEADERS_TOO_LARGE',
    headers: { connection: 'close' },
    message: (p: { max: number }) => `The request headers are larger than ${p.max} bytes.`,
  },
  /** A URL longer than the handler's `maxUrlLength` (characters). */
  urlTooLong: {
    http: 414,
    status: 'URI_TOO_LONG',
    message: (p: { max: number }) => `The request URL is longer than ${p.max} characters.`,
  },
  /** A path that is no endpoint, resource or operation. */
  noEndpoint: { http: 404, status: 'NOT_FOUND', message: (p: { path: string }) => `No endpoint at ${p.path}.` },
  /** An endpoint the engine has no method for (checked after the key, never counted). */
  noMethod: {
    http: 404,
    status: 'NOT_FOUND',
    message: (p: { path: string; method: string }) =>
      `The endpoint ${p.path} is not available: this engine has no ${p.method} method.`,
  },
  /** A parameter the handler reads itself (a session token) is malformed: refused before it is billed or stored. */
  badParameter: { http: 400, status: 'BAD_REQUEST', message: (p: { reason: string }) => p.reason },
  /** Plain HTTP where HTTPS is required (rest-api.md). */
  httpsRequired: { http: 400, status: 'HTTPS_REQUIRED', message: () => 'Requests must use HTTPS.' },
  /** No key; `param` names where it was looked for, e.g. "api_key" or "key (or api_key)". */
  keyMissing: {
    http: 403,
    status: 'API_KEY_MISSING',
    message: (p: { param: string }) => `The ${p.param} query parameter is required.`,
  },
  /** A key not in the key list. */
  keyInvalid: { http: 403, status: 'API_KEY_INVALID', message: () => 'The api_key is not a valid key.' },
  /** A key of the other kind (rest or tiles). */
  keyWrongKind: {
    http: 403,
    status: 'API_KEY_UNAUTHORIZED',
    message: (p: { given: string; needed: string }) =>
      `A ${p.given} key cannot be used here; this resource needs a ${p.needed} key.`,
  },
  /** A URL-restricted key used from another origin (`from`: the Origin or Referer, null when neither came). */
  keyRestricted: {
    http: 403,
    status: 'API_KEY_UNAUTHORIZED',
    message: (p: { from: string | null }) =>
      `The api_key is restricted to other URLs than ${p.from ? `"${p.from}"` : 'this request (no Origin or Referer)'}.`,
  },
  /** The key's monthly quota is used (`period`: the month, e.g. 2026-11). */
  overQuota: {
    http: 429,
    status: 'OVER_RATE_LIMIT',
    message: (p: { quota: number; period: string }) =>
      `The api_key used its monthly quota of ${p.quota} for ${p.period}.`,
  },
  /** The key's per-second rate is exceeded. */
  overRate: {
    http: 429,
    status: 'OVER_RATE_LIMIT',
    headers: RETRY,
    message: (p: { perSecond: number }) => `The api_key exceeded ${p.perSecond} requests per second.`,
  },
  /** A key with `max` heavy calls already running or queued (fair share of the heavy threads), refused uncounted. */
  heavyBusy: {
    http: 429,
    status: 'OVER_RATE_LIMIT',
    headers: RETRY,
    message: (p: { max: number }) =>
      `The api_key already has ${p.max} heavy calls (trips, large matrices, large static maps) running or waiting; send this one when one of them is answered.`,
  },
  /** A connection with `max` heavy calls already running or queued, refused uncounted (whatever keys they use). */
  heavyBusyConnection: {
    http: 429,
    status: 'OVER_RATE_LIMIT',
    headers: RETRY,
    message: (p: { max: number }) =>
      `This connection already has ${p.max} heavy calls (trips, large matrices, large static maps) running or waiting; send this one when one of them is answered.`,
  },
  /**
   * A call whose client closed its connection before the answer: dropped before it started, or abandoned at a
   * checkpoint. Nobody reads it (499, nginx's "client closed request"); request logs and metrics see it.
   */
  clientGone: {
    http: 499,
    status: 'ERROR',
    message: (p: { what: string }) => `The client closed its connection before the ${p.what} answer.`,
  },
  /** The usage store cannot admit or count the request now (never answered uncounted). */
  usageUnavailable: {
    http: 503,
    status: 'ERROR',
    headers: RETRY,
    message: (p: { why: string }) => `The request cannot be counted now (${p.why}); try again shortly.`,
  },
  /** `/healthz` while the engine or the usage store reports a problem. */
  unhealthy: { http: 503, status: 'ERROR', message: (p: { problem: string }) => p.problem },
  /** `/metrics` without the right bearer token. */
  metricsUnauthorized: {
    http: 401,
    status: 'UNAUTHORIZED',
    headers: { 'www-authenticate': 'Bearer' },
    message: () => 'The metrics need an Authorization: Bearer token.',
  },
  /** A call estimated over the server's cost limit (cost units ≈ ms of one core), refused before any work. */
  tooCostly: {
    http: 400,
    status: 'BAD_REQUEST',
    osrm: 'TooBig',
    message: (p: { parameter: string; units: number; max: number }) =>
      `${p.parameter} makes this request too costly for this server: an estimated ${Math.ceil(p.units)} cost units, over its limit of ${p.max}.`,
  },
  /** An engine call or resource that threw (`what`: the method or "resource <name>"). */
  callFailed: {
    http: 500,
    status: 'ERROR',
    message: (p: { what: string; reason: string }) => `The ${p.what} request failed: ${p.reason}`,
  },
  /** An engine call over its time limit (`ms`, milliseconds). */
  callTimeout: {
    http: 504,
    status: 'ERROR',
    message: (p: { what: string; ms: number }) => `The ${p.what} request took longer than ${p.ms} ms.`,
  },
  /** A request arriving while the server shuts down. */
  shuttingDown: {
    http: 503,
    status: 'ERROR',
    headers: { connection: 'close', ...RETRY },
    message: () => 'The server is shutting down.',
  },
  /** A failure of the transport itself, outside any call. */
  internal: { http: 500, status: 'ERROR', message: (p: { reason: string }) => `Internal error: ${p.reason}` },
  /** A web-map resource request with a bad parameter (a tile coordinate, a glyph range). */
  resourceInvalid: { http: 400, status: 'BAD_REQUEST', message: (p: { reason: string }) => p.reason },
  /** A web-map resource that does not exist (a sprite file, a font). */
  resourceMissing: { http: 404, status: 'NOT_FOUND', message: (p: { reason: string }) => p.reason },
} as const satisfies Record<string, RefusalRow>;

/** The name of a refusal. */
export type RefusalKind = keyof typeof REFUSALS;

/** The parameters of a refusal's message template (`{}` for a fixed message). */
export type RefusalParams<K extends RefusalKind> =
  Parameters<(typeof REFUSALS)[K]['message']> extends [infer P] ? P : Record<string, never>;

/** A refusal ready to send: HTTP status, extra headers and the body object. */
export interface Refusal {
  /** HTTP status. */
  http: number;
  /** Headers besides the common ones (may be empty). */
  headers: Readonly<Record<string, string>>;
  /** `{ status, error_message }`, or `{ code, message, osrm_code }` for an OSRM-shaped endpoint's own refusal. */
  body: { status: string; error_message: string } | { code: string; message: string; osrm_code: OsrmCode };
}

/**
 * The refusal `kind` with its message filled from `params`.
 * @param osrm true when the endpoint answers in OSRM's shape (trip): rows with an OSRM code then use it
 */
export function refusal<K extends RefusalKind>(kind: K, params: RefusalParams<K>, osrm = false): Refusal {
  const row: RefusalRow = REFUSALS[kind];
  const message = (row.message as (p: RefusalParams<K>) => string)(params);
  return {
    http: row.http,
    headers: row.headers ?? {},
    body:
      osrm && row.osrm
        ? { code: row.status, message, osrm_code: row.osrm }
        : { status: row.status, error_message: message },
  };
}
