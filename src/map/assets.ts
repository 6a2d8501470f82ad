/**
 * Reading the shipped map assets (assets/fonts, assets/sprites, assets/demo) in Node. The folder is found beside the
 * running module: `src/map/` in the repository, `dist/` in the package, so both `../../assets` and `../assets`
 * are tried. Browsers (Service Worker) get the same files over HTTP from where the package is served.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let dir: string | null | undefined;

/** Absolute path of the assets folder (with a trailing slash), or null when it is not found. */
export function assetsDir(): string | null {
  if (dir !== undefined) return dir;
  dir = null;
  for (const rel of ['../../assets/', '../assets/', './assets/']) {
    const candidate = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${candidate}sprites/default.json`)) return (dir = candidate);
  }
  return dir;
}

/** Bytes of a file under the assets folder (`relative` uses forward slashes, never `..`), or null when absent. */
export function readAsset(relative: string): Uint8Array | null {
  const base = assetsDir();
  if (!base || relative.split('/').some((s) => s === '..' || s === '')) return null;
  try {
    const b = readFileSync(base + relative);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch {
    return null;
  }
}
