/**
 * The package as its users install it: `npm pack`, then `npm install` of the tarball into an empty folder, then one
 * ES module script (`import 'bando'`) and one CommonJS script (`require('bando')`) that call every endpoint. Their
 * answers must be those of the engine built from the sources, and none may be an engine failure.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_BUNDLE } from '../data-tools/browser-bundle.js';
import { createEngine, type Engine } from '../src/engine.js';
import { METHOD_NAMES, type MethodName } from '../src/adapters/http/routes.js';
import { MAPLIBRE_MISSING } from '../src/map/demo-files.js';
import { REDIS_MISSING } from '../src/adapters/http/usage-redis.js';
import { installTarball } from './helpers/tarball.js';
import { withoutTimes } from './helpers/answers.js';

const dir = mkdtempSync(join(tmpdir(), 'bando-tarball-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const A = '21.0285,105.8522';
const B = '21.0243,105.8575';

/** One successful query per endpoint on the default pack (placeDetail's id is filled in from autocomplete). */
const QUERIES: Record<MethodName, Record<string, string>> = {
  geocode: { address: 'Hàng Bài, Hoàn Kiếm' },
  autocomplete: { input: 'Hoàn Kiếm', limit: '3' },
  placeDetail: { place_id: '' },
  direction: { origin: A, destination: B },
  distanceMatrix: { origins: A, destinations: `${B}|21.0277,105.8355` },
  trip: { waypoints: [A, B, '21.0277,105.8355', '21.0310,105.8420'].join(';') },
  staticRoute: { origin: A, destination: B, width: '300', height: '200' },
};
/** Reverse geocoding is the same method with other parameters: it runs too. */
const REVERSE = { latlng: A };

/**
 * The script both module systems run (only its first line differs): every query from argv[2], then every answer as
 * JSON on stdout, a PNG as its length and byte sum.
 */
