/**
 * Douglas-Peucker significances (render/simplify.ts) of many parts in one call of the WebAssembly raster kernel
 * (wasm/raster/simplify.rs: the same arithmetic in the same order, so the same Float32 values). A fresh engine's
 * first image of a city needs those of a few thousand parts at once, which the TypeScript computes before V8 has
 * optimised it, boxing every intermediate number: on whole Ho Chi Minh City about 30-40 ms of that image's main
 * thread for 3,300 parts of 25 k points.
 */
import type { Offsets } from '../../pack/offsets.js';
import { rasterKernel, type RasterExports } from './wasm-raster.js';

/** The instance computing significances, made on first use from the loaded kernel (its state: scratch only). */
let shared: { module: WebAssembly.Module; k: RasterExports } | null = null;

/**
 * Writes into `out` (indexed as the points) the significances of parts `parts[0 .. count)`, part p being the
 * `partFirst[p + 1] - partFirst[p]` points of `world` (flat x, y pairs) from point `start[p]`. Returns false, writing
 * nothing, when the raster kernel is not loaded (loadRasterKernel): the caller computes them in TypeScript then.
 */
export function kernelSignificances(
  world: Float64Array,
  partFirst: Offsets,
  start: ArrayLike<number>,
  parts: ArrayLike<number>,
  count: number,
  out: Float32Array,
): boolean {
  const module = rasterKernel();
  if (!module) return false;
  if (shared?.module !== module) {
    const k = new WebAssembly.Instance(module, {}).exports as unknown as RasterExports;
    k.init(1, 1);
    shared = { module, k };
  }
  const k = shared.k;
  let points = 0;
  for (let j = 0; j < count; j++) points += partFirst.at(parts[j]! + 1) - partFirst.at(parts[j]!);
  const xyAt = k.input_xy(2 * points) >>> 3;
  const idxAt = k.input_idx(count + 1) >>> 2;
  // Views taken after both calls: either may grow the memory, which replaces its buffer.
  const f64 = new Float64Array(k.memory.buffer);
  const u32 = new Uint32Array(k.memory.buffer);
  forEachRun(partFirst, start, parts, count, (from, to, at) =>
    f64.set(world.subarray(2 * from, 2 * to), xyAt + 2 * at),
  );
  let at = 0;
  for (let j = 0; j < count; j++) {
    u32[idxAt + j] = at;
    at += partFirst.at(parts[j]! + 1) - partFirst.at(parts[j]!);
  }
  u32[idxAt + count] = at;
  const sigAt = k.significances(count); // before reading the buffer: the call may grow the memory
  const sig = new Float32Array(k.memory.buffer, sigAt, points);
  forEachRun(partFirst, start, parts, count, (from, to, at) => out.set(sig.subarray(at, at + to - from), from));
  return true;
}

/**
 * Calls `run(from, to, at)` for each longest run of parts `parts[0 .. count)` whose slots follow one another, slots
 * [from, to) being the run's points and `at` their offset among the parts' points laid end to end. The parts a first
 * image asks for are mostly projected in that order (BasemapIndex.prepareSignificance): on a first image of whole
 * Ho Chi Minh City its 3,300 parts make 16 runs in 8 calls, where a copy per part made two typed-array views per part
 * (about 0.7 MB of garbage).
 */
function forEachRun(
  partFirst: Offsets,
  start: ArrayLike<number>,
  parts: ArrayLike<number>,
  count: number,
  run: (from: number, to: number, at: number) => void,
): void {
  let from = 0,
    to = 0,
    runAt = 0,
    at = 0;
  for (let j = 0; j < count; j++) {
    const p = parts[j]!;
    if (start[p] !== to) {
      if (to > from) run(from, to, runAt);
      from = to = start[p]!;
      runAt = at;
    }
    const n = partFirst.at(p + 1) - partFirst.at(p);
    to += n;
    at += n;
  }
  if (to > from) run(from, to, runAt);
}
