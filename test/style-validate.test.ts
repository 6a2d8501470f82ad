import { describe, expect, it } from 'vitest';
import { validateStyle, validateStyleLayer } from '../src/style/index.js';

const SOURCES = {
  osm: { type: 'vector', url: 'pmtiles://x' },
  route: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
  metrics: { type: 'geojson', lineMetrics: true, data: { type: 'FeatureCollection', features: [] } },
  sat: { type: 'raster', tiles: [] },
};

/** A style with one layer; validated as a whole. */
function check(layer: Record<string, unknown>) {
  return validateStyle({ version: 8, sources: SOURCES, layers: [layer] });
}

const line = (paint: object = {}, layout: object = {}) => ({
  id: 'l',
  type: 'line',
  source: 'osm',
  'source-layer': 'roads',
  paint,
  layout,
});
const fill = (paint: object = {}, layout: object = {}) => ({
  id: 'f',
  type: 'fill',
  source: 'osm',
  'source-layer': 'water',
  paint,
  layout,
});
const symbol = (layout: object = {}, paint: object = {}) => ({
  id: 's',
  type: 'symbol',
  source: 'osm',
  'source-layer': 'places',
  layout,
  paint,
});

const paths = (issues: { path: string }[]) => issues.map((i) => i.path);

describe('validateStyle: valid styles', () => {
  it('accepts a realistic style with no errors or warnings', () => {
    const style = {
      version: 8,
      sources: SOURCES,
      layers: [
        { id: 'bg', type: 'background', paint: { 'background-color': 'hsl(40, 30%, 95%)' } },
        fill({ 'fill-color': ['match', ['get', 'class'], 'ocean', '#9cf', 'lake', '#8be', '#aad3df'] }),
        line(
          {
            'line-width': ['interpolate', ['exponential', 1.5], ['zoom'], 5, 0.5, 18, 20],
            'line-color': ['case', ['==', ['get', 'class'], 'primary'], '#f90', 'white'],
            'line-opacity': ['step', ['zoom'], 0.5, 10, 1],
            'line-width-transition': { duration: 300, delay: 0 },
          },
          { 'line-cap': 'round', 'line-join': 'round', 'line-round-limit': 1.1 },
        ),
        {
          ...symbol({ 'text-field': ['get', 'name'], 'text-size': 12, 'text-font': ['Noto Sans Regular'] }),
          filter: ['==', ['geometry-type'], 'Point'],
          minzoom: 10,
          maxzoom: 22,
        },
        { id: 'route', type: 'line', source: 'route', paint: { 'line-color': 'rgba(0, 0, 255, 0.8)' } },
        { id: 'r', type: 'raster', source: 'sat', metadata: { 'bando:note': 'x' } },
      ],
    };
    const result = validateStyle(style);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        path: 'layers[5].type',
        message:
          'properties of raster layers are not covered by the style layer definitions; only visibility was checked',
      },
    ]);
  });

  it('accepts every supported colour syntax', () => {
    for (const c of [
      '#abc',
      '#aabbcc',
      '#aabbcc80',
      'rgb(1, 2, 3)',
      'rgba(1,2,3,0.5)',
      'hsl(120, 50%, 50%)',
      'hsla(120, 50%, 50%, 0.3)',
      'rebeccapurple',
      'red',
    ]) {
      expect(check(line({ 'line-color': c })).errors, c).toEqual([]);
    }
  });

  it('accepts legacy functions and legacy filters', () => {
    const r = check({
      ...line({
        'line-width': {
          base: 1.4,
          stops: [
            [6, 0.5],
            [20, 30],
          ],
        },
        'line-color': { property: 'class', type: 'categorical', stops: [['primary', 'red']], default: 'blue' },
      }),
      filter: [
        'all',
        ['==', 'class', 'primary'],
        ['in', 'surface', 'paved', 'asphalt'],
        ['has', 'name'],
        ['==', '$type', 'LineString'],
      ],
    });
    expect(r.errors).toEqual([]);
  });
});

