/**
 * Node's built-in modules, reached without an `import`: through `process.getBuiltinModule` (Node ≥ 20.16). Code that
 * runs in every runtime (the engine, the fetch handler, the renderer, the worker entry) takes node:fs, node:zlib …
 * from here, so no bundler ever sees a `node:` import in it and the browser bundles need no externals; in a
 * browser, a worker or an edge runtime the answer is undefined and the caller takes its web path.
 */
interface Builtins {
  'node:fs': typeof import('node:fs');
  'node:module': typeof import('node:module');
  'node:os': typeof import('node:os');
  'node:worker_threads': typeof import('node:worker_threads');
  'node:zlib': typeof import('node:zlib');
}

type Lookup = (id: string) => unknown;

/** The built-in module `id`, or undefined outside Node. */
export function nodeBuiltin<K extends keyof Builtins>(id: K): Builtins[K] | undefined {
  const lookup = (globalThis as { process?: { getBuiltinModule?: Lookup } }).process?.getBuiltinModule;
  return lookup?.(id) as Builtins[K] | undefined;
}
