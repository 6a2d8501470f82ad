import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isParamError, parseBool } from '../src/api/coords.js';
import { parseStaticRouteParams } from '../src/api/static-route.js';
import { parseArgs } from '../src/adapters/cli/args.js';
import { keysCommand } from '../src/adapters/cli/keys.js';
import { connectionCapProblem } from '../src/adapters/http/connections.js';
import { callCost } from '../src/adapters/http/cost.js';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { normalizeKeys } from '../src/adapters/http/keys.js';
import { FileUsageStore } from '../src/adapters/http/usage-file.js';
import { createEngine } from '../src/engine.js';
import { loadPack } from '../src/pack/load.js';

// Issue 39 item 5: numbers from files and flags checked against their documented ranges when read; pack paths must
// be regular files; the cost estimate reads parameters with the engine's own parser.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bando-validation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('key numbers', () => {
  it('perSecond and monthlyQuota out of range are refused naming the entry and the range', () => {
    expect(() => normalizeKeys([{ key: 'a', perSecond: 100_000_000 }])).toThrow(
      /keys\[0\]\.perSecond must be a whole number from 1 to 10000/,
    );
    expect(() => normalizeKeys([{ key: 'a', monthlyQuota: -1 }])).toThrow(/keys\[0\]\.monthlyQuota must be a whole/);
    expect(() => normalizeKeys([{ key: 'a', monthlyQuota: 1e13 }])).toThrow(/from 0 to 1000000000000/);
    expect(normalizeKeys([{ key: 'a', perSecond: 10_000, monthlyQuota: 1e12 }])[0]!.perSecond).toBe(10_000);
  });

  it('keys create --rate 100000000 is refused and writes nothing', async () => {
    const file = join(dir, 'rate.json');
    for (const [flag, value] of [
      ['--rate', '100000000'],
      ['--rate', '10001'],
      ['--quota', '99999999999999999999'],
    ])
      await expect(
        keysCommand.run(parseArgs(['create', '--keys', file, flag!, value!], keysCommand.flags)),
      ).rejects.toThrow(new RegExp(`${flag} must be a whole number from \\d+ to \\d+, got "${value}"`));
    expect(spawnSync('ls', [file]).status).not.toBe(0);
  });
});

describe('usage file and journal numbers', () => {
  const open = (name: string, usage: string | null, journal: string) => {
    const path = join(dir, `${name}.usage.json`);
    if (usage !== null) writeFileSync(path, usage);
    writeFileSync(`${path}.journal`, journal);
    return () => FileUsageStore.open(path);
  };
  const line = (seq: number, billable: number) => JSON.stringify([seq, 'k', '2026-11', 'direction', billable, 0]);

  it('a negative count in a journal line is refused naming the line, at the end of the file too', () => {
    expect(open('neg-mid', null, `${line(1, 1)}\n${line(2, -100)}\n${line(3, 1)}\n`)).toThrow(
      /journal .* line 2: billable must be a whole number of at least 0/,
    );
    expect(open('neg-last', null, `${line(1, 1)}\n${line(2, -100)}`)).toThrow(/line 2: billable/);
    expect(open('seq', null, `${line(-5, 1)}\n`)).toThrow(/line 1: seq must be a whole number of at least 1/);
    // A torn last line (the process died while writing it) is still skipped.
    const store = open('torn', null, `${line(1, 1)}\n[2,"k","20`)();
    expect(store.report().k!['2026-11']!.billable).toBe(1);
    store.close();
  });

  it('negative, fractional or huge counts and a negative seq in the usage file are refused', () => {
    const doc = (u: object, seq = 0) => JSON.stringify({ version: 2, seq, usage: { k: { '2026-11': u } } });
    const u = { requests: { direction: 1 }, sessions: 0, billable: 1 };
    for (const bad of [
      { ...u, billable: -100 },
      { ...u, billable: 1.5 },
      { ...u, sessions: 1e300 },
      { ...u, requests: { direction: -1 } },
    ])
      expect(open(`bad-${JSON.stringify(bad).length}-${Math.random()}`, doc(bad), '')).toThrow(/is malformed/);
    expect(open('negseq', doc(u, -1), '')).toThrow(/seq must be a whole number of at least 0/);
  });
});

