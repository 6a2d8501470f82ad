/**
 * Draws a pack's basemap with a style: every drawable layer in style order, each over the features of its source
 * layer that lie in view (culled by bounding box through the basemap grid), filtered and styled per feature.
 */
import type { Basemap } from '../map/basemap.js';
import { GeomType } from '../map/kinds.js';
import { drawnFeatures, groupFeatures, type FeatureGroups } from './feature-groups.js';
import {
  FeatureStyler,
  type FeatureNames,
  type LayerStyles,
  type LineStyle,
  type SymbolStyle,
} from './feature-styles.js';
import type { LabelBox } from './label-collision.js';
import { Labeler, longestStretch, MAX_LINE_LABELS, type Stretch } from './labels.js';
import { worldXToLon, worldYToLat, type Canvas, type RGBA, type Viewport } from './raster/index.js';
import { basemapIndex } from './basemap-index.js';
import type { RenderCache } from './render-cache.js';
import type { PlannedLayer } from './style-plan.js';
import { checkpoint } from '../checkpoint.js';

/** What the basemap renderer reads from a region. */
export interface BasemapSource {
  readonly basemap: Basemap | null;
  /** Feature names by string id. */
  readonly strings: { get(id: number): string };
}

/**
 * Style pixels of geometry kept around the view when culling: wide enough for any plausible line width, offset or
 * translate, so features just outside still draw their visible edge.
 */
const CULL_MARGIN = 96;
/** Vertices closer than this to the previous kept vertex are dropped when projecting polygons, pixels. */
const SIMPLIFY_PIXELS = 0.25;
/**
 * Douglas-Peucker tolerance of stroked geometry, pixels: the simplified line stays within this distance of the
 * original, which moves an anti-aliased edge by at most this fraction of a pixel's coverage.
 */
const LINE_TOLERANCE = 0.1;
/** Shortest line (bounding box diagonal, style pixels) searched for a label stretch: shorter than any street name. */
const MIN_LABEL_PIXELS = 32;
/** Douglas-Peucker tolerance of the lines searched for label stretches, pixels. */
const LABEL_TOLERANCE = 1;

/**
 * Projected coordinates of the parts being drawn (pixels), kept from one render to the next: each render fills it
 * from the start and every drawing call copies what it is given, so renders (synchronous) never see another's. A
 * fresh array per render, grown by doubling from 1,024, wrote five arrays of 16-256 KB (about 0.5 MB of fresh
 * pages, each a page fault on first touch, then garbage) for a first image of whole Ho Chi Minh City, which uses
 * 256 KB.
 */
let projected: Float64Array | null = null;
/**
 * First length of `projected`, coordinates: 0.5 MB, twice what a first image of a whole city uses (a large buffer
 * is mapped lazily: pages never written cost nothing).
 */
const FIRST_PROJECTED = 1 << 16;

/** What a basemap render placed besides its pixels. */
export interface BasemapDrawn {
  /** Boxes of the labels drawn (text-padding included), in placement order. */
  labels: readonly LabelBox[];
}

/**
 * Draws the basemap of `source` seen through `viewport` onto `canvas` with `style` (a style JSON; see
 * `planStyle` for what is drawn). Layers' zoom ranges and visibility apply at the viewport's zoom.
 * @param cache the owner's render cache: the style's plan and the glyphs come from it (the basemap index is shared: basemapIndex)
 */
