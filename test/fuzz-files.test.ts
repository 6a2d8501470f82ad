/**
 * Fuzzing the files `bando serve` reads at start (issue 18 item 3): the keys file and the usage file, through their
 * public load paths (`readKeysFile`, `FileUsageStore.open`). Mutated real files, random JSON and hostile text are
 * either loaded into something that then works (a key check, a count) or refused with an Error naming the file —
 * never a raw TypeError/RangeError, and within a generous CPU bound.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readKeysFile } from '../src/adapters/http/keys-file.js';
import { matchesRestrictions, normalizeKeys } from '../src/adapters/http/keys.js';
import { FileUsageStore } from '../src/adapters/http/usage-file.js';
import { cpuMs } from './helpers/cpu.js';

const dir = mkdtempSync(join(tmpdir(), 'bando-fuzz-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Generous CPU bound for loading one file of at most a few hundred kilobytes. */
const BOUND_MS = 2000;

const KEYS = JSON.stringify({
  keys: [
    {
      key: 'k1',
      name: 'web',
      restrictions: ['https://*.example.com/*', 'http://localhost:*'],
      monthlyQuota: 1000,
      perSecond: 10,
    },
    { key: 't1', kind: 'tiles', restrictions: ['*.example.org'] },
  ],
});
const USAGE = JSON.stringify({
  version: 1,
  usage: { k1: { '2026-11': { requests: { direction: 3, geocode: 1 }, sessions: 1, billable: 4 } } },
});

/** Text derived from a valid file: characters replaced, inserted or deleted, the file cut short, or nothing at all. */
function mutated(valid: string): fc.Arbitrary<string> {
  const edit = fc.tuple(
    fc.nat(valid.length),
    fc.constantFrom('"', '{', '}', '[', ']', ',', ':', '\\', '0', '-', 'e', 'n', '*', '\u0000', '\u0301', 'é', ''),
    fc.boolean(),
  );
  return fc.oneof(
    fc.array(edit, { minLength: 1, maxLength: 6 }).map((edits) => {
      let s = valid;
      for (const [at, c, replace] of edits) s = s.slice(0, at) + c + s.slice(at + (replace ? 1 : 0));
      return s;
    }),
    fc.nat(valid.length).map((n) => valid.slice(0, n)),
  );
}

/** Any JSON document, or documents shaped like the file with odd values in its places. */
const anyJson = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ keys: [v] })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ keys: [{ key: 'k', restrictions: v }] })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ version: 1, usage: { k: v } })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ version: 1, usage: { k: { '2026-11': v } } })),
  fc
    .jsonValue({ maxDepth: 2 })
    .map((v) => JSON.stringify({ version: 1, usage: { k: { '2026-11': { requests: v, sessions: 0, billable: 0 } } } })),
);

/** Hostile text: deep nesting, long runs, huge numbers. */
const hostile = fc.oneof(
  fc.integer({ min: 1, max: 100_000 }).map((n) => '['.repeat(n)),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `{"keys":[{"key":"k","restrictions":["${'*'.repeat(n)}x"]}]}`),
  fc
    .integer({ min: 1, max: 5_000 })
    .map((n) => `{"keys":[{"key":"k","restrictions":["${'*.'.repeat(n)}example.com"]}]}`),
  fc.constantFrom(
    '',
    'null',
    '0',
    '"x"',
    '[]',
    '{}',
    '1e999',
    '{"version":1,"usage":null}',
    '{"version":1e999}',
    '\uFEFF{}',
  ),
);

/** Loads a file; resolves with what happened. A thrown value must be an Error naming the file. */
function load<T>(text: string, what: string, read: (path: string) => T): { ok: T } | { error: Error } {
  const path = join(dir, `${what}.json`);
  writeFileSync(path, text);
  try {
    return { ok: read(path) };
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(Error);
    expect((err as Error).constructor, String(err)).toBe(Error);
    expect((err as Error).message.startsWith(`${what} file ${path}`), (err as Error).message).toBe(true);
    return { error: err as Error };
  }
}

describe('file fuzzing (fixed seeds)', () => {
  it('keys file: loaded keys work, anything else is refused naming the file', () => {
    fc.assert(
      fc.property(fc.oneof(mutated(KEYS), anyJson, hostile), (text) => {
        let result: ReturnType<typeof load<ReturnType<typeof readKeysFile>>> | undefined;
        expect(cpuMs(() => (result = load(text, 'keys', readKeysFile)))).toBeLessThan(BOUND_MS);
        if (result && 'ok' in result) {
          // What loads must serve: each key's restrictions check a Referer without throwing.
          for (const k of normalizeKeys(result.ok))
            expect(typeof matchesRestrictions(k.restrictions, 'https://a.example.com/x')).toBe('boolean');
        }
      }),
      { seed: 18, numRuns: 400 },
    );
  });

  it('usage file: loaded usage counts on, anything else is refused naming the file', () => {
    fc.assert(
      fc.property(fc.oneof(mutated(USAGE), anyJson, hostile), (text) => {
        let result: ReturnType<typeof load<FileUsageStore>> | undefined;
        expect(cpuMs(() => (result = load(text, 'usage', (p) => FileUsageStore.open(p))))).toBeLessThan(BOUND_MS);
        if (result && 'ok' in result) {
          const store = result.ok;
          const before = store.billable('k', '2026-11');
          const admitted = store.admit({
            key: 'k',
            period: '2026-11',
            endpoint: 'direction',
            units: 1,
            monthlyQuota: Number.MAX_SAFE_INTEGER,
            nowMs: Date.UTC(2026, 10, 1),
          });
          expect(admitted).toBe('ok');
          expect(store.billable('k', '2026-11')).toBe(before + 1);
          expect(typeof JSON.stringify(store.report())).toBe('string');
          store.close?.();
        }
      }),
      { seed: 18, numRuns: 400 },
    );
  });
});
