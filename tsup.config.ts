import { copyFileSync, mkdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

/** The WebAssembly route core, loaded from next to the bundle (src/route/wasm/load.ts) in Node and browsers. */
const copyWasm = async () => {
  mkdirSync('dist', { recursive: true });
  copyFileSync('src/route/wasm/bando-route.wasm', 'dist/bando-route.wasm');
};

export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    shims: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    onSuccess: copyWasm,
  },
  {
    entry: { cli: 'bin/bando.ts' },
    format: ['esm'],
    shims: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    onSuccess: copyWasm,
  },
  {
    // `bando/worker`: self-contained so a browser can start it as a module Worker without an import map; the
    // node: imports are only reached under worker_threads.
    entry: { worker: 'src/worker.ts' },
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    noExternal: [/.*/],
    splitting: false,
    external: [/^node:/],
    sourcemap: true,
  },
  {
    // The whole API as one browser ES module (engine, fetch handler for Service Workers, createWorkerEngine).
    entry: { browser: 'src/index.ts' },
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    noExternal: [/.*/],
    splitting: false,
    external: [/^node:/],
    sourcemap: true,
  },
]);
