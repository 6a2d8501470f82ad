/**
 * Loading the WebAssembly route core (bando-route.wasm, built from wasm/ by `npm run build:wasm`), which sits next
 * to this module (see WasmFile). `createEngine` awaits it, after which routers use the core (see Router).
 */
import { WasmFile } from '../../wasm-file.js';

// The compiled module is immutable and shared by every engine of the process; each router instantiates its own.
const core = new WasmFile(new URL('./bando-route.wasm', import.meta.url), 'the WebAssembly core');

/** The compiled core once `loadWasmCore` has succeeded, else null (routers then use the TypeScript searches). */
export function wasmModule(): WebAssembly.Module | null {
  return core.module;
}

/** Why the core is not loaded: WebAssembly missing, or the error of the last failed load; null once it is loaded. */
export function wasmLoadFailure(): string | null {
  return core.failure();
}

/**
 * Compiles the core (from `bytes` when given, else from the file) and remembers it. Resolves to null, never
 * rejects, when WebAssembly is unavailable or the file cannot be read or compiled: routing then stays in TypeScript.
 */
export function loadWasmCore(bytes?: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module | null> {
  return core.load(bytes);
}
