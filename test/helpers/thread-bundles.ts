import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../../data-tools/browser-bundle.js';
import { RUNTIME_WASM } from '../../data-tools/build-wasm.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The worker scripts of the pool tests, in a temporary folder. */
export interface ThreadBundles {
  /** The temporary folder (for the tests' own files); `remove()` deletes it. */
  dir: string;
  /** The shipped worker (src/worker.ts as tsup bundles it). */
  script: string;
  /** The holding worker (test/helpers/holding-worker.ts: the real engine plus a `hold` parameter). */
  holding: string;
  remove(): void;
}

/**
 * Builds the worker bundles of the pool tests with the bundle options of tsup.config.ts's worker entry, so the tests
 * run the shipped form of the worker. It sits in a dist/ folder beside a link to the assets, as in the package, so its
 * static maps get their fonts, and with the WebAssembly modules beside it as tsup puts them there (the workers route on
 * the core and draw with the raster kernel, as the shipped ones do). The holding worker is test code: its own node: imports stay external (the
 * engine it wraps is bundled as shipped).
 */
export async function buildThreadBundles(prefix: string): Promise<ThreadBundles> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const out = join(dir, 'dist');
  await build({ ...BROWSER_BUNDLE, entryPoints: { worker: join(ROOT, 'src/worker.ts') }, outdir: out });
  for (const { path, name } of RUNTIME_WASM) copyFileSync(join(ROOT, path), join(out, name));
  symlinkSync(join(ROOT, 'assets'), join(dir, 'assets'));
  await build({
    ...BROWSER_BUNDLE,
    entryPoints: { holding: join(ROOT, 'test/helpers/holding-worker.ts') },
    external: ['node:*'],
    outdir: out,
  });
  return {
    dir,
    script: join(out, 'worker.js'),
    holding: join(out, 'holding.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
