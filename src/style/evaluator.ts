import type { Feature, StyleExpression } from '@maplibre/maplibre-gl-style-spec';
import { checkConstant } from './check-constant.js';
import { compileFilter, compileProperty, valueForm } from './compile.js';
import { compileSmallFilter, compileSmallProperty } from './small-expression.js';
import { VISIBILITY, isDocumentedLayerType, propertiesOf } from './definitions.js';
import { definitionFor } from './defaults.js';
import { joinPath, type StyleIssue } from './issues.js';
import { normalizeValue, type EvaluatedValue } from './normalize.js';
import type { PropertyDefinition, PropertyKind } from './types.js';

/** A feature as the evaluator sees it. */
export interface StyleFeature {
  /** Feature attributes read by `get`, `has`, legacy filters and functions. */
  readonly properties?: Readonly<Record<string, unknown>>;
  /** `Point`, `LineString`, `Polygon` (Multi* allowed) or the vector-tile codes 1, 2, 3. */
  readonly geometryType?: Feature['type'];
  readonly id?: string | number;
}

/** Extra inputs of an evaluation. */
interface EvaluateOptions {
  /** Values read by `feature-state` expressions (fs properties only). */
  readonly featureState?: Readonly<Record<string, unknown>>;
  /** Position along the line, 0–1, for line-gradient (default 0). */
  readonly lineProgress?: number;
}

/** Evaluates one layer's properties and filter. Built by {@link createLayerEvaluator}. */
export interface LayerEvaluator {
  readonly id: string | undefined;
  readonly type: string;
  /** Values and filters that were invalid and are replaced by defaults (filter: matches nothing). */
  readonly problems: readonly StyleIssue[];
  /** Whether the layer is drawn at `zoom`: visibility, minzoom <= zoom < maxzoom. */
  isVisible(zoom: number): boolean;
  /** Whether the layer's filter accepts the feature; zoom is floored (filters use integer zooms). */
  matches(feature: StyleFeature, zoom: number): boolean;
  /**
   * A property's value (explicit, else default), ignoring requirements.
   * @returns `undefined` for unknown properties and when there is no value ("none" default)
   */
  value(property: string, zoom: number, feature?: StyleFeature, options?: EvaluateOptions): EvaluatedValue | undefined;
  /** Whether the property is used: its requirements hold and no disabling property is set. */
  isActive(property: string, zoom: number, feature?: StyleFeature, options?: EvaluateOptions): boolean;
  /** All layout properties that are active and have a value, by name. */
  layout(zoom: number, feature?: StyleFeature, options?: EvaluateOptions): Record<string, EvaluatedValue>;
  /** All paint properties that are active and have a value, by name. */
  paint(zoom: number, feature?: StyleFeature, options?: EvaluateOptions): Record<string, EvaluatedValue>;
}

/** Options of {@link createLayerEvaluator}. */
export interface LayerEvaluatorOptions {
  /** The layer's source description; when given, line-gradient's source requirement is applied. */
  readonly source?: Readonly<Record<string, unknown>>;
}

/** The expression-evaluation surface shared by the library's zoom-constant/dependent expressions. */
type Evaluable = Pick<StyleExpression, 'evaluateWithoutErrorHandling'>;

/** A property's compiled value: a constant, an expression, or an invalid expression (the default applies). */
type Compiled =
  | { readonly kind: 'constant'; readonly value: EvaluatedValue | undefined }
  | { readonly kind: 'expression'; readonly expression: Evaluable }
  | { readonly kind: 'invalid' };

/** A function that gives `value`. */
const constantly =
  <T>(value: T): (() => T) =>
  () =>
    value;

