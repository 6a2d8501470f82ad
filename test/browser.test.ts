import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../data-tools/browser-bundle.js';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { METHOD_NAMES, type EngineApi, type MethodName } from '../src/adapters/http/routes.js';
import { withoutTimes } from './helpers/answers.js';
import { CHROMIUM, launchChromium } from './helpers/chromium.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ONLINE = 'https://api.bando-online.test';
const A = '21.0285,105.8522';
const B = '21.0243,105.8575';
const QUERIES: Record<MethodName, Record<string, string>> = {
  geocode: { address: 'Hàng Bài, Hoàn Kiếm' },
  autocomplete: { input: 'Hoàn Kiếm', limit: '3' },
  placeDetail: { place_id: 'no-such-place' },
  direction: { origin: A, destination: B },
  distanceMatrix: { origins: A, destinations: `${B}|21.0277,105.8355` },
  trip: { waypoints: [A, B, '21.0277,105.8355', '21.0310,105.8420', '21.0190,105.8480'].join(';') },
  staticRoute: { origin: A, destination: B, width: '300', height: '200' },
};
const PATHS: Record<MethodName, string> = {
  geocode: '/Geocode',
  autocomplete: '/Place/AutoComplete',
  placeDetail: '/Place/Detail',
  direction: '/Direction',
  distanceMatrix: '/DistanceMatrix',
  trip: '/trip',
  staticRoute: '/staticmap/route',
};
/**
 * PNG equality by image: the browser deflates with its own zlib (CompressionStream), whose bytes differ from Node's
 * native zlib, so the files differ while the decoded pixels must not.
 */
function samePng(got: number[], want: Uint8Array): void {
  const a = PNG.sync.read(Buffer.from(got));
  const b = PNG.sync.read(Buffer.from(want));
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  expect(Buffer.compare(a.data, b.data)).toBe(0);
}
const same = withoutTimes;

if (!existsSync(CHROMIUM))
  console.warn(`test/browser.test.ts skipped: ${CHROMIUM} is absent (apt-get install chromium; .ci/run does it)`);

describe.skipIf(!existsSync(CHROMIUM))('real browser (Debian chromium, headless)', () => {
  const site = mkdtempSync(join(tmpdir(), 'bando-site-'));
  let server: Server;
  let origin = '';
  let browser: Browser;
  let engine: EngineApi;

  beforeAll(async () => {
    // The shipped bundle forms (see tsup.config.ts) and the Service-Worker example, built from source.
    await build({
      ...BROWSER_BUNDLE,
      entryPoints: { worker: join(ROOT, 'src/worker.ts'), browser: join(ROOT, 'src/index.ts') },
      outdir: site,
    });
    await build({
      ...BROWSER_BUNDLE,
      entryPoints: { sw: join(ROOT, 'examples/service-worker/sw.ts') },
      outdir: site,
      alias: { bando: join(ROOT, 'src/index.ts') },
    });
    copyFileSync(join(ROOT, 'packs/hanoi.pack'), join(site, 'hanoi.pack'));
    // The package's assets beside the bundles (fetched by the static renderer for its label fonts).
    symlinkSync(join(ROOT, 'assets'), join(site, 'assets'));
    writeFileSync(
      join(site, 'index.html'),
      '<!doctype html><meta charset="utf-8"><title>bando</title><script type="module" src="/run.js"></script>',
    );
    // The page's own code: the worker bundle driven through the browser bundle's createWorkerEngine.
    writeFileSync(
      join(site, 'run.js'),
      `import { createWorkerEngine } from '/browser.js';
      window.runEndpoints = async (queries, pack) => {
        const remote = createWorkerEngine(new Worker('/worker.js', { type: 'module' }), { packs: [pack] });
        const methods = await remote.ready;
        const answers = {};
        for (const m of methods) {
          const a = await remote[m](queries[m]);
          answers[m] = a instanceof Uint8Array ? { png: Array.from(a) } : a;
        }
        remote.terminate();
        return { methods, answers };
      };
      window.ready = true;`,
    );
    const types: Record<string, string> = {
      '.js': 'text/javascript',
      '.html': 'text/html',
      '.pack': 'application/octet-stream',
    };
    server = createServer((req, res) => {
      const file = join(site, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
      if (!file.startsWith(site) || !existsSync(file)) return void res.writeHead(404).end();
      res
        .writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' })
        .end(readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    engine = await createEngine();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
    rmSync(site, { recursive: true, force: true });
  });

  it('runs every endpoint the engine has through the worker bundle, with the in-process answers', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    type Run = (q: unknown, pack: string) => Promise<{ methods: string[]; answers: Record<string, unknown> }>;
    const got = await page.evaluate(
      ({ queries, pack }) => (window as unknown as { runEndpoints: Run }).runEndpoints(queries, pack),
      { queries: QUERIES, pack: `${origin}/hanoi.pack` },
    );
    const has = METHOD_NAMES.filter((m) => typeof engine[m] === 'function');
    expect(got.methods).toEqual(has);
    for (const m of has) {
      const local = await engine[m]!(QUERIES[m]);
      if (local instanceof Uint8Array) samePng((got.answers[m] as { png: number[] }).png, local);
      else expect(same(got.answers[m])).toEqual(same(local));
    }
    await page.close();
  });

  it('the Service-Worker example answers fetches to the online base URL', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/index.html`);
    const has = METHOD_NAMES.filter((m) => typeof engine[m] === 'function');
    const got = await page.evaluate(
      async ({ online, calls }) => {
        await navigator.serviceWorker.register(
          `/sw.js?base=${encodeURIComponent(online)}&key=app-key&pack=/hanoi.pack`,
          { type: 'module' },
        );
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller)
          await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
        const results = [];
        for (const url of calls) {
          const res = await fetch(url);
          const type = res.headers.get('content-type') ?? '';
          results.push({
            status: res.status,
            type,
            body: type.startsWith('image/') ? Array.from(new Uint8Array(await res.arrayBuffer())) : await res.json(),
          });
        }
        return results;
      },
      {
        online: ONLINE,
        calls: [
          `${ONLINE}/Direction?origin=${A}&destination=${B}`,
          `${ONLINE}/Direction?origin=${A}&destination=${B}&api_key=wrong`,
          ...has.map((m) => `${ONLINE}${PATHS[m]}?${new URLSearchParams({ ...QUERIES[m], api_key: 'app-key' })}`),
        ],
      },
    );
    expect(got[0]).toMatchObject({ status: 403, body: { status: 'API_KEY_MISSING' } });
    expect(got[1]).toMatchObject({ status: 403, body: { status: 'API_KEY_INVALID' } });
    for (const [i, m] of has.entries()) {
      const local = await engine[m]!(QUERIES[m]);
      const r = got[i + 2]!;
      if (local instanceof Uint8Array) {
        expect(r.type).toBe('image/png');
        samePng(r.body as number[], local);
      } else expect(same(r.body)).toEqual(same(local));
    }
    await page.close();
  });
});
