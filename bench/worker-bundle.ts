import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../data-tools/browser-bundle.js';
import { RUNTIME_WASM } from '../data-tools/build-wasm.js';

/**
 * Builds the worker bundle of `bando serve --threads` as tsup does (in one file here, unminified) into `dir`, with the
 * WebAssembly core beside it as in dist/ (without it the workers would route in TypeScript). `entry` is the worker's source (default
 * src/worker.ts; a bench may wrap it). Returns the script's path.
 */
export async function buildWorkerBundle(
  dir: string,
  entry = fileURLToPath(new URL('../src/worker.ts', import.meta.url)),
): Promise<string> {
  await build({
    ...BROWSER_BUNDLE,
    entryPoints: { worker: entry },
    outdir: dir,
  });
  for (const { path, name } of RUNTIME_WASM)
    copyFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), join(dir, name));
  return join(dir, 'worker.js');
}
