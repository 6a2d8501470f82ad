/**
 * A software RGBA canvas with anti-aliased polygon fills and strokes, for static map images.
 *
 * Pixels are straight (non-premultiplied) RGBA bytes, row-major, origin at the top-left, y pointing down - the
 * layout PNG and ImageData use. Pixel (x, y) covers the square [x, x+1) x [y, y+1); so a polygon from 10 to 20
 * covers pixels 10..19 fully. Every draw composites source-over with coverage-based anti-aliasing.
 */
import type { RGBA } from '../../style/color.js';
import { MaskSink, resolveColor, SolidSink, type ResolvedColor } from './composite.js';
import { addDistanceStroke, type DistanceShape } from './distance-stroke.js';
import { Path } from './path.js';
import { cleanPolyline, clipPolyline, dashPolyline, offsetPolyline, PointList, type Rect } from './polyline.js';
import { drawMarker, type MarkerOptions } from './marker.js';
import { deflatePNG, encodePNG, encodePNGFast } from './png.js';
import { Rasterizer, type FillRule } from './scanline.js';
import { addCircle, addStrokeOutline, type LineCap, type LineJoin, type StrokeShape } from './stroke-outline.js';
import { drawText, type TextOptions } from './text.js';
import { rasterKernel, WasmRaster } from './wasm-raster.js';

/** Options of {@link Canvas.fillPolygon}. */
export interface FillOptions {
  /** Multiplies the colour's alpha, 0..1. Default 1. */
  opacity?: number;
  /** Coverage-based anti-aliasing; false samples pixel centres. Default true. */
  antialias?: boolean;
  /** Default `evenodd`: every inner ring is a hole whatever its orientation (OSM multipolygon rings). */
  rule?: FillRule;
  /** [dx, dy] pixels added to every coordinate (fill-translate). Default [0, 0]. */
  translate?: readonly [number, number];
  /** When set, also draws a 1 px line along every ring in this colour (fill-outline-color), with `opacity`. */
  outlineColor?: RGBA;
}

/** Options of {@link Canvas.strokePolyline}. */
export interface StrokeOptions {
  /** Line colour (straight RGBA). */
  color: RGBA;
  /** Line width, pixels. Default 1. With `gapWidth` this is the width of each of the two casing lines. */
  width?: number;
  /** Multiplies the colour's alpha, 0..1. Default 1. */
  opacity?: number;
  /** Default `butt`. */
  cap?: LineCap;
  /** Default `miter`. */
  join?: LineJoin;
  /** Miter ratio above which miter joins become bevels. Default 2 (maplibre's default). */
  miterLimit?: number;
  /** Miter ratio below which round joins are drawn as miters. Default 1.05 (maplibre's default). */
  roundLimit?: number;
  /**
   * Alternating dash and gap lengths in line widths (line-dasharray), measured along the line from its first point.
   * Patterns whose period is below 1 pixel are drawn solid with the opacity scaled by the dash fraction.
   */
  dasharray?: readonly number[];
  /** Gap width, pixels (line-gap-width): draws two lines of `width` on both sides of a gap of this width. */
  gapWidth?: number;
  /** Sideways offset, pixels (line-offset): positive moves the line to the right of its direction. */
  offset?: number;
  /** Blur, pixels (line-blur): coverage fades linearly to zero over this distance inside each edge. */
  blur?: number;
  /** [dx, dy] pixels added to every coordinate (line-translate). Default [0, 0]. */
  translate?: readonly [number, number];
  /** Treat the points as a closed ring (joins at every vertex, no caps). Default false. */
  closed?: boolean;
}

/**
 * Widest line (pixels) whose miter or bevel joins are drawn round by the distance stroker: up to this width a join
 * shape differs from a round one by under a pixel.
 */
const DISTANCE_JOIN_MAX_WIDTH = 2;

/** Most nested strokes used to approximate a blur ramp. */
const MAX_BLUR_LEVELS = 8;

/** Options of the {@link Canvas} constructor. */
export interface CanvasOptions {
  /**
   * Draw with the WebAssembly raster kernel when it is loaded (loadRasterKernel); false draws with the TypeScript
   * kernels, which give the same bytes. Default true.
   */
  wasm?: boolean;
}

