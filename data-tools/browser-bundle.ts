/**
 * How the self-contained browser bundles are made (dist/browser.js and dist/worker.js by tsup.config.ts; the tests
 * and benches that bundle the sources the same way): ES modules for browsers with every dependency inside, no
 * external, and the static form of the style-spec accessor.
 */
import { join } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';

/** Resolves `./style-spec.js` (src/style) to `style-spec.browser.ts`: a browser has no synchronous module loader. */
export const browserStyleSpec: Plugin = {
  name: 'browser-style-spec',
  setup(build) {
    build.onResolve({ filter: /^\.\/style-spec\.js$/ }, (a) => ({ path: join(a.resolveDir, 'style-spec.browser.ts') }));
  },
};

/** esbuild options of a browser bundle of the sources (add entryPoints and outdir/outfile). */
export const BROWSER_BUNDLE: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  plugins: [browserStyleSpec],
  logLevel: 'error',
};
