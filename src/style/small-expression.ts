/**
 * A small, table-driven compiler of the expressions most styles write, the default style's among them: zoom curves
 * (`interpolate`, linear or exponential, over `["zoom"]` with number stops at the top of a property) and feature
 * tests and choices (`get`, `has`, `==`, `!=`, `all`, `any`, `!`, `case`, `match` on string labels) with literal
 * outputs. A style that needs nothing else is drawn without loading the style-spec library, whose load and first
 * parse took about a tenth of a fresh engine's first static image.
 *
 * It answers as the library (v26) does, rule for rule, read from its sources: it takes an expression only where the
 * library's parser accepts it (operand counts, types, label rules, the property's zoom and feature capabilities),
 * adds the implicit annotations the parser adds (a `get` asserted to a number, string or boolean, coerced to text
 * where formatted text is expected) and evaluates in the library's order and arithmetic.
 * Anything else gives `undefined`, and the caller compiles it with the library. Results are plain values in the
 * form `normalizeValue` reads: a colour is its literal text (only names and hex forms, which the library parses to
 * the same RGBA), formatted text its string. test/style-small-expression.test.ts compares it with the library.
 */
import { NAMED_COLORS } from './color-names.js';
import type { PropertyDefinition } from './types.js';

/** A compiled expression, evaluated as the library's `evaluateWithoutErrorHandling` is (it throws on a failed assertion). */
export interface SmallExpression {
  evaluateWithoutErrorHandling(
    globals: { readonly zoom: number },
    feature?: { readonly properties?: Readonly<Record<string, unknown>> },
  ): unknown;
}

/** The type the library's parser expects at a position (`value`: any, as an operand of `==` or the input of `match`). */
type Expected = 'number' | 'string' | 'boolean' | 'color' | 'formatted' | 'value';

/** A compiled node: its value at a zoom for a feature's properties. */
type Node = (zoom: number, properties: Readonly<Record<string, unknown>>) => unknown;

/** What a position lets an expression read. */
interface Rules {
  /** `get` and `has` (the property is data-driven, or it is a filter). */
  readonly feature: boolean;
  /** A zoom curve (the top of a property that is interpolated and takes zoom). */
  readonly zoomCurve: boolean;
}

/** Compiles an operator's array at a position, or gives undefined when the library would refuse it or this table cannot. */
type Operator = (x: readonly unknown[], expected: Expected, rules: Rules) => Node | undefined;

/** The operator table. */
const OPERATORS = new Map<string, Operator>([
  ['get', get],
  ['has', has],
  ['==', (x, expected, rules) => equals(x, expected, rules, true)],
  ['!=', (x, expected, rules) => equals(x, expected, rules, false)],
  ['all', (x, expected, rules) => logical(x, expected, rules, true)],
  ['any', (x, expected, rules) => logical(x, expected, rules, false)],
  ['!', not],
  ['case', choose],
  ['match', match],
  ['interpolate', interpolate],
]);

/** The expected type of a property's value by the table's value type (the others are left to the library). */
const EXPECTED: Partial<Record<PropertyDefinition['type'], Expected>> = {
  number: 'number',
  boolean: 'boolean',
  color: 'color',
  enum: 'string',
  formatted: 'formatted',
};

/**
 * A property's expression value compiled by the table, or undefined when the table does not take it.
 * @param value a value `valueForm` calls an expression
 */
export function compileSmallProperty(def: PropertyDefinition, value: unknown): SmallExpression | undefined {
  const expected = EXPECTED[def.type];
  if (!expected) return undefined;
  const ramp = def.rampInput !== undefined;
  return wrap(
    node(value, expected, {
      feature: !ramp && typeof def.dataDriven === 'object',
      zoomCurve: !ramp && def.interpolate,
    }),
  );
}

/** A layer filter compiled by the table (a boolean, or an array of its operators), or undefined. */
export function compileSmallFilter(filter: unknown): SmallExpression | undefined {
  if (typeof filter !== 'boolean' && !Array.isArray(filter)) return undefined;
  return wrap(node(filter, 'boolean', { feature: true, zoomCurve: false }));
}

/** The compiled node as an expression. */
function wrap(compiled: Node | undefined): SmallExpression | undefined {
  return (
    compiled && {
      evaluateWithoutErrorHandling: (globals, feature) => compiled(globals.zoom, feature?.properties || {}),
    }
  );
}

function node(x: unknown, expected: Expected, rules: Rules): Node | undefined {
  if (!Array.isArray(x)) return literal(x, expected);
  const op = typeof x[0] === 'string' ? OPERATORS.get(x[0]) : undefined;
  return op?.(x, expected, rules);
}

