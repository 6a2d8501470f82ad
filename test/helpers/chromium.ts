/**
 * Headless Debian Chromium (driven by playwright-core) and a static file server on 127.0.0.1, for tests that run
 * built pages in a real browser.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';

export { CHROMIUM, launchChromium } from '../../data-tools/chromium.js';

/** Content types by file extension; others are served as bytes. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.html': 'text/html',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** A running static server: its origin (`http://127.0.0.1:PORT`) and how to stop it. */
export interface StaticSite {
  origin: string;
  close(): Promise<void>;
}

/** Serves the files under `dir` (GET only; a path outside it or a missing file answers 404). */
export async function serveStatic(dir: string): Promise<StaticSite> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const file = join(root, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
    if (!file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile())
      return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
