/**
 * Loading the WebAssembly route core (bando-route.wasm, built from wasm/ by `npm run build:wasm`). The file sits
 * next to this module: src/route/wasm/ in the repository, dist/ in the published package (tsup copies it there).
 * Node reads it from disk; browsers fetch it from the same URL. Loading is asynchronous and happens once;
 * `createEngine` awaits it, after which routers use the core (see Router).
 */
import { nodeBuiltin } from '../../node-builtin.js';

/** Where the core's bytes are, relative to this module. */
const WASM_URL = new URL('./bando-route.wasm', import.meta.url);

// The compiled module is immutable and shared by every engine of the process; each router instantiates its own.
let compiled: WebAssembly.Module | null = null;
let loading: Promise<WebAssembly.Module | null> | null = null;
/** Why the last load failed (the error's message), null when it succeeded or none was tried. */
let failure: string | null = null;

/** The compiled core once `loadWasmCore` has succeeded, else null (routers then use the TypeScript searches). */
export function wasmModule(): WebAssembly.Module | null {
  return compiled;
}

/** Why the core is not loaded: WebAssembly missing, or the error of the last failed load; null once it is loaded. */
export function wasmLoadFailure(): string | null {
  if (compiled) return null;
  if (typeof WebAssembly === 'undefined') return 'WebAssembly is not available';
  return failure ?? 'the WebAssembly core was not loaded';
}

/**
 * Compiles the core (from `bytes` when given, else from WASM_URL) and remembers it. Resolves to null, never
 * rejects, when WebAssembly is unavailable or the file cannot be read or compiled: routing then stays in TypeScript.
 */
export function loadWasmCore(bytes?: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module | null> {
  if (compiled) return Promise.resolve(compiled);
  if (typeof WebAssembly === 'undefined') return Promise.resolve(null);
  loading ??= (async () => {
    try {
      compiled = await WebAssembly.compile(bytes ?? (await readCore()));
      failure = null;
    } catch (err) {
      compiled = null;
      failure = `loading the WebAssembly core failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    loading = null;
    return compiled;
  })();
  return loading;
}

async function readCore(): Promise<Uint8Array<ArrayBuffer>> {
  const fs = nodeBuiltin('node:fs');
  if (WASM_URL.protocol === 'file:' && fs) return new Uint8Array(await fs.promises.readFile(WASM_URL));
  const res = await fetch(WASM_URL);
  if (!res.ok) throw new Error(`${WASM_URL.href}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
