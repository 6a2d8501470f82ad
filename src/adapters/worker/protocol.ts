import type { EngineParams, MethodName } from '../http/routes.js';
import type { Limits } from '../../limits.js';
import type { Verify } from '../../pack/reader.js';
import type { SharedPackFile } from '../../pack/load.js';

/** A pack as it can cross a worker boundary: a URL or file path string, the bytes, or a file read once for all threads. */
export type WorkerPackSource = string | ArrayBuffer | Uint8Array | SharedPackFile;

/** Options sent to the worker when it starts its engine. */
export interface WorkerInitOptions {
  /** Packs to load inside the worker. Default: the embedded default pack (resolved relative to the worker bundle). */
  packs?: WorkerPackSource[];
  /** When section checksums are checked (EngineOptions.verify; default: whole at load up to 64 MB, lazily above). */
  verify?: Verify;
  /** Request limits to change (EngineOptions.limits). */
  limits?: Partial<Limits>;
}

/** What the worker exposes over comlink. */
export interface WorkerRemote {
  /** Loads the packs and creates the engine; resolves to the endpoint methods the engine has. */
  init(options: WorkerInitOptions): Promise<MethodName[]>;
  /** Calls one engine method; PNG bytes come back transferred. */
  call(method: MethodName, params: EngineParams): Promise<unknown>;
  /** Like `call`, but a body comes back as JSON text with its HTTP status (cheaper to pass than the object). */
  callJson(method: MethodName, params: EngineParams): Promise<{ json: string; status: number } | Uint8Array>;
}
