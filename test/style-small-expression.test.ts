import {
  expressions,
  isExpression,
  function as libraryFunction,
  type StyleExpression,
} from '@maplibre/maplibre-gl-style-spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASEMAP_KINDS } from '../src/map/kinds.js';
import { defaultStyle } from '../src/map/style/default-style.js';
import { compileFilter, compileProperty, valueForm } from '../src/style/compile.js';
import { getPropertyDefinition, PROPERTY_DEFINITIONS } from '../src/style/definitions.js';
import { EXPRESSION_NAMES, isExpressionValue } from '../src/style/expression-names.js';
import { normalizeValue } from '../src/style/normalize.js';
import { compileSmallFilter, compileSmallProperty } from '../src/style/small-expression.js';
import type { PropertyDefinition } from '../src/style/types.js';

type Properties = Record<string, unknown>;
/** The evaluation surface of the library's property expressions (as the evaluator uses them). */
type Evaluable = Pick<StyleExpression, 'evaluateWithoutErrorHandling'>;
/** A style layer, as the default style writes them. */
interface Layer {
  id: string;
  type: string;
  filter?: unknown;
  layout?: Record<string, unknown>;
  paint?: Record<string, unknown>;
}

/** An evaluation's outcome: the normalised value, or 'error' when it threw. */
function outcome(evaluate: () => unknown, normalise: (raw: unknown) => unknown): unknown {
  try {
    return { value: normalise(evaluate()) };
  } catch {
    return 'error';
  }
}

/**
 * A property value compiled by the table and by the library, evaluated at `zooms` for `features`: the table takes
 * it only where the library does, with the same outcomes. Returns whether the table took it.
 */
function sameAsLibrary(def: PropertyDefinition, value: unknown, zooms: number[], features: Properties[]): boolean {
  const small = compileSmallProperty(def, value);
  if (!small) return false;
  const library = compileProperty(def, value, 'p');
  expect(library.ok, JSON.stringify(value)).toBe(true);
  if (!library.ok) return true;
  const ours: unknown[] = [];
  const theirs: unknown[] = [];
  for (const zoom of zooms) {
    for (const properties of features) {
      const feature = { type: 'LineString' as const, properties };
      ours.push(
        outcome(
          () => small.evaluateWithoutErrorHandling({ zoom }, feature),
          (r) => normalizeValue(def, r),
        ),
      );
      theirs.push(
        outcome(
          () =>
            (library.expression as unknown as Evaluable).evaluateWithoutErrorHandling(
              { zoom, lineProgress: 0 },
              feature,
              {},
            ),
          (r) => normalizeValue(def, r),
        ),
      );
    }
  }
  expect(ours, `${def.name} ${JSON.stringify(value)}`).toEqual(theirs);
  return true;
}

/** The filter's counterpart of {@link sameAsLibrary} (outcomes as the evaluator reads them: `=== true`). */
function sameFilter(filter: unknown, features: Properties[]): boolean {
  const small = compileSmallFilter(filter);
  if (!small) return false;
  const library = compileFilter(filter, 'filter');
  expect(library.ok, JSON.stringify(filter)).toBe(true);
  if (!library.ok) return true;
  const outcomes = features.map((properties) => {
    const feature = { type: 'Polygon' as const, properties };
    return [
      outcome(
        () => small.evaluateWithoutErrorHandling({ zoom: 14 }, feature),
        (r) => r === true,
      ),
      outcome(
        () => library.expression.evaluateWithoutErrorHandling({ zoom: 14 }, feature),
        (r) => r === true,
      ),
    ];
  });
  expect(
    outcomes.map((o) => o[0]),
    JSON.stringify(filter),
  ).toEqual(outcomes.map((o) => o[1]));
  return true;
}

/** Features of every basemap class, with and without a name, and odd attribute values. */
const FEATURES: Properties[] = [
  ...BASEMAP_KINDS.flatMap((k) => [
    { class: k.class },
    { class: k.class, name: 'Phường Bến Thành' },
    { class: k.class, name: '' },
  ]),
  {},
  { class: 5, name: 7 },
  { class: null, name: null },
  { class: ['primary'], name: { text: 'x' } },
  { name: true, rank: 3 },
  { rank: '3', toString: 'x' },
];

const grid = (from: number, to: number, step: number): number[] =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => from + i * step);

