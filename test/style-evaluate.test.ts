import { describe, expect, it } from 'vitest';
import {
  PROPERTY_DEFINITIONS,
  createLayerEvaluator,
  defaultValue,
  parseColor,
  type StyleFeature,
} from '../src/style/index.js';

const road = (paint: object = {}, layout: object = {}, extra: object = {}) =>
  createLayerEvaluator({ id: 'r', type: 'line', source: 'osm', 'source-layer': 'roads', paint, layout, ...extra });

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

/** Cubic bézier easing y(x) with P0=(0,0), P3=(1,1), solved for x by bisection (independent of the library). */
function bezierEase(x1: number, y1: number, x2: number, y2: number, x: number): number {
  const bez = (p1: number, p2: number, t: number) => 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (bez(x1, x2, mid) < x) lo = mid;
    else hi = mid;
  }
  return bez(y1, y2, (lo + hi) / 2);
}

describe('defaultValue', () => {
  it('returns table defaults, colours as RGBA (alpha 0-1)', () => {
    expect(defaultValue('line', 'line-width')).toBe(1);
    expect(defaultValue('line', 'line-join')).toBe('miter');
    expect(defaultValue('line', 'line-round-limit')).toBe(1.05);
    expect(defaultValue('fill', 'fill-color')).toEqual([0, 0, 0, 1]);
    expect(defaultValue('symbol', 'text-halo-color')).toEqual([0, 0, 0, 0]);
    expect(defaultValue('symbol', 'text-size')).toBe(16);
    expect(defaultValue('symbol', 'text-field')).toBe('');
    expect(defaultValue('symbol', 'icon-text-fit-padding')).toEqual([0, 0, 0, 0]);
    expect(defaultValue('symbol', 'text-keep-upright')).toBe(true);
    expect(defaultValue('background', 'visibility')).toBe('visible');
    expect(defaultValue('circle', 'visibility')).toBe('visible');
  });

  it('resolves a derived default and has none for "none" defaults and unknown names', () => {
    expect(defaultValue('fill', 'fill-outline-color')).toEqual(defaultValue('fill', 'fill-color'));
    expect(defaultValue('symbol', 'icon-image')).toBeUndefined();
    expect(defaultValue('line', 'line-dasharray')).toBeUndefined();
    expect(defaultValue('line', 'fill-color')).toBeUndefined();
    expect(defaultValue('circle', 'circle-radius')).toBeUndefined();
  });

  it('gives every table default in its evaluated form', () => {
    for (const def of PROPERTY_DEFINITIONS) {
      const v = defaultValue(def.layerTypes[0]!, def.name);
      if (def.default === undefined && !def.defaultFrom) expect(v, def.name).toBeUndefined();
      else if (def.type === 'color') expect(v, def.name).toEqual(parseColor(def.default ?? '#000000'));
      else expect(v, def.name).toEqual(def.default);
    }
  });

  it('an evaluator of an empty layer yields the defaults', () => {
    const ev = createLayerEvaluator({ id: 'x', type: 'line', source: 's' });
    expect(ev.paint(10)).toEqual({
      'line-blur': 0,
      'line-color': [0, 0, 0, 1],
      'line-gap-width': 0,
      'line-offset': 0,
      'line-opacity': 1,
      'line-translate': [0, 0],
      'line-width': 1,
    });
    // line-round-limit needs line-join round; the default join is miter.
    expect(ev.layout(10)).toEqual({
      visibility: 'visible',
      'line-cap': 'butt',
      'line-join': 'miter',
      'line-miter-limit': 2,
    });
  });
});

