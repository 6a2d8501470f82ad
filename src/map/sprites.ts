import { readAsset } from './assets.js';

/** Outcome of {@link sprite}: the file's bytes and content type, or an error naming the parameter (for a 404). */
export type SpriteResult = { ok: true; bytes: Uint8Array; contentType: string } | { ok: false; error: string };

/**
 * A file of a shipped sprite: `name` "default" or "default@2x", `ext` "json" or "png" (the URL
 * `/sprites/default@2x.png` splits into those). Icons: origin, destination (anchor bottom), waypoint, poi.
 * Never throws.
 */
export function sprite(name: string, ext: string): SpriteResult {
  const m = /^([a-z0-9-]+)(@2x)?$/.exec(name);
  if (!m || m[1] !== 'default') return { ok: false, error: `sprite must be "default" or "default@2x"; found "${name}"` };
  if (ext !== 'json' && ext !== 'png') return { ok: false, error: `sprite file extension must be json or png; found "${ext}"` };
  const bytes = readAsset(`sprites/${name}.${ext}`);
  if (!bytes) return { ok: false, error: `sprite file ${name}.${ext} is missing from the package's assets` };
  return { ok: true, bytes, contentType: ext === 'json' ? 'application/json' : 'image/png' };
}