/**
 * An RGBA raster (straight alpha) with anti-aliased vector drawing. Its kernels (fills, distance strokes,
 * compositing) run in an instance of the WebAssembly raster kernel of its own when that is loaded, else in
 * TypeScript (scanline.ts, distance-stroke.ts, composite.ts): the same bytes either way.
 */
export class Canvas {
  /** Width, pixels. */
  readonly width: number;
  /** Height, pixels. */
  readonly height: number;
  /** The WebAssembly kernel holding the pixels and mask, or null when drawing in TypeScript. */
  private kernel: WasmRaster | null;
  /** Set by {@link release}: the canvas's memory belongs to another canvas. */
  private released = false;
  /** The TypeScript kernels and pixels (null with the WebAssembly kernel). */
  private readonly js: { data: Uint8ClampedArray; raster: Rasterizer; solid: SolidSink } | null;
  /** The WebAssembly kernel's current colour (the TypeScript kernels keep theirs in their SolidSink). */
  private readonly color: ResolvedColor = { r: 0, g: 0, b: 0, alpha: 0 };
  /** The fill and outline colours of {@link fillPolygons} in the kernel. */
  private readonly fillColor: ResolvedColor = { r: 0, g: 0, b: 0, alpha: 0 };
  private readonly outlineColor: ResolvedColor = { r: 0, g: 0, b: 0, alpha: 0 };
  private readonly path = new Path();
  private readonly clean = new PointList();
  private readonly offsetPts = new PointList();
  private readonly clipScratch = new PointList();
  private readonly dashScratch = new PointList();
  private readonly ringCopy = new PointList();
  /** Offset lines gathered for the kernel. */
  private readonly offsetLines = new PointList();

  /**
   * @param width pixels, integer 1..16384
   * @param height pixels, integer 1..16384
   * @throws RangeError for other sizes (a programming error, not request input: validate requests before)
   */
  constructor(width: number, height: number, options: CanvasOptions = {}) {
    for (const [name, v] of [
      ['width', width],
      ['height', height],
    ] as const) {
      if (!Number.isInteger(v) || v < 1 || v > 16384)
        throw new RangeError(`Canvas ${name} must be an integer 1..16384, got ${v}`);
    }
    this.width = width;
    this.height = height;
    const module = options.wasm === false ? null : rasterKernel();
    this.kernel = module ? WasmRaster.acquire(module, width, height) : null;
    if (this.kernel) this.js = null;
    else {
      const data = new Uint8ClampedArray(width * height * 4);
      this.js = { data, raster: new Rasterizer(width, height), solid: new SolidSink(data, width) };
    }
  }

  /**
   * Straight RGBA bytes, row-major, 4 per pixel; starts fully transparent. With the WebAssembly kernel a view of its
   * memory, valid until the next drawing call.
   */
  get data(): Uint8ClampedArray {
    this.usable();
    return this.kernel ? this.kernel.pixels : this.js!.data;
  }

  /**
   * Gives the canvas's WebAssembly memory to the next canvas of its size (which then skips allocating and first
   * touching megabytes); the canvas must not be used after. Optional: a canvas never released is garbage collected
   * as any object.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.kernel?.release();
    this.kernel = null;
  }

  /** Throws when the canvas was released. */
  private usable(): void {
    if (this.released) throw new Error('the canvas was released');
  }

  /** Sets the colour of the next composite; false when nothing would show (transparent or not finite). */
  private setColor(color: RGBA, opacity: number): boolean {
    this.usable();
    if (!this.kernel) return this.js!.solid.setColor(color, opacity);
    if (!resolveColor(color, opacity, this.color)) return false;
    this.kernel.setColor(this.color);
    return true;
  }

  /** A clear coverage mask of this canvas's size: the kernel's, or the one shared by TypeScript canvases. */
  private mask(): MaskSink {
    return this.kernel ? this.kernel.mask() : MaskSink.shared(this.width, this.height);
  }

  /** Composites `mask` (from {@link mask}) in the current colour and clears it. */
  private flushMask(mask: MaskSink): void {
    if (this.kernel) this.kernel.flushMask(mask.count);
    else mask.flush(this.js!.solid);
  }

  /** Clears `mask` (from {@link mask}) without compositing. */
  private clearMask(mask: MaskSink): void {
    if (this.kernel) this.kernel.clearMask(mask.count);
    else mask.clear();
  }

