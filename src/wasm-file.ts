/**
 * A WebAssembly module compiled once per process from a file next to its loader: src/route/wasm/ or
 * src/render/raster/ in the repository, dist/ in the published package (tsup copies the files there). Node reads
 * and compiles it at once; browsers fetch it from the same URL and compile it asynchronously. It is compiled once;
 * every user instantiates its own.
 */
import { nodeBuiltin } from './node-builtin.js';

/** One WebAssembly file and its compiled module. */
export class WasmFile {
  private compiled: WebAssembly.Module | null = null;
  private loading: Promise<WebAssembly.Module | null> | null = null;
  /** Why the last load failed (the error's message), null when it succeeded or none was tried. */
  private failed: string | null = null;

  /**
   * @param url where the bytes are (a `new URL('./name.wasm', import.meta.url)` in the loader's module)
   * @param name what the module is, for messages ("the WebAssembly core")
   */
  constructor(
    private readonly url: URL,
    private readonly name: string,
  ) {}

  /** The compiled module once `load` has succeeded, else null. */
  get module(): WebAssembly.Module | null {
    return this.compiled;
  }

  /** Why the module is not loaded: WebAssembly missing, or the error of the last failed load; null once it is. */
  failure(): string | null {
    if (this.compiled) return null;
    if (typeof WebAssembly === 'undefined') return 'WebAssembly is not available';
    return this.failed ?? `${this.name} was not loaded`;
  }

  /**
   * Compiles the module (from `bytes` when given, else from the URL) and remembers it. Resolves to null, never
   * rejects, when WebAssembly is unavailable or the file cannot be read or compiled.
   */
  load(bytes?: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module | null> {
    if (this.compiled) return Promise.resolve(this.compiled);
    if (typeof WebAssembly === 'undefined') return Promise.resolve(null);
    const fs = nodeBuiltin('node:fs');
    if (!bytes && !this.loading && this.url.protocol === 'file:' && fs) {
      // In Node the file is read and compiled at once: V8 compiles a module's functions on their first call, so this
      // is a check of tens of kilobytes (1-4 ms), where the answer of an asynchronous compile waited for V8's threads
      // and the event loop (25-36 ms of a fresh engine's first static image, on the loaded 2-core machine).
      try {
        this.keep(new WebAssembly.Module(fs.readFileSync(this.url)));
      } catch (err) {
        this.keep(null, err);
      }
      return Promise.resolve(this.compiled);
    }
    this.loading ??= (async () => {
      try {
        this.keep(await WebAssembly.compile(bytes ?? (await this.fetch())));
      } catch (err) {
        this.keep(null, err);
      }
      this.loading = null;
      return this.compiled;
    })();
    return this.loading;
  }

  /** Keeps the compiled module, or null and why it could not be made (`err`). */
  private keep(module: WebAssembly.Module | null, err?: unknown): void {
    this.compiled = module;
    this.failed = module ? null : `loading ${this.name} failed: ${err instanceof Error ? err.message : String(err)}`;
  }

  private async fetch(): Promise<Uint8Array<ArrayBuffer>> {
    const res = await fetch(this.url);
    if (!res.ok) throw new Error(`${this.url.href}: HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  }
}