describe('expression names', () => {
  it("are the library's registry, and tell expressions from constants as it does", () => {
    expect(EXPRESSION_NAMES).toEqual(Object.keys(expressions));
    const values: unknown[] = [
      ...EXPRESSION_NAMES.map((n) => [n]),
      ...['constructor', 'toString', '__proto__', 'hasOwnProperty', 'Noto Sans Regular', 'getx', ''].map((n) => [n, 1]),
      [],
      [1, 2],
      [['get', 'x']],
      'get',
      null,
      { stops: [[0, 1]] },
      { type: 'identity', property: 'x' },
      {},
      3,
    ];
    for (const v of values) {
      expect(isExpressionValue(v), JSON.stringify(v)).toBe(isExpression(v));
      const form = isExpression(v) ? 'expression' : libraryFunction.isFunction(v) ? 'function' : 'constant';
      expect(valueForm(v), JSON.stringify(v)).toBe(form);
    }
  });
});

describe('the small expression table', () => {
  it("takes every expression the default style draws with, giving the library's values", () => {
    const style = defaultStyle('') as { layers: Layer[] };
    const zooms = grid(0, 24, 0.05);
    const left: string[] = [];
    for (const layer of style.layers) {
      if (layer.filter !== undefined && !sameFilter(layer.filter, FEATURES)) left.push(`${layer.id} filter`);
      for (const kind of ['layout', 'paint'] as const) {
        for (const [name, value] of Object.entries(layer[kind] ?? {})) {
          if (valueForm(value) !== 'expression') continue;
          const def = getPropertyDefinition(layer.type, name)!;
          if (!sameAsLibrary(def, value, zooms, FEATURES)) left.push(`${layer.id} ${name}`);
        }
      }
    }
    // The one left to the library is a sort key the static renderer does not read (it loads the library if asked).
    expect(left).toEqual(['poi symbol-sort-key']);
  });

  it('gives the library its values on the test styles and on colour, formatted and boolean values', () => {
    const zooms = [0, 7.5, 13, 15.2, 22];
    const line = (name: string) => getPropertyDefinition('line', name)!;
    const symbol = (name: string) => getPropertyDefinition('symbol', name)!;
    const cases: [PropertyDefinition, unknown][] = [
      [line('line-color'), ['case', ['has', 'name'], '#ff0000', '#0000ff']],
      [line('line-color'), ['match', ['get', 'class'], ['primary', 'trunk'], ' RED ', 'path', '#0008', 'transparent']],
      [line('line-color'), ['case', ['==', ['get', 'name'], ''], '#12345678', 'aliceblue']],
      [line('line-width'), ['match', ['get', 'class'], 'primary', ['get', 'rank'], 2]],
      [line('line-join'), ['case', ['!', ['has', 'name']], 'round', 'bevel']],
      [line('line-join'), ['match', ['get', 'class'], 'path', 'bevel', 'nonsense']],
      [symbol('text-field'), ['get', 'name']],
      [symbol('text-field'), ['case', ['has', 'rank'], ['get', 'rank'], ['get', 'class']]],
      [symbol('text-field'), ['match', ['get', 'class'], 'ward', ['get', 'name'], 'x']],
      [symbol('text-size'), ['interpolate', ['exponential', 0.5], ['zoom'], 3, 10, 3.5, 20, 19, -4]],
      [symbol('text-size'), ['interpolate', ['linear'], ['zoom'], 12, 9]],
    ];
    for (const [def, value] of cases)
      expect(sameAsLibrary(def, value, zooms, FEATURES), JSON.stringify(value)).toBe(true);
    expect(sameFilter(['!=', ['get', 'class'], 'path'], FEATURES)).toBe(true);
    expect(sameFilter(['all'], FEATURES)).toBe(true);
    expect(sameFilter(['any', ['==', ['get', 'class'], 'poi'], ['get', 'name']], FEATURES)).toBe(true);
    expect(sameFilter(['case', ['has', 'rank'], ['!=', ['get', 'rank'], 3], ['!', ['has', 'name']]], FEATURES)).toBe(
      true,
    );
    expect(sameFilter(false, FEATURES)).toBe(true);
  });

  it('leaves to the library what it does not take', () => {
    const width = getPropertyDefinition('line', 'line-width')!;
    const color = getPropertyDefinition('line', 'line-color')!;
    const cap = getPropertyDefinition('line', 'line-cap')!;
    for (const [def, value] of [
      [width, ['step', ['zoom'], 1, 10, 2]],
      [width, ['interpolate', ['linear'], ['zoom'], 10, 1, 10, 2]], // not ascending: the library refuses it
      [width, ['interpolate', ['cubic-bezier', 0, 0, 1, 1], ['zoom'], 10, 1, 12, 2]],
      [width, ['case', ['has', 'name'], 'wide', 1]], // a string where a number is expected
      [color, ['case', ['has', 'name'], 'rgb(1, 2, 3)', '#fff']], // parsed by the library's own arithmetic
      [color, ['get', 'colour']],
      [cap, ['get', 'cap']], // line-cap is not data-driven
      [width, ['match', ['get', 'class'], ['a', 'toString'], 1, 2]], // the library's duplicate-label rule
      [width, ['match', ['get', 'class'], 1, 1, 2]],
    ] as [PropertyDefinition, unknown][])
      expect(compileSmallProperty(def, value), JSON.stringify(value)).toBeUndefined();
    for (const filter of [['has', '$type'], ['==', 'class', 'x'], ['in', 'class', 'a'], ['==', ['zoom'], 14], 'x'])
      expect(compileSmallFilter(filter), JSON.stringify(filter)).toBeUndefined();
  });

  it('takes only what the library accepts, and evaluates it as the library does (random expressions)', () => {
    const key = fc.constantFrom('class', 'name', 'rank', 'missing', '$type', 'toString', '__proto__', '');
    const text = fc.constantFrom(
      'primary',
      'path',
      'ward',
      '',
      'toString',
      '#ff0000',
      'RED',
      ' #FfF ',
      'rgba(1,2,3,0.5)',
      'nope',
      '#12345',
      'transparent',
      'round',
    );
    const number = fc.oneof(fc.integer({ min: -5, max: 25 }), fc.double({ min: -1e3, max: 1e3, noNaN: true }));
    const literal = fc.oneof(text, number, fc.boolean(), fc.constant(null));
    const labels = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.integer({ min: 0, max: 3 }));
    const { expr } = fc.letrec<{ expr: unknown; bool: unknown }>((tie) => ({
      bool: fc.oneof(
        { depthSize: 'small' },
        fc.tuple(fc.constant('has'), key),
        fc.tuple(fc.constant('has'), key, key),
        fc.tuple(
          fc.constantFrom('==', '!='),
          fc.oneof(fc.tuple(fc.constant('get'), key), literal),
          fc.oneof(fc.tuple(fc.constant('get'), key), literal),
        ),
        fc.tuple(fc.constantFrom('all', 'any'), ...[tie('bool'), tie('bool')]),
        fc.array(tie('bool'), { maxLength: 3 }).map((a) => ['all', ...a]),
        fc.array(tie('bool'), { maxLength: 2 }).map((a) => ['!', ...a]),
        fc.boolean(),
        fc.tuple(fc.constant('get'), key),
      ),
      expr: fc.oneof(
        { depthSize: 'small' },
        literal,
        fc.tuple(fc.constant('get'), key),
        fc.tuple(tie('bool'), tie('expr'), tie('expr')).map(([b, x, y]) => ['case', b, x, y]),
        fc.tuple(tie('bool'), tie('expr')).map(([b, x]) => ['case', b, x]),
        fc
          .tuple(key, labels, tie('expr'), labels, tie('expr'), tie('expr'))
          .map(([k, l1, x, l2, y, z]) => ['match', ['get', k], l1, x, l2, y, z]),
        fc.tuple(key, labels, tie('expr'), tie('expr')).map(([k, l, x, y]) => ['match', ['get', k], l, x, y]),
        fc
          .tuple(
            fc.constantFrom<unknown>(
              ['linear'],
              ['exponential', 1.5],
              ['exponential', 1],
              ['exponential', 'x'],
              ['step'],
            ),
            fc.array(fc.tuple(number, fc.oneof(number, literal)), { minLength: 1, maxLength: 4 }),
          )
          .map(([kind, stops]) => ['interpolate', kind, ['zoom'], ...stops.flat()]),
        tie('bool'),
      ),
    }));
    const defs = PROPERTY_DEFINITIONS.filter((d) =>
      ['number', 'color', 'enum', 'boolean', 'formatted'].includes(d.type),
    );
    const properties = fc.dictionary(
      fc.constantFrom('class', 'name', 'rank'),
      fc.oneof(text, number, fc.constant(null), fc.boolean()),
    );
    let taken = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...defs),
        expr,
        fc.array(properties, { minLength: 1, maxLength: 4 }),
        (def, value, features) => {
          if (!isExpressionValue(value)) return;
          if (sameAsLibrary(def, value, [0, 5.5, 12, 13.7, 16, 24], [...features, ...FEATURES.slice(0, 6)])) taken++;
          sameFilter(value, features);
        },
      ),
      { numRuns: 10_000 },
    );
    expect(taken).toBeGreaterThan(500);
  });
});