  /**
   * Composites `color` over the whole canvas (a background layer).
   * @param opacity 0..1 multiplier of the colour's alpha
   */
  fillBackground(color: RGBA, opacity = 1): void {
    if (!this.setColor(color, opacity)) return;
    if (color[3] * opacity >= 1) {
      // Opaque: every pixel becomes the colour (rounded as the compositor would).
      const px = new Uint8ClampedArray([color[0], color[1], color[2], 255]);
      const word = new Uint32Array(px.buffer)[0]!;
      if (this.kernel) this.kernel.fillWords(word);
      else new Uint32Array(this.js!.data.buffer).fill(word);
      return;
    }
    if (this.kernel) {
      this.kernel.blendAll();
      return;
    }
    const cov = new Float32Array(this.width).fill(1);
    for (let y = 0; y < this.height; y++) this.js!.solid.span(y, 0, this.width, cov);
  }

  /**
   * Fills a polygon made of rings, each a flat array of x, y pairs in pixels (implicitly closed). With the default
   * even-odd rule the first ring is the outline and following rings are holes. Non-finite points are skipped.
   */
  fillPolygon(rings: readonly ArrayLike<number>[], color: RGBA, options: FillOptions = {}): void {
    const opacity = options.opacity ?? 1;
    const [dx, dy] = options.translate ?? [0, 0];
    const rule = options.rule ?? 'evenodd';
    const antialias = options.antialias ?? true;
    if (this.kernel) {
      // The kernel builds the path itself, the same way (wasm/raster/lib.rs `fill_rings`).
      if (this.setColor(color, opacity) && Number.isFinite(dx + dy))
        this.kernel.fillRings(rings, rule === 'evenodd', antialias, dx, dy);
    } else {
      const path = this.path;
      path.reset();
      for (const ring of rings) {
        for (let i = 0; i + 1 < ring.length; i += 2) {
          const x = ring[i]!,
            y = ring[i + 1]!;
          if (Number.isFinite(x) && Number.isFinite(y)) path.lineTo(x, y);
        }
        path.closeRing(false);
      }
      this.fillPath(path, color, opacity, rule, antialias, dx, dy);
    }
    if (options.outlineColor) {
      for (const ring of rings) {
        this.strokePolyline(ring, {
          color: options.outlineColor,
          opacity,
          width: 1,
          closed: true,
          translate: [dx, dy],
        });
      }
    }
  }

  /**
   * Fills polygons one after another, each as {@link fillPolygon} fills it (its outline, when `outlineColor` is set,
   * drawn after its fill): polygon j is the next `ringCounts[j]` rings `xy[ends[k - 1] .. ends[k])` (flat x, y pairs
   * in pixels; the first ring starts at 0). With the WebAssembly kernel this is one call for all of them: the
   * buildings of a city view (hundreds to thousands, each with its outline) cost one call instead of several each.
   */
  fillPolygons(
    xy: Float64Array,
    ends: readonly number[],
    ringCounts: readonly number[],
    color: RGBA,
    options: FillOptions = {},
  ): void {
    this.usable();
    if (!this.kernel) {
      for (let j = 0, k = 0; j < ringCounts.length; j++) {
        const rings: Float64Array[] = [];
        for (const end = k + ringCounts[j]!; k < end; k++) rings.push(xy.subarray(k > 0 ? ends[k - 1]! : 0, ends[k]!));
        this.fillPolygon(rings, color, options);
      }
      return;
    }
    const opacity = options.opacity ?? 1;
    const [dx, dy] = options.translate ?? [0, 0];
    // As fillPolygon: nothing at all is drawn with a non-finite translation, and each part only in a visible colour.
    if (!Number.isFinite(dx + dy)) return;
    const fill = resolveColor(color, opacity, this.fillColor) ? this.fillColor : null;
    const outline =
      options.outlineColor && resolveColor(options.outlineColor, opacity, this.outlineColor) ? this.outlineColor : null;
    if (!fill && !outline) return;
    const evenOdd = (options.rule ?? 'evenodd') === 'evenodd';
    this.kernel.fillPolygons(xy, ends, ringCounts, evenOdd, options.antialias ?? true, dx, dy, fill, outline);
  }

