/**
 * Checks the options of `createEngine` before anything is loaded, so a mistake gets an error naming the option
 * instead of a TypeError deep in the loader or a silently ignored key (`{ pack: … }` would load the default pack).
 */

import { isSharedPackFile } from './pack/load.js';
import { validateStyle } from './style/validate-style.js';

/** The keys `createEngine` reads (EngineOptions). */
const KNOWN = ['packs', 'verify', 'style', 'wasm', 'limits', 'metrics'] as const;

/** The functions of a MetricExchange (the `metrics` option). */
const EXCHANGE = ['offer', 'adopted', 'published'] as const;

/** Misspellings seen in practice, mapped to the key meant. */
const MEANT: Readonly<Record<string, (typeof KNOWN)[number]>> = {
  pack: 'packs',
  packPath: 'packs',
  files: 'packs',
  limit: 'limits',
};

const isSource = (s: unknown): boolean =>
  typeof s === 'string' ||
  s instanceof URL ||
  s instanceof ArrayBuffer ||
  s instanceof Uint8Array ||
  isSharedPackFile(s);

/**
 * Throws a TypeError naming the first bad option: not an object, an unknown key, `packs` not an array of file
 * paths, URLs or bytes, `verify` not `'lazy'` or a boolean, `wasm` not a boolean, `metrics` not a MetricExchange
 * (route/cch/exchange.ts), `style` a style validateStyle refuses (the message lists its errors with their paths).
 * `limits` are checked where they are used.
 */
export function checkEngineOptions(opts: unknown): void {
  if (opts === undefined) return;
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
    throw new TypeError('createEngine: the options must be an object, e.g. { packs: ["region.pack"] }');
  const o = opts as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if ((KNOWN as readonly string[]).includes(key)) continue;
    const hint = MEANT[key] ? ` (did you mean ${MEANT[key]}?)` : '';
    throw new TypeError(`createEngine: unknown option "${key}"${hint}; the options are ${KNOWN.join(', ')}`);
  }
  const packs = o.packs;
  if (packs !== undefined) {
    if (!Array.isArray(packs)) {
      const example = typeof packs === 'string' ? JSON.stringify([packs]) : '["region.pack"]';
      throw new TypeError(
        `createEngine: packs must be an array of file paths, URLs or bytes, e.g. { packs: ${example} }`,
      );
    }
    const bad = packs.findIndex((s) => !isSource(s));
    if (bad >= 0)
      throw new TypeError(`createEngine: packs[${bad}] must be a file path, a URL, an ArrayBuffer or a Uint8Array`);
  }
  if (o.verify !== undefined && typeof o.verify !== 'boolean' && o.verify !== 'lazy')
    throw new TypeError(`createEngine: verify must be 'lazy', true or false`);
  if (o.wasm !== undefined && typeof o.wasm !== 'boolean')
    throw new TypeError(`createEngine: wasm must be true or false`);
  const m = o.metrics as Record<string, unknown> | undefined;
  if (m !== undefined && !(m !== null && typeof m === 'object' && EXCHANGE.every((f) => typeof m[f] === 'function')))
    throw new TypeError(`createEngine: metrics must be an object with the functions ${EXCHANGE.join(', ')}`);
  if (o.style !== undefined) {
    const { errors } = validateStyle(o.style);
    if (errors.length > 0) {
      const list = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
      throw new TypeError(`createEngine: style is not valid (style-layers.md): ${list}`);
    }
  }
}
