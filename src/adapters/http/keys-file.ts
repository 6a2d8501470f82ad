import { readFileSync } from 'node:fs';
import { normalizeKeys, type ApiKey } from './keys.js';
import { writeAtomic } from './usage-file.js';

/**
 * Reads a keys file `{ "keys": [ ApiKey, ... ] }` (Node only). A missing file is an empty list when
 * `missingOk`, else an error; malformed content throws an Error naming the file and the entry.
 */
export function readKeysFile(path: string, opts: { missingOk?: boolean } = {}): ApiKey[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      if (opts.missingOk) return [];
      throw new Error(`keys file ${path} does not exist (create one with: bando keys create --keys ${path})`);
    }
    throw new Error(`keys file ${path} cannot be read (${(err as Error).message})`);
  }
  let doc: { keys?: unknown };
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`keys file ${path} is not JSON (${(err as Error).message})`);
  }
  if (!doc || !Array.isArray(doc.keys)) throw new Error(`keys file ${path} must hold { "keys": [ ... ] }`);
  try {
    normalizeKeys(doc.keys as ApiKey[]);
  } catch (err) {
    throw new Error(`keys file ${path}: ${(err as Error).message}`);
  }
  return doc.keys as ApiKey[];
}

/** Writes a keys file atomically (temp file, fsync, rename), readable by the owner only. */
export function writeKeysFile(path: string, keys: readonly ApiKey[]): void {
  writeAtomic(path, JSON.stringify({ keys }, null, 2) + '\n');
}

/** A new random key: 32 hexadecimal characters (128 bits) from the platform's secure random source. */
export function newKeySecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
