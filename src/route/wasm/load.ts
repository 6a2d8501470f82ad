/**
 * Loading the WebAssembly route core (bando-route.wasm, built from wasm/ by `npm run build:wasm`) and the
 * customizable hierarchy's search (bando-cch.wasm, from wasm/cch), which sit next to this module (see WasmFile).
 * `createEngine` awaits them, after which routers use them (see Router).
 */
import { WasmFile } from '../../wasm-file.js';

// The compiled module is immutable and shared by every engine of the process; each router instantiates its own.
const core = new WasmFile(new URL('./bando-route.wasm', import.meta.url), 'the WebAssembly core');
const cch = new WasmFile(new URL('./bando-cch.wasm', import.meta.url), "the customizable hierarchy's WebAssembly search");

/** The compiled core once `loadWasmCore` has succeeded, else null (routers then use the TypeScript searches). */
export function wasmModule(): WebAssembly.Module | null {
  return core.module;
}

/** The compiled search of the customizable hierarchy once `loadWasmCore` has loaded it, else null (cch-arena.ts). */
export function cchModule(): WebAssembly.Module | null {
  return cch.module;
}

/** Why the customizable hierarchy's search is not loaded, or null once it is (as wasmLoadFailure). */
export function cchLoadFailure(): string | null {
  return cch.failure();
}

/** Why the core is not loaded: WebAssembly missing, or the error of the last failed load; null once it is loaded. */
export function wasmLoadFailure(): string | null {
  return core.failure();
}

/**
 * Compiles the core (from `bytes` when given, else from the file) and the customizable hierarchy's search, and
 * remembers them. Resolves to the core or null, never rejects, when WebAssembly is unavailable or a file cannot be
 * read or compiled: routing then stays in TypeScript (each module apart: without the search, CCH queries do).
 */
export async function loadWasmCore(bytes?: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module | null> {
  // The search runs only over shared memory: without SharedArrayBuffer (a browser page that is not cross-origin
  // isolated) it is not fetched.
  const [module] = await Promise.all([core.load(bytes), typeof SharedArrayBuffer === 'function' && cch.load()]);
  return module;
}
