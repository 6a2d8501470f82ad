/**
 * Part of the long fuzzing run (bench/fuzz.ts, issue 39 item 9): random key names, the names of Object.prototype
 * among them, and random session tokens, through the REST handler `bando serve` runs. Each run reports what broke
 * (server errors, counts merged across keys, invalid tokens billed) and the time per request.
 */
import fc from 'fast-check';
import { createRestHandler, type RestHandler } from '../src/adapters/http/handler.js';
import { keyTextProblem } from '../src/adapters/http/keys.js';
import type { EngineApi } from '../src/adapters/http/routes.js';
import { MemoryUsageStore } from '../src/adapters/http/usage.js';
import { tokenParam } from '../src/api/place-params.js';
import { isParamError } from '../src/api/coords.js';
import { keyNames } from '../test/helpers/key-names.js';
import { quantile } from './stats.js';

/** One GET through the handler: its HTTP status and wall time (ms). */
async function timed(handler: RestHandler, target: string): Promise<{ status: number; ms: number }> {
  const t = performance.now();
  const reply = await handler(
    { method: 'GET', url: `https://127.0.0.1${target}`, header: () => null },
    { remoteAddress: '127.0.0.1' },
  );
  return { status: reply.status, ms: performance.now() - t };
}

/** The billable units of `key` in the store's report (all periods), 0 when it has none. */
async function billable(usage: MemoryUsageStore, key: string): Promise<number> {
  const periods = (await usage.report())[key] ?? {};
  return Object.values(periods).reduce((sum, p) => sum + p.billable, 0);
}

/**
 * `n` random key names (every Object.prototype name first), each with a quota of 1–3 and one call more than its
 * quota: the last must be 429 and the others 200, whatever the other keys did, and each key's count must be its own.
 */
export async function fuzzKeyNames(
  engine: EngineApi,
  n: number,
  seed: number,
): Promise<Record<string, string | number>> {
  const names = keyNames(n, seed).filter((k) => keyTextProblem(k) === null);
  const quota = (i: number) => 1 + (i % 3);
  const usage = new MemoryUsageStore();
  const handler = createRestHandler(engine, {
    keys: names.map((key, i) => ({ key, monthlyQuota: quota(i) })),
    usage,
  });
  const times: number[] = [];
  let serverErrors = 0;
  let wrongStatus = 0;
  for (let i = 0; i < names.length; i++)
    for (let c = 0; c <= quota(i); c++) {
      const r = await timed(handler, `/Geocode?latlng=21.0285,105.8522&api_key=${encodeURIComponent(names[i]!)}`);
      times.push(r.ms);
      if (r.status >= 500) serverErrors++;
      if (r.status !== (c < quota(i) ? 200 : 429)) wrongStatus++;
    }
  const report = await usage.report();
  let merged = 0;
  names.forEach((name, i) => {
    const counted = Object.values(report[name] ?? {}).reduce((sum, p) => sum + p.billable, 0);
    if (counted !== quota(i)) merged++;
  });
  merged += Object.keys(report).filter((k) => !names.includes(k)).length;
  return {
    part: `key names (${names.length}, Object.prototype's among them)`,
    requests: times.length,
    server_errors: serverErrors,
    wrong_status: wrongStatus,
    merged_or_lost_counts: merged,
    p50_ms: quantile(times, 0.5),
    p99_ms: quantile(times, 0.99),
    max_ms: quantile(times, 1),
  };
}

/**
 * `n` random session tokens (any text up to 300 characters: control characters, long ones, Object.prototype names),
 * each used for 1–4 autocompletes and a place detail, then once more: an invalid token must get 400 and bill nothing,
 * a valid one never a server error.
 */
export async function fuzzSessionTokens(
  engine: EngineApi,
  n: number,
  seed: number,
): Promise<Record<string, string | number>> {
  const usage = new MemoryUsageStore();
  const handler = createRestHandler(engine, { keys: [{ key: 'k', monthlyQuota: 1e9 }], usage });
  const tokens = [
    ...Object.getOwnPropertyNames(Object.prototype),
    ...fc.sample(
      fc.oneof(
        fc.string({ maxLength: 300, unit: 'binary' }),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 20, unit: fc.constantFrom('a', 'é', '\u0000', '\u001f', '\n', '\t', '\u007f') }),
        fc.string({ minLength: 257, maxLength: 300 }),
      ),
      {
        seed,
        numRuns: n,
      },
    ),
  ];
  const times: number[] = [];
  let serverErrors = 0;
  let invalidBilled = 0;
  let invalidAnswered = 0;
  let invalid = 0;
  for (const [i, token] of tokens.entries()) {
    const bad = isParamError(tokenParam('sessiontoken', token));
    if (bad) invalid++;
    const t = encodeURIComponent(token);
    const before = bad ? await billable(usage, 'k') : 0;
    const calls = [
      ...['Ho', 'Hoà', 'Hoàn', 'Hoàn K']
        .slice(0, 1 + (i % 4))
        .map((input) => `/Place/AutoComplete?input=${encodeURIComponent(input)}&sessiontoken=${t}&api_key=k`),
      `/Place/Detail?place_id=no-such-place&sessiontoken=${t}&api_key=k`,
      `/Place/AutoComplete?input=Ho&sessiontoken=${t}&api_key=k`,
    ];
    for (const target of calls) {
      const r = await timed(handler, target);
      times.push(r.ms);
      if (r.status >= 500) serverErrors++;
      if (bad && r.status !== 400) invalidAnswered++;
    }
    if (bad && (await billable(usage, 'k')) !== before) invalidBilled++;
  }
  return {
    part: `session tokens (${tokens.length}, ${invalid} invalid)`,
    requests: times.length,
    server_errors: serverErrors,
    invalid_not_400: invalidAnswered,
    invalid_billed: invalidBilled,
    p50_ms: quantile(times, 0.5),
    p99_ms: quantile(times, 0.99),
    max_ms: quantile(times, 1),
  };
}