describe('zoom functions', () => {
  it('interpolate linear', () => {
    const ev = road({ 'line-width': ['interpolate', ['linear'], ['zoom'], 5, 1, 10, 6, 15, 26] });
    const cases: [number, number][] = [
      [0, 1],
      [5, 1],
      [7.5, 3.5],
      [10, 6],
      [12, 14],
      [15, 26],
      [20, 26],
    ];
    for (const [z, w] of cases) expect(ev.value('line-width', z)).toBeCloseTo(w, 10);
  });

  it('interpolate exponential', () => {
    const ev = road({ 'line-width': ['interpolate', ['exponential', 2], ['zoom'], 10, 1, 12, 9] });
    // t = (2^(z-10) - 1) / (2^2 - 1)
    for (const z of [10, 10.5, 11, 11.7, 12]) {
      const t = (2 ** (z - 10) - 1) / 3;
      expect(ev.value('line-width', z)).toBeCloseTo(lerp(1, 9, t), 10);
    }
  });

  it('interpolate cubic-bezier', () => {
    const ev = road({ 'line-width': ['interpolate', ['cubic-bezier', 0.42, 0, 1, 1], ['zoom'], 0, 0, 10, 100] });
    for (const z of [1, 3, 5, 8]) {
      expect(ev.value('line-width', z)).toBeCloseTo(100 * bezierEase(0.42, 0, 1, 1, z / 10), 4);
    }
  });

  it('step', () => {
    const ev = road({ 'line-width': ['step', ['zoom'], 1, 5, 2, 10, 4] });
    const cases: [number, number][] = [
      [0, 1],
      [4.99, 1],
      [5, 2],
      [9.9, 2],
      [10, 4],
      [22, 4],
    ];
    for (const [z, w] of cases) expect(ev.value('line-width', z)).toBe(w);
  });

  it('pattern and dash properties see integer zooms only', () => {
    const ev = road({
      'line-pattern': ['step', ['zoom'], 'thin', 10.5, 'thick'],
      'line-dasharray': ['step', ['zoom'], ['literal', [1, 1]], 10.5, ['literal', [3, 1]]],
      'line-width': ['step', ['zoom'], 1, 10.5, 2],
    });
    expect(ev.value('line-pattern', 10.7)).toBe('thin');
    expect(ev.value('line-pattern', 11)).toBe('thick');
    expect(ev.value('line-dasharray', 10.7)).toEqual([1, 1]);
    expect(ev.value('line-dasharray', 11.2)).toEqual([3, 1]);
    expect(ev.value('line-width', 10.7)).toBe(2); // other properties use the exact zoom
  });

  it('interpolates colours and returns RGBA (alpha 0-1)', () => {
    const ev = road({ 'line-color': ['interpolate', ['linear'], ['zoom'], 0, '#000000', 10, '#ffffff'] });
    expect(ev.value('line-color', 5)).toEqual([128, 128, 128, 1]);
    expect(ev.value('line-color', 10)).toEqual([255, 255, 255, 1]);
    expect(road({ 'line-color': 'rgba(255, 0, 0, 0.5)' }).value('line-color', 3)).toEqual([255, 0, 0, 0.5]);
  });

  it('legacy zoom functions', () => {
    const ev = road({
      'line-width': {
        stops: [
          [0, 1],
          [10, 11],
        ],
      },
      'line-opacity': {
        base: 2,
        stops: [
          [10, 0],
          [12, 1],
        ],
      },
    });
    expect(ev.value('line-width', 5)).toBeCloseTo(6, 10);
    expect(ev.value('line-opacity', 11)).toBeCloseTo(1 / 3, 10);
  });

  it('clamps evaluated values into the table range', () => {
    const ev = road({
      'line-opacity': ['interpolate', ['linear'], ['zoom'], 0, 0, 10, 2],
      'line-width': ['get', 'w'],
      'line-blur': -3, // invalid constant: reported, then clamped
    });
    expect(ev.value('line-opacity', 5)).toBe(1);
    expect(ev.value('line-opacity', 2.5)).toBeCloseTo(0.5, 10);
    expect(ev.value('line-width', 10, { properties: { w: -4 } })).toBe(0);
    expect(ev.value('line-width', 10, { properties: { w: 7 } })).toBe(7);
    expect(ev.value('line-blur', 10)).toBe(0);
    expect(ev.problems).toEqual([{ path: 'paint.line-blur', message: '"line-blur" must be >= 0; found -3' }]);
  });
});