describe('--max-connections and the open-file limit', () => {
  it('a cap above the open-file limit (less 64) is refused before anything is loaded', () => {
    expect(connectionCapProblem(300, 256)).toMatch(/open-file limit \(256\) less 64 .* allows \(192\)/);
    expect(connectionCapProblem(192, 256)).toBeNull();
    const keys = join(dir, 'serve-keys.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ key: 'k' }] }));
    const cli = join(ROOT, 'bin/bando.ts');
    const run = spawnSync(
      'bash',
      [
        '-c',
        'ulimit -n 256 && exec "$0" "$@"',
        process.execPath,
        '--import',
        'tsx',
        cli,
        'serve',
        '--keys',
        keys,
        '--port',
        '0',
        '--max-connections',
        '300',
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/--max-connections 300 is more than this process's open-file limit \(256\)/);
  }, 40_000);
});

describe('pack paths must be regular files', () => {
  it('a FIFO, a device and a directory are refused naming the path, without reading them', async () => {
    const fifo = join(dir, 'pack.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const folder = join(dir, 'pack.dir');
    mkdirSync(folder);
    for (const [path, kind] of [
      [fifo, 'a FIFO'],
      ['/dev/zero', 'a character device'],
      [folder, 'a directory'],
    ] as const) {
      for (const verify of [true, false, 'lazy'] as const)
        await expect(loadPack(path, { verify })).rejects.toThrow(`${path}: is not a regular file (${kind})`);
      await expect(createEngine({ packs: [path] })).rejects.toThrow(path);
    }
  });
});

describe('one parameter parser for costing and answering', () => {
  const A = '21.0285,105.8522';
  const B = '21.0243,105.8575';
  it('alternatives is costed as the engine reads it (alternatives=%20true is 42 units, not 2)', () => {
    for (const value of ['true', ' true', 'TRUE ', '1', ' 1', 'false', ' 0', 'yes', '', 'tru e']) {
      const answered = parseBool(value, 'alternatives') === true;
      const units = callCost('direction', { origin: A, destination: B, alternatives: value }).units;
      expect([value, units]).toEqual([value, answered ? 42 : 2]);
    }
  });

  it('a static map is costed at the size it is drawn (scale=%202 is scale 2, as the static map reads it)', () => {
    for (const scale of ['2', ' 2', '2 ', '1', ' 1 ', '', '3', '2.0', 'x']) {
      const drawn = parseStaticRouteParams({ origin: A, destination: B, width: '900', height: ' 800', scale } as never);
      const k = isParamError(drawn) ? 1 : drawn.scale;
      const units = callCost('staticRoute', { origin: A, destination: B, width: '900', height: ' 800', scale }).units;
      expect([scale, units]).toEqual([scale, 20 + (900 * 800 * k * k) / 15_000]);
    }
  });

  it('--max-cost refuses scale=%202 before any work, as it refuses scale=2', async () => {
    const engine = await createEngine();
    const h = createRestHandler(engine, { keys: [{ key: 'k' }], maxCost: 100 });
    for (const scale of ['2', '%202']) {
      const r = await h({
        method: 'GET',
        url: `https://maps.test/staticmap/route?origin=${A}&destination=${B}&width=900&height=800&scale=${scale}&api_key=k`,
        header: () => null,
      });
      expect(r.status).toBe(400);
      expect(String(JSON.parse(String(r.body)).error_message)).toMatch(/^width makes this request too costly/);
    }
  });

  it('--max-cost refuses alternatives=%20true before any work, naming alternatives', async () => {
    const engine = await createEngine();
    const h = createRestHandler(engine, { keys: [{ key: 'k' }], maxCost: 10 });
    const r = await h({
      method: 'GET',
      url: `https://maps.test/Direction?origin=${A}&destination=${B}&alternatives=%20true&api_key=k`,
      header: () => null,
    });
    expect(r.status).toBe(400);
    expect(String(JSON.parse(String(r.body)).error_message)).toMatch(/^alternatives makes this request too costly/);
  });
});