describe('validateStyle: style level', () => {
  it('requires version 8, a sources object and a layers array', () => {
    expect(validateStyle({ version: 7, sources: {}, layers: [] }).errors).toEqual([
      { path: 'version', message: '"version" must be 8; found 7' },
    ]);
    expect(paths(validateStyle({ version: 8, layers: [] }).errors)).toEqual(['sources']);
    expect(paths(validateStyle({ version: 8, sources: {}, layers: {} }).errors)).toEqual(['layers']);
    expect(paths(validateStyle({ version: 8, sources: { a: 5 }, layers: [] }).errors)).toEqual(['sources.a']);
  });

  it('never throws on garbage', () => {
    for (const bad of [
      null,
      42,
      'x',
      [],
      { version: 8, sources: {}, layers: [null, 3, 'a', { paint: 5, layout: [] }] },
    ]) {
      const r = validateStyle(bad);
      expect(r.errors.length).toBeGreaterThan(0);
    }
  });
});

describe('validateStyleLayer: layer fields', () => {
  it('reports missing id and duplicate ids', () => {
    expect(check({ type: 'background' }).errors).toEqual([
      { path: 'layers[0].id', message: 'missing required field "id"' },
    ]);
    const style = {
      version: 8,
      sources: {},
      layers: [
        { id: 'a', type: 'background' },
        { id: 'b', type: 'background' },
        { id: 'a', type: 'background' },
      ],
    };
    expect(validateStyle(style).errors).toEqual([
      { path: 'layers[2].id', message: 'duplicate layer id "a" (first used by layers[0])' },
    ]);
    expect(validateStyleLayer(style.layers[0], style).errors).toEqual([
      { path: 'layers[0].id', message: 'duplicate layer id "a" (also used by layers[2])' },
    ]);
    expect(validateStyleLayer(style.layers[1], style).errors).toEqual([]);
  });

  it('reports unknown types and warns about undocumented ones', () => {
    const r = check({ id: 'x', type: 'polygon', source: 'osm', 'source-layer': 'a' });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.path).toBe('layers[0].type');
    expect(r.errors[0]!.message).toContain('unknown layer type "polygon"');
    for (const t of ['circle', 'heatmap', 'fill-extrusion', 'raster', 'hillshade']) {
      const u = check({ id: 'x', type: t, source: 'osm', 'source-layer': 'a', paint: { 'circle-radius': 3 } });
      expect(u.errors, t).toEqual([]);
      expect(paths(u.warnings)).toEqual(['layers[0].type']);
      expect(u.warnings[0]!.message).toContain('not covered');
    }
  });

  it('requires source except for background, and resolves it in style.sources', () => {
    expect(check({ id: 'x', type: 'line' }).errors).toEqual([
      { path: 'layers[0].source', message: '"source" is required for line layers' },
    ]);
    expect(check({ id: 'x', type: 'background' }).errors).toEqual([]);
    expect(check({ id: 'x', type: 'fill', source: 'nope' }).errors).toEqual([
      { path: 'layers[0].source', message: 'source "nope" is not defined in style.sources' },
    ]);
    // Without a style the source cannot be resolved: only its presence is checked.
    expect(validateStyleLayer({ id: 'x', type: 'fill', source: 'nope' }).errors).toEqual([]);
  });

  it('requires source-layer for vector sources and refuses it for others', () => {
    expect(check({ id: 'x', type: 'fill', source: 'osm' }).errors).toEqual([
      { path: 'layers[0].source-layer', message: '"source-layer" is required for layers of vector source "osm"' },
    ]);
    const gj = check({ id: 'x', type: 'line', source: 'route', 'source-layer': 'a' });
    expect(gj.errors).toEqual([
      {
        path: 'layers[0].source-layer',
        message: '"source-layer" is not allowed for "geojson" source "route" (vector sources only)',
      },
    ]);
    expect(paths(check({ id: 'x', type: 'raster', source: 'sat', 'source-layer': 'a' }).errors)).toEqual([
      'layers[0].source-layer',
    ]);
    expect(check({ id: 'x', type: 'line', source: 'route' }).errors).toEqual([]);
  });

  it('checks minzoom and maxzoom ranges and order', () => {
    const r = check({ id: 'x', type: 'background', minzoom: -1, maxzoom: 25 });
    expect(r.errors).toEqual([
      { path: 'layers[0].minzoom', message: '"minzoom" must be between 0 and 24; found -1' },
      { path: 'layers[0].maxzoom', message: '"maxzoom" must be between 0 and 24; found 25' },
    ]);
    expect(check({ id: 'x', type: 'background', minzoom: 12, maxzoom: 5 }).errors).toEqual([
      { path: 'layers[0].minzoom', message: 'minzoom (12) is greater than maxzoom (5)' },
    ]);
    expect(check({ id: 'x', type: 'background', minzoom: 0, maxzoom: 24 }).errors).toEqual([]);
    expect(paths(check({ id: 'x', type: 'background', minzoom: '3' }).errors)).toEqual(['layers[0].minzoom']);
  });

  it('reports unknown layer fields and non-object layout/paint', () => {
    expect(check({ id: 'x', type: 'background', ref: 'y' }).errors).toEqual([
      { path: 'layers[0].ref', message: 'unknown layer field "ref"' },
    ]);
    expect(paths(check({ id: 'x', type: 'background', paint: [] }).errors)).toEqual(['layers[0].paint']);
  });

  it('uses paths relative to a lone layer', () => {
    const r = validateStyleLayer(line({ 'line-width': 'wide' }));
    expect(r.errors).toEqual([{ path: 'paint.line-width', message: '"line-width" expects a number; found "wide"' }]);
    expect(validateStyleLayer(undefined).errors).toHaveLength(1);
  });
});

