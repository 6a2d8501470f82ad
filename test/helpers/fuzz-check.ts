/**
 * The checks of the fuzzing suite (issue 18 item 3), shared by test/fuzz-rest.test.ts and bench/fuzz.ts: one call
 * of the REST handler measured in CPU time, and whether its answer keeps the documented shape.
 */
import { BODY_STATUSES } from '../../src/api/statuses.js';
import type { RestHandler } from '../../src/adapters/http/handler.js';
import type { Reply } from '../../src/adapters/http/responses.js';
import type { MethodName } from '../../src/adapters/http/routes.js';
import type { FuzzRequest } from './fuzz-inputs.js';

/** The field an OK body of each endpoint carries (rest-api.md, Resources). */
const OK_FIELD: Readonly<Record<MethodName, string>> = {
  geocode: 'results',
  direction: 'routes',
  distanceMatrix: 'rows',
  autocomplete: 'predictions',
  placeDetail: 'result',
  trip: 'trips',
  staticRoute: '',
};
const PNG = [0x89, 0x50, 0x4e, 0x47];

/**
 * Calls the handler with a GET of the request and measures the call's CPU time (user + system of this process, in
 * milliseconds; the handler's work runs in this thread, so awaiting adds only this call's work).
 */
export async function answer(handler: RestHandler, req: FuzzRequest): Promise<{ reply: Reply; cpuMs: number }> {
  const start = process.cpuUsage();
  const reply = await handler(
    { method: 'GET', url: `https://127.0.0.1${req.target}`, header: () => null },
    { remoteAddress: '127.0.0.1' },
  );
  const used = process.cpuUsage(start);
  return { reply, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * Why an answer breaks the documented shape, or null when it keeps it: a PNG for a 200 static map; otherwise a JSON
 * body whose `status` (or trip's `code`) is one of the body statuses with the HTTP status that table gives it
 * (src/api/statuses.ts), an OK body holding the endpoint's field, a BAD_REQUEST with an `error_message`; or the
 * handler's own 414 for a URL over the limit. A 500 or an ERROR status is a failure: bad input is never a server error.
 */
export function checkReply(method: MethodName, reply: Reply): string | null {
  // A static map is a PNG with HTTP 200; its NOT_FOUND and ZERO_RESULTS are JSON bodies, also with 200 (statuses.ts).
  const b = reply.body;
  if (method === 'staticRoute' && typeof b !== 'string' && PNG.every((v, i) => b[i] === v))
    return reply.status === 200 ? null : `a PNG with HTTP ${reply.status}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body)) as Record<
      string,
      unknown
    >;
  } catch {
    return `HTTP ${reply.status} with a body that is not JSON`;
  }
  const status = String(body.status ?? body.code);
  if (reply.status === 414 && status === 'URI_TOO_LONG') return null;
  if (!Object.hasOwn(BODY_STATUSES, status))
    return `HTTP ${reply.status} with status ${status}: ${JSON.stringify(body).slice(0, 200)}`;
  const http = BODY_STATUSES[status as keyof typeof BODY_STATUSES];
  if (http === 500 || reply.status !== http)
    return `HTTP ${reply.status} with status ${status}: ${JSON.stringify(body).slice(0, 200)}`;
  if (method === 'staticRoute' && status === 'OK') return 'an OK static map that is not a PNG';
  if ((status === 'OK' || status === 'Ok') && body[OK_FIELD[method]] === undefined)
    return `an OK body without ${OK_FIELD[method]}`;
  if (status === 'BAD_REQUEST' && typeof (body.error_message ?? body.message) !== 'string')
    return 'a BAD_REQUEST without error_message (trip: message)';
  return null;
}
