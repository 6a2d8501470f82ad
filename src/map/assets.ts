/**
 * Reading the shipped map assets (assets/fonts, assets/sprites, assets/demo) in Node. The folder is found beside the
 * running module: `src/map/` in the repository, `dist/` in the package, so `../../assets/` and `../assets/` are
 * tried. node:fs is taken from `nodeBuiltin` (no import), so this module also loads in
 * browsers, where it finds no assets: a Service Worker gets the same files over HTTP from where the package is
 * served.
 */
import { nodeBuiltin } from '../node-builtin.js';

const fs = () => nodeBuiltin('node:fs');

let dir: URL | null | undefined;
/** This module's URL in a variable, for webpack: see MODULE_URL in src/engine.ts. */
const MODULE_URL = import.meta.url;

/** URL (file:, with a trailing slash) of the assets folder, or null when it is not found (or not in Node). */
export function assetsDir(): URL | null {
  if (dir !== undefined) return dir;
  dir = null;
  const f = fs();
  if (!f) return dir;
  for (const rel of ['../../assets/', '../assets/']) {
    const candidate = new URL(rel, MODULE_URL);
    if (f.existsSync(new URL('sprites/default.json', candidate))) return (dir = candidate);
  }
  return dir;
}

/**
 * Whether assets are read synchronously here (Node, {@link readAsset}): {@link readAssetAsync} then reads nothing
 * that readAsset would not.
 */
export function readsAssetsSync(): boolean {
  return fs() !== undefined;
}

/** Bytes of a file under the assets folder (`relative` uses forward slashes, never `..`), or null when absent. */
export function readAsset(relative: string): Uint8Array | null {
  const base = assetsDir();
  const f = fs();
  if (!base || !f || relative.split('/').some((s) => s === '..' || s === '' || s === '.')) return null;
  try {
    const b = f.readFileSync(new URL(relative.split('/').map(encodeURIComponent).join('/'), base));
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch {
    return null;
  }
}

/**
 * Bytes of a file under the assets folder, also where there is no file system: in Node as {@link readAsset}; elsewhere
 * (browsers, workers) fetched from the package's assets folder beside the running bundle (`../assets/` from dist/,
 * `../../assets/` from src/map/). Null when absent. Never rejects.
 */
export async function readAssetAsync(relative: string): Promise<Uint8Array | null> {
  if (readsAssetsSync()) return readAsset(relative);
  if (typeof fetch !== 'function' || relative.split('/').some((s) => s === '..' || s === '' || s === '.')) return null;
  const path = relative.split('/').map(encodeURIComponent).join('/');
  for (const rel of ['../assets/', '../../assets/']) {
    try {
      const res = await fetch(new URL(path, new URL(rel, MODULE_URL)));
      if (res.ok) return new Uint8Array(await res.arrayBuffer());
    } catch {
      // not served there: try the next place
    }
  }
  return null;
}