describe('validateStyleLayer: property values', () => {
  it('reports enum violations with the allowed values', () => {
    expect(check(line({}, { 'line-cap': 'flat' })).errors).toEqual([
      { path: 'layers[0].layout.line-cap', message: '"line-cap" expects one of butt, round, square; found "flat"' },
    ]);
    expect(paths(check(symbol({ 'text-field': 'a', 'text-variable-anchor': ['top', 'middle'] })).errors)).toEqual([
      'layers[0].layout.text-variable-anchor',
    ]);
  });

  it('reports range violations', () => {
    expect(check(fill({ 'fill-opacity': 1.5 })).errors).toEqual([
      { path: 'layers[0].paint.fill-opacity', message: '"fill-opacity" must be between 0 and 1; found 1.5' },
    ]);
    expect(check(line({ 'line-width': -1 })).errors[0]!.message).toBe('"line-width" must be >= 0; found -1');
    expect(check(line({ 'line-dasharray': [2, -1] })).errors[0]!.message).toBe(
      'every element of "line-dasharray" must be >= 0; found -1',
    );
    expect(check(symbol({ 'symbol-placement': 'line', 'symbol-spacing': 0.5 })).errors[0]!.message).toBe(
      '"symbol-spacing" must be >= 1; found 0.5',
    );
  });

  it('reports wrong types', () => {
    const r = check(line({ 'line-color': '#ab', 'line-width': '2', 'line-translate': [1, 2, 3] }, { 'line-join': 5 }));
    expect(r.errors.map((e) => [e.path, e.message])).toEqual([
      ['layers[0].layout.line-join', '"line-join" expects one of bevel, round, miter; found 5'],
      ['layers[0].paint.line-color', '"line-color" expects a color; found "#ab"'],
      ['layers[0].paint.line-width', '"line-width" expects a number; found "2"'],
      ['layers[0].paint.line-translate', '"line-translate" expects an array of 2 numbers; found [1,2,3]'],
    ]);
    for (const c of ['notacolor', 'rgb(1, 2)', '#ggg', 12]) {
      expect(paths(check(fill({ 'fill-color': c })).errors), String(c)).toEqual(['layers[0].paint.fill-color']);
    }
    expect(paths(check(fill({ 'fill-antialias': 'yes' })).errors)).toEqual(['layers[0].paint.fill-antialias']);
    expect(paths(check(symbol({ 'text-field': 'a', 'text-font': 'Noto' })).errors)).toEqual([
      'layers[0].layout.text-font',
    ]);
  });

  it('reports unknown properties and properties of other layer types', () => {
    expect(check(line({ 'line-foo': 1 })).errors).toEqual([
      { path: 'layers[0].paint.line-foo', message: 'unknown property "line-foo" for line layers' },
    ]);
    expect(check(fill({ 'line-width': 2 })).errors).toEqual([
      {
        path: 'layers[0].paint.line-width',
        message: '"line-width" is not a property of fill layers (it belongs to line layers)',
      },
    ]);
  });

  it('reports a layout property in paint and vice versa', () => {
    expect(check(line({ 'line-cap': 'round' }, { 'line-color': 'red' })).errors).toEqual([
      {
        path: 'layers[0].layout.line-color',
        message: '"line-color" is a paint property; put it in "paint", not "layout"',
      },
      { path: 'layers[0].paint.line-cap', message: '"line-cap" is a layout property; put it in "layout", not "paint"' },
    ]);
    expect(paths(check(line({ visibility: 'none' })).errors)).toEqual(['layers[0].paint.visibility']);
  });

  it('checks transitions', () => {
    expect(check(line({ 'line-color-transition': { duration: 500 } })).errors).toEqual([]);
    expect(check(fill({ 'fill-antialias-transition': { duration: 5 } })).errors).toEqual([
      { path: 'layers[0].paint.fill-antialias-transition', message: '"fill-antialias" is not transitionable' },
    ]);
    expect(paths(check(line({ 'line-width-transition': { duration: -5 } })).errors)).toEqual([
      'layers[0].paint.line-width-transition',
    ]);
  });
});