  /**
   * Fills a prepared {@link Path} (pixels) - the low-level entry point used by markers and text.
   * @param rule fill rule across all rings
   * @param dx translation, pixels
   * @param dy translation, pixels
   */
  fillPath(path: Path, color: RGBA, opacity = 1, rule: FillRule = 'nonzero', antialias = true, dx = 0, dy = 0): void {
    if (!this.setColor(color, opacity) || !Number.isFinite(dx + dy)) return;
    if (this.kernel) this.kernel.fill(path, rule === 'evenodd', antialias, dx, dy, null);
    else this.js!.raster.fill(path, rule, antialias, dx, dy, this.js!.solid);
  }

  /**
   * Fills a circle.
   * @param cx centre x, pixels
   * @param cy centre y, pixels
   * @param r radius, pixels
   */
  fillCircle(cx: number, cy: number, r: number, color: RGBA, opacity = 1): void {
    if (!(r > 0) || !Number.isFinite(cx + cy + r)) return;
    this.path.reset();
    addCircle(this.path, cx, cy, r);
    this.fillPath(this.path, color, opacity);
  }

  /**
   * Strokes a polyline given as a flat array of x, y pairs in pixels. The stroke outline (segments, joins, caps,
   * dashes, casing, offset) is built as polygons and filled in one pass with the non-zero rule, so overlaps never
   * double-blend. Geometry farther than the stroke's reach outside the canvas is clipped away first, so far-off or
   * huge coordinates cost nothing.
   */
  strokePolyline(points: ArrayLike<number>, options: StrokeOptions): void {
    this.strokePolylines(points, [points.length], options);
  }

  /**
   * Strokes several polylines as one shape (their union: overlaps are covered once, then composited once), as
   * {@link strokePolyline} does for one. Polyline k is `xy[ends[k - 1] .. ends[k])` (flat x, y pairs, pixels; the
   * first starts at 0), so a whole layer's features of one style draw without per-feature arrays.
   */
  strokePolylines(xy: ArrayLike<number>, ends: ArrayLike<number>, options: StrokeOptions): void {
    const width = options.width ?? 1;
    const blur = Math.max(0, options.blur ?? 0);
    const gap = Math.max(0, options.gapWidth ?? 0);
    const offset = options.offset ?? 0;
    let opacity = options.opacity ?? 1;
    const [dx, dy] = options.translate ?? [0, 0];
    if (!(width > 0) || !Number.isFinite(width + blur + gap + offset + dx + dy)) return;
    if (!this.setColor(options.color, opacity)) return;
    const shape: StrokeShape = {
      width,
      cap: options.cap ?? 'butt',
      join: options.join ?? 'miter',
      miterLimit: options.miterLimit ?? 2,
      roundLimit: options.roundLimit ?? 1.05,
    };
    const pattern = dashPattern(options.dasharray, width);
    if (pattern && pattern.period < 1) opacity *= pattern.onFraction;
    const dashes = pattern && pattern.period >= 1 ? pattern.lengths : null;
    const closed = options.closed ?? false;
    const sideOffsets = gap > 0 ? [offset - (gap + width) / 2, offset + (gap + width) / 2] : [offset];
    /** Calls `fn` with each polyline cleaned into `this.clean`. */
    const forEachLine = (fn: () => void): void => {
      for (let k = 0, start = 0; k < ends.length; start = ends[k++]!) {
        cleanPolyline(xy, dx, dy, this.clean, start, ends[k]!);
        if (this.clean.count > 0) fn();
      }
    };
    if (shape.join === 'round' || width <= DISTANCE_JOIN_MAX_WIDTH) {
      // Lines whose joins look round: the distance stroker (see distance-stroke.ts).
      const distanceShape = { halfWidth: width / 2, cap: shape.cap, blur, dashes };
      if (this.kernel) {
        if (this.setColor(options.color, opacity)) {
          this.strokeInKernel(this.kernel, xy, ends, dx, dy, sideOffsets, closed, distanceShape);
        }
        return;
      }
      const mask = MaskSink.shared(this.width, this.height);
      forEachLine(() => {
        for (const side of sideOffsets) {
          let line = this.clean;
          if (side !== 0) {
            offsetPolyline(this.clean, closed, side, this.offsetPts);
            line = this.offsetPts;
          }
          addDistanceStroke(mask, line, closed, distanceShape);
        }
      });
      if (this.setColor(options.color, opacity)) mask.flush(this.js!.solid);
      else mask.clear();
      return;
    }
    const reach = (width / 2) * (shape.join === 'miter' ? Math.max(1, shape.miterLimit) : 1) + 2;
    const guard: Rect = { minX: -reach, minY: -reach, maxX: this.width + reach, maxY: this.height + reach };

    // Blur: sum of nested strokes, each narrower by blur/levels and weighted 1/levels, approximates the linear ramp.
    const levels = blur > 0 ? Math.min(MAX_BLUR_LEVELS, Math.max(2, Math.ceil(blur))) : 1;
    const sink = levels > 1 ? this.mask() : null;
    for (let level = 0; level < levels; level++) {
      const levelWidth = levels > 1 ? width - (2 * blur * (level + 0.5)) / levels : width;
      if (levelWidth <= 0) continue;
      this.path.reset();
      forEachLine(() => {
        for (const side of sideOffsets) this.buildStroke({ ...shape, width: levelWidth }, side, closed, dashes, guard);
      });
      if (!sink) this.fillPath(this.path, options.color, opacity);
      else if (this.kernel) this.kernel.fill(this.path, false, true, 0, 0, 1 / levels);
      else {
        sink.weight = 1 / levels;
        this.js!.raster.fill(this.path, 'nonzero', true, 0, 0, sink);
      }
    }
    if (!sink) return;
    // The kernel's own fills keep its touched count (kernel.flushMask without a count).
    if (!this.setColor(options.color, opacity)) {
      if (this.kernel) this.kernel.clearMask();
      else sink.clear();
    } else if (this.kernel) this.kernel.flushMask();
    else sink.flush(this.js!.solid);
  }

