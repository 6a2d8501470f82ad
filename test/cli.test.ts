import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import type { ApiKey } from '../src/adapters/http/keys.js';
import { METHOD_NAMES, type EngineApi } from '../src/adapters/http/routes.js';
import { FileUsageStore } from '../src/adapters/http/usage-file.js';
import { threadCount } from '../src/adapters/cli/serve.js';
import { existsSync } from 'node:fs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = join(ROOT, 'bin/bando.ts');
const dir = mkdtempSync(join(tmpdir(), 'bando-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const engine: EngineApi = await createEngine();

/** Runs the CLI from source (cwd: the repository, so tsx resolves). */
function bando(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';

describe('endpoint sub-commands', () => {
  it('bando direction prints the engine answer; bad input exits 1 with the error body', async () => {
    const r = bando('direction', `origin=${A}`, `destination=${B}`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(
      JSON.parse(JSON.stringify(await engine.direction!({ origin: A, destination: B }))),
    );
    const bad = bando('direction', 'origin=x', `destination=${B}`);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({ status: 'BAD_REQUEST' });
  });

  it('bando geocode takes placeid as place_id', async () => {
    const g = (await engine.geocode!({ address: 'Hàng Bài, Hoàn Kiếm' })) as { results: { place_id: string }[] };
    const id = g.results[0]!.place_id;
    const r = bando('geocode', `placeid=${id}`);
    expect(JSON.parse(r.out)).toEqual(JSON.parse(JSON.stringify(await engine.geocode!({ place_id: id }))));
  });

  it('bando staticmap writes the PNG to --out', async () => {
    const out = join(dir, 'route.png');
    const r = bando('staticmap', `origin=${A}`, `destination=${B}`, '--out', out);
    expect(r.code).toBe(0);
    const want = (await engine.staticRoute!({ origin: A, destination: B })) as Uint8Array;
    expect(readFileSync(out).equals(Buffer.from(want))).toBe(true);
  });
});

describe('help, version, flags and query values', () => {
  it('--help and -h print the usage of every sub-command and never act (the keys file stays unchanged)', () => {
    const keys = join(dir, 'help-keys.json');
    for (const argv of [
      ['keys', 'create', '--keys', keys, '--help'],
      ['keys', 'create', '-h', '--keys', keys],
      ['keys', 'delete', 'k', '--help', '--keys', keys],
    ]) {
      const r = bando(...argv);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^bando keys create/);
      expect(existsSync(keys)).toBe(false);
    }
    for (const [command, usage] of [
      ['serve', /^bando serve /],
      ['direction', /^bando direction name=value/],
      ['stats', /^bando stats /],
      ['info', /^bando info /],
      ['build-pack', /^bando build-pack /],
    ] as const) {
      const r = bando(command, '--help');
      expect([r.code, r.err]).toEqual([0, '']);
      expect(r.out).toMatch(usage);
      expect(bando('help', command).out).toBe(r.out);
    }
  });

  it('--version prints the package version', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(bando('--version').out).toBe(`bando ${pkg.version}\n`);
  });

  it('an unknown flag, a flag without its value or a switch set to neither true nor false is refused with the usage, before acting', () => {
    const keys = join(dir, 'flag-keys.json');
    const r = bando('keys', 'create', '--keys', keys, '--knd', 'tiles');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^bando keys: unknown flag --knd\nbando keys create/);
    expect(existsSync(keys)).toBe(false);
    expect(bando('direction', `origin=${A}`, '--pack').err).toMatch(/--pack needs a value/);
    const ahead = bando('serve', '--keys', keys, '--work-ahead=no');
    expect(ahead.code).toBe(2);
    expect(ahead.err).toMatch(/^bando serve: --work-ahead must be true or false, got "no"\nbando serve/);
  });

  it('parameter values are percent-decoded as in a URL query', async () => {
    const C = '21.0300,105.8500';
    const m = bando('distance-matrix', `origins=${A}`, `destinations=${B}%7C${C}`);
    expect(m.code).toBe(0);
    expect(JSON.parse(m.out)).toEqual(
      JSON.parse(JSON.stringify(await engine.distanceMatrix!({ origins: A, destinations: `${B}|${C}` }))),
    );
    const g = bando('geocode', 'address=H%C3%A0ng+B%C3%A0i%2C+Ho%C3%A0n+Ki%E1%BA%BFm');
    expect(JSON.parse(g.out)).toEqual(
      JSON.parse(JSON.stringify(await engine.geocode!({ address: 'Hàng Bài, Hoàn Kiếm' }))),
    );
    // A % that starts no escape stays as typed, and the endpoint names the parameter.
    const bad = bando('direction', 'origin=21%,105', `destination=${B}`);
    expect(JSON.parse(bad.out)).toMatchObject({
      status: 'BAD_REQUEST',
      error_message: expect.stringContaining('origin'),
    });
  });

  it('a keys or usage file named on the command line must exist', () => {
    const list = bando('keys', 'list', '--keys', join(dir, 'none.json'));
    expect([list.code, list.err]).toEqual([1, expect.stringMatching(/none\.json does not exist/)]);
    const stats = bando('stats', '--usage', join(dir, 'none.usage.json'));
    expect([stats.code, stats.err]).toEqual([1, expect.stringMatching(/none\.usage\.json does not exist/)]);
  });
});

describe('bando keys and stats', () => {
  it('create, list, delete keys in the keys file', () => {
    const keys = join(dir, 'keys.json');
    const a = bando(
      'keys',
      'create',
      '--keys',
      keys,
      '--name',
      'web app',
      '--restrict',
      'https://*.example.com/*',
      '--restrict',
      'http://localhost:*/*',
      '--quota',
      '500',
      '--rate',
      '5',
    );
    expect(a.code).toBe(0);
    const b = bando('keys', 'create', '--keys', keys, '--kind', 'tiles');
    const file = () => (JSON.parse(readFileSync(keys, 'utf8')) as { keys: ApiKey[] }).keys;
    expect(file()).toMatchObject([
      {
        key: a.out.trim(),
        kind: 'rest',
        name: 'web app',
        restrictions: ['https://*.example.com/*', 'http://localhost:*/*'],
        monthlyQuota: 500,
        perSecond: 5,
      },
      { key: b.out.trim(), kind: 'tiles' },
    ]);
    expect(a.out.trim()).toMatch(/^[0-9a-f]{32}$/);
    const list = bando('keys', 'list', '--keys', keys);
    expect(list.out).toContain(
      `${a.out.trim()}  rest  quota=500/month  rate=5/s  https://*.example.com/* http://localhost:*/*  web app`,
    );
    expect(list.out).toContain(`${b.out.trim()}  tiles  quota=1000/month`);
    // Bad options change nothing.
    const kind = bando('keys', 'create', '--keys', keys, '--kind', 'maps');
    expect([kind.code, kind.err]).toEqual([1, expect.stringContaining('--kind must be rest or tiles, got "maps"')]);
    const rate = bando('keys', 'create', '--keys', keys, '--rate', '0');
    expect([rate.code, rate.err]).toEqual([
      1,
      expect.stringContaining('--rate must be a whole number from 1 to 10000, got "0"'),
    ]);
    expect(file()).toHaveLength(2);
    expect(bando('keys', 'delete', a.out.trim(), '--keys', keys).code).toBe(0);
    expect(file().map((k) => k.key)).toEqual([b.out.trim()]);
    const gone = bando('keys', 'delete', 'nope', '--keys', keys);
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/nope is not in/);
  });

  it('stats prints usage per key and period from the usage file', () => {
    const keys = join(dir, 'k2.json');
    const store = FileUsageStore.open(join(dir, 'k2.usage.json'));
    const admit = (key: string, period: string, endpoint: string, token?: string) =>
      store.admit({
        key,
        period,
        endpoint,
        units: 1,
        monthlyQuota: 100,
        nowMs: 0,
        session: token ? { endpoint: 'autocomplete', token } : undefined,
      });
    for (let i = 0; i < 4; i++) admit('alpha', '2025-01', 'direction');
    admit('alpha', '2025-01', 'autocomplete', 'T'); // starts a session: one unit
    admit('alpha', '2025-01', 'autocomplete', 'T'); // inside it: free
    admit('beta', '2025-02', 'trip');
    store.close();
    const text = bando('stats', '--keys', keys);
    expect(text.out).toContain('alpha  2025-01  requests=6  billable=5  autocomplete_sessions=1');
    expect(text.out).toMatch(/ {4}autocomplete +2\n {4}direction +4\n/);
    expect(text.out).toContain('beta  2025-02  requests=1  billable=1  autocomplete_sessions=0');
    const json = JSON.parse(bando('stats', '--keys', keys, '--json', '--period', '2025-02').out);
    expect(json).toEqual([{ key: 'beta', period: '2025-02', billable: 1, sessions: 0, requests: { trip: 1 } }]);
  });
});

