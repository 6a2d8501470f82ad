/**
 * Every status an engine answer's body can carry (`status` in the Google-shaped endpoints, `code` in the OSRM-shaped
 * trip, whose failures carry the same words and keep OSRM's code in `osrm_code`, trip-codes.ts), with the HTTP status
 * that accompanies it. The one table every surface reads (the HTTP handler, the worker
 * threads, the CLI's exit code); response types name their statuses through {@link BodyStatus}, so a status that is
 * not here does not compile.
 *
 * rest-api.md leaves the HTTP status open. Chosen so that clients written for the online service, which read the
 * body, keep working, while HTTP-level tools still see failures: answers and "nothing found" outcomes are 200 (the
 * request was valid), invalid input 400, failures of the engine 500.
 */
export const BODY_STATUSES = {
  OK: 200,
  Ok: 200,
  NOT_FOUND: 200,
  ZERO_RESULTS: 200,
  BAD_REQUEST: 400,
  ERROR: 500,
} as const satisfies Record<string, 200 | 400 | 500>;

/** A body status of the table. */
type BodyStatus = keyof typeof BODY_STATUSES;

/** The statuses `S` of one response type, each checked against the table. */
export type Statuses<S extends BodyStatus> = S;

/**
 * HTTP status that accompanies an engine's response body: the table's, by the body's `status` (or `code`); 500 for a
 * body without one or with a status the table lacks (never reached by typed answers).
 */
export function httpStatusOfBody(body: unknown): number {
  const s = statusOfBody(body);
  return s !== undefined && Object.hasOwn(BODY_STATUSES, s) ? BODY_STATUSES[s as BodyStatus] : 500;
}

/**
 * Whether a body says its call found what it asked for (`OK`; a distance matrix, some element `OK`): only then has
 * the call surely run through, building whatever its method builds on first use (a vehicle's routing metric). A
 * NOT_FOUND or ZERO_RESULTS may be answered before that (an endpoint that snaps to no road is refused before any
 * metric is customized), and so may a matrix `OK` whose every element is NOT_FOUND.
 */
export function bodyFound(body: unknown): boolean {
  const s = statusOfBody(body);
  if (s !== 'OK' && s !== 'Ok') return false;
  const rows = (body as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) return true;
  return rows.some(
    (r: { elements?: unknown }) => Array.isArray(r?.elements) && r.elements.some((e) => statusOfBody(e) === 'OK'),
  );
}

/** A body's `status` (or `code`), when it is a string. */
function statusOfBody(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { status?: unknown; code?: unknown };
  return typeof b.status === 'string' ? b.status : typeof b.code === 'string' ? b.code : undefined;
}