  /**
   * The distance strokes of polylines `xy[ends[k - 1] .. ends[k])` translated by (dx, dy), each side offset,
   * composited in the kernel's colour as one shape: lines without an offset go to the kernel as they are (it cleans
   * them), offset ones are cleaned and offset here first.
   */
  private strokeInKernel(
    kernel: WasmRaster,
    xy: ArrayLike<number>,
    ends: ArrayLike<number>,
    dx: number,
    dy: number,
    sideOffsets: readonly number[],
    closed: boolean,
    shape: DistanceShape,
  ): void {
    if (sideOffsets.length === 1 && sideOffsets[0] === 0) {
      kernel.stroke(xy, ends, ends.length, dx, dy, closed, shape);
      return;
    }
    const lines = this.offsetLines;
    lines.reset();
    const lineEnds: number[] = [];
    for (let k = 0, start = 0; k < ends.length; start = ends[k++]!) {
      cleanPolyline(xy, dx, dy, this.clean, start, ends[k]!);
      if (this.clean.count === 0) continue;
      for (const side of sideOffsets) {
        if (side !== 0) offsetPolyline(this.clean, closed, side, this.offsetPts);
        // Appended whole (push would merge a point equal to the previous line's last).
        lines.append(side !== 0 ? this.offsetPts : this.clean);
        lineEnds.push(2 * lines.count);
      }
    }
    kernel.stroke(lines.xy, lineEnds, lineEnds.length, 0, 0, closed, shape);
  }

  /** Appends the outline rings of the cleaned polyline, offset sideways by `side` pixels, to `this.path`. */
  private buildStroke(shape: StrokeShape, side: number, closed: boolean, dashes: number[] | null, guard: Rect): void {
    let line = this.clean;
    if (side !== 0) {
      offsetPolyline(this.clean, closed, side, this.offsetPts);
      line = this.offsetPts;
    }
    clipPolyline(line, closed, guard, this.clipScratch, (piece, startDistance, pieceClosed) => {
      if (!dashes) {
        addStrokeOutline(this.path, piece, pieceClosed, shape);
        return;
      }
      let open = piece;
      if (pieceClosed) {
        // Dashing walks a closed ring as an open line that returns to its first point.
        this.ringCopy.reset();
        for (let i = 0; i < piece.count; i++) this.ringCopy.push(piece.xy[2 * i]!, piece.xy[2 * i + 1]!);
        this.ringCopy.push(piece.xy[0]!, piece.xy[1]!);
        open = this.ringCopy;
      }
      dashPolyline(open, startDistance, dashes, this.dashScratch, (dash, ux, uy) => {
        addStrokeOutline(this.path, dash, false, shape, ux, uy);
      });
    });
  }

