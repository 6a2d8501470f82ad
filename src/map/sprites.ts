import { readAsset } from './assets.js';

/** Outcome of {@link sprite}: the file's bytes and content type, or an error naming the parameter (for a 404). */
export type SpriteResult = { ok: true; bytes: Uint8Array; contentType: string } | { ok: false; error: string };

/**
 * A file of a shipped sprite: `name` "default" or "default@2x", `ext` "json" or "png" (the URL
 * `/sprites/default@2x.png` splits into those). Icons: origin, destination (anchor bottom), waypoint, poi.
 * Never throws.
 */
export function sprite(name: string, ext: string): SpriteResult {
  const file = spriteFile(name, ext);
  if (!file.ok) return file;
  const bytes = readAsset(file.path);
  if (!bytes) return { ok: false, error: `sprite file ${name}.${ext} is missing from the package's assets` };
  return { ok: true, bytes, contentType: file.contentType };
}

/**
 * Where the sprite file of {@link sprite} lives under the assets folder (`sprites/<name>.<ext>`) and its content
 * type, for readers without node:fs, or an error naming the parameter. Never throws.
 */
export function spriteFile(
  name: string,
  ext: string,
): { ok: true; path: string; contentType: string } | { ok: false; error: string } {
  const m = /^([a-z0-9-]+)(@2x)?$/.exec(name);
  if (!m || m[1] !== 'default')
    return { ok: false, error: `sprite must be "default" or "default@2x"; found "${name}"` };
  if (ext !== 'json' && ext !== 'png')
    return { ok: false, error: `sprite file extension must be json or png; found "${ext}"` };
  return { ok: true, path: `sprites/${name}.${ext}`, contentType: ext === 'json' ? 'application/json' : 'image/png' };
}
