/**
 * Resolves what a style layer draws for a basemap feature, memoised per (kind, geometry type) whenever the layer's
 * filter and properties do not read the feature's `name` - the only attribute that varies within a kind.
 *
 * Basemap features carry exactly two attributes, `class` (fixed by the kind) and `name`. The evaluator is handed
 * attributes behind a Proxy that notes whether `name` is read (by get, has, hasOwnProperty or key listing). An
 * evaluation that never read `name` followed the same path and gave the same result as it would for any other
 * feature of that kind and geometry type at that zoom, so the result is reused for all of them; otherwise the
 * layer is evaluated per feature.
 */
import { BASEMAP_KINDS } from '../map/kinds.js';
import type { EvaluatedValue, LayerEvaluator, StyleFeature } from '../style/index.js';
import type { RGBA, StrokeOptions } from './raster/index.js';
import type { DrawnLayerType, PlannedLayer } from './style-plan.js';

/** What a fill layer draws for a feature. */
interface FillStyle {
  color: RGBA;
  opacity: number;
  antialias: boolean;
  translate: readonly [number, number];
  /** The 1 px outline colour when the layer sets fill-outline-color, else null. */
  outline: RGBA | null;
}

/** What a line layer draws for a feature (the stroke options minus `closed`). */
export type LineStyle = StrokeOptions;

/** What a symbol layer draws for a feature: its text, for point labels. */
export interface SymbolStyle {
  text: string;
  color: RGBA;
  opacity: number;
  haloColor: RGBA | null;
  haloWidth: number;
  /** Font size, pixels (the bitmap font is scaled by an integer factor from it). */
  size: number;
  transform: 'none' | 'uppercase' | 'lowercase';
  /** text-font: the font stack. */
  font: readonly string[];
  /** symbol-placement: at the feature's point, or along its line. */
  placement: 'point' | 'line' | 'line-center';
  /** text-max-angle: the largest bend, degrees, a line label may lie along. */
  maxAngle: number;
  /** text-padding: free space kept around the label's box, pixels. */
  padding: number;
}

/** Style of a feature by layer type. */
export interface LayerStyles {
  fill: FillStyle;
  line: LineStyle;
  symbol: SymbolStyle;
  background: never;
}

const GEOMETRY_NAMES = ['Unknown', 'Point', 'LineString', 'Polygon'] as const;

/** Geometry type code (1 point, 2 line, 3 polygon) as the evaluator's geometry name. */
function geometryName(type: number): StyleFeature['geometryType'] {
  return GEOMETRY_NAMES[type] ?? 'Unknown';
}

/** Feature names as string-table ids (equal ids, equal names) and their text. */
export interface FeatureNames {
  /** The name id of a feature. */
  id(feature: number): number;
  /** The text of a name id ('' for none). */
  text(id: number): string;
}

/** Memo keys per name id: above every kind * 4 + geometry type. */
const KEYS_PER_NAME = 128;

/**
 * Per-render memo of one layer's feature styles at one zoom.
 * @typeParam T the layer type
 */
export class FeatureStyler<T extends Exclude<DrawnLayerType, 'background'>> {
  /** Memo by kind * 4 + geometry type: a style, null (not drawn), or undefined (not yet known / per feature). */
  private readonly memo: (LayerStyles[T] | null | undefined)[] = new Array(BASEMAP_KINDS.length * 4).fill(undefined);
  /** Memo of name-dependent results by name id * KEYS_PER_NAME + kind * 4 + type (features of a street share it). */
  private readonly byName = new Map<number, LayerStyles[T] | null>();
  private nameRead = false;
  private readonly props: { class: string; name?: string } = { class: '' };
  private readonly tracked: Record<string, unknown>;

  /**
   * @param layer the planned layer
   * @param zoom the render's zoom
   * @param names the features' names, read only when the memos cannot answer
   * @param ratio image pixels per style pixel (Viewport.pixelRatio): every size the style gives is multiplied by it
   */
  constructor(
    readonly layer: PlannedLayer & { type: T },
    readonly zoom: number,
    private readonly names: FeatureNames,
    private readonly ratio: number,
  ) {
    const props = this.props;
    const note = (key: string | symbol): void => {
      if (key === 'name') this.nameRead = true;
    };
    this.tracked = new Proxy(props as Record<string, unknown>, {
      get: (t, k) => (note(k), Reflect.get(t, k)),
      has: (t, k) => (note(k), Reflect.has(t, k)),
      getOwnPropertyDescriptor: (t, k) => (note(k), Reflect.getOwnPropertyDescriptor(t, k)),
      ownKeys: (t) => ((this.nameRead = true), Reflect.ownKeys(t)),
    });
  }