describe('validateStyleLayer: requirements and disabled properties are warnings', () => {
  const warnings = (layer: Record<string, unknown>) => {
    const r = check(layer);
    expect(r.errors).toEqual([]);
    // Sorted: the validator reports in the layer's key order.
    return r.warnings.map((w) => [w.path, w.message]).sort((a, b) => (a.join() < b.join() ? -1 : 1));
  };

  it('fill-outline-color requires fill-antialias true and is disabled by fill-pattern', () => {
    expect(warnings(fill({ 'fill-outline-color': 'red' }))).toEqual([]);
    expect(warnings(fill({ 'fill-outline-color': 'red', 'fill-antialias': false }))).toEqual([
      [
        'layers[0].paint.fill-outline-color',
        '"fill-outline-color" is ignored: it requires "fill-antialias" to be true (it is false)',
      ],
    ]);
    expect(warnings(fill({ 'fill-outline-color': 'red', 'fill-color': 'blue', 'fill-pattern': 'dots' }))).toEqual([
      ['layers[0].paint.fill-color', '"fill-color" is ignored while "fill-pattern" is set'],
      ['layers[0].paint.fill-outline-color', '"fill-outline-color" is ignored while "fill-pattern" is set'],
    ]);
  });

  it('background-color is disabled by background-pattern', () => {
    expect(
      warnings({ id: 'b', type: 'background', paint: { 'background-color': 'red', 'background-pattern': 'p' } }),
    ).toEqual([
      ['layers[0].paint.background-color', '"background-color" is ignored while "background-pattern" is set'],
    ]);
  });

  it('line-miter-limit requires line-join miter (its default), line-round-limit requires round', () => {
    expect(warnings(line({}, { 'line-miter-limit': 3 }))).toEqual([]);
    expect(warnings(line({}, { 'line-miter-limit': 3, 'line-join': 'round' }))).toEqual([
      [
        'layers[0].layout.line-miter-limit',
        '"line-miter-limit" is ignored: it requires "line-join" to be miter (it is "round")',
      ],
    ]);
    expect(warnings(line({}, { 'line-round-limit': 1.2 }))).toEqual([
      [
        'layers[0].layout.line-round-limit',
        '"line-round-limit" is ignored: it requires "line-join" to be round (it is "miter", the default)',
      ],
    ]);
    // A data-driven line-join may be round for some features: no warning.
    expect(warnings(line({}, { 'line-round-limit': 1.2, 'line-join': ['get', 'join'] }))).toEqual([]);
  });

  it('line-gradient: disabled by line-dasharray and line-pattern; needs GeoJSON with lineMetrics', () => {
    const grad = ['interpolate', ['linear'], ['line-progress'], 0, 'blue', 1, 'red'];
    expect(check({ id: 'g', type: 'line', source: 'metrics', paint: { 'line-gradient': grad } })).toEqual({
      errors: [],
      warnings: [],
    });
    expect(warnings({ id: 'g', type: 'line', source: 'route', paint: { 'line-gradient': grad } })).toEqual([
      [
        'layers[0].paint.line-gradient',
        '"line-gradient" is ignored: it requires a geojson source with lineMetrics true',
      ],
    ]);
    expect(
      warnings({
        id: 'g',
        type: 'line',
        source: 'metrics',
        paint: { 'line-gradient': grad, 'line-dasharray': [2, 1], 'line-pattern': 'p' },
      }),
    ).toEqual([
      ['layers[0].paint.line-dasharray', '"line-dasharray" is ignored while "line-pattern" is set'],
      ['layers[0].paint.line-gradient', '"line-gradient" is ignored while "line-dasharray" is set'],
      ['layers[0].paint.line-gradient', '"line-gradient" is ignored while "line-pattern" is set'],
    ]);
  });

  it('icon properties require icon-image, text properties require text-field', () => {
    expect(warnings(symbol({ 'icon-size': 2, 'text-size': 14 }))).toEqual([
      ['layers[0].layout.icon-size', '"icon-size" is ignored: it requires "icon-image", which is not set'],
      ['layers[0].layout.text-size', '"text-size" is ignored: it requires "text-field", which is not set'],
    ]);
    expect(warnings(symbol({ 'icon-image': 'shop', 'icon-size': 2, 'text-field': 'x', 'text-size': 14 }))).toEqual([]);
    expect(warnings(symbol({ 'text-field': 'x', 'text-optional': true }))).toEqual([
      ['layers[0].layout.text-optional', '"text-optional" is ignored: it requires "icon-image", which is not set'],
    ]);
    expect(warnings(symbol({ 'icon-image': 'a', 'icon-optional': true }))).toEqual([
      ['layers[0].layout.icon-optional', '"icon-optional" is ignored: it requires "text-field", which is not set'],
    ]);
  });

  it('icon-keep-upright requires icon-rotation-alignment map and a line placement', () => {
    expect(warnings(symbol({ 'icon-image': 'a', 'icon-keep-upright': true }))).toEqual([
      [
        'layers[0].layout.icon-keep-upright',
        '"icon-keep-upright" is ignored: it requires "icon-rotation-alignment" to be map (it is "auto", the default)',
      ],
      [
        'layers[0].layout.icon-keep-upright',
        '"icon-keep-upright" is ignored: it requires "symbol-placement" to be line or line-center (it is "point", the default)',
      ],
    ]);
    expect(
      warnings(
        symbol({
          'icon-image': 'a',
          'icon-keep-upright': true,
          'icon-rotation-alignment': 'map',
          'symbol-placement': 'line-center',
        }),
      ),
    ).toEqual([]);
  });

  it('icon-text-fit-padding requires icon-text-fit both/width/height; symbol-spacing requires line', () => {
    const base = { 'icon-image': 'a', 'text-field': 'x', 'icon-text-fit-padding': [1, 1, 1, 1] };
    expect(warnings(symbol(base))[0]![1]).toBe(
      '"icon-text-fit-padding" is ignored: it requires "icon-text-fit" to be both or width or height (it is "none", the default)',
    );
    expect(warnings(symbol({ ...base, 'icon-text-fit': 'width' }))).toEqual([]);
    expect(warnings(symbol({ 'symbol-spacing': 100, 'symbol-placement': 'line-center' }))).toHaveLength(1);
  });

  it('text-anchor disabled by text-variable-anchor; text-offset disabled by text-radial-offset', () => {
    expect(
      warnings(
        symbol({
          'text-field': 'x',
          'text-anchor': 'top',
          'text-variable-anchor': ['top', 'bottom'],
          'text-offset': [0, 1],
          'text-radial-offset': 1,
        }),
      ),
    ).toEqual([
      ['layers[0].layout.text-anchor', '"text-anchor" is ignored while "text-variable-anchor" is set'],
      ['layers[0].layout.text-offset', '"text-offset" is ignored while "text-radial-offset" is set'],
    ]);
  });

  it('translate-anchor requires translate', () => {
    expect(warnings(line({ 'line-translate-anchor': 'viewport' }))).toHaveLength(1);
    expect(warnings(line({ 'line-translate-anchor': 'viewport', 'line-translate': [1, 1] }))).toEqual([]);
  });
});

