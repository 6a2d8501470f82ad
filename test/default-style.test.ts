import { VectorTile } from '@mapbox/vector-tile';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { BASEMAP_KINDS } from '../src/map/kinds.js';
import { defaultStyle } from '../src/map/style/default-style.js';
import { glyphs } from '../src/map/glyphs.js';
import { sprite } from '../src/map/sprites.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { TILE_LAYERS } from '../src/map/tiles/features.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { createLayerEvaluator, validateStyle } from '../src/style/index.js';
import { testPack } from './helpers/packs.js';

type Layer = {
  id: string;
  type: string;
  source?: string;
  'source-layer'?: string;
  layout?: Record<string, unknown>;
  filter?: unknown;
};
const style = defaultStyle('http://127.0.0.1:8080/', { key: 'k 1' }) as {
  layers: Layer[];
  sources: Record<string, { tiles: string[] }>;
  glyphs: string;
  sprite: string;
};

describe('default style', () => {
  it('passes our validateStyle with no errors and no warnings', () => {
    const r = validateStyle(style);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('passes the MapLibre style-spec validator', () => {
    expect(validateStyleMin(style as never)).toEqual([]);
  });

  it('points at the engine-api.md resource paths, with the key URL-encoded', () => {
    expect(style.sources.bando!.tiles).toEqual(['http://127.0.0.1:8080/tiles/{z}/{x}/{y}.pbf?key=k%201']);
    expect(style.glyphs).toBe('http://127.0.0.1:8080/fonts/{fontstack}/{range}.pbf?key=k%201');
    expect(style.sprite).toBe('http://127.0.0.1:8080/sprites/default?key=k%201');
    expect((defaultStyle('https://x.example/bando') as { sprite: string }).sprite).toBe(
      'https://x.example/bando/sprites/default',
    );
  });

  it('uses only tile layers that exist, fonts with shipped glyphs and icons of the sprite', () => {
    const icons = JSON.parse(new TextDecoder().decode((sprite('default', 'json') as { bytes: Uint8Array }).bytes));
    for (const l of style.layers) {
      if (l.type !== 'background') expect(TILE_LAYERS as readonly string[]).toContain(l['source-layer']);
      const font = l.layout?.['text-font'] as string[] | undefined;
      if (font) {
        const g = glyphs(font.join(','), '0-255');
        expect(g.ok && g.bytes.length > 10000, font.join(',')).toBe(true);
      }
      const icon = l.layout?.['icon-image'];
      if (typeof icon === 'string') expect(icons[icon], icon).toBeDefined();
    }
  });

  it('draws every feature of a real z16 tile with some layer (every class is styled)', () => {
    const region = new Region(Pack.from(testPack('hanoi')));
    const source = createTileSource(region);
    // Around Hoàn Kiếm lake: roads of many classes, buildings, water, POIs.
    const tile = new VectorTile(new PbfReader(source.tile(16, 52037, 28852)!));
    const evaluators = style.layers
      .filter((l) => l.type !== 'background')
      .map((l) => ({ layer: l, ev: createLayerEvaluator(l) }));
    let checked = 0;
    for (const [name, layer] of Object.entries(tile.layers)) {
      for (let i = 0; i < layer.length; i++) {
        const f = layer.feature(i);
        const feature = { properties: f.properties, geometryType: f.type as 1 | 2 | 3 };
        const drawn = evaluators.some(
          ({ layer: l, ev }) => l['source-layer'] === name && ev.isVisible(16) && ev.matches(feature, 16),
        );
        expect(drawn, `${name}/${String(f.properties.class)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
    // And each road class has a casing and a fill layer matching it.
    for (const k of BASEMAP_KINDS.filter((x) => x.layer === 'road' && x.class !== 'path')) {
      const matching = evaluators.filter(
        ({ layer: l, ev }) =>
          l['source-layer'] === 'road' && l.type === 'line' && ev.matches({ properties: { class: k.class } }, 16),
      );
      expect(matching.length, k.class).toBe(2);
    }
  });
});