/** A branch's output or an operand below the top: no zoom curve there. */
function below(x: unknown, expected: Expected, rules: Rules): Node | undefined {
  return node(x, expected, { ...rules, zoomCurve: false });
}

/** Colour texts the library parses to what parseColor gives: names, `transparent` and hex forms. */
const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/;

function isPlainColor(text: string): boolean {
  const s = text.toLowerCase().trim();
  return s === 'transparent' || Object.hasOwn(NAMED_COLORS, s) || HEX_COLOR.test(s);
}

/** A literal at a position of its type, else undefined (the library's type error). */
function literal(x: unknown, expected: Expected): Node | undefined {
  let ok: boolean;
  if (expected === 'value') ok = x === null || ['string', 'number', 'boolean'].includes(typeof x);
  else if (expected === 'number' || expected === 'boolean') ok = typeof x === expected;
  else ok = typeof x === 'string' && (expected !== 'color' || isPlainColor(x));
  return ok ? () => x : undefined;
}

/** The library's `valueToString` of the plain values a feature's properties hold (undefined for a function). */
function valueToString(v: unknown): string | undefined {
  if (v === null) return '';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) as string | undefined;
}

/**
 * `get` of a literal key: the property, inherited ones included, null when undefined; asserted to the expected
 * number, string or boolean (thrown otherwise), or as formatted text (which is '' where valueToString is undefined).
 */
function get(x: readonly unknown[], expected: Expected, rules: Rules): Node | undefined {
  const key = x[1];
  if (!rules.feature || x.length !== 2 || typeof key !== 'string') return undefined;
  const raw: Node = (_, p) => {
    const v = p[key];
    return v === undefined ? null : v;
  };
  switch (expected) {
    case 'value':
      return raw;
    case 'number':
    case 'string':
    case 'boolean':
      return (z, p) => {
        const v = raw(z, p);
        if (typeof v !== expected) throw new Error(`Expected value to be of type ${expected}`);
        return v;
      };
    case 'formatted':
      return (z, p) => valueToString(raw(z, p)) ?? '';
    default:
      return undefined; // a colour parsed from data: left to the library
  }
}

/** `has` of a literal key other than '$id' and '$type' (which make a filter legacy, another meaning). */
function has(x: readonly unknown[], expected: Expected, rules: Rules): Node | undefined {
  const key = x[1];
  if (expected !== 'boolean' || !rules.feature || x.length !== 2 || typeof key !== 'string') return undefined;
  if (key === '$id' || key === '$type') return undefined;
  return (_, p) => key in p && p[key] !== undefined;
}

/** `==` / `!=` of a `get` and a literal or another `get`, without a collator: strict (in)equality. */
function equals(x: readonly unknown[], expected: Expected, rules: Rules, equal: boolean): Node | undefined {
  if (expected !== 'boolean' || x.length !== 3) return undefined;
  // Two literals are left to the library (its type rules for them, and a filter of them is legacy).
  if (!isGet(x[1]) && !isGet(x[2])) return undefined;
  const a = below(x[1], 'value', rules);
  const b = below(x[2], 'value', rules);
  if (!a || !b) return undefined;
  return equal ? (z, p) => a(z, p) === b(z, p) : (z, p) => a(z, p) !== b(z, p);
}

const isGet = (x: unknown): boolean => Array.isArray(x) && x[0] === 'get';

/** `all` / `any` of boolean operands, evaluated in order until one decides. */
function logical(x: readonly unknown[], expected: Expected, rules: Rules, all: boolean): Node | undefined {
  if (expected !== 'boolean') return undefined;
  const args: Node[] = [];
  for (let i = 1; i < x.length; i++) {
    const arg = below(x[i], 'boolean', rules);
    if (!arg) return undefined;
    args.push(arg);
  }
  return all ? (z, p) => args.every((a) => a(z, p)) : (z, p) => args.some((a) => a(z, p));
}

function not(x: readonly unknown[], expected: Expected, rules: Rules): Node | undefined {
  const arg = expected === 'boolean' && x.length === 2 ? below(x[1], 'boolean', rules) : undefined;
  return arg && ((z, p) => !arg(z, p));
}

