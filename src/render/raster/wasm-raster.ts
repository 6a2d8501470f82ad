/**
 * The raster kernels in WebAssembly (bando-raster.wasm, built from wasm/raster by `npm run build:wasm`): the polygon
 * fill, the distance stroker and compositing, ported from scanline.ts, distance-stroke.ts and composite.ts to give
 * the same bytes at about half the time, and without the first image's wait for the JIT (WebAssembly is compiled
 * before it runs). A Canvas draws through one instance of its own once `loadRasterKernel` has run (the engine does
 * before its first image); where WebAssembly is unavailable it draws with those TypeScript kernels.
 */
import { WasmFile } from '../../wasm-file.js';
import { MaskSink, type ResolvedColor } from './composite.js';
import { dashingOf, type DistanceShape } from './distance-stroke.js';
import type { Path } from './path.js';
import type { Scanlines } from './png.js';
import type { LineCap } from './stroke-outline.js';

const kernel = new WasmFile(new URL('./bando-raster.wasm', import.meta.url), 'the WebAssembly raster kernel');

/**
 * Compiles the raster kernel once per process (from `bytes` when given, else from its file). Resolves to null,
 * never rejects, when WebAssembly is unavailable or the file cannot be read: canvases then draw in TypeScript.
 */
export function loadRasterKernel(bytes?: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module | null> {
  return kernel.load(bytes);
}

/** The compiled raster kernel once loaded, else null. */
export function rasterKernel(): WebAssembly.Module | null {
  return kernel.module;
}

/** Exports of bando-raster.wasm (see wasm/raster/lib.rs). Addresses are byte offsets into `memory`. */
export interface RasterExports {
  memory: WebAssembly.Memory;
  init(width: number, height: number): void;
  clear_pixels(): void;
  pixels_ptr(): number;
  mask_ptr(): number;
  touched_ptr(): number;
  set_mask_count(count: number): void;
  set_mask_window(row0: number, rows: number): void;
  input_xy(n: number): number;
  input_idx(n: number): number;
  input_dash(nOn: number, nTable: number): number;
  dash_table_ptr(): number;
  set_color(r: number, g: number, b: number, alpha: number): void;
  fill(rings: number, evenOdd: number, antialias: number, dx: number, dy: number, toMask: number, weight: number): void;
  fill_rings(rings: number, evenOdd: number, antialias: number, dx: number, dy: number): void;
  fill_polygons(
    polygons: number,
    rings: number,
    evenOdd: number,
    antialias: number,
    dx: number,
    dy: number,
    fill: number,
    fr: number,
    fg: number,
    fb: number,
    fa: number,
    outline: number,
    or: number,
    og: number,
    ob: number,
    oa: number,
  ): void;
  stroke(
    lines: number,
    dx: number,
    dy: number,
    closed: number,
    halfWidth: number,
    cap: number,
    blur: number,
    dashed: number,
    period: number,
    reachPeriods: number,
    round: number,
  ): void;
  flush(): void;
  clear_mask(): void;
  fill_words(word: number): void;
  blend_all(): void;
  scanlines(): number;
  scanline_channels(): number;
  input_bytes(n: number): number;
  sdf_text(
    glyphs: number,
    cx: number,
    cy: number,
    scale: number,
    ux: number,
    uy: number,
    grow: number,
    keep: number,
    edge: number,
    distScale: number,
  ): void;
  sdf_text_move(): void;
  significances(parts: number): number;
}

/**
 * Instances released by their canvases (WasmRaster.release), most recent first, for the next canvases of their
 * size: a fresh instance's megabytes of memory cost page faults as they are first touched (about a third of a
 * 600x400 image's drawing), a reused one's are warm. Two are kept, as MaskSink.shared keeps two masks.
 */
const spares: WasmRaster[] = [];
const MAX_SPARES = 2;

/**
 * Where a label's glyphs go (sdf-text.ts): centre (pixels), pixels per glyph pixel, baseline direction (cos, sin),
 * outline growth (pixels), the distance-field value of the outline and pixels per value step.
 */
export interface SdfPlacement {
  cx: number;
  cy: number;
  scale: number;
  ux: number;
  uy: number;
  grow: number;
  edge: number;
  distScale: number;
}

/** The colour passed for a fill or outline that is not drawn. */
const NO_COLOR: ResolvedColor = { r: 0, g: 0, b: 0, alpha: 0 };

/** Cap codes of the kernel's `stroke`. */
const CAP_CODE: Record<LineCap, number> = { butt: 0, round: 1, square: 2 };

/**
 * One canvas's pixels and coverage mask in an instance of the raster kernel. The pixels, mask and touched list are
 * allocated once and never move, but the memory's buffer is replaced whenever it grows (inputs may grow it), so the
 * views are taken again after any call that may allocate.
 */
export class WasmRaster {
  private readonly k: RasterExports;
  private readonly pixelsAt: number;
  private readonly maskAt: number;
  private readonly touchedAt: number;
  private viewed: {
    buffer: ArrayBuffer;
    pixels: Uint8ClampedArray;
    mask: MaskSink;
    f64: Float64Array;
    u32: Uint32Array;
    f32: Float32Array;
  } | null = null;

  /**
   * A transparent canvas's instance: a released one of this size when there is one, else a new one.
   * @param module the compiled kernel (rasterKernel)
   * @param width pixels, integer 1..16384
   * @param height pixels, integer 1..16384
   */
  static acquire(module: WebAssembly.Module, width: number, height: number): WasmRaster {
    const i = spares.findIndex((s) => s.module === module && s.width === width && s.height === height);
    if (i < 0) return new WasmRaster(module, width, height);
    const reused = spares.splice(i, 1)[0]!;
    reused.k.clear_pixels();
    return reused;
  }

  private constructor(
    private readonly module: WebAssembly.Module,
    readonly width: number,
    readonly height: number,
  ) {
    this.k = new WebAssembly.Instance(module, {}).exports as unknown as RasterExports;
    this.k.init(width, height);
    this.pixelsAt = this.k.pixels_ptr();
    this.maskAt = this.k.mask_ptr();
    this.touchedAt = this.k.touched_ptr();
  }

  private views(): NonNullable<WasmRaster['viewed']> {
    const buffer = this.k.memory.buffer as ArrayBuffer;
    if (this.viewed?.buffer !== buffer) {
      const n = this.width * this.height;
      this.viewed = {
        buffer,
        pixels: new Uint8ClampedArray(buffer, this.pixelsAt, 4 * n),
        mask: new MaskSink(
          this.width,
          this.height,
          new Float32Array(buffer, this.maskAt, n),
          new Int32Array(buffer, this.touchedAt, n),
        ),
        f64: new Float64Array(buffer),
        u32: new Uint32Array(buffer),
        f32: new Float32Array(buffer),
      };
    }
    return this.viewed;
  }

  /** Straight RGBA bytes, row-major (a view: valid until the next drawing call). */
  get pixels(): Uint8ClampedArray {
    return this.views().pixels;
  }

  /** Sets the colour of following fills and flushes. */
  setColor(c: ResolvedColor): void {
    this.k.set_color(c.r, c.g, c.b, c.alpha);
  }

  /**
   * Fills `path` translated by (dx, dy): composited in the colour, or with `weight` added to the mask (weighted
   * coverage, flushed later).
   */
  fill(path: Path, evenOdd: boolean, antialias: boolean, dx: number, dy: number, weight: number | null): void {
    const rings = path.ringCount;
    const xyAt = this.k.input_xy(2 * path.pointCount);
    const idxAt = this.k.input_idx(rings + 1);
    const { f64, u32 } = this.views();
    f64.set(path.xy.subarray(0, 2 * path.pointCount), xyAt >>> 3);
    for (let r = 0; r <= rings; r++) u32[(idxAt >>> 2) + r] = path.ringStart[r]!;
    this.k.fill(rings, evenOdd ? 1 : 0, antialias ? 1 : 0, dx, dy, weight === null ? 0 : 1, weight ?? 0);
  }

  /**
   * Fills a polygon of raw rings (flat x, y pairs, pixels) translated by (dx, dy) in the colour, as Canvas.fillPolygon
   * builds its path (see the kernel's `fill_rings`): the points go to the kernel in bulk, not point by point.
   */
  fillRings(rings: readonly ArrayLike<number>[], evenOdd: boolean, antialias: boolean, dx: number, dy: number): void {
    let coords = 0;
    for (const ring of rings) coords += ring.length & ~1;
    const xyAt = this.k.input_xy(coords);
    const idxAt = this.k.input_idx(rings.length);
    const { f64, u32 } = this.views();
    let at = xyAt >>> 3;
    rings.forEach((ring, k) => {
      const n = ring.length & ~1;
      if (ring instanceof Float64Array) f64.set(n === ring.length ? ring : ring.subarray(0, n), at);
      else for (let i = 0; i < n; i++) f64[at + i] = ring[i]!;
      at += n;
      u32[(idxAt >>> 2) + k] = at - (xyAt >>> 3);
    });
    this.k.fill_rings(rings.length, evenOdd ? 1 : 0, antialias ? 1 : 0, dx, dy);
  }

  /**
   * Fills polygons one after another, each as {@link fillRings} in `fill` (null: no fill) and then each of its rings'
   * 1 px outline in `outline` (null: none), composited ring by ring: Canvas.fillPolygon with an outline colour,
   * polygon by polygon, in one call (the kernel's `fill_polygons`). Polygon j is the next `ringCounts[j]` rings of
   * `xy[ends[k - 1] .. ends[k])` (flat x, y pairs, pixels; the first ring from 0).
   */
  fillPolygons(
    xy: Float64Array,
    ends: readonly number[],
    ringCounts: readonly number[],
    evenOdd: boolean,
    antialias: boolean,
    dx: number,
    dy: number,
    fill: ResolvedColor | null,
    outline: ResolvedColor | null,
  ): void {
    const rings = ends.length;
    const coords = rings > 0 ? ends[rings - 1]! : 0;
    const xyAt = this.k.input_xy(coords);
    const idxAt = this.k.input_idx(rings + ringCounts.length) >>> 2;
    const { f64, u32 } = this.views();
    f64.set(xy.subarray(0, coords), xyAt >>> 3);
    for (let k = 0; k < rings; k++) u32[idxAt + k] = ends[k]!;
    for (let j = 0; j < ringCounts.length; j++) u32[idxAt + rings + j] = ringCounts[j]!;
    const [f, o] = [fill ?? NO_COLOR, outline ?? NO_COLOR];
    this.k.fill_polygons(
      ringCounts.length,
      rings,
      evenOdd ? 1 : 0,
      antialias ? 1 : 0,
      dx,
      dy,
      fill ? 1 : 0,
      f.r,
      f.g,
      f.b,
      f.alpha,
      outline ? 1 : 0,
      o.r,
      o.g,
      o.b,
      o.alpha,
    );
  }

  /**
   * Composites in the colour the distance strokes of polylines `xy[ends[k - 1] .. ends[k])` (flat x, y pairs,
   * pixels, the first from 0) translated by (dx, dy), each cleaned as cleanPolyline does, max-accumulated as one
   * shape; the mask is left clear. The kernel strokes in bands of rows, so that the coverage touches a band's memory
   * instead of the whole canvas's (see wasm/raster/lib.rs `stroke_in_bands`).
   */
  stroke(
    xy: ArrayLike<number>,
    ends: ArrayLike<number>,
    lines: number,
    dx: number,
    dy: number,
    closed: boolean,
    shape: DistanceShape,
  ): void {
    if (lines === 0) return;
    const coords = ends[lines - 1]!;
    const dashing = dashingOf(shape);
    let dashAt = 0,
      tableAt = 0;
    if (dashing) {
      dashAt = this.k.input_dash(dashing.on.length, dashing.table?.length ?? 0);
      tableAt = this.k.dash_table_ptr();
    }
    const xyAt = this.k.input_xy(coords);
    const idxAt = this.k.input_idx(lines);
    const { f64, u32, f32 } = this.views();
    if (xy instanceof Float64Array) f64.set(xy.subarray(0, coords), xyAt >>> 3);
    else for (let i = 0; i < coords; i++) f64[(xyAt >>> 3) + i] = xy[i]!;
    for (let k = 0; k < lines; k++) u32[(idxAt >>> 2) + k] = ends[k]!;
    if (dashing) {
      f64.set(dashing.on, dashAt >>> 3);
      if (dashing.table) f32.set(dashing.table, tableAt >>> 2);
    }
    this.k.stroke(
      lines,
      dx,
      dy,
      closed ? 1 : 0,
      shape.halfWidth,
      CAP_CODE[shape.cap],
      shape.blur,
      dashing ? 1 : 0,
      dashing?.period ?? 0,
      dashing?.reachPeriods ?? 0,
      dashing?.round ? 1 : 0,
    );
  }

  /**
   * Max-accumulates into the mask a label's SDF glyphs (see sdf-text.ts `accumulate`): `glyphs` holds u0, v0, bitmap
   * width and height per glyph, `bitmaps` their distance fields; with `keep` the ungrown outlines' coverage is kept
   * for {@link sdfTextMove}.
   */
  sdfText(glyphs: Float64Array, bitmaps: readonly Uint8Array[], at: SdfPlacement, keep: boolean): void {
    let bytes = 0;
    for (const b of bitmaps) bytes += b.length;
    const xyAt = this.k.input_xy(glyphs.length);
    const bytesAt = this.k.input_bytes(bytes);
    const { f64, buffer } = this.views();
    f64.set(glyphs, xyAt >>> 3);
    const u8 = new Uint8Array(buffer, bytesAt, bytes);
    let o = 0;
    for (const b of bitmaps) {
      u8.set(b, o);
      o += b.length;
    }
    const { cx, cy, scale, ux, uy, grow, edge, distScale } = at;
    this.k.sdf_text(glyphs.length >> 2, cx, cy, scale, ux, uy, grow, keep ? 1 : 0, edge, distScale);
  }

  /** Max-accumulates the text coverage kept by the last {@link sdfText} into the mask. */
  sdfTextMove(): void {
    this.k.sdf_text_move();
  }

  /** A clear mask over the kernel's, for writers in TypeScript (text); hand it back with {@link flushMask}. */
  mask(): MaskSink {
    const mask = this.views().mask;
    mask.count = 0;
    return mask;
  }

  /**
   * Lets `draw` write coverage (as into a mask from {@link mask}) for rows `row0 .. row0 + rows` of the canvas only,
   * through a mask of those rows whose row 0 is canvas row `row0`: the kernel's mask windowed to them, at the start
   * of its memory (as the strokes' bands and SDF labels draw), so that text far down the canvas does not touch
   * fresh pages of the mask and touched list (on a fresh kernel each is a page fault of about 25 us in the 2-core
   * VM the benches run on: the bitmap labels of a first image of whole Ho Chi Minh City took about 150). Flush or
   * clear it with {@link flushMask} or {@link clearMask} without a count.
   * @param row0 first row, within the canvas
   * @param rows rows from row0, within the canvas
   */
  coverRows(row0: number, rows: number, draw: (mask: MaskSink) => void): void {
    this.k.set_mask_window(row0, rows);
    const { buffer } = this.views();
    const n = this.width * rows;
    const window = new MaskSink(
      this.width,
      rows,
      new Float32Array(buffer, this.maskAt, n),
      new Int32Array(buffer, this.touchedAt, n),
    );
    try {
      draw(window);
    } finally {
      this.k.set_mask_count(window.count);
    }
  }

  /**
   * Composites the mask in the colour and clears it; `written` is the touched count of a mask from {@link mask}
   * that TypeScript wrote to (omit it after the kernel's own strokes and fills).
   */
  flushMask(written?: number): void {
    if (written !== undefined) this.k.set_mask_count(written);
    this.k.flush();
  }

  /** Clears the mask without compositing (`written` as for flushMask). */
  clearMask(written?: number): void {
    if (written !== undefined) this.k.set_mask_count(written);
    this.k.clear_mask();
  }

  /** Hands the instance (its mask clear) to the next canvas of its size; nothing may use it after. */
  release(): void {
    spares.unshift(this);
    spares.length = Math.min(spares.length, MAX_SPARES);
  }

  /** Sets every pixel to `word` (bytes r, g, b, a from the lowest). */
  fillWords(word: number): void {
    this.k.fill_words(word);
  }

  /**
   * The pixels as PNG scanlines (each row behind its filter-type byte 0; RGB when every pixel is opaque, else RGBA,
   * as png.ts makes them): a view of the kernel's memory, written over the pixels (which are lost), valid until the
   * next call.
   */
  scanlines(): Scanlines {
    const at = this.k.scanlines();
    const channels = this.k.scanline_channels() === 3 ? 3 : 4;
    return { rows: new Uint8Array(this.k.memory.buffer, at, (channels * this.width + 1) * this.height), channels };
  }

  /** Composites the colour over every pixel. */
  blendAll(): void {
    this.k.blend_all();
  }
}
