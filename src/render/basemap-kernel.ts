/**
 * A basemap's points projected to Web Mercator and their Douglas-Peucker significances computed in the raster
 * kernel's WebAssembly (wasm/raster/project.rs), part by part on first use, for BasemapIndex: the same numbers as
 * its TypeScript (the projection calls Math.sin and Math.log themselves), without the JIT's warm-up that a fresh
 * engine's first image paid in that code (about 40 k points of whole Ho Chi Minh City projected and 25 k simplified).
 */
import type { Basemap } from '../map/basemap.js';
import { RASTER_IMPORTS } from './raster/kernel-imports.js';

/** Exports of bando-raster.wasm for a basemap (see wasm/raster/lib.rs `basemap_*`). */
interface BasemapExports {
  memory: WebAssembly.Memory;
  basemap_init(points: number, parts: number, longest: number): void;
  basemap_ptr(which: number): number;
  basemap_prepare(n: number, significant: number): void;
}

/** One basemap's points in an instance of the raster kernel of its own. */
export class BasemapKernel {
  private readonly k: BasemapExports;
  /** Mercator x, y per point (world units of 1 at zoom 0, interleaved): a view of the instance's memory. */
  readonly world: Float64Array;
  /** Per point: the largest Douglas-Peucker tolerance at which its part keeps it (a view, as `world`). */
  readonly significance: Float32Array;
  /** Per part: 0 nothing computed, 1 projected, 2 significances too (a view, as `world`). */
  readonly ready: Uint8Array;
  /** The part list of the next prepare (a view, as `world`). */
  private readonly parts: Uint32Array;

  /**
   * Copies the basemap's points and part starts into a new instance of `module` (the compiled raster kernel). The
   * instance allocates everything here and never grows after, so the views stay valid.
   */
  constructor(module: WebAssembly.Module, basemap: Basemap) {
    this.k = new WebAssembly.Instance(module, RASTER_IMPORTS).exports as unknown as BasemapExports;
    const { lat, lon, partFirst } = basemap;
    const parts = Math.max(0, partFirst.length - 1);
    let longest = 0;
    for (let p = 0; p < parts; p++) longest = Math.max(longest, partFirst[p + 1]! - partFirst[p]!);
    this.k.basemap_init(lat.length, parts, longest);
    const at = (which: number): number => this.k.basemap_ptr(which);
    const buffer = this.k.memory.buffer;
    new Int32Array(buffer, at(0), lat.length).set(lat);
    new Int32Array(buffer, at(1), lon.length).set(lon);
    new Uint32Array(buffer, at(2), parts + 1).set(partFirst.subarray(0, parts + 1));
    this.world = new Float64Array(buffer, at(3), 2 * lat.length);
    this.significance = new Float32Array(buffer, at(4), lat.length);
    this.ready = new Uint8Array(buffer, at(5), parts);
    this.parts = new Uint32Array(buffer, at(6), parts);
  }

  /** Projects part `p` if it is not yet, and computes its significances too when `significant`. */
  prepare(p: number, significant: boolean): void {
    this.parts[0] = p;
    this.k.basemap_prepare(1, significant ? 1 : 0);
  }
}