  /**
   * The style of one feature, or null when the layer's filter rejects it or it would draw nothing.
   * @param kind basemap kind index
   * @param type geometry type code
   * @param feature the feature (for its name)
   */
  style(kind: number, type: number, feature: number): LayerStyles[T] | null {
    const key = kind * 4 + type;
    const known = this.memo[key];
    if (known !== undefined) return known;
    const nameId = this.names.id(feature);
    const nameKey = nameId * KEYS_PER_NAME + key;
    const byName = this.byName.get(nameKey);
    if (byName !== undefined) return byName;
    this.props.class = BASEMAP_KINDS[kind]?.class ?? 'other';
    const n = this.names.text(nameId);
    if (n) this.props.name = n;
    else delete this.props.name;
    this.nameRead = false;
    const f: StyleFeature = { properties: this.tracked, geometryType: geometryName(type) };
    const ev = this.layer.evaluator;
    const result = ev.matches(f, this.zoom)
      ? (resolve(this.layer, ev, this.zoom, f, this.ratio) as LayerStyles[T] | null)
      : null;
    if (!this.nameRead && key < this.memo.length) this.memo[key] = result;
    else if (key < KEYS_PER_NAME) this.byName.set(nameKey, result);
    return result;
  }

  /**
   * Whether the layer draws no feature of this kind and geometry type: the style of `feature` (one of them) is null
   * and was found without reading its name, so it is the style of every one of them.
   */
  rejectsAll(kind: number, type: number, feature: number): boolean {
    return this.style(kind, type, feature) === null && this.memo[kind * 4 + type] === null;
  }
}

/** An evaluated colour (the evaluator and the rasteriser share the RGBA convention), else `fallback`. */
function rgba(v: EvaluatedValue | undefined, fallback: RGBA): RGBA {
  return Array.isArray(v) && v.length === 4 && typeof v[0] === 'number' ? (v as unknown as RGBA) : fallback;
}

const num = (v: EvaluatedValue | undefined, fallback: number): number => (typeof v === 'number' ? v : fallback);
const pair = (v: EvaluatedValue | undefined): readonly [number, number] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' ? [v[0] as number, v[1] as number] : [0, 0];

const strings = (v: EvaluatedValue | undefined): readonly string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : [];

const TRANSPARENT: RGBA = [0, 0, 0, 0];
const BLACK: RGBA = [0, 0, 0, 1];

/** The style of a feature in a layer; sizes (pixels) multiplied by `ratio`. */
function resolve(
  layer: PlannedLayer,
  ev: LayerEvaluator,
  zoom: number,
  f: StyleFeature,
  ratio: number,
): LayerStyles[keyof LayerStyles] | null {
  const value = (p: string): EvaluatedValue | undefined => ev.value(p, zoom, f);
  const size = (p: string, fallback: number): number => num(value(p), fallback) * ratio;
  const offset = (p: string): readonly [number, number] => {
    const [dx, dy] = pair(value(p));
    return [dx * ratio, dy * ratio];
  };
  switch (layer.type) {
    case 'fill': {
      // fill-pattern needs a sprite, which the static renderer does not load: patterned fills draw nothing.
      if (value('fill-pattern') !== undefined) return null;
      const color = rgba(value('fill-color'), BLACK);
      const opacity = num(value('fill-opacity'), 1);
      if (color[3] * opacity <= 0) return null;
      const antialias = value('fill-antialias') !== false;
      // GL renderers draw the 1 px outline in fill-color when fill-outline-color is unset; over an exact-area
      // anti-aliased fill that outline only darkens the edge pixels, so it is drawn only when set explicitly.
      const outline =
        layer.outlineSet && ev.isActive('fill-outline-color', zoom, f)
          ? rgba(value('fill-outline-color'), color)
          : null;
      return { color, opacity, antialias, translate: offset('fill-translate'), outline };
    }
    case 'line': {
      if (value('line-pattern') !== undefined) return null;
      const color = rgba(value('line-color'), BLACK);
      const opacity = num(value('line-opacity'), 1);
      const width = size('line-width', 1);
      if (color[3] * opacity <= 0 || !(width > 0)) return null;
      const dash = value('line-dasharray');
      return {
        color,
        opacity,
        width,
        cap: value('line-cap') as LineStyle['cap'],
        join: value('line-join') as LineStyle['join'],
        miterLimit: num(value('line-miter-limit'), 2),
        roundLimit: num(value('line-round-limit'), 1.05),
        dasharray: Array.isArray(dash) && dash.length > 0 ? (dash as number[]) : undefined,
        gapWidth: size('line-gap-width', 0),
        offset: size('line-offset', 0),
        blur: size('line-blur', 0),
        translate: offset('line-translate'),
      };
    }
    case 'symbol': {
      const raw = value('text-field');
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (!text) return null;
      const color = rgba(value('text-color'), BLACK);
      const opacity = num(value('text-opacity'), 1);
      if (color[3] * opacity <= 0) return null;
      const halo = rgba(value('text-halo-color'), TRANSPARENT);
      const haloWidth = size('text-halo-width', 0);
      return {
        text,
        color,
        opacity,
        haloColor: halo[3] > 0 && haloWidth > 0 ? halo : null,
        haloWidth,
        size: size('text-size', 16),
        transform: (value('text-transform') as SymbolStyle['transform']) ?? 'none',
        font: strings(value('text-font')),
        placement: (value('symbol-placement') as SymbolStyle['placement']) ?? 'point',
        maxAngle: num(value('text-max-angle'), 45),
        padding: size('text-padding', 2),
      };
    }
    default:
      return null;
  }
}
