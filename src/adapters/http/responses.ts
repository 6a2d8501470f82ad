import { refusal, type RefusalKind, type RefusalParams } from '../../api/errors.js';

/**
 * An answer before it becomes a transport's response: the fetch adapter turns it into a `Response`, the node
 * server writes it straight to the socket (building a fetch Response costs more than many engine calls).
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** Headers sent with every answer: REST clients call the service from web pages of any origin. */
const COMMON = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' } as const;

/** A JSON reply with the given HTTP status. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { ...COMMON, 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/**
 * The refusal `kind` of the error table (see `REFUSALS`) as a reply: its HTTP status, headers and body.
 * @param osrm true when the endpoint answers in OSRM's shape (trip)
 */
export function errorReply<K extends RefusalKind>(kind: K, params: RefusalParams<K>, osrm = false): Reply {
  const r = refusal(kind, params, osrm);
  return json(r.http, r.body, r.headers);
}

/**
 * An engine answer already turned into JSON (text, or its UTF-8 bytes), with the HTTP status of its body (see
 * `httpStatusOfBody`). Engines running in worker threads answer this way, so the serving thread neither clones,
 * stringifies nor encodes the body.
 */
export class SerializedBody {
  constructor(
    readonly json: string | Uint8Array,
    readonly status: number,
  ) {}
}

/** A reply carrying pre-serialised JSON. */
export function serializedJson(body: SerializedBody): Reply {
  return {
    status: body.status,
    headers: { ...COMMON, 'content-type': 'application/json; charset=utf-8' },
    body: body.json,
  };
}

/** Methods every route answers (HEAD as GET without the body; OPTIONS as a CORS preflight). */
const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/**
 * The answer to an OPTIONS request (a browser's CORS preflight) on a route: 204 allowing the origins every answer
 * allows (`COMMON`), the methods, and the request headers the browser asked for; browsers may keep it 10 minutes.
 */
export function preflight(requestHeaders: string | null): Reply {
  const headers: Record<string, string> = {
    ...COMMON,
    allow: ALLOWED_METHODS,
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-max-age': '600',
  };
  if (requestHeaders) headers['access-control-allow-headers'] = requestHeaders;
  return { status: 204, headers, body: '' };
}

/** A PNG image reply. */
export function png(bytes: Uint8Array): Reply {
  return { status: 200, headers: { ...COMMON, 'content-type': 'image/png' }, body: bytes };
}

/** A fetch `Response` of a reply. */
export function toFetchResponse(reply: Reply): Response {
  // Engine PNGs live in ordinary ArrayBuffers, never SharedArrayBuffers.
  // A 204 or 304 must have no body at all, not an empty one (the Response constructor refuses it).
  const body = reply.status === 204 || reply.status === 304 ? null : reply.body;
  return new Response(body as string | Uint8Array<ArrayBuffer> | null, {
    status: reply.status,
    headers: reply.headers,
  });
}

/** A reply of a fetch `Response` (from a web-map resource route). */
export async function fromFetchResponse(res: Response): Promise<Reply> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  return { status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
}