describe('data-driven expressions', () => {
  const features: StyleFeature[] = ['primary', 'secondary', 'track', undefined].flatMap((cls, i) => [
    { properties: cls === undefined ? {} : { class: cls, lanes: i }, geometryType: 'LineString', id: i },
  ]);

  it('match on feature properties', () => {
    const ev = road({
      'line-color': ['match', ['get', 'class'], 'primary', '#ff0000', ['secondary', 'tertiary'], '#00ff00', '#0000ff'],
    });
    const expected: Record<string, string> = { primary: '#ff0000', secondary: '#00ff00' };
    for (const f of features) {
      const cls = f.properties?.class as string | undefined;
      expect(ev.value('line-color', 12, f)).toEqual(parseColor(expected[cls ?? ''] ?? '#0000ff'));
    }
  });

  it('case, coalesce, arithmetic and zoom-and-feature composites', () => {
    const ev = road({
      'line-width': [
        'interpolate',
        ['linear'],
        ['zoom'],
        10,
        ['*', 1, ['coalesce', ['get', 'lanes'], 1]],
        20,
        ['*', 4, ['coalesce', ['get', 'lanes'], 1]],
      ],
      'line-opacity': ['case', ['==', ['get', 'class'], 'track'], 0.5, ['has', 'class'], 1, 0.2],
    });
    for (const f of features) {
      const lanes = (f.properties?.lanes as number | undefined) ?? 1;
      expect(ev.value('line-width', 15, f)).toBeCloseTo(lerp(lanes, 4 * lanes, 0.5), 10);
      const cls = f.properties?.class;
      expect(ev.value('line-opacity', 15, f)).toBe(cls === 'track' ? 0.5 : cls ? 1 : 0.2);
    }
  });

  it('falls back to the default when evaluation fails or the result is not of the type', () => {
    const ev = road({ 'line-width': ['number', ['get', 'w']], 'line-join': 'round' }, { 'line-cap': ['get', 'cap'] });
    expect(ev.value('line-width', 10, { properties: { w: 'x' } })).toBe(1);
    expect(ev.value('line-width', 10, { properties: {} })).toBe(1);
    expect(ev.problems).toEqual([
      { path: 'layout.line-cap', message: '"line-cap" does not support data-driven expressions (DD: -)' },
      { path: 'paint.line-join', message: 'ignored: "line-join" is not a paint property of line layers' },
    ]);
    expect(ev.value('line-cap', 10)).toBe('butt');
    expect(ev.value('line-join', 10)).toBe('miter');
  });

  it('legacy property functions', () => {
    const ev = road({
      'line-color': { property: 'class', type: 'categorical', stops: [['primary', 'red']], default: 'blue' },
      'line-width': { property: 'lanes', type: 'identity' },
    });
    expect(ev.value('line-color', 3, features[0])).toEqual([255, 0, 0, 1]);
    expect(ev.value('line-color', 3, features[1])).toEqual([0, 0, 255, 1]);
    expect(ev.value('line-width', 3, features[2])).toBe(2);
  });

  it('feature-state and line-progress inputs', () => {
    const ev = createLayerEvaluator({
      id: 'f',
      type: 'fill',
      source: 's',
      paint: { 'fill-color': ['case', ['boolean', ['feature-state', 'hover'], false], 'red', 'blue'] },
    });
    expect(ev.value('fill-color', 5)).toEqual([0, 0, 255, 1]);
    expect(ev.value('fill-color', 5, undefined, { featureState: { hover: true } })).toEqual([255, 0, 0, 1]);
    const g = road({ 'line-gradient': ['interpolate', ['linear'], ['line-progress'], 0, '#000000', 1, '#ffffff'] });
    expect(g.value('line-gradient', 5, undefined, { lineProgress: 0.2 })).toEqual([51, 51, 51, 1]);
  });

  it('text, images, enum arrays', () => {
    const ev = createLayerEvaluator({
      id: 's',
      type: 'symbol',
      source: 's',
      layout: {
        'text-field': ['format', ['get', 'name'], {}, ' (', {}, ['get', 'ref'], {}, ')', {}],
        'icon-image': ['concat', 'poi-', ['get', 'kind']],
        'text-variable-anchor': ['top', 'bottom'],
        'text-transform': ['match', ['get', 'kind'], 'city', 'uppercase', 'none'],
      },
    });
    const f = { properties: { name: 'Hà Nội', ref: 'HN', kind: 'city' }, geometryType: 'Point' as const };
    expect(ev.value('text-field', 8, f)).toBe('Hà Nội (HN)');
    expect(ev.value('icon-image', 8, f)).toBe('poi-city');
    expect(ev.value('text-variable-anchor', 8, f)).toEqual(['top', 'bottom']);
    expect(ev.value('text-transform', 8, f)).toBe('uppercase');
    expect(ev.value('text-font', 8, f)).toEqual(['Open Sans Regular', 'Arial Unicode MS Regular']);
  });
});

