/**
 * Anti-aliased scanline polygon rasteriser producing exact per-pixel area coverage, with union semantics:
 * overlapping parts of one path are covered once (by the fill rule), never summed, which is what lets strokes be
 * built as many overlapping polygons.
 *
 * Each pixel row is cut into horizontal bands at every edge endpoint inside it, and bands are split further where
 * two edges cross, so that within a band the edges are straight, span it fully and keep their left-to-right order.
 * The inside region of a band is then a set of trapezoids; each edge where the fill rule toggles adds its exact
 * signed area (times the band height) to a difference row, as font rasterisers do. The prefix sum of the
 * difference row is the pixel coverage. (Pathological rows needing more than MAX_SPLITS crossing splits fall back
 * to a midpoint sample of the band, exact horizontally.)
 *
 * Edges are clamped horizontally to [-1, width + 1] while building (the parts outside become vertical edges on
 * that line), which never changes coverage inside the canvas. Only rows inside the canvas are visited, so work is
 * proportional to (active edges + touched row width) per row and memory to the number of edges plus the canvas
 * width: coordinates far off the canvas cost nothing extra.
 *
 * Canvases draw with this file's WebAssembly port (wasm/raster/scanline.rs, see wasm-raster.ts) where it loads and
 * with this one where it does not; the two give the same bytes (test/raster-wasm.test.ts), so a change to one is made
 * to the other.
 */
import { sortIndicesByKey } from './index-sort.js';
import type { Path } from './path.js';

/** Fill rule: `nonzero` (winding number is not 0) or `evenodd` (winding number is odd). */
export type FillRule = 'nonzero' | 'evenodd';

/** Receives the coverage of one pixel row: `cov[base + x]` in 0..1 for `x0 <= x < x1` (pixels; `base` default 0). */
export interface CoverageSink {
  span(y: number, x0: number, x1: number, cov: Float32Array, base?: number): void;
}

/** Crossing splits allowed per band before falling back to a midpoint sample. */
const MAX_SPLITS = 12;
/** Pixels by which neighbouring edges may be out of order before their crossing is split off. */
const ORDER_EPSILON = 1e-6;
/** Coordinates are clamped to this magnitude (pixels) so that slopes and products stay finite. */
const COORD_LIMIT = 1e15;

/** Reusable rasteriser for one canvas size; keeps its scratch buffers between calls. */
export class Rasterizer {
  readonly width: number;
  readonly height: number;
  private edgeCap = 0;
  private yTop = new Float64Array(0);
  private yBot = new Float64Array(0);
  private xTop = new Float64Array(0);
  private slope = new Float64Array(0);
  private dir = new Int8Array(0);
  private order = new Uint32Array(0);
  /** Scratch of the edge sort (see sortIndicesByKey). */
  private sortScratch = new Uint32Array(0);
  private active = new Uint32Array(0);
  /** Per band: the spanning edges sorted by x at the band middle, with x at band top, bottom and middle. */
  private bandEdge = new Uint32Array(0);
  private bandTop = new Float64Array(0);
  private bandBot = new Float64Array(0);
  private bandMid = new Float64Array(0);
  /**
   * The band [top, bottom] (pixels) that the next band() call accumulates: numbers passed to a call that is not
   * inlined (band recurses) are boxed, an allocation per band.
   */
  private readonly nextBand = new Float64Array(2);
  /** Sorted band boundaries of the current row. */
  private events = new Float64Array(0);
  /** Touched cell range of the current row's difference array (inclusive). */
  private lo = 0;
  private hi = -1;
  /** Difference row: coverage of pixel x is the prefix sum of acc[0..x]. Two spare cells for spans ending at width. */
  private readonly acc: Float32Array;
  private readonly cov: Float32Array;

