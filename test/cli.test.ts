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
import { ENDPOINT_PARAMS } from '../src/api/param-table.js';
import { HAS_OPENSSL, selfSignedCert } from './helpers/tls.js';
import { existsSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';

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
    expect(r.err).toMatch(/^bando keys: unknown flag --knd \(did you mean --kind\?\)\nbando keys create/);
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

  it('each endpoint --help lists every parameter of the table with its type, default and an example', () => {
    for (const [command, method] of [
      ['direction', 'direction'],
      ['autocomplete', 'autocomplete'],
      ['staticmap', 'staticRoute'],
    ] as const) {
      const help = bando(command, '--help').out;
      const lines = help.split('\n');
      for (const row of ENDPOINT_PARAMS[method]) {
        const line = lines.find((l) => l.startsWith(`  ${row.name} `) || l.startsWith(`  ${row.name}  `));
        expect(line, `${command} ${row.name}`).toBeDefined();
        expect(line).toContain(row.type);
        expect(line).toContain(row.need ?? (row.default === undefined ? 'optional' : `default ${row.default}`));
        expect(line).toContain(`e.g. ${row.name}=${row.example}`);
      }
      // The example call it prints works.
      const call = /^ {2}Example: bando (.*)$/m.exec(help)![1]!;
      const words = call.match(/'[^']*'|\S+/g)!.map((w) => w.replace(/'/g, ''));
      if (command !== 'staticmap') expect(bando(...words).code, call).toBe(0);
    }
  });

  it('did you mean: commands, flags and parameters; an unknown parameter is BAD_REQUEST naming it', () => {
    const cmd = bando('direciton', `origin=${A}`);
    expect([cmd.code, cmd.err.split('\n')[0]]).toEqual([2, 'unknown command "direciton" (did you mean direction?)']);
    expect(bando('serve', '--prot', '80').err).toMatch(/^bando serve: unknown flag --prot \(did you mean --port\?\)/);
    const param = bando('direction', `origin=${A}`, `destinaton=${B}`);
    expect(param.code).toBe(1);
    expect(JSON.parse(param.out)).toEqual({
      status: 'BAD_REQUEST',
      error_message:
        'unknown parameter "destinaton" (did you mean destination?); direction takes origin, destination, alternatives, vehicle, avoid',
    });
  });

  it('a pasted query string or a whole URL gives its parameters (its api_key ignored)', async () => {
    const want = JSON.parse(JSON.stringify(await engine.direction!({ origin: A, destination: B })));
    for (const word of [
      `origin=${A}&destination=${B}`,
      `https://maps.example.com/Direction?origin=${A}&destination=${B}&api_key=abc#top`,
      `/Direction?origin=${A}&destination=${B}`,
    ]) {
      const r = bando('direction', word);
      expect([r.code, word]).toEqual([0, word]);
      expect(JSON.parse(r.out)).toEqual(want);
    }
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
  it('takes a count or auto (one per core but one with two or more cores and a built worker bundle), and refuses the rest', () => {
    expect(threadCount('0')).toBe(0);
    expect(threadCount('3')).toBe(3);
    const built = existsSync(join(ROOT, 'dist/worker.js'));
    expect(threadCount('auto')).toBe(built && availableParallelism() >= 2 ? availableParallelism() - 1 : 0);
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

/** Starts `bando serve ARGS` from source; resolves with the child and its output once it is serving. */
async function serving(...args: string[]): Promise<{ child: ReturnType<typeof spawn>; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Stop with Ctrl+C')) resolve();
    });
    child.on('exit', (c) => reject(new Error(`serve exited ${c}: ${err}`)));
  });
  return { child, out };
}

/** Stops a server started by {@link serving}. */
async function stop(child: ReturnType<typeof spawn>): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
}

describe('bando serve --dev', () => {
  it('dev keys are kept beside the keys file, printed, and the same after a restart', async () => {
    const keysPath = join(dir, 'restart.json');
    const devLine = (out: string) => out.split('\n').find((l) => l.startsWith('Dev keys'));
    const first = await serving('--dev', '--port', '0', '--threads', '0', '--keys', keysPath);
    await stop(first.child);
    const second = await serving('--dev', '--port', '0', '--threads', '0', '--keys', keysPath);
    await stop(second.child);
    const stored = JSON.parse(readFileSync(join(dir, 'restart.dev.json'), 'utf8')) as { keys: ApiKey[] };
    const [rest, tiles] = stored.keys.map((k) => k.key);
    expect(devLine(first.out)).toBe(
      `Dev keys (kept in ${join(dir, 'restart.dev.json')} across restarts): rest ${rest}, tiles ${tiles}`,
    );
    expect(devLine(second.out)).toBe(devLine(first.out));
    expect(existsSync(keysPath)).toBe(false);
  });

  it('makes a dev key and prints example URLs that work', async () => {
    const { child, out } = await serving('--dev', '--port', '0', '--keys', join(dir, 'absent.json'));
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
    await stop(child);
  });
});

describe('bando serve ports', () => {
  it('a port in use is named with the flag and variable that choose another', async () => {
    const busy = createNetServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = String((busy.address() as AddressInfo).port);
    try {
      const r = bando('serve', '--dev', '--port', port, '--threads', '0', '--keys', join(dir, 'absent.json'));
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        `bando: port ${port} on 127.0.0.1 is already in use by another program; choose another with --port N (or the PORT environment variable)`,
      );
    } finally {
      busy.close();
    }
    const alone = bando('serve', '--http-port', '0', '--keys', join(dir, 'absent.json'));
    expect([alone.code, alone.err]).toEqual([1, expect.stringContaining('--http-port needs --cert and --key')]);
  });

  it.skipIf(!HAS_OPENSSL)(
    '--cert/--key with --http-port: plain HTTP gets HTTPS_REQUIRED (400), HTTPS is served',
    async () => {
      const { cert, key } = selfSignedCert(dir);
      const keys = join(dir, 'tls-keys.json');
      const apiKey = bando('keys', 'create', '--keys', keys).out.trim();
      const { child, out } = await serving(
        ...['--cert', cert, '--key', key, '--http-port', '0', '--port', '0', '--threads', '0', '--keys', keys],
      );
      try {
        const https = /serving on (https:\/\/\S+)/.exec(out)![1]!;
        const plain = /plain HTTP on (http:\/\/\S+) answers HTTPS_REQUIRED/.exec(out)![1]!;
        const query = `/Direction?origin=${A}&destination=${B}&api_key=${apiKey}`;
        const refused = await fetch(plain + query);
        expect(refused.status).toBe(400);
        expect(await refused.json()).toEqual({ status: 'HTTPS_REQUIRED', error_message: 'Requests must use HTTPS.' });
        const answered = await new Promise<[number, string]>((resolve, reject) => {
          httpsGet(https + query, { rejectUnauthorized: false }, (res) => {
            let b = '';
            res.on('data', (d) => (b += d));
            res.on('end', () => resolve([res.statusCode!, b]));
          }).on('error', reject);
        });
        expect(answered[0]).toBe(200);
        expect(JSON.parse(answered[1])).toEqual(
          JSON.parse(JSON.stringify(await engine.direction!({ origin: A, destination: B }))),
        );
      } finally {
        await stop(child);
      }
    },
  );
});