describe('requirements and disabled properties at evaluation', () => {
  it('fill-outline-color: follows fill-color, needs antialias, disabled by pattern', () => {
    const layer = (paint: object) => createLayerEvaluator({ id: 'f', type: 'fill', source: 's', paint });
    const dd = layer({ 'fill-color': ['match', ['get', 'k'], 'a', 'red', 'green'] });
    expect(dd.paint(5, { properties: { k: 'a' } })['fill-outline-color']).toEqual([255, 0, 0, 1]);
    expect(dd.paint(5, { properties: { k: 'b' } })['fill-outline-color']).toEqual(parseColor('green'));
    const noAa = layer({ 'fill-outline-color': 'red', 'fill-antialias': false }).paint(5);
    expect('fill-outline-color' in noAa).toBe(false);
    const pattern = layer({ 'fill-color': 'red', 'fill-pattern': 'dots' });
    expect(pattern.paint(5)).not.toHaveProperty('fill-color');
    expect(pattern.paint(5)['fill-pattern']).toBe('dots');
    expect(pattern.isActive('fill-color', 5)).toBe(false);
    expect(pattern.value('fill-color', 5)).toEqual([255, 0, 0, 1]); // value() ignores requirements
  });

  it('symbol properties need text-field / icon-image per feature', () => {
    const ev = createLayerEvaluator({
      id: 's',
      type: 'symbol',
      source: 's',
      layout: { 'text-field': ['coalesce', ['get', 'name'], ''], 'text-size': 14, 'icon-size': 2 },
    });
    expect(ev.layout(10, { properties: { name: 'A' } })['text-size']).toBe(14);
    expect(ev.layout(10, { properties: {} })).not.toHaveProperty('text-size');
    expect(ev.layout(10, { properties: { name: 'A' } })).not.toHaveProperty('icon-size');
  });

  it('line-join requirements follow the evaluated join', () => {
    const ev = road({}, { 'line-join': ['step', ['zoom'], 'miter', 10, 'round'] });
    expect(ev.layout(5)).toHaveProperty('line-miter-limit', 2);
    expect(ev.layout(5)).not.toHaveProperty('line-round-limit');
    expect(ev.layout(12)).toHaveProperty('line-round-limit', 1.05);
    expect(ev.layout(12)).not.toHaveProperty('line-miter-limit');
  });

  it('line-gradient needs a GeoJSON source with lineMetrics when the source is given', () => {
    const layer = {
      id: 'g',
      type: 'line',
      source: 'x',
      paint: { 'line-gradient': ['interpolate', ['linear'], ['line-progress'], 0, 'red', 1, 'blue'] },
    };
    expect(
      createLayerEvaluator(layer, { source: { type: 'geojson', lineMetrics: true } }).isActive('line-gradient', 3),
    ).toBe(true);
    expect(createLayerEvaluator(layer, { source: { type: 'geojson' } }).isActive('line-gradient', 3)).toBe(false);
  });
});

