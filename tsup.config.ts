import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    shims: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
  },
  {
    entry: { cli: 'src/adapters/cli/main.ts' },
    format: ['esm'],
    shims: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
