import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { browserStyleSpec } from './data-tools/browser-bundle.js';
import { RUNTIME_WASM } from './data-tools/build-wasm.js';

// The configurations below build in parallel into one folder, so it is emptied once, here, rather than by any of them.
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });

/**
 * The WebAssembly route core and raster kernel, loaded from next to the bundle (src/wasm-file.ts) in Node and
 * browsers, and the pack builder's contraction (data-tools/ch-wasm.ts), loaded from next to the command's chunks and
 * ch-worker.
 */
const copyWasm = async () => {
  for (const { path, name } of RUNTIME_WASM) copyFileSync(path, `dist/${name}`);
  copyFileSync('data-tools/ch-contract.wasm', 'dist/ch-contract.wasm');
};

/**
 * Declarations of the browser entry (the same API as the main one), the client entry (the worker client's part of
 * it) and the worker entry (no exports).
 */
const writeEntryTypes = async () => {
  writeFileSync(
    'dist/browser.d.ts',
    "/** `bando/browser`: the whole API as ES modules with every dependency inside. */\nexport * from './index.js';\n",
  );
  writeFileSync(
    'dist/client.d.ts',
    "/** `bando/client`: the worker client alone (see createWorkerEngine). */\nexport { createWorkerEngine } from './index.js';\nexport type { WorkerEngine, WorkerInitOptions, WorkerPackSource } from './index.js';\n",
  );
  writeFileSync(
    'dist/worker.d.ts',
    '/** `bando/worker`: a worker script (start it with `new Worker`); it exports nothing. */\nexport {};\n',
  );
};

/**
 * Shared by every build: no source maps (they would double the package), `node:` imports kept as written (tsup
 * would strip the prefix, which breaks bundlers that treat `node:*` as Node-only), and minified (the package's bytes
 * are mostly its builds).
 *
 * Every build bundles the packages the engine uses: package.json lists them under devDependencies, and tsup bundles
 * all but `dependencies` and `peerDependencies`, so an install of bando is bando alone (no runtime dependency); the
 * optional peers (`ioredis`, `maplibre-gl`) stay imports, loaded on first use. Bundled, a CommonJS build also links
 * the dependencies published only as ES modules itself (a `require` of one fails before Node 20.19 and, after, gives
 * the module's namespace where esbuild's interop expects the default export: `Flatbush.from is not a function`).
 */
const common: Options = { sourcemap: false, removeNodeProtocol: false, target: 'es2022', minify: true };

/**
 * The bundled packages whose types the declarations name (a Pack's KDBush index): their declarations are copied in,
 * since an app's install has no such package to import them from.
 */
const BUNDLED_TYPES = ['kdbush'];

/**
 * Node builds: the style-spec library comes from the bundled dist/style-spec.cjs (src/style/style-spec.ts); functions
 * and classes keep their names, so a stack trace still says where it failed.
 */
const node: Options = {
  ...common,
  platform: 'node',
  keepNames: true,
  define: { __BANDO_STYLE_SPEC__: JSON.stringify('./style-spec.cjs') },
};

/**
 * Browser builds: ES modules with every dependency inside (no import map needed) and no Node import at all
 * (data-tools/browser-bundle.ts). One build of the three browser entries (`browser`, `worker`, `client`), split into
 * shared chunks, so the engine is in the package once rather than in each of them; the chunks' names start with
 * `web-`, apart from the Node build's.
 */
const browser: Options = {
  ...common,
  platform: 'browser',
  format: ['esm'],
  noExternal: [/.*/],
  splitting: true,
  esbuildPlugins: [browserStyleSpec],
  esbuildOptions: (o) => {
    o.chunkNames = 'web-[hash]';
  },
};

export default defineConfig([
  // The library and the `bando` command as ES modules sharing their chunks (the command keeps bin/bando.ts's #! line).
  // `bando/server`: Node-only serving parts (usage stores); `ioredis` (an optional peer) stays an import, loaded on
  // first use.
  {
    ...node,
    // `ch-worker`: the pack builder's worker threads, contraction and the CCH order (data-tools/ch-threads.ts loads it
    // from beside itself).
    entry: {
      index: 'src/index.ts',
      server: 'src/server.ts',
      cli: 'bin/bando.ts',
      'ch-worker': 'data-tools/ch-worker.ts',
      // `bando/default-pack`: the default pack as a bundler asset (imports nothing, so a file of its own).
      'default-pack': 'src/default-pack.ts',
    },
    format: ['esm'],
    dts: {
      entry: { index: 'src/index.ts', server: 'src/server.ts', 'default-pack': 'src/default-pack.ts' },
      resolve: BUNDLED_TYPES,
    },
    onSuccess: copyWasm,
  },
  {
    ...node,
    entry: { index: 'src/index.ts', server: 'src/server.ts' },
    format: ['cjs'],
    dts: { entry: { index: 'src/index.ts', server: 'src/server.ts' }, resolve: BUNDLED_TYPES },
    shims: true,
  },
  // The used parts of @maplibre/maplibre-gl-style-spec, loaded synchronously on first use (a first static image's
  // style plan waits for it). Its functions keep their minified names: the library never reads a function's name,
  // and wrapping each one to keep it made the file 6 % larger and loading it about a fifth slower (16 against 13 ms
  // of CPU, fresh processes on the loaded machine).
  {
    ...node,
    keepNames: false,
    entry: { 'style-spec': 'src/style/style-spec-library.ts' },
    format: ['cjs'],
    noExternal: [/.*/],
  },
  // `bando/worker`: a browser module Worker or a node:worker_threads Worker. `bando/client`: createWorkerEngine alone,
  // for the main thread of an app whose engine runs in a worker (the whole API would cost that thread ~230 KB it never
  // runs). `bando/browser`: the whole API (also what the package's main entry gives bundlers that build for browsers).
  {
    ...browser,
    entry: { worker: 'src/worker.ts', client: 'src/adapters/worker/client.ts', browser: 'src/index.ts' },
    onSuccess: writeEntryTypes,
  },
]);