/** A function computing `make()` on its first call and giving that from then on. */
function once<T>(make: () => T): () => T {
  let value: { readonly v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => x !== null && typeof x === 'object' && !Array.isArray(x);

function toLibraryFeature(feature: StyleFeature | undefined): Feature | undefined {
  if (!feature) return undefined;
  return { type: feature.geometryType ?? 'Unknown', id: feature.id, properties: feature.properties ?? {} };
}

/**
 * Compiles a layer for evaluation. Never throws: invalid values are listed in `problems` and
 * replaced by the table defaults; a layer that is not an object evaluates as invisible.
 * Expressions are compiled by the small table of small-expression.ts when it takes them, else with the style-spec
 * library's expression engine (expressions, zoom `interpolate`/`step`, data-driven `get`/`match`/`case`/..., legacy
 * `{stops, base, type, property}` functions, legacy and expression filters) on their first use, or when `problems`
 * is read: a layer whose used values the table takes never loads the library.
 * @param layer a style layer object
 */
export function createLayerEvaluator(layer: unknown, options?: LayerEvaluatorOptions): LayerEvaluator {
  const obj = isObject(layer) ? layer : {};
  const type = typeof obj.type === 'string' ? obj.type : '';
  const id = typeof obj.id === 'string' ? obj.id : undefined;
  const sections: Record<PropertyKind, Json> = {
    layout: isObject(obj.layout) ? obj.layout : {},
    paint: isObject(obj.paint) ? obj.paint : {},
  };
  const defs = [VISIBILITY, ...propertiesOf(type).filter((d) => d !== VISIBILITY)];

  /** The layer's problems in order, those of values left to the library found when they are compiled. */
  const issues: (StyleIssue[] | (() => StyleIssue[]))[] = [];
  if (!isObject(layer)) issues.push([{ path: '', message: 'a layer must be an object' }]);
  const compiled = new Map<string, () => Compiled>();
  for (const def of defs) {
    const raw = sections[def.kind][def.name];
    if (raw === undefined) continue;
    const path = joinPath(def.kind, def.name);
    if (valueForm(raw) === 'constant') {
      const message = checkConstant(def, raw);
      if (message) issues.push([{ path, message }]);
      // Out-of-range numbers are clamped (like expression results); wrong types use the default.
      const value = normalizeValue(def, raw);
      if (value !== undefined) compiled.set(def.name, constantly({ kind: 'constant', value }));
      continue;
    }
    const small = compileSmallProperty(def, raw);
    if (small) {
      compiled.set(def.name, constantly({ kind: 'expression', expression: small }));
      continue;
    }
    const library = once((): { entry: Compiled; problems: StyleIssue[] } => {
      const result = compileProperty(def, raw, path);
      if (result.ok)
        return { entry: { kind: 'expression', expression: result.expression as unknown as Evaluable }, problems: [] };
      return {
        entry: { kind: 'invalid' },
        problems: result.problems.map((p) => ({ path: path + p.key, message: p.message })),
      };
    });
    compiled.set(def.name, () => library().entry);
    issues.push(() => library().problems);
  }

  if (isDocumentedLayerType(type)) {
    for (const kind of ['layout', 'paint'] as const) {
      for (const key of Object.keys(sections[kind])) {
        const def = definitionFor(type, key);
        if (def?.kind === kind || (kind === 'paint' && key.endsWith('-transition'))) continue;
        issues.push([
          { path: joinPath(kind, key), message: `ignored: "${key}" is not a ${kind} property of ${type} layers` },
        ]);
      }
    }
  }

  /** The filter: undefined when there is none, null when it is invalid (it matches nothing). */
  let filter: () => Evaluable | null | undefined = () => undefined;
  if (obj.filter !== undefined) {
    const small = compileSmallFilter(obj.filter);
    if (small) filter = () => small;
    else {
      const library = once((): { filter: Evaluable | null; problems: StyleIssue[] } => {
        const result = compileFilter(obj.filter, 'filter');
        if (result.ok) return { filter: result.expression, problems: [] };
        return { filter: null, problems: result.problems.map((p) => ({ path: `filter${p.key}`, message: p.message })) };
      });
      filter = () => library().filter;
      issues.push(() => library().problems);
    }
  }

  const minzoom = typeof obj.minzoom === 'number' ? obj.minzoom : -Infinity;
  const maxzoom = typeof obj.maxzoom === 'number' ? obj.maxzoom : Infinity;

  function evaluate(
    def: PropertyDefinition,
    zoom: number,
    feature: StyleFeature | undefined,
    opts: EvaluateOptions | undefined,
  ): EvaluatedValue | undefined {
    const entry = compiled.get(def.name)?.();
    let result: EvaluatedValue | undefined;
    if (entry?.kind === 'constant') result = entry.value;
    else if (entry?.kind === 'expression') {
      const z = def.integerZoom ? Math.floor(zoom) : zoom;
      try {
        const raw = entry.expression.evaluateWithoutErrorHandling(
          { zoom: z, lineProgress: opts?.lineProgress ?? 0 },
          toLibraryFeature(feature),
          opts?.featureState ?? {},
        );
        result = normalizeValue(def, raw);
      } catch {
        result = undefined; // runtime error (e.g. a `get` of a missing attribute asserted as number)
      }
    }
    if (result !== undefined) return result;
    if (def.defaultFrom) {
      const from = definitionFor(type, def.defaultFrom);
      return from ? evaluate(from, zoom, feature, opts) : undefined;
    }
    return def.default === undefined ? undefined : normalizeValue(def, def.default);
  }

  /** Set explicitly and evaluating to something (an empty text/image counts as not set). */
  function isSetTo(def: PropertyDefinition, zoom: number, feature?: StyleFeature, opts?: EvaluateOptions): boolean {
    const entry = compiled.get(def.name)?.();
    if (!entry || entry.kind === 'invalid') return false;
    const v = evaluate(def, zoom, feature, opts);
    return v !== undefined && v !== '';
  }

  function isActive(def: PropertyDefinition, zoom: number, feature?: StyleFeature, opts?: EvaluateOptions): boolean {
    for (const req of def.requires ?? []) {
      const dep = definitionFor(type, req.property);
      if (!dep) continue;
      if (!req.values) {
        if (!isSetTo(dep, zoom, feature, opts)) return false;
      } else if (!req.values.includes(evaluate(dep, zoom, feature, opts) as string | boolean)) {
        return false;
      }
    }
    for (const name of def.disabledBy ?? []) {
      const other = definitionFor(type, name);
      if (other && isSetTo(other, zoom, feature, opts)) return false;
    }
    const need = def.requiresSource;
    const source = options?.source;
    return !(need && source && (source.type !== need.type || source[need.option] !== true));
  }

  function collect(
    kind: PropertyKind,
    zoom: number,
    feature?: StyleFeature,
    opts?: EvaluateOptions,
  ): Record<string, EvaluatedValue> {
    const out: Record<string, EvaluatedValue> = {};
    for (const def of defs) {
      if (def.kind !== kind || !isActive(def, zoom, feature, opts)) continue;
      const v = evaluate(def, zoom, feature, opts);
      if (v !== undefined) out[def.name] = v;
    }
    return out;
  }

  const problems = once(() => issues.flatMap((i) => (typeof i === 'function' ? i() : i)));
  return {
    id,
    type,
    get problems() {
      return problems();
    },
    isVisible(zoom) {
      if (!isObject(layer) || !(zoom >= minzoom && zoom < maxzoom)) return false;
      return evaluate(VISIBILITY, zoom, undefined, undefined) !== 'none';
    },
    matches(feature, zoom) {
      const f = filter();
      if (f === null) return false;
      if (!f) return true;
      try {
        return f.evaluateWithoutErrorHandling({ zoom: Math.floor(zoom) }, toLibraryFeature(feature)) === true;
      } catch {
        return false;
      }
    },
    value(property, zoom, feature, opts) {
      const def = definitionFor(type, property);
      return def ? evaluate(def, zoom, feature, opts) : undefined;
    },
    isActive(property, zoom, feature, opts) {
      const def = definitionFor(type, property);
      return def ? isActive(def, zoom, feature, opts) : false;
    },
    layout: (zoom, feature, opts) => collect('layout', zoom, feature, opts),
    paint: (zoom, feature, opts) => collect('paint', zoom, feature, opts),
  };
}