  /**
   * Composites coverage that `draw` max-accumulates into a clear mask of this canvas's size (keeping the mask's
   * touched-list invariant, see {@link MaskSink}) in `color`, once: overlapping parts blend as one shape.
   * @param opacity 0..1 multiplier of the colour's alpha
   * @param drawInKernel draws the same coverage into the WebAssembly kernel's mask; used instead of `draw` when the
   *   canvas draws with the kernel
   */
  drawCoverage(
    color: RGBA,
    opacity: number,
    draw: (mask: MaskSink) => void,
    drawInKernel?: (kernel: WasmRaster) => void,
  ): void {
    if (!this.setColor(color, opacity)) return;
    if (this.kernel && drawInKernel) {
      drawInKernel(this.kernel);
      this.kernel.flushMask();
      return;
    }
    const mask = this.mask();
    try {
      draw(mask);
    } catch (err) {
      this.clearMask(mask);
      throw err;
    }
    this.flushMask(mask);
  }

  /**
   * Draws a route origin (ringed dot centred on the point) or destination (pin with its tip on the point) marker.
   * @param x pixels
   * @param y pixels
   */
  drawMarker(x: number, y: number, options: MarkerOptions): void {
    drawMarker(this, x, y, options);
  }

  /**
   * Draws text in the built-in 5x7 bitmap font (ASCII and the copyright sign) with its top-left corner at (x, y),
   * rounded to whole pixels.
   * @param x pixels
   * @param y pixels
   */
  drawText(text: string, x: number, y: number, options: TextOptions): void {
    drawText(this, text, x, y, options);
  }

  /**
   * Reads one pixel.
   * @returns straight RGBA bytes [r, g, b, a] (0..255 each), or null outside the canvas
   */
  getPixel(x: number, y: number): [number, number, number, number] | null {
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= this.width || y >= this.height)
      return null;
    const i = (y * this.width + x) * 4;
    return [this.data[i]!, this.data[i + 1]!, this.data[i + 2]!, this.data[i + 3]!];
  }

  /** Encodes the canvas as a PNG file (8-bit RGBA). */
  toPNG(): Uint8Array {
    return encodePNG(this.data, this.width, this.height);
  }

  /**
   * Encodes the canvas as a PNG file (8-bit RGBA) with the platform's native compressor: much faster for big images.
   * The canvas's last use: it is released at once (see release), its memory going to the next canvas once the PNG
   * is made, since the kernel writes the scanlines over the pixels (memory already touched: no megabytes allocated
   * per image, and none first touched on a fresh kernel's first image).
   */
  toPNGAsync(): Promise<Uint8Array> {
    this.usable();
    const kernel = this.kernel;
    this.released = true;
    this.kernel = null;
    if (!kernel) return encodePNGFast(this.js!.data, this.width, this.height);
    return deflatePNG(this.width, this.height, () => kernel.scanlines()).finally(() => kernel.release());
  }
}

/** Dash lengths in pixels with their period and the fraction of the period that is drawn. */
interface DashPattern {
  lengths: number[];
  period: number;
  onFraction: number;
}

/**
 * Scales a dasharray (in line widths) to pixels. Returns null (solid line) for a missing, empty or invalid array or
 * one that sums to zero. An odd-length array is repeated once, as in SVG, so dashes and gaps alternate.
 */
function dashPattern(dasharray: readonly number[] | undefined, width: number): DashPattern | null {
  if (!dasharray || dasharray.length === 0) return null;
  if (!dasharray.every((v) => Number.isFinite(v) && v >= 0)) return null;
  const base = dasharray.length % 2 === 1 ? [...dasharray, ...dasharray] : [...dasharray];
  const lengths = base.map((v) => v * width);
  const period = lengths.reduce((a, b) => a + b, 0);
  if (!(period > 0)) return null;
  const on = lengths.reduce((a, v, i) => (i % 2 === 0 ? a + v : a), 0);
  return { lengths, period, onFraction: on / period };
}