  /**
   * @param width canvas width (pixels, positive integer)
   * @param height canvas height (pixels, positive integer)
   */
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.acc = new Float32Array(width + 2);
    this.cov = new Float32Array(width + 2);
  }

  /**
   * Rasterises every ring of `path` as one shape and reports coverage row by row to `sink`.
   *
   * @param path closed rings in pixels
   * @param rule fill rule across all rings (holes are rings whose winding cancels or, for even-odd, any inner ring)
   * @param antialias false samples each pixel centre only (coverage 0 or 1)
   * @param dx translation added to every x (pixels)
   * @param dy translation added to every y (pixels)
   * @param sink receives row coverage
   */
  fill(path: Path, rule: FillRule, antialias: boolean, dx: number, dy: number, sink: CoverageSink): void {
    const n = this.buildEdges(path, dx, dy);
    if (n === 0) return;
    const { yTop, yBot, order, active, acc, cov, width } = this;
    for (let i = 0; i < n; i++) order[i] = i;
    const sorted = sortIndicesByKey(order, n, yTop, this.sortScratch);
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      if (yTop[i]! < minY) minY = yTop[i]!;
      if (yBot[i]! > maxY) maxY = yBot[i]!;
    }
    const rowStart = Math.max(0, Math.floor(minY));
    const rowEnd = Math.min(this.height, Math.ceil(maxY));
    const evenOdd = rule === 'evenodd';
    const events = this.events;
    let next = 0;
    let activeCount = 0;
    for (let py = rowStart; py < rowEnd; py++) {
      // Admit edges starting above the bottom of this row; retire edges ending at or above its top.
      while (next < n && yTop[sorted[next]!]! < py + 1) active[activeCount++] = sorted[next++]!;
      let kept = 0;
      for (let k = 0; k < activeCount; k++) {
        const e = active[k]!;
        if (yBot[e]! > py) active[kept++] = e;
      }
      activeCount = kept;
      if (activeCount === 0) continue;
      this.lo = width + 2;
      this.hi = -1;
      if (!antialias) {
        this.sampleLine(py + 0.5, 1, activeCount, evenOdd, true);
      } else {
        // Band boundaries: the row edges and every edge endpoint strictly inside the row, sorted.
        let count = 0;
        events[count++] = py;
        for (let k = 0; k < activeCount; k++) {
          const e = active[k]!;
          if (yTop[e]! > py) count = insertSorted(events, count, yTop[e]!);
          if (yBot[e]! < py + 1) count = insertSorted(events, count, yBot[e]!);
        }
        events[count++] = py + 1;
        for (let i = 0; i + 1 < count; i++) {
          if (!(events[i + 1]! > events[i]!)) continue;
          this.nextBand[0] = events[i]!;
          this.nextBand[1] = events[i + 1]!;
          this.band(activeCount, evenOdd, 0);
        }
      }
      const lo = this.lo;
      const hi = this.hi;
      if (hi < 0) continue;
      let sum = 0;
      const end = Math.min(hi, width);
      for (let x = lo; x <= hi; x++) {
        sum += acc[x]!;
        acc[x] = 0;
        if (x < end) cov[x] = sum > 1 ? 1 : sum < 1e-6 ? 0 : sum;
      }
      if (end > lo) sink.span(py, lo, end, cov);
    }
  }

  /**
   * Accumulates the band [ya, yb] (from nextBand) of the current row. Edges spanning it are sorted by x at its middle; if their order
   * is the same at both band ends no two cross inside, and each edge where the fill rule toggles adds its exact area.
   * Otherwise the band is split at the crossing of the first out-of-order neighbours and both halves recurse.
   */
  private band(activeCount: number, evenOdd: boolean, depth: number): void {
    const { active, yTop, yBot, xTop, slope, dir, bandEdge, bandTop, bandBot, bandMid, nextBand } = this;
    const ya = nextBand[0]!,
      yb = nextBand[1]!;
    let m = 0;
    for (let k = 0; k < activeCount; k++) {
      const e = active[k]!;
      // Band limits are edge endpoints, so every edge either spans the band or misses it entirely.
      if (yTop[e]! > ya || yBot[e]! < yb) continue;
      const xt = xTop[e]! + (ya - yTop[e]!) * slope[e]!;
      const xb = xTop[e]! + (yb - yTop[e]!) * slope[e]!;
      const mid = (xt + xb) / 2;
      let j = m++;
      while (j > 0 && bandMid[j - 1]! > mid) {
        bandMid[j] = bandMid[j - 1]!;
        bandTop[j] = bandTop[j - 1]!;
        bandBot[j] = bandBot[j - 1]!;
        bandEdge[j] = bandEdge[j - 1]!;
        j--;
      }
      bandMid[j] = mid;
      bandTop[j] = xt;
      bandBot[j] = xb;
      bandEdge[j] = e;
    }
    for (let k = 1; k < m; k++) {
      const d0 = bandTop[k]! - bandTop[k - 1]!;
      const d1 = bandBot[k]! - bandBot[k - 1]!;
      // Differences within ORDER_EPSILON are touching or coincident edges (common between stroke pieces): no split.
      if (d0 >= -ORDER_EPSILON && d1 >= -ORDER_EPSILON) continue;
      // Neighbours k-1 and k cross where their x difference (linear in y) is zero.
      if (depth >= MAX_SPLITS) {
        this.sampleLine((ya + yb) / 2, yb - ya, activeCount, evenOdd, false);
        return;
      }
      const t = d0 / (d0 - d1);
      const yc = t > 0 && t < 1 ? ya + t * (yb - ya) : (ya + yb) / 2;
      nextBand[0] = ya;
      nextBand[1] = yc;
      this.band(activeCount, evenOdd, depth + 1);
      nextBand[0] = yc;
      nextBand[1] = yb;
      this.band(activeCount, evenOdd, depth + 1);
      return;
    }
    const height = yb - ya;
    let winding = 0;
    for (let k = 0; k < m; k++) {
      const wasInside = evenOdd ? (winding & 1) !== 0 : winding !== 0;
      winding += dir[bandEdge[k]!]!;
      const isInside = evenOdd ? (winding & 1) !== 0 : winding !== 0;
      if (wasInside !== isInside) this.addEdgeArea(bandTop[k]!, bandBot[k]!, isInside ? height : -height);
    }
  }

  /**
   * Adds `weight` x the coverage of the region right of the segment from x0 (band top) to x1 (band bottom) to the
   * difference row. Coverage of cell i is F(i) = (R(i+1-xa) - R(i+1-xb)) / (xb-xa) with R the integral of
   * clamp(z, 0, 1). Edges lie within [-1, width+1]: a cell -1 share folds into cell 0 and cell width+1 is never read.
   */
  private addEdgeArea(x0: number, x1: number, weight: number): void {
    const acc = this.acc;
    const xa = x0 < x1 ? x0 : x1;
    const xb = x0 < x1 ? x1 : x0;
    const span = xb - xa;
    const vertical = span < 1e-9; // coverage is then the plain step clamp(i + 1 - xa, 0, 1)
    const first = Math.max(0, Math.floor(xa));
    const last = Math.min(this.width + 1, Math.floor(xb) + 1);
    let previous = 0; // prefix sums must equal F(i) from `first` on, so cell `first` receives F(first) in full
    for (let i = first; i <= last; i++) {
      const z = i + 1 - xa;
      const f = vertical ? (z <= 0 ? 0 : z >= 1 ? 1 : z) : (ramp(z) - ramp(i + 1 - xb)) / span;
      acc[i] = acc[i]! + weight * (f - previous);
      previous = f;
    }
    if (first < this.lo) this.lo = first;
    if (last > this.hi) this.hi = last;
  }

  /**
   * Samples the shape along the horizontal line y: crossings sorted, inside spans by the fill rule, each adding
   * `weight` x its exact horizontal overlap per pixel. With `centres` the span ends snap to pixel centres (no AA).
   */
  private sampleLine(y: number, weight: number, activeCount: number, evenOdd: boolean, centres: boolean): void {
    const { active, yTop, yBot, xTop, slope, dir, bandMid: xs, bandEdge } = this;
    let count = 0;
    for (let k = 0; k < activeCount; k++) {
      const e = active[k]!;
      if (y < yTop[e]! || y >= yBot[e]!) continue;
      const x = xTop[e]! + (y - yTop[e]!) * slope[e]!;
      let j = count++;
      while (j > 0 && xs[j - 1]! > x) {
        xs[j] = xs[j - 1]!;
        bandEdge[j] = bandEdge[j - 1]!;
        j--;
      }
      xs[j] = x;
      bandEdge[j] = e;
    }
    let winding = 0;
    let spanStart = 0;
    for (let k = 0; k < count; k++) {
      const wasInside = evenOdd ? (winding & 1) !== 0 : winding !== 0;
      winding += dir[bandEdge[k]!]!;
      const isInside = evenOdd ? (winding & 1) !== 0 : winding !== 0;
      if (wasInside === isInside) continue;
      const x = centres ? Math.ceil(xs[k]! - 0.5) : xs[k]!;
      if (isInside) spanStart = x;
      else this.addSpan(spanStart, x, weight);
    }
  }

  /** Adds `weight` x the exact horizontal overlap of [spanStart, spanEnd) with each pixel to the difference row. */
  private addSpan(spanStart: number, spanEnd: number, weight: number): void {
    const { acc, width } = this;
    const xa = Math.min(width, Math.max(0, spanStart));
    const xb = Math.min(width, Math.max(0, spanEnd));
    if (xb <= xa) return;
    const ia = Math.floor(xa);
    const fa = xa - ia;
    const ib = Math.floor(xb);
    const fb = xb - ib;
    acc[ia] = acc[ia]! + weight * (1 - fa);
    acc[ia + 1] = acc[ia + 1]! + weight * fa;
    acc[ib] = acc[ib]! - weight * (1 - fb);
    acc[ib + 1] = acc[ib + 1]! - weight * fb;
    if (ia < this.lo) this.lo = ia;
    if (ib + 1 > this.hi) this.hi = ib + 1;
  }

  /**
   * Converts the path rings into non-horizontal top-down edges in the scratch arrays, clamped horizontally to
   * [-1, width + 1] (an edge crossing those lines is split, its outside parts becoming vertical edges on them);
   * edges wholly above or below the canvas are left out. Returns the edge count.
   */
  private buildEdges(path: Path, dx: number, dy: number): number {
    this.ensureEdges(3 * path.pointCount);
    const { xy, ringStart } = path;
    const clamp = (v: number): number => (v > COORD_LIMIT ? COORD_LIMIT : v < -COORD_LIMIT ? -COORD_LIMIT : v);
    const left = -1;
    const right = this.width + 1;
    let n = 0;
    for (let r = 0; r + 1 < ringStart.length; r++) {
      const start = ringStart[r]!;
      const end = ringStart[r + 1]!;
      let px = clamp(xy[2 * end - 2]! + dx);
      let py = clamp(xy[2 * end - 1]! + dy);
      for (let i = start; i < end; i++) {
        const x = clamp(xy[2 * i]! + dx);
        const y = clamp(xy[2 * i + 1]! + dy);
        // NaN coordinates fail every comparison, so test finiteness explicitly. An edge wholly above or below the
        // canvas is never active in one of its rows, so it is left out (most of a large area's edges, zoomed in).
        const above = y <= 0 && py <= 0,
          below = y >= this.height && py >= this.height;
        if (y !== py && !above && !below && Number.isFinite(x + y + px + py)) {
          const down = y > py;
          const x0 = down ? px : x;
          const y0 = down ? py : y;
          const x1 = down ? x : px;
          const y1 = down ? y : py;
          const d = down ? 1 : -1;
          const slope = (x1 - x0) / (y1 - y0);
          // Split at the y where the edge crosses x = left and x = right (each at most once), then clamp x.
          const yl = slope !== 0 ? y0 + (left - x0) / slope : NaN;
          const yr = slope !== 0 ? y0 + (right - x0) / slope : NaN;
          // Both are NaN for vertical edges, and NaN cuts are skipped by the comparisons below.
          const c0 = Math.min(yl, yr);
          const c1 = Math.max(yl, yr);
          // The pieces [y0, c0], [c0, c1], [c1, y1], each cut only where it lies strictly inside. Stored here rather
          // than by a helper: numbers passed to a call that is not inlined are boxed, an allocation per edge.
          let ya = y0;
          for (let piece = 0; piece < 3; piece++) {
            const yb = piece === 0 ? c0 : piece === 1 ? c1 : y1;
            if (piece < 2 && !(yb > ya && yb < y1)) continue;
            if (yb > ya) {
              // The piece lies on one side of each clamp line, so the clamped piece is still straight.
              const xa = x0 + (ya - y0) * slope;
              const xb = x0 + (yb - y0) * slope;
              const ca = xa < left ? left : xa > right ? right : xa;
              const cb = xb < left ? left : xb > right ? right : xb;
              this.yTop[n] = ya;
              this.yBot[n] = yb;
              this.xTop[n] = ca;
              this.slope[n] = (cb - ca) / (yb - ya);
              this.dir[n] = d;
              n++;
            }
            ya = yb;
          }
        }
        px = x;
        py = y;
      }
    }
    return n;
  }

  private ensureEdges(count: number): void {
    if (count <= this.edgeCap) return;
    const cap = Math.max(count, this.edgeCap * 2, 64);
    this.edgeCap = cap;
    this.yTop = new Float64Array(cap);
    this.yBot = new Float64Array(cap);
    this.xTop = new Float64Array(cap);
    this.slope = new Float64Array(cap);
    this.dir = new Int8Array(cap);
    this.order = new Uint32Array(cap);
    this.sortScratch = new Uint32Array(cap);
    this.active = new Uint32Array(cap);
    this.bandEdge = new Uint32Array(cap);
    this.bandTop = new Float64Array(cap);
    this.bandBot = new Float64Array(cap);
    this.bandMid = new Float64Array(cap);
    this.events = new Float64Array(2 * cap + 2);
  }
}

/** Inserts v into the sorted prefix a[0..count) and returns the new count. */
function insertSorted(a: Float64Array, count: number, v: number): number {
  let j = count;
  while (j > 0 && a[j - 1]! > v) {
    a[j] = a[j - 1]!;
    j--;
  }
  a[j] = v;
  return count + 1;
}

/** Integral of clamp(w, 0, 1) for w from 0 to z. */
function ramp(z: number): number {
  return z <= 0 ? 0 : z < 1 ? (z * z) / 2 : z - 0.5;
}
