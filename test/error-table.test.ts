/**
 * The two status tables (refusals in src/api/errors.ts, engine body statuses in src/api/statuses.ts) cover every
 * status the source writes, and the REST docs list every refusal as the table has it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REFUSALS, refusal, type RefusalKind } from '../src/api/errors.js';
import { BODY_STATUSES, httpStatusOfBody } from '../src/api/statuses.js';
import { TRIP_FAILURES } from '../src/api/trip-codes.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every .ts file under a folder, with its text. */
function sources(dir: string): [string, string][] {
  const out: [string, string][] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push([path, readFileSync(path, 'utf8')]);
  }
  return out;
}

const kinds = Object.keys(REFUSALS) as RefusalKind[];
const refusalStatuses = new Set<string>(kinds.flatMap((k) => [REFUSALS[k].status, ...osrmOf(k)]));
/** OSRM's codes, which trip failures keep in `osrm_code` (the solver's own results use them too). */
const osrmCodes = new Set<string>(Object.keys(TRIP_FAILURES));

function osrmOf(k: RefusalKind): string[] {
  const row = REFUSALS[k] as { osrm?: string };
  return row.osrm ? [row.osrm] : [];
}

describe('error tables', () => {
  it('every status or code the source writes into a body is in one of the two tables', () => {
    const missing: string[] = [];
    for (const [path, text] of sources(join(ROOT, 'src'))) {
      // Body statuses are capitalised (OK, BAD_REQUEST, NoRoute); lower-case `status` values are internal states.
      for (const m of text.matchAll(/\b(?:status|code)\??:\s*'([A-Z][A-Za-z_]*)'/g))
        if (!Object.hasOwn(BODY_STATUSES, m[1]!) && !refusalStatuses.has(m[1]!) && !osrmCodes.has(m[1]!))
          missing.push(`${path.slice(ROOT.length + 1)}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('no surface builds an error body by hand: `error_message` is written only by the API layer', () => {
    const byHand = sources(join(ROOT, 'src/adapters'))
      .filter(([, text]) => /error_message\s*:/.test(text))
      .map(([path]) => path.slice(ROOT.length + 1));
    expect(byHand).toEqual([]);
  });

  it('each refusal gives its row: HTTP status, body status, headers, a filled message', () => {
    const params = {
      reason: 'why',
      method: 'PUT',
      max: 9,
      path: '/x',
      param: 'api_key',
      given: 'tiles',
      needed: 'rest',
      from: null,
      quota: 3,
      period: '2026-01',
      perSecond: 2,
      why: 'down',
      problem: 'no worker',
      parameter: 'waypoints',
      units: 12.2,
      what: 'trip',
      ms: 50,
    };
    for (const kind of kinds) {
      const row = REFUSALS[kind] as { http: number; status: string; headers?: object; osrm?: string };
      const google = refusal(kind, params as never);
      expect(google.http, kind).toBe(row.http);
      expect(google.headers, kind).toEqual(row.headers ?? {});
      expect(Object.keys(google.body), kind).toEqual(['status', 'error_message']);
      const body = google.body as { status: string; error_message: string };
      expect(body.status, kind).toBe(row.status);
      expect(body.error_message, kind).toMatch(/\S/);
      expect(body.error_message, kind).not.toMatch(/undefined|\[object/);
      const osrm = refusal(kind, params as never, true);
      expect(osrm.body, kind).toEqual(
        row.osrm ? { code: row.status, message: body.error_message, osrm_code: row.osrm } : google.body,
      );
    }
    expect(refusal('tooCostly', { parameter: 'width', units: 12.2, max: 5 }).body).toEqual({
      status: 'BAD_REQUEST',
      error_message:
        'width makes this request too costly for this server: an estimated 13 cost units, over its limit of 5.',
    });
  });

  it('each OSRM code maps to a seed status word of the body table, as its refusal row says', () => {
    for (const word of Object.values(TRIP_FAILURES)) expect(Object.hasOwn(BODY_STATUSES, word), word).toBe(true);
    for (const kind of kinds) {
      const row = REFUSALS[kind] as { status: string; osrm?: keyof typeof TRIP_FAILURES };
      if (row.osrm) expect(TRIP_FAILURES[row.osrm], kind).toBe(row.status);
    }
  });

  it('every engine body status has its HTTP status, and an unknown one is 500', () => {
    for (const [status, http] of Object.entries(BODY_STATUSES)) {
      expect(httpStatusOfBody({ status })).toBe(http);
      expect(httpStatusOfBody({ code: status })).toBe(http);
    }
    expect(httpStatusOfBody({ status: 'SOMETHING_NEW' })).toBe(500);
  });

  it('the REST docs list every refusal with its HTTP status and body status, and no other', () => {
    const doc = readFileSync(join(ROOT, 'src/adapters/http/README.md'), 'utf8');
    const rows = new Map<string, string[]>();
    for (const m of doc.matchAll(/^\| `([a-zA-Z]+)` \| (\d{3}) \| `([A-Z_]+)`/gm)) rows.set(m[1]!, [m[2]!, m[3]!]);
    expect([...rows.keys()].sort()).toEqual([...kinds].sort());
    for (const kind of kinds)
      expect(rows.get(kind), kind).toEqual([String(REFUSALS[kind].http), REFUSALS[kind].status]);
  });
});