const BODY = `
const queries = JSON.parse(process.argv[2]);
(async () => {
  const engine = await createEngine();
  const out = [];
  for (const [method, query] of queries) {
    const r = await engine[method](query);
    out.push(r instanceof Uint8Array ? { png: r.length, sum: r.reduce((s, b) => s + b, 0) } : r);
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

/** Run times differ between runs; everything else must be identical. */
const same = withoutTimes;

let engine: Engine;
let queries: [MethodName, Record<string, string>][];

beforeAll(async () => {
  installTarball(dir);
  writeFileSync(join(dir, 'esm.mjs'), `import { createEngine } from 'bando';\n${BODY}`);
  writeFileSync(join(dir, 'cjs.cjs'), `const { createEngine } = require('bando');\n${BODY}`);
  engine = await createEngine();
  const first = engine.autocomplete({ input: 'Hàng Bài' }).predictions[0]!;
  const q = { ...QUERIES, placeDetail: { place_id: first.place_id } };
  queries = [...METHOD_NAMES.map((m): [MethodName, Record<string, string>] => [m, q[m]]), ['geocode', REVERSE]];
});

describe('the packed tarball, installed', () => {
  for (const script of ['esm.mjs', 'cjs.cjs']) {
    it(`${script}: every endpoint answers as the engine built from the sources does`, async () => {
      const out = execFileSync(process.execPath, [script, JSON.stringify(queries)], { cwd: dir, encoding: 'utf8' });
      const answers = JSON.parse(out) as Record<string, unknown>[];
      expect(answers).toHaveLength(queries.length);
      for (const [i, [method, query]] of queries.entries()) {
        const local = await engine[method](query as never);
        const expected =
          local instanceof Uint8Array ? { png: local.length, sum: local.reduce((s, b) => s + b, 0) } : local;
        expect({ method, answer: same(answers[i]) }).toEqual({ method, answer: same(expected) });
        const status = (answers[i]!.status ?? answers[i]!.code ?? 'OK') as string;
        expect({ method, status }).toEqual({ method, status: method === 'trip' ? 'Ok' : 'OK' });
      }
    });
  }

  it('every link of the installed README and docs resolves to a file of the package (or a web address)', () => {
    const pkg = join(dir, 'node_modules/bando');
    const pages = ['README.md', ...readdirSync(join(pkg, 'docs')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      const text = readFileSync(join(pkg, page), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (/^[a-z]+:/.test(target) || target === '') continue;
        links++;
        if (!existsSync(join(pkg, dirname(page), target))) broken.push(`${page}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(5);
  });

  it('only bando/default-pack names the default pack as a bundler asset; in Node it loads as createEngine() does', () => {
    // What Vite, webpack and Parcel emit as an asset: the target of new URL('<literal>', import.meta.url).
    const asset = /new URL\(\s*(["'`])[^"'`]*\.pack\1\s*,\s*import\.meta\.url/;
    const dist = join(dir, 'node_modules/bando/dist');
    for (const file of ['browser.js', 'worker.js', 'index.js', 'index.cjs'])
      expect(asset.test(readFileSync(join(dist, file), 'utf8')), file).toBe(false);
    expect(asset.test(readFileSync(join(dist, 'default-pack.js'), 'utf8'))).toBe(true);
    const script = `import defaultPack from 'bando/default-pack'; import { createEngine } from 'bando';
      const a = await createEngine({ packs: [new URL(defaultPack)] }); const b = await createEngine();
      console.log(JSON.stringify([a.info(), b.info()]));`;
    const [given, builtIn] = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }),
    );
    expect(given).toEqual(builtIn);
    expect(given.packs[0].name).toBe(engine.info().packs[0]!.name);
  });

  it("bando/client gives a worker app's main thread createWorkerEngine alone: bundled, ≤ 50 KB", async () => {
    writeFileSync(
      join(dir, 'main-thread.mjs'),
      `import { createWorkerEngine } from 'bando/client';\nexport { createWorkerEngine };\n`,
    );
    const out = await build({
      ...BROWSER_BUNDLE,
      absWorkingDir: dir,
      entryPoints: ['main-thread.mjs'],
      minify: true,
      write: false,
    });
    const bytes = out.outputFiles[0]!.contents.byteLength;
    expect(bytes).toBeLessThanOrEqual(50_000);
    const { createWorkerEngine } = await import(join(dir, 'node_modules/bando/dist/client.js'));
    expect(typeof createWorkerEngine).toBe('function');
  });

  it('the install (bando and whatever npm installs with it, optional peers aside) occupies at most 10 MB', () => {
    // Issue 38's target, in bytes of the files' contents (what `du --apparent-size` counts: a link as itself, not
    // what it points to; node_modules/.bin/bando is a link to the package's cli.js, counted once).
    const bytes = (path: string): number =>
      lstatSync(path).isDirectory()
        ? readdirSync(path).reduce((sum, name) => sum + bytes(join(path, name)), 0)
        : lstatSync(path).size;
    expect(bytes(join(dir, 'node_modules'))).toBeLessThanOrEqual(10_000_000);
  });

  it('ioredis (an optional peer) is not installed; Redis usage then names the package to install, in both builds', () => {
    expect(existsSync(join(dir, 'node_modules/ioredis'))).toBe(false);
    const open = `createRedisUsageStore('redis://127.0.0.1:1').then(() => console.log('opened'), (e) => console.log(e.message))`;
    for (const [flag, load] of [
      ['--input-type=module', `import { createRedisUsageStore } from 'bando/server'; ${open};`],
      ['--input-type=commonjs', `const { createRedisUsageStore } = require('bando/server'); ${open};`],
    ]) {
      const out = execFileSync(process.execPath, [flag!, '-e', load!], { cwd: dir, encoding: 'utf8' });
      expect(out.startsWith(REDIS_MISSING), out).toBe(true);
    }
  });

  it('bando serve --dev without maplibre-gl (an optional peer, not installed): page and console say how to install it', async () => {
    expect(existsSync(join(dir, 'node_modules/maplibre-gl'))).toBe(false);
    const child = spawn(
      process.execPath,
      ['node_modules/bando/dist/cli.js', 'serve', '--dev', '--port', '0', '--threads', '0'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('Stop with Ctrl+C')) resolve();
        });
        child.on('exit', (c) => reject(new Error(`serve exited ${c}`)));
      });
      expect(out).toContain(MAPLIBRE_MISSING);
      const demo = /Demo map: (\S+)/.exec(out)![1]!;
      const page = await (await fetch(demo)).text();
      expect(page).toContain(MAPLIBRE_MISSING);
      expect(page).toContain('npm install maplibre-gl');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    }
  });
});