describe('validateStyleLayer: expressions', () => {
  it('reports parse and type errors with the expression path', () => {
    const r = check(line({ 'line-width': ['interpolate', ['linear'], ['zoom'], 5, 1, 10, 'wide'] }));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.path).toBe('layers[0].paint.line-width[6]');
    expect(r.errors[0]!.message).toContain('Expected number but found string');
    expect(check(line({ 'line-color': ['get'] })).errors[0]!.path.startsWith('layers[0].paint.line-color')).toBe(true);
    expect(check(line({ 'line-width': ['to-string', 1] })).errors).toHaveLength(1);
  });

  it('refuses interpolate on properties without interp, at any depth', () => {
    expect(check(fill({}, { 'fill-sort-key': ['interpolate', ['linear'], ['zoom'], 0, 1, 10, 2] })).errors).toEqual([
      { path: 'layers[0].layout.fill-sort-key', message: '"fill-sort-key" does not support interpolate expressions' },
    ]);
    expect(
      check(symbol({ 'symbol-sort-key': ['+', 1, ['interpolate', ['linear'], ['get', 'rank'], 0, 0, 10, 100]] }))
        .errors,
    ).toEqual([
      {
        path: 'layers[0].layout.symbol-sort-key',
        message: '"symbol-sort-key" does not support interpolate expressions',
      },
    ]);
    expect(check(fill({}, { 'fill-sort-key': ['step', ['zoom'], 1, 10, 2] })).errors).toEqual([]);
    expect(
      paths(
        check(
          fill(
            {},
            {
              'fill-sort-key': {
                type: 'exponential',
                stops: [
                  [0, 1],
                  [10, 2],
                ],
              },
            },
          ),
        ).errors,
      ),
    ).toEqual(['layers[0].layout.fill-sort-key']);
  });

  it('refuses data-driven expressions where DD is "-" or unsupported', () => {
    expect(check(line({}, { 'line-miter-limit': ['get', 'm'] })).errors).toEqual([
      {
        path: 'layers[0].layout.line-miter-limit',
        message: '"line-miter-limit" does not support data-driven expressions (DD: -)',
      },
    ]);
    expect(
      check(line({ 'line-dasharray': ['step', ['zoom'], ['literal', [2, 1]], 12, ['literal', [4, 2]]] })).errors,
    ).toEqual([]);
    expect(check(line({ 'line-dasharray': ['array', 'number', ['get', 'd']] })).errors).toEqual([
      {
        path: 'layers[0].paint.line-dasharray',
        message: '"line-dasharray" does not support data-driven expressions (DD: unsupported)',
      },
    ]);
    expect(paths(check({ id: 'b', type: 'background', paint: { 'background-pattern': ['get', 'p'] } }).errors)).toEqual(
      ['layers[0].paint.background-pattern'],
    );
    expect(
      paths(
        check(
          line({
            'line-width': {
              property: 'w',
              stops: [
                [0, 1],
                [5, 3],
              ],
            },
            'line-blur': ['get', 'b'],
          }),
        ).errors,
      ),
    ).toEqual([]);
    expect(paths(check(line({ 'line-translate': { property: 'w', stops: [[0, [0, 0]]] } })).errors)).toEqual([
      'layers[0].paint.line-translate',
    ]);
  });

  it('accepts feature-state only on fs properties, never in filters', () => {
    expect(
      check(fill({ 'fill-color': ['case', ['boolean', ['feature-state', 'hover'], false], 'red', 'blue'] })).errors,
    ).toEqual([]);
    expect(check(symbol({ 'text-field': 'x', 'text-size': ['number', ['feature-state', 's'], 12] })).errors).toEqual([
      { path: 'layers[0].layout.text-size', message: '"text-size" does not support feature-state expressions' },
    ]);
    expect(check({ ...line(), filter: ['==', ['feature-state', 'hover'], true] }).errors).toEqual([
      { path: 'layers[0].filter', message: 'feature-state is not supported in filters' },
    ]);
  });

  it('reports invalid filters with their path', () => {
    const r = check({ ...line(), filter: ['all', ['==', ['get', 'a']]] });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.path).toBe('layers[0].filter[1]');
    expect(check({ ...line(), filter: ['>=', ['zoom'], 10] }).errors).toEqual([]);
  });

  it('refuses a filter that is not an expression (5, "abc", {}, [], [5]) and accepts true/false', () => {
    for (const filter of [5, 'abc', {}, [], [5], null]) {
      const layer = { id: 'l', type: 'line', source: 's', 'source-layer': 'roads', filter };
      const r = validateStyleLayer(layer);
      expect(r.errors.map((e) => e.path)).toEqual(['filter']);
      expect(r.errors[0]!.message).toMatch(/^invalid filter: expected an expression/);
    }
    for (const filter of [true, false]) expect(check({ ...line(), filter }).errors).toEqual([]);
  });
});
