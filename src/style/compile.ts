import type { convertFilter, StyleExpression, StylePropertyExpression } from '@maplibre/maplibre-gl-style-spec';
import { isExpressionValue } from './expression-names.js';
import { loadedStyleSpec, styleSpec } from './style-spec.js';
import { FILTER_SPEC, libraryPropertySpec } from './library-spec.js';
import type { PropertyDefinition } from './types.js';
import { show } from './issues.js';

/** A parse problem: `key` is the index path inside the value (e.g. `[2][1]`), '' for the root. */
interface CompileProblem {
  readonly key: string;
  readonly message: string;
}

/** Outcome of compiling a property value (T = StylePropertyExpression) or a filter (T = StyleExpression). */
export type CompileResult<T = StylePropertyExpression> =
  { readonly ok: true; readonly expression: T } | { readonly ok: false; readonly problems: CompileProblem[] };

/** How a property value is written. */
export type ValueForm = 'constant' | 'expression' | 'function';

/**
 * Classifies a property value as the library does (`isExpression`, `isFunction`) without loading it: expression
 * array, legacy function object (any other object, unless it is a value of the library's own classes, which exist
 * only once it is loaded), or constant.
 */
export function valueForm(value: unknown): ValueForm {
  if (isExpressionValue(value)) return 'expression';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'constant';
  const library = loadedStyleSpec();
  return !library || library.function.isFunction(value) ? 'function' : 'constant';
}

const INTERPOLATE_OPS = new Set(['interpolate', 'interpolate-hcl', 'interpolate-lab']);

/** Whether an expression uses operator `op`-matching nodes anywhere outside `literal`s. */
function usesOperator(expr: unknown, test: (op: string) => boolean): boolean {
  if (Array.isArray(expr)) {
    if (expr[0] === 'literal') return false;
    if (typeof expr[0] === 'string' && test(expr[0])) return true;
    return expr.some((e) => usesOperator(e, test));
  }
  if (expr !== null && typeof expr === 'object') {
    return Object.values(expr).some((e) => usesOperator(e, test));
  }
  return false;
}

/** Rewrites the library's capability messages into ones that name the property and the table. */
function explain(def: PropertyDefinition, message: string): string {
  if (message === 'data expressions not supported') {
    const dd = typeof def.dataDriven === 'string' ? def.dataDriven : 'supported';
    return `"${def.name}" does not support data-driven expressions (DD: ${dd})`;
  }
  if (message.includes('"interpolate" expressions cannot be used')) {
    return `"${def.name}" does not support interpolate expressions`;
  }
  return message;
}

function toExpressionInput(def: PropertyDefinition, value: unknown): unknown {
  if (valueForm(value) !== 'function') return value;
  // Legacy {stops, base, type, property} objects: the library converts them to the equivalent
  // expression, so one parser and one evaluator serve both forms.
  return styleSpec().function.convertFunction(value, libraryPropertySpec(def));
}

/**
 * Compiles an expression or legacy function value of a property with the style-spec library, then
 * applies the table's capabilities the library does not check: feature-state only where `fs`,
 * `interpolate` (at any depth) only where `interp`. Data-driven use where DD is '-' or
 * 'unsupported' is refused by the library (the spec's property-type is data-constant).
 * Never throws.
 * @param rootKey location used in the library's runtime warnings, e.g. `layers[2].paint.line-width`
 */
export function compileProperty(def: PropertyDefinition, value: unknown, rootKey: string): CompileResult {
  let input: unknown;
  try {
    input = toExpressionInput(def, value);
  } catch (e) {
    return { ok: false, problems: [{ key: '', message: `invalid function: ${(e as Error).message}` }] };
  }
  const problems: CompileProblem[] = [];
  if (!def.featureState && usesOperator(input, (op) => op === 'feature-state')) {
    problems.push({ key: '', message: `"${def.name}" does not support feature-state expressions` });
  }
  if (!def.interpolate && usesOperator(input, (op) => INTERPOLATE_OPS.has(op))) {
    problems.push({ key: '', message: `"${def.name}" does not support interpolate expressions` });
  }
  let result;
  try {
    result = styleSpec().createPropertyExpression(input, rootKey || def.name, libraryPropertySpec(def));
  } catch (e) {
    return { ok: false, problems: [...problems, { key: '', message: (e as Error).message }] };
  }
  if (result.result === 'error') {
    for (const err of result.value) {
      const message = explain(def, err.message);
      if (!problems.some((p) => p.message === message)) problems.push({ key: err.key, message });
    }
  }
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, expression: result.value as StylePropertyExpression };
}

/**
 * Compiles a layer filter, expression or legacy (`["==", "class", "x"]`, `["has", ...]`, `$type`,
 * `$id`) form. Feature-state is refused (the spec does not support it in filters). Never throws.
 */
export function compileFilter(filter: unknown, rootKey: string): CompileResult<StyleExpression> {
  // The spec library converts any non-array (5, "abc", {}) to a filter that matches everything, and [] to one that
  // matches nothing: a filter is an expression (a non-empty array naming its operator first) or a boolean literal.
  const isExpression = Array.isArray(filter) && typeof filter[0] === 'string';
  if (!isExpression && typeof filter !== 'boolean') {
    const message = `invalid filter: expected an expression such as ["==", ["get", "class"], "primary"]; found ${show(filter)}`;
    return { ok: false, problems: [{ key: '', message }] };
  }
  let input: unknown = filter;
  try {
    if (!styleSpec().expression.isExpressionFilter(filter)) {
      input = styleSpec().convertFilter(filter as Parameters<typeof convertFilter>[0]);
    }
  } catch (e) {
    return { ok: false, problems: [{ key: '', message: `invalid filter: ${(e as Error).message}` }] };
  }
  if (usesOperator(input, (op) => op === 'feature-state')) {
    return {
      ok: false,
      problems: [{ key: '', message: 'feature-state is not supported in filters' }],
    };
  }
  try {
    // createExpression, not createPropertyExpression: filters may compare ["zoom"] anywhere.
    const result = styleSpec().createExpression(input, rootKey || 'filter', FILTER_SPEC);
    if (result.result === 'error') {
      return { ok: false, problems: result.value.map((e) => ({ key: e.key, message: e.message })) };
    }
    return { ok: true, expression: result.value };
  } catch (e) {
    return { ok: false, problems: [{ key: '', message: `invalid filter: ${(e as Error).message}` }] };
  }
}