export function drawBasemap(
  canvas: Canvas,
  viewport: Viewport,
  source: BasemapSource,
  style: unknown,
  cache: RenderCache,
): BasemapDrawn {
  const plan = cache.plan(style);
  const zoom = viewport.zoom;
  const basemap = source.basemap;
  const index = basemap ? basemapIndex(basemap) : null;
  const scale = viewport.tileSize * 2 ** zoom;
  const ratio = viewport.pixelRatio;
  const margin = CULL_MARGIN * ratio;
  const box: [number, number, number, number] = [
    worldXToLon(viewport.left - margin, zoom, viewport.tileSize),
    worldYToLat(viewport.top + viewport.height + margin, zoom, viewport.tileSize),
    worldXToLon(viewport.left + viewport.width + margin, zoom, viewport.tileSize),
    worldYToLat(viewport.top - margin, zoom, viewport.tileSize),
  ];
  const inView = index ? index.query(box) : new Map<string, Uint32Array>();
  const names: FeatureNames = {
    id: (f) => (basemap ? basemap.name[f]! : 0),
    text: (id) => (basemap ? source.strings.get(id) : ''),
  };
  let buf = (projected ??= new Float64Array(FIRST_PROJECTED));
  let labeler: Labeler | null = null;
  /** The features in view of each source layer grouped by kind and geometry type (made on its first style layer). */
  const groupsOf = new Map<string, FeatureGroups>();

  /** Makes room for `n` more coordinates after index `at` of `buf`. */
  const reserve = (at: number, n: number): void => {
    if (at + n <= buf.length) return;
    const grown = new Float64Array(Math.max(at + n, 2 * buf.length));
    grown.set(buf.subarray(0, at));
    buf = projected = grown;
  };

  /**
   * Projects part p into `buf` from index `at` (pixels) and returns the index after it. Points within
   * SIMPLIFY_PIXELS of the last kept one are dropped (the last point is always kept): at low zooms most vertices
   * fall within a pixel of each other and cost time without changing a pixel noticeably.
   */
  const project = (p: number, dropClosing: boolean, at: number): number => {
    const first = index!.start(p);
    const world = index!.points(p);
    const end = first + (dropClosing ? index!.openEnd(p) : basemap!.partFirst.at(p + 1)) - basemap!.partFirst.at(p);
    reserve(at, 2 * (end - first));
    const start = at;
    for (let i = first; i < end; i++) {
      const x = world[2 * i]! * scale - viewport.left;
      const y = world[2 * i + 1]! * scale - viewport.top;
      if (at > start && i < end - 1) {
        const ddx = x - buf[at - 2]!,
          ddy = y - buf[at - 1]!;
        if (ddx * ddx + ddy * ddy < SIMPLIFY_PIXELS * SIMPLIFY_PIXELS) continue;
      }
      buf[at++] = x;
      buf[at++] = y;
    }
    return at;
  };

  /**
   * Projects part p into `buf` from index `at` (pixels) simplified by Douglas-Peucker at `tolerance` pixels
   * (through the precomputed significances) and returns the index after it. A closed ring's repeated last point is
   * dropped when `dropClosing`.
   */
  const projectLine = (p: number, dropClosing: boolean, at: number, tolerance = LINE_TOLERANCE): number => {
    const sig = index!.partSignificance(p);
    const world = index!.points(p);
    const first = index!.start(p);
    let end = first + basemap!.partFirst.at(p + 1) - basemap!.partFirst.at(p);
    const minSig = tolerance / scale;
    if (
      dropClosing &&
      end - first > 1 &&
      world[2 * first] === world[2 * end - 2] &&
      world[2 * first + 1] === world[2 * end - 1]
    )
      end--;
    reserve(at, 2 * (end - first));
    for (let i = first; i < end; i++) {
      if (sig[i]! < minSig && i !== end - 1) continue;
      buf[at++] = world[2 * i]! * scale - viewport.left;
      buf[at++] = world[2 * i + 1]! * scale - viewport.top;
    }
    return at;
  };

  for (const layer of plan.layers) {
    checkpoint();
    const ev = layer.evaluator;
    if (!ev.isVisible(zoom)) continue;
    if (layer.type === 'background') {
      drawBackground(canvas, layer, zoom);
      continue;
    }
    // The feature loops below are indexed: on a fresh engine's first image this code is not yet optimised, and a
    // for-of made an iterator result per feature (about 0.3 MB of garbage on whole Ho Chi Minh City).
    const inLayer = inView.get(layer.sourceLayer!);
    if (!inLayer || !basemap) continue;
    let groups = groupsOf.get(layer.sourceLayer!);
    if (!groups) groupsOf.set(layer.sourceLayer!, (groups = groupFeatures(basemap, inLayer)));
    if (layer.type === 'fill') {
      // Consecutive features of one memoised style are filled by one call: their rings lie one after another in
      // `buf` (ring ends in `ends`, ring counts per feature in `ringCounts`), drawn polygon by polygon in order.
      const styler = new FeatureStyler(layer as PlannedLayer & { type: 'fill' }, zoom, names, ratio);
      const features = drawnFeatures(groups, (type) => type === GeomType.polygon, styler.rejectsAll.bind(styler));
      const ends: number[] = [];
      const ringCounts: number[] = [];
      let batch: LayerStyles['fill'] | null = null;
      const flush = (): void => {
        if (batch && ringCounts.length > 0)
          canvas.fillPolygons(buf, ends, ringCounts, batch.color, {
            opacity: batch.opacity,
            antialias: batch.antialias,
            translate: batch.translate,
            outlineColor: batch.outline ?? undefined,
          });
        ends.length = 0;
        ringCounts.length = 0;
      };
      for (let k = 0; k < features.length; k++) {
        const f = features[k]!;
        if (basemap.type[f] !== GeomType.polygon) continue;
        const s = styler.style(basemap.kind[f]!, GeomType.polygon, f);
        if (!s) continue;
        if (s !== batch) {
          flush();
          batch = s;
        }
        const first = basemap.featPart.at(f),
          end = basemap.featPart.at(f + 1);
        for (let p = first, at = ends.length > 0 ? ends[ends.length - 1]! : 0; p < end; p++)
          ends.push((at = project(p, true, at)));
        ringCounts.push(end - first);
      }
      flush();
    } else if (layer.type === 'line') {
      // Consecutive features of one memoised style (and geometry kind) are stroked together as one shape.
      const styler = new FeatureStyler(layer as PlannedLayer & { type: 'line' }, zoom, names, ratio);
      const features = drawnFeatures(groups, (type) => type !== GeomType.point, styler.rejectsAll.bind(styler));
      index!.prepareSignificance(features);
      const ends: number[] = [];
      let batch: LineStyle | null = null;
      let batchClosed = false;
      const flush = (): void => {
        if (batch && ends.length > 0)
          canvas.strokePolylines(buf, ends, batchClosed ? { ...batch, closed: true } : batch);
        ends.length = 0;
      };
      for (let k = 0; k < features.length; k++) {
        const f = features[k]!;
        const type = basemap.type[f]!;
        if (type === GeomType.point) continue;
        const s = styler.style(basemap.kind[f]!, type, f);
        if (!s) continue;
        const closed = type === GeomType.polygon;
        if (s !== batch || closed !== batchClosed) {
          flush();
          batch = s;
          batchClosed = closed;
        }
        for (let p = basemap.featPart.at(f); p < basemap.featPart.at(f + 1); p++)
          ends.push(projectLine(p, closed, ends.length > 0 ? ends[ends.length - 1]! : 0));
      }
      flush();
    } else if (layer.type === 'symbol') {
      const styler = new FeatureStyler(layer as PlannedLayer & { type: 'symbol' }, zoom, names, ratio);
      labeler ??= new Labeler(canvas, cache.fonts);
      const atPoint = ev.value('symbol-placement', zoom) === 'point';
      const placed = atPoint ? GeomType.point : GeomType.line;
      const features = drawnFeatures(groups, (type) => type === placed, styler.rejectsAll.bind(styler));
      if (atPoint) {
        for (let k = 0; k < features.length; k++) {
          const f = features[k]!;
          if (basemap.type[f] !== GeomType.point) continue; // point labels of lines and areas are not placed
          const s = styler.style(basemap.kind[f]!, GeomType.point, f);
          if (!s) continue;
          const part = basemap.featPart.at(f);
          const world = index!.points(part);
          const first = index!.start(part);
          labeler.point(s, world[2 * first]! * scale - viewport.left, world[2 * first + 1]! * scale - viewport.top);
        }
        continue;
      }
      // Line labels. A basemap feature's style depends only on its kind, geometry type and name, so features are
      // grouped by those first and each group keeps its longest straight stretch; the style (a costly per-name
      // evaluation) is then resolved group by group, longest stretch first, until enough labels are found.
      const maxAngle = ev.value('text-max-angle', zoom);
      const minLabel = MIN_LABEL_PIXELS * ratio;
      const best = new Map<number, { feature: number; stretch: Stretch }>();
      // Degrees of longitude and latitude per pixel here (the view is small enough for one latitude scale).
      const degX = 360 / scale,
        degY = degX * Math.cos((viewport.center[1] * Math.PI) / 180);
      for (let k = 0; k < features.length; k++) {
        const f = features[k]!;
        if (basemap.type[f] !== GeomType.line) continue;
        // An unnamed line whose style (one for all unnamed lines of its kind, memoised) labels nothing needs no
        // stretch: about half the lines in view of a city, which the search below would project and walk.
        if (basemap.name[f] === 0 && !styler.style(basemap.kind[f]!, GeomType.line, f)) continue;
        // A line whose bounding box is shorter than any label cannot hold one.
        const w = ((basemap.bbox[4 * f + 2]! - basemap.bbox[4 * f]!) * 1e-7) / degX;
        const h = ((basemap.bbox[4 * f + 3]! - basemap.bbox[4 * f + 1]!) * 1e-7) / degY;
        if (w * w + h * h < minLabel * minLabel) continue;
        const group = basemap.name[f]! * 256 + basemap.kind[f]!;
        for (let p = basemap.featPart.at(f); p < basemap.featPart.at(f + 1); p++) {
          const end = projectLine(p, false, 0, LABEL_TOLERANCE);
          const stretch = longestStretch(
            buf,
            0,
            end,
            typeof maxAngle === 'number' ? maxAngle : 45,
            canvas.width,
            canvas.height,
          );
          const known = best.get(group);
          if (stretch && stretch.length >= minLabel && (!known || known.stretch.length < stretch.length))
            best.set(group, { feature: f, stretch });
        }
      }
      const stretches = new Map<string, { style: SymbolStyle; stretch: Stretch }>();
      for (const { feature: f, stretch } of [...best.values()].sort((a, b) => b.stretch.length - a.stretch.length)) {
        if (stretches.size >= MAX_LINE_LABELS) break;
        const s = styler.style(basemap.kind[f]!, GeomType.line, f);
        if (s && s.placement !== 'point' && !stretches.has(s.text)) stretches.set(s.text, { style: s, stretch });
      }
      labeler.lines(stretches.values());
    }
  }
  return { labels: labeler ? labeler.collisions.boxes : [] };
}

function drawBackground(canvas: Canvas, layer: PlannedLayer, zoom: number): void {
  const ev = layer.evaluator;
  if (ev.value('background-pattern', zoom) !== undefined) return; // needs a sprite
  const color = ev.value('background-color', zoom) as RGBA | undefined;
  const opacity = ev.value('background-opacity', zoom);
  if (!color) return;
  canvas.fillBackground(color, typeof opacity === 'number' ? opacity : 1);
}
