/**
 * The demo page's files for a server running in Node: the page and its script from assets/demo, and MapLibre GL JS
 * from the installed `maplibre-gl` package (its `dist/` folder). Browsers and Service Workers get none of them here:
 * they are plain static files there (see examples/service-worker).
 */
import { nodeBuiltin } from '../node-builtin.js';
import { readAsset } from './assets.js';

const fs = () => nodeBuiltin('node:fs');

/** A demo file: its bytes and content type. */
export interface DemoFile {
  bytes: Uint8Array;
  contentType: string;
}

/** URL path → where the file comes from. MapLibre 6 is ESM only and loads its worker from beside maplibre-gl.mjs. */
const FILES: Readonly<Record<string, { asset?: string; maplibre?: string; type: string }>> = {
  '/': { asset: 'demo/index.html', type: 'text/html; charset=utf-8' },
  '/demo/map.js': { asset: 'demo/map.js', type: 'text/javascript; charset=utf-8' },
  '/demo/maplibre-gl.mjs': { maplibre: 'maplibre-gl.mjs', type: 'text/javascript; charset=utf-8' },
  '/demo/maplibre-gl-worker.mjs': { maplibre: 'maplibre-gl-worker.mjs', type: 'text/javascript; charset=utf-8' },
  '/demo/maplibre-gl.css': { maplibre: 'maplibre-gl.css', type: 'text/css; charset=utf-8' },
};

/** What to do when MapLibre GL JS is not installed: shown on the demo page and printed by `bando serve --dev`. */
export const MAPLIBRE_MISSING =
  'The demo map needs MapLibre GL JS (maplibre-gl, an optional peer dependency of bando), which is not installed: ' +
  'run "npm install maplibre-gl" in the project where bando is installed, then restart bando serve.';

/** Where the page (assets/demo/index.html) takes the notice when MapLibre is missing. */
const MISSING_MARK = '<!--bando:maplibre-missing-->';

/** URL paths of the demo files (the page `/` first). */
export const DEMO_PATHS: readonly string[] = Object.keys(FILES);

let maplibre: URL | null | undefined;
/** Files read so far (they do not change while serving; about 1.7 MB in all). */
const read = new Map<string, DemoFile | null>();

/**
 * `file:` URL of the installed maplibre-gl `dist/` folder, or null. Searched like Node's resolution: a
 * `node_modules/maplibre-gl` in this module's folder or any parent (the repository, `dist/`, or an app that installed
 * bando). The package's `exports` map hides its files from `require.resolve`, hence the walk.
 */
function maplibreDistDir(): URL | null {
  if (maplibre !== undefined) return maplibre;
  maplibre = null;
  const f = fs();
  if (!f || !import.meta.url.startsWith('file:')) return maplibre;
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    const candidate = new URL('node_modules/maplibre-gl/dist/', dir);
    if (f.existsSync(new URL('maplibre-gl.mjs', candidate))) return (maplibre = candidate);
    if (new URL('../', dir).href === dir.href) return maplibre;
  }
}

/** True when the installed maplibre-gl was found (the demo page's map can load). */
export function maplibreInstalled(): boolean {
  return maplibreDistDir() !== null;
}

/** The demo file at URL path `path` (one of {@link DEMO_PATHS}), or null when unknown or not found. Never throws. */
export function demoFile(path: string): DemoFile | null {
  const entry = Object.hasOwn(FILES, path) ? FILES[path]! : undefined;
  if (!entry) return null;
  if (read.has(path)) return read.get(path)!;
  let bytes: Uint8Array | null = null;
  if (entry.asset) {
    bytes = readAsset(entry.asset);
    // Without MapLibre the page would stay blank: it says why and how to install it instead.
    if (bytes && path === '/' && !maplibreInstalled()) {
      const notice = `<p role="alert" style="position:relative;z-index:3;margin:20px;padding:12px;background:#fff3cd;border:1px solid #e0c36a;border-radius:6px">${MAPLIBRE_MISSING}</p>`;
      bytes = new TextEncoder().encode(new TextDecoder().decode(bytes).replace(MISSING_MARK, notice));
    }
  } else {
    const dir = maplibreDistDir();
    try {
      const b = dir ? fs()!.readFileSync(new URL(entry.maplibre!, dir)) : null;
      bytes = b && new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch {
      bytes = null;
    }
  }
  const file = bytes ? { bytes, contentType: entry.type } : null;
  read.set(path, file);
  return file;
}