describe('bando serve --threads', () => {
  it('takes a count or auto (one per core with two or more cores and a built worker bundle), and refuses the rest', () => {
    expect(threadCount('0')).toBe(0);
    expect(threadCount('3')).toBe(3);
    const built = existsSync(join(ROOT, 'dist/worker.js'));
    expect(threadCount('auto')).toBe(built && availableParallelism() >= 2 ? availableParallelism() : 0);
    for (const bad of ['-1', '1.5', 'many', '', '65']) expect(() => threadCount(bad)).toThrow(/--threads/);
  });
});

describe('bando serve --limit', () => {
  it('refuses a limit that is not NAME=N, unknown or out of range, naming it, before serving', () => {
    for (const [arg, message] of [
      ['destinations', /NAME=N/],
      ['nope=3', /unknown limit "nope"/],
      ['matrixSide=501', /matrixSide must be an integer from 1 to 500/],
    ] as const) {
      const r = bando('serve', '--dev', '--port', '0', '--threads', '0', '--limit', arg);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(message);
    }
  });
});

describe('bando serve --dev', () => {
  it('makes a dev key and prints example URLs that work', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'serve', '--dev', '--port', '0', '--keys', join(dir, 'absent.json')],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Stop with Ctrl+C')) resolve();
      });
      child.on('exit', (c) => reject(new Error(`serve exited ${c}`)));
    });
    const urls = out
      .split('\n')
      .filter((l) => l.startsWith('  http'))
      .map((l) => l.trim());
    // One example per endpoint.
    expect(urls.length).toBe(METHOD_NAMES.length);
    for (const u of urls) {
      const res = await fetch(u);
      expect(res.status, u).toBe(200);
      if (res.headers.get('content-type')?.startsWith('application/json'))
        expect(['OK', 'Ok']).toContain(((await res.json()) as { status?: string; code?: string }).status ?? 'Ok');
    }
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  });
});