describe('visibility and filters', () => {
  it('visibility, minzoom (inclusive) and maxzoom (exclusive)', () => {
    const ev = road({}, {}, { minzoom: 5, maxzoom: 12 });
    expect([4.99, 5, 11.99, 12].map((z) => ev.isVisible(z))).toEqual([false, true, true, false]);
    expect(road({}, { visibility: 'none' }).isVisible(10)).toBe(false);
    expect(createLayerEvaluator('nope').isVisible(10)).toBe(false);
  });

  const classes = ['primary', 'secondary', 'residential', 'track'];
  const types = ['Point', 'LineString', 'Polygon'] as const;
  const all: StyleFeature[] = [];
  for (let i = 0; i < 48; i++) {
    const props: Record<string, unknown> = { class: classes[i % 4], lanes: i % 5 };
    if (i % 3 === 0) props.name = `n${i}`;
    all.push({ properties: props, geometryType: types[i % 3], id: i });
  }

  const cases: [string, unknown, (f: StyleFeature) => boolean][] = [
    [
      'expression all/==/>',
      ['all', ['==', ['get', 'class'], 'primary'], ['>', ['get', 'lanes'], 2]],
      (f) => f.properties!.class === 'primary' && (f.properties!.lanes as number) > 2,
    ],
    [
      'expression in + geometry-type',
      ['all', ['in', ['get', 'class'], ['literal', ['track', 'residential']]], ['==', ['geometry-type'], 'Polygon']],
      (f) => ['track', 'residential'].includes(f.properties!.class as string) && f.geometryType === 'Polygon',
    ],
    ['legacy ==', ['==', 'class', 'secondary'], (f) => f.properties!.class === 'secondary'],
    ['legacy $type', ['==', '$type', 'LineString'], (f) => f.geometryType === 'LineString'],
    [
      'legacy in',
      ['in', 'class', 'primary', 'track'],
      (f) => ['primary', 'track'].includes(f.properties!.class as string),
    ],
    ['legacy has', ['has', 'name'], (f) => 'name' in f.properties!],
    ['legacy !has', ['!has', 'name'], (f) => !('name' in f.properties!)],
    [
      'legacy any/!=/>=',
      ['any', ['!=', 'class', 'primary'], ['>=', 'lanes', 4]],
      (f) => f.properties!.class !== 'primary' || (f.properties!.lanes as number) >= 4,
    ],
    ['legacy $id', ['<', '$id', 10], (f) => (f.id as number) < 10],
  ];
  for (const [name, filter, predicate] of cases) {
    it(`filter: ${name}`, () => {
      const ev = road({}, {}, { filter });
      expect(ev.problems).toEqual([]);
      const got = all.filter((f) => ev.matches(f, 10)).map((f) => f.id);
      const want = all.filter(predicate).map((f) => f.id);
      expect(want.length).toBeGreaterThan(0);
      expect(want.length).toBeLessThan(all.length);
      expect(got).toEqual(want);
    });
  }

  it('filters see integer zooms; invalid filters match nothing', () => {
    const ev = road({}, {}, { filter: ['>=', ['zoom'], 10.5] });
    expect(ev.matches(all[0]!, 10.9)).toBe(false);
    expect(ev.matches(all[0]!, 11)).toBe(true);
    const bad = road({}, {}, { filter: ['==', ['get', 'a']] });
    expect(bad.problems).toHaveLength(1);
    expect(bad.matches(all[0]!, 10)).toBe(false);
    expect(road().matches(all[0]!, 10)).toBe(true);
  });
});