/** `case`: tests and outputs in turn, then the fallback; the outputs have the position's type. */
function choose(x: readonly unknown[], expected: Expected, rules: Rules): Node | undefined {
  if (expected === 'value' || x.length < 4 || x.length % 2 !== 0) return undefined;
  const tests: Node[] = [];
  const outputs: Node[] = [];
  for (let i = 1; i < x.length - 1; i += 2) {
    const test = below(x[i], 'boolean', rules);
    const output = below(x[i + 1], expected, rules);
    if (!test || !output) return undefined;
    tests.push(test);
    outputs.push(output);
  }
  const otherwise = below(x[x.length - 1], expected, rules);
  if (!otherwise) return undefined;
  return (z, p) => {
    for (let i = 0; i < tests.length; i++) if (tests[i]!(z, p)) return outputs[i]!(z, p);
    return otherwise(z, p);
  };
}

/**
 * `match` of a `get` on string labels, unique and none an inherited object key (which the library refuses as a
 * duplicate): a string equal to a label picks its output, anything else the fallback.
 */
function match(x: readonly unknown[], expected: Expected, rules: Rules): Node | undefined {
  if (expected === 'value' || x.length < 5 || x.length % 2 !== 1 || !isGet(x[1])) return undefined;
  const input = below(x[1], 'value', rules);
  if (!input) return undefined;
  const cases = new Map<string, number>();
  const outputs: Node[] = [];
  for (let i = 2; i < x.length - 1; i += 2) {
    const labels: readonly unknown[] = Array.isArray(x[i]) ? (x[i] as unknown[]) : [x[i]];
    if (labels.length === 0) return undefined;
    for (const label of labels) {
      if (typeof label !== 'string' || label in {} || cases.has(label)) return undefined;
      cases.set(label, outputs.length);
    }
    const output = below(x[i + 1], expected, rules);
    if (!output) return undefined;
    outputs.push(output);
  }
  const otherwise = below(x[x.length - 1], expected, rules);
  if (!otherwise) return undefined;
  return (z, p) => {
    const v = input(z, p);
    const at = typeof v === 'string' ? cases.get(v) : undefined;
    return (at === undefined ? otherwise : outputs[at]!)(z, p);
  };
}

/** A zoom curve: `interpolate`, linear or exponential, of `["zoom"]`, finite ascending stops, number outputs. */
function interpolate(x: readonly unknown[], expected: Expected, rules: Rules): Node | undefined {
  if (!rules.zoomCurve || expected !== 'number' || x.length < 5 || (x.length - 1) % 2 !== 0) return undefined;
  const [, kind, input] = x;
  if (!Array.isArray(input) || input.length !== 1 || input[0] !== 'zoom' || !Array.isArray(kind)) return undefined;
  let base: number;
  if (kind[0] === 'linear') base = 1;
  else if (kind[0] === 'exponential' && typeof kind[1] === 'number') base = kind[1];
  else return undefined;
  const labels: number[] = [];
  const outputs: number[] = [];
  for (let i = 3; i < x.length; i += 2) {
    const label = x[i];
    const output = x[i + 1];
    if (typeof label !== 'number' || !Number.isFinite(label) || typeof output !== 'number') return undefined;
    if (labels.length > 0 && labels[labels.length - 1]! >= label) return undefined;
    labels.push(label);
    outputs.push(output);
  }
  return (zoom) => interpolateStops(labels, outputs, base, zoom);
}

/** The library's `Interpolate.evaluate` for number outputs (`exponentialInterpolation`, `interpolateNumber`). */
function interpolateStops(labels: readonly number[], outputs: readonly number[], base: number, value: number): number {
  const n = labels.length;
  if (n === 1 || value <= labels[0]!) return outputs[0]!;
  if (value >= labels[n - 1]!) return outputs[n - 1]!;
  const index = stopBelow(labels, value);
  const lower = labels[index]!;
  const difference = labels[index + 1]! - lower;
  const progress = value - lower;
  let t: number;
  if (difference === 0) t = 0;
  else if (base === 1) t = progress / difference;
  else t = (Math.pow(base, progress) - 1) / (Math.pow(base, difference) - 1);
  const from = outputs[index]!;
  return from + t * (outputs[index + 1]! - from);
}

/** The library's `findStopLessThanOrEqualTo`: a binary search, which throws for an input that is not a number. */
function stopBelow(stops: readonly number[], input: number): number {
  const last = stops.length - 1;
  let lower = 0;
  let upper = last;
  while (lower <= upper) {
    const current = Math.floor((lower + upper) / 2);
    const value = stops[current]!;
    if (value <= input) {
      if (current === last || input < stops[current + 1]!) return current;
      lower = current + 1;
    } else if (value > input) {
      upper = current - 1;
    } else {
      throw new Error('Input is not a number.');
    }
  }
  return 0;
}
