/**
 * The operator names of the style-spec library's expressions (the keys of its `expressions` registry, v26, in its
 * order), so that telling an expression from a constant array such as `text-font: ["Noto Sans Regular"]` does not
 * load the library. test/style-small-expression.test.ts checks the list against the library's registry.
 */
const NAMES = [
  '==', '!=', '>', '<', '>=', '<=', 'array', 'at', 'boolean', 'case', 'coalesce', 'collator', 'format', 'image', 'in',
  'index-of', 'interpolate', 'interpolate-hcl', 'interpolate-lab', 'length', 'let', 'literal', 'match', 'number',
  'number-format', 'object', 'semiliteral', 'slice', 'step', 'string', 'to-boolean', 'to-color', 'to-number',
  'to-string', 'var', 'within', 'distance', 'global-state', 'error', 'typeof', 'to-rgba', 'rgb', 'rgba', 'has', 'get',
  'feature-state', 'properties', 'geometry-type', 'id', 'zoom', 'heatmap-density', 'elevation', 'line-progress',
  'accumulated', '+', '*', '-', '/', '%', 'ln2', 'pi', 'e', '^', 'sqrt', 'log10', 'ln', 'log2', 'sin', 'cos', 'tan',
  'asin', 'acos', 'atan', 'min', 'max', 'abs', 'round', 'floor', 'ceil', 'filter-==', 'filter-id-==',
  'filter-type-==', 'filter-<', 'filter-id-<', 'filter->', 'filter-id->', 'filter-<=', 'filter-id-<=', 'filter->=',
  'filter-id->=', 'filter-has', 'filter-has-id', 'filter-type-in', 'filter-id-in', 'filter-in-small',
  'filter-in-large', 'all', 'any', '!', 'is-supported-script', 'upcase', 'downcase', 'concat', 'split', 'join',
  'resolved-locale',
]; // prettier-ignore

/**
 * The names as keys of a plain object, as the library holds them: `in` on it answers as the library's test does,
 * inherited keys ("constructor", "toString") included.
 */
const OPERATORS: Readonly<Record<string, true>> = Object.fromEntries(NAMES.map((name) => [name, true]));

/** The registry's operator names, in its order. */
export const EXPRESSION_NAMES: readonly string[] = NAMES;

/**
 * Whether a value is written as an expression: a non-empty array whose first element names an operator (the
 * library's `isExpression`, answered without it).
 */
export function isExpressionValue(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && typeof value[0] === 'string' && value[0] in OPERATORS;
}
