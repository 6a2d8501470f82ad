import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { COORD_SCALE } from '../../pack/format.js';
import { PlaceKind } from '../../places/kinds.js';
import type { Region } from '../../region.js';
import { BASEMAP_KINDS, GeomType } from '../kinds.js';
import { KIND_MIN_ZOOM, POI_MIN_ZOOM } from './zooms.js';

/** Vector-tile layer names, in drawing order (area layers first). */
export const TILE_LAYERS = [
  'water',
  'landuse',
  'park',
  'waterway',
  'building',
  'railway',
  'road',
  'place',
  'poi',
] as const;
export type TileLayerName = (typeof TILE_LAYERS)[number];

/** Properties written into the tile for one feature: `class` always, `name` when it has one. */
type TileProperties = Record<string, string | number>;

/**
 * A region's features ready for tiling: a GeoJSON collection whose feature `id` indexes the side tables, so the
 * tiler carries no per-feature property objects and the encoder can filter by zoom without re-reading them.
 */
export interface RegionFeatures {
  collection: FeatureCollection;
  /** Per feature: index into TILE_LAYERS. */
  layer: Uint8Array;
  /** Per feature: lowest zoom at which it is written. */
  minZoom: Uint8Array;
  /** Per feature: its tile properties. */
  properties: TileProperties[];
}

const LAYER_INDEX = new Map<string, number>(TILE_LAYERS.map((l, i) => [l, i]));

/**
 * Converts a region's basemap features (roads, water, parks, landuse, buildings, railways, place names) and its
 * named POIs into GeoJSON (degrees) with their layer, class, name and minimum zoom.
 */
export function regionFeatures(region: Region): RegionFeatures {
  const features: Feature[] = [];
  const layer: number[] = [];
  const minZoom: number[] = [];
  const properties: TileProperties[] = [];
  const add = (geometry: Geometry, layerIndex: number, zoom: number, props: TileProperties) => {
    features.push({ type: 'Feature', id: features.length, properties: null, geometry });
    layer.push(layerIndex);
    minZoom.push(zoom);
    properties.push(props);
  };

  const map = region.basemap;
  if (map) {
    const point = (j: number): Position => [map.lon[j]! / COORD_SCALE, map.lat[j]! / COORD_SCALE];
    const part = (p: number, closed: boolean): Position[] => {
      const out: Position[] = [];
      for (let j = map.partFirst[p]!; j < map.partFirst[p + 1]!; j++) out.push(point(j));
      // GeoJSON rings repeat their first point; a stored ring may or may not.
      if (closed && out.length > 0) {
        const a = out[0]!,
          b = out[out.length - 1]!;
        if (a[0] !== b[0] || a[1] !== b[1]) out.push(a);
      }
      return out;
    };
    for (let f = 0; f < map.count; f++) {
      const kind = BASEMAP_KINDS[map.kind[f]!];
      const layerIndex = kind ? LAYER_INDEX.get(kind.layer) : undefined;
      if (!kind || layerIndex === undefined) continue;
      const p0 = map.featPart[f]!,
        p1 = map.featPart[f + 1]!;
      const type = map.type[f]!;
      let geometry: Geometry;
      if (type === GeomType.point) {
        geometry = { type: 'Point', coordinates: point(map.partFirst[p0]!) };
      } else if (type === GeomType.line) {
        const lines: Position[][] = [];
        for (let p = p0; p < p1; p++) lines.push(part(p, false));
        geometry =
          lines.length === 1
            ? { type: 'LineString', coordinates: lines[0]! }
            : { type: 'MultiLineString', coordinates: lines };
      } else if (type === GeomType.polygon) {
        const rings: Position[][] = [];
        for (let p = p0; p < p1; p++) rings.push(part(p, true));
        geometry = { type: 'Polygon', coordinates: rings };
      } else continue;
      const props: TileProperties = { class: kind.class };
      const name = region.strings.get(map.name[f]!);
      if (name) props.name = name;
      add(geometry, layerIndex, KIND_MIN_ZOOM[map.kind[f]!]!, props);
    }
  }

  const places = region.places;
  if (places) {
    const poiLayer = LAYER_INDEX.get('poi')!;
    for (let i = 0; i < places.count; i++) {
      if (places.kind[i] !== PlaceKind.poi) continue;
      const name = region.strings.get(places.name[i]!);
      if (!name) continue;
      const props: TileProperties = { class: 'poi', name, rank: places.importance[i]! };
      const category = region.strings.get(places.category[i]!);
      if (category) props.category = category;
      add(
        { type: 'Point', coordinates: [places.lon[i]! / COORD_SCALE, places.lat[i]! / COORD_SCALE] },
        poiLayer,
        POI_MIN_ZOOM,
        props,
      );
    }
  }

  return {
    collection: { type: 'FeatureCollection', features },
    layer: Uint8Array.from(layer),
    minZoom: Uint8Array.from(minZoom),
    properties,
  };
}
